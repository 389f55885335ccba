"""Checkpoints cross with real paddle 3.3: ``.pdparams`` + ``.pdopt`` written by one framework
resume training in the other to the same loss.

The optimizer's keys carry the parameters' names (``conv2d_0.w_0_moment1_0``), which come
from paddle's per-scope unique-name counters; each side builds its model and takes its steps
inside ``unique_name.guard()`` so both count from 0, as a fresh process does.
"""
import numpy as np
import pytest

import paddlelike

from .tolerance import assert_kernels_close

paddle = pytest.importorskip("paddle")

_RNG = np.random.default_rng(7)
_IMG = _RNG.standard_normal((2, 1, 5, 5)).astype("float32")
_IDS = np.array([[1, 2, 3], [0, 4, 2]], dtype="int64")


def _net(m):
    """Conv2D, BatchNorm2D, Embedding, LSTM and Linear in one model of framework ``m``."""
    class Net(m.nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = m.nn.Conv2D(1, 2, 3)
            self.bn = m.nn.BatchNorm2D(2)
            self.emb = m.nn.Embedding(5, 3)
            self.lstm = m.nn.LSTM(3, 4)
            self.fc = m.nn.Linear(6, 1)

        def forward(self, img, ids):
            a = self.bn(self.conv(img)).mean(axis=[2, 3])
            out, _ = self.lstm(self.emb(ids))
            return self.fc(m.concat([a, out[:, -1]], axis=1))
    return Net()


_OPTS = {
    "adam": lambda m, ps: m.optimizer.Adam(learning_rate=0.05, parameters=ps),
    "adam_sched": lambda m, ps: m.optimizer.Adam(
        learning_rate=m.optimizer.lr.StepDecay(0.05, step_size=1, gamma=0.5), parameters=ps),
    "momentum": lambda m, ps: m.optimizer.Momentum(learning_rate=0.05, momentum=0.9,
                                                  parameters=ps),
}


def _step(m, net, opt) -> float:
    loss = net(m.to_tensor(_IMG), m.to_tensor(_IDS)).square().mean()
    loss.backward()
    opt.step()
    opt.clear_grad()
    if isinstance(opt._learning_rate, m.optimizer.lr.LRScheduler):
        opt._learning_rate.step()
    return float(loss.numpy())


def _fresh(m, kind):
    net = _net(m)
    for p in net.parameters():  # the same start in both frameworks
        p.set_value(np.random.default_rng(len(p.name) + p.size).standard_normal(p.shape)
                    .astype("float32") * 0.5)
    return net, _OPTS[kind](m, net.parameters())


@pytest.mark.parametrize("kind", sorted(_OPTS))
@pytest.mark.parametrize("src,dst", [(paddle, paddlelike), (paddlelike, paddle)],
                         ids=["paddle_to_ours", "ours_to_paddle"])
def test_checkpoint_resumes_across_frameworks(tmp_path, src, dst, kind):
    with src.utils.unique_name.guard():
        a, opt_a = _fresh(src, kind)
        for _ in range(2):
            _step(src, a, opt_a)
        src.save(a.state_dict(), str(tmp_path / "m.pdparams"))
        src.save(opt_a.state_dict(), str(tmp_path / "m.pdopt"))
        want = [_step(src, a, opt_a) for _ in range(2)]
        names_a = [p.name for p in a.parameters()]
        keys_a = (list(a.state_dict()), list(opt_a.state_dict()))
    with dst.utils.unique_name.guard():
        b, opt_b = _fresh(dst, kind)
        model_sd = dst.load(str(tmp_path / "m.pdparams"))
        opt_sd = dst.load(str(tmp_path / "m.pdopt"))
        assert b.set_state_dict(model_sd) == ([], [])
        opt_b.set_state_dict(opt_sd)
        got = [_step(dst, b, opt_b) for _ in range(2)]
        assert [p.name for p in b.parameters()] == names_a
        assert (list(b.state_dict()), list(opt_b.state_dict())) == keys_a
        assert list(opt_sd) == keys_a[1]
    # two kernels through a conv, an LSTM and two updates: rounding grows with the depth
    assert_kernels_close(got, want, n=64, dtype="float32")


def test_optimizer_keys_as_paddle_writes_them():
    """Adam writes moment1/moment2/beta1_pow_acc/beta2_pow_acc (no master weights for float32
    parameters), Momentum only velocity, and a scheduler's state under ``LR_Scheduler``."""
    def keys(m, kind):
        with m.utils.unique_name.guard():
            net, opt = _fresh(m, kind)
            _step(m, net, opt)
            sd = opt.state_dict()
            return {k: (v if k == "LR_Scheduler" else list(v.shape)) for k, v in sd.items()}
    for kind in _OPTS:
        assert keys(paddlelike, kind) == keys(paddle, kind), kind


# paddle's RNNCellBase is an abstract base built with no arguments; ours builds the weights
# its cells share (a constructor difference, not a naming one)
_CONSTRUCTORS_DIFFER = {"RNNCellBase"}


def _layer_classes():
    return sorted(n for n in dir(paddlelike.nn)
                  if isinstance(getattr(paddlelike.nn, n), type)
                  and issubclass(getattr(paddlelike.nn, n), paddlelike.nn.Layer))


def _build(m, name):
    """The layer ``name`` of ``m`` from the first simple argument list it takes, with its full
    name and its state's (key, parameter name) pairs; None if it takes none."""
    cls = getattr(m.nn, name)
    for args in ((), (4,), (4, 4), (4, 4, 3)):
        try:
            with m.utils.unique_name.guard():
                layer = cls(*args)
                return args, layer.full_name(), [(k, v.name)
                                                 for k, v in layer.state_dict().items()]
        except Exception:  # noqa: BLE001 - the next argument list
            continue
    return None


def test_layer_and_parameter_names_match_paddle():
    """Every layer class both export, built with simple arguments: the same name scope
    (``Conv2D`` -> ``conv2d``, ``BatchNorm2D`` -> ``batch_norm2d``, ``PReLU`` -> ``p_re_lu``)
    and the same parameter names."""
    compared = []
    for name in _layer_classes():
        if name in _CONSTRUCTORS_DIFFER or not isinstance(getattr(paddle.nn, name, None), type):
            continue
        real = _build(paddle, name)
        if real is None:
            continue
        ours = _build(paddlelike, name)
        assert ours is not None and ours[0] == real[0], (name, ours, real)
        assert ours == real, name
        compared.append(name)
    assert {"Conv2D", "BatchNorm2D", "LSTM", "Embedding", "Linear",
            "Conv1DTranspose"} <= set(compared)
    assert len(compared) > 80
