"""Random cross-entropy configurations (shapes, class axis, reductions, weights,
ignore_index, soft labels, smoothing, use_softmax) against real paddle 3.3.1."""
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import paddlelike

paddle = pytest.importorskip("paddle")


@st.composite
def _configs(draw):
    n = draw(st.integers(1, 4))
    c = draw(st.integers(2, 5))
    three_d = draw(st.booleans())
    shape = [n, c, 3] if three_d else [n, c]
    axis = 1 if three_d else draw(st.sampled_from([-1, 1]))
    if three_d:
        shape_last = [n, 3, c]
        axis = draw(st.sampled_from([1, -1]))
        if axis == -1:
            shape = shape_last
    seed = draw(st.integers(0, 2 ** 16))
    soft = draw(st.booleans())
    smoothing = draw(st.sampled_from([0.0, 0.0, 0.15]))
    if smoothing and (three_d and axis != -1):
        smoothing = 0.0  # paddle one-hots over the last axis only
    return {
        "shape": shape, "axis": axis, "seed": seed, "soft": soft,
        "reduction": draw(st.sampled_from(["mean", "sum", "none"])),
        "weighted": draw(st.booleans()),
        "ignore": draw(st.sampled_from([-100, 0, 1])) if not soft else -100,
        "keep_axis": draw(st.booleans()),
        "smoothing": smoothing,
        "use_softmax": draw(st.sampled_from([True, True, False])),
    }


def _case(cfg):
    rng = np.random.default_rng(cfg["seed"])
    shape, axis = cfg["shape"], cfg["axis"]
    c = shape[axis]
    x = rng.standard_normal(shape).astype("float32")
    if not cfg["use_softmax"]:
        x = (np.abs(x) + 0.1).astype("float32")
    if cfg["soft"]:
        lab = np.abs(rng.standard_normal(shape)).astype("float32") + 0.05
        lab = (lab / lab.sum(axis, keepdims=True)).astype("float32")
    else:
        lab_shape = [d for i, d in enumerate(shape) if i != axis % len(shape)]
        lab = rng.integers(0, c, lab_shape).astype("int64")
        if cfg["keep_axis"]:
            lab = np.expand_dims(lab, axis)
    weight = rng.uniform(0.5, 2.0, c).astype("float32") if cfg["weighted"] else None
    return x, lab, weight


def _run(m, cfg):
    x, lab, weight = _case(cfg)
    xt = m.to_tensor(x, stop_gradient=False)
    try:
        out = m.nn.functional.cross_entropy(
            xt, m.to_tensor(lab), weight=None if weight is None else m.to_tensor(weight),
            ignore_index=cfg["ignore"], reduction=cfg["reduction"], soft_label=cfg["soft"],
            axis=cfg["axis"], use_softmax=cfg["use_softmax"],
            label_smoothing=cfg["smoothing"])
        out.sum().backward()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)
    return out.numpy(), list(out.shape), xt.grad.numpy()


@given(_configs())
def test_cross_entropy_configurations(cfg):
    a, b = _run(paddle, cfg), _run(paddlelike, cfg)
    if isinstance(a[0], str) or isinstance(b[0], str):
        assert a == b
        return
    assert a[1] == b[1]
    np.testing.assert_allclose(a[0], b[0], rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(a[2], b[2], rtol=2e-5, atol=2e-5)


@st.composite
def _nll_configs(draw):
    return {"n": draw(st.integers(1, 4)), "c": draw(st.integers(2, 5)),
            "extra": draw(st.lists(st.integers(1, 3), max_size=2)),
            "seed": draw(st.integers(0, 2 ** 16)),
            "reduction": draw(st.sampled_from(["mean", "sum", "none"])),
            "weighted": draw(st.booleans()),
            "ignore": draw(st.sampled_from([-100, 0, 1]))}


def _run_nll(m, cfg):
    rng = np.random.default_rng(cfg["seed"])
    shape = [cfg["n"], cfg["c"], *cfg["extra"]]
    x = rng.standard_normal(shape).astype("float32")
    lab = rng.integers(0, cfg["c"], [cfg["n"], *cfg["extra"]]).astype("int64")
    w = rng.uniform(0.5, 2.0, cfg["c"]).astype("float32") if cfg["weighted"] else None
    xt = m.to_tensor(x, stop_gradient=False)
    try:
        out = m.nn.functional.nll_loss(m.nn.functional.log_softmax(xt, 1), m.to_tensor(lab),
                                       weight=None if w is None else m.to_tensor(w),
                                       ignore_index=cfg["ignore"],
                                       reduction=cfg["reduction"])
        out.sum().backward()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)
    return out.numpy(), list(out.shape), xt.grad.numpy()


@given(_nll_configs())
def test_nll_loss_configurations(cfg):
    # real paddle 3.3.1 corrupts its heap (free(): invalid next size, then hangs or aborts)
    # in NLL over [N, C, d...] inputs with an in-range ignore_index, so those are left out
    assume(not (cfg["extra"] and cfg["ignore"] >= 0))
    a, b = _run_nll(paddle, cfg), _run_nll(paddlelike, cfg)
    if isinstance(a[0], str) or isinstance(b[0], str):
        assert a == b
        return
    assert a[1] == b[1]
    np.testing.assert_allclose(a[0], b[0], rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(a[2], b[2], rtol=2e-5, atol=2e-5)
