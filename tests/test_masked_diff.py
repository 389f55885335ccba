"""torch.masked against real torch where its OpInfo samples do not reach: slices with no
element in (the identities: -inf, inf, NaN, and the zero gradients behind them), integer and
bool inputs (dtypes, torch's refusals), masks of fewer dimensions, of another dtype or of
too many, dims given twice or out of range, ``dtype=``, var/std's ``unbiased`` and
``correction``, the norm's orders."""
import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import torchlike  # noqa: E402

from .tolerance import assert_kernels_close  # noqa: E402

X = np.array([[0.5, -1.25, 2.0, 0.75],
              [1.5, 0.25, -0.5, -2.0],
              [-0.75, 1.0, 0.3, 1.75]])
# row 1 and column 2 have no element in
M = np.array([[True, False, False, True],
              [False, False, False, False],
              [True, True, False, False]])
Y = np.array([[0.1, 0.2, -0.3, 0.4], [-1.0, 2.0, 0.5, 0.0], [1.0, -1.5, 0.25, 0.6]])


def _np(t):
    if isinstance(t, torch.Tensor):
        return t.detach().numpy(force=t._is_zerotensor())
    return np.asarray(t.detach().numpy())


def _call(lib, name, x, args, kw, grad):
    conv = {}
    for k, v in kw.items():
        conv[k] = lib.tensor(v) if isinstance(v, np.ndarray) else (
            getattr(lib, v[6:]) if isinstance(v, str) and v.startswith("dtype:") else v)
    xs = [lib.tensor(a, requires_grad=grad and a.dtype.kind == "f") for a in x]
    try:
        out = getattr(lib.masked, name)(*xs, *args, **conv)
    except Exception as e:  # noqa: BLE001 - compared by kind
        return e, None
    grads = None
    if grad and out.requires_grad:
        cot = lib.tensor(np.linspace(-1.0, 1.5, out.numel()).reshape(tuple(out.shape)))
        grads = lib.autograd.grad(out, [t for t in xs if t.requires_grad], cot.to(out.dtype),
                                  allow_unused=True)
    return out, grads


def _same(name, x, args=(), grad=True, **kw):
    e, eg = _call(torch, name, x, args, kw, grad)
    g, gg = _call(torchlike, name, x, args, kw, grad)
    if isinstance(e, Exception):
        assert isinstance(g, Exception), f"torch raised {e!r}, torchlike gave {g}"
        assert type(g).__mro__[-2] is type(e).__mro__[-2] or isinstance(g, type(e)), (e, g)
        assert str(g) == str(e), (str(e), str(g))
        return
    assert not isinstance(g, Exception), f"torchlike raised {g!r}"
    assert tuple(g.shape) == tuple(e.shape)
    assert str(g.dtype) == str(e.dtype), (e.dtype, g.dtype)
    ev, gv = _np(e), _np(g)
    if ev.dtype.kind == "f":
        np.testing.assert_array_equal(np.isnan(gv), np.isnan(ev))
        fin = np.isfinite(ev)
        np.testing.assert_array_equal(gv[~fin & ~np.isnan(ev)], ev[~fin & ~np.isnan(ev)])
        assert_kernels_close(gv[fin], ev[fin])
    else:
        np.testing.assert_array_equal(gv, ev)
    assert (eg is None) == (gg is None)
    for a, b, xa in zip(gg or (), eg or (), [a for a in x if a.dtype.kind == "f"]):
        b = np.zeros_like(xa) if b is None else _np(b)
        a = np.zeros_like(xa) if a is None else _np(a)
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12, equal_nan=True,
                                   err_msg=name)


REDUCTIONS = ["sum", "prod", "amax", "amin", "mean", "logsumexp", "var", "std", "norm"]


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("dim", [None, 0, 1, (0, 1), -1])
@pytest.mark.parametrize("keepdim", [False, True])
def test_reductions_with_empty_slices(name, dim, keepdim):
    _same(name, [X], dim=dim, keepdim=keepdim, mask=M)


@pytest.mark.parametrize("name", ["softmax", "log_softmax", "softmin", "cumsum", "cumprod",
                                  "median", "argmax", "argmin"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_along_one_dim_with_empty_slices(name, dim):
    _same(name, [X], (dim,), grad=name not in ("argmax", "argmin"), mask=M)


@pytest.mark.parametrize("dim", [0, 1])
def test_normalize_and_logaddexp_with_empty_slices(dim):
    _same("normalize", [X], (2.0, dim), mask=M)
    _same("normalize", [X], (1.0, dim), eps=0.5, mask=M)
    _same("logaddexp", [X, Y], input_mask=M, other_mask=M)
    _same("logaddexp", [X, Y], input_mask=M, other_mask=~M)
    _same("logaddexp", [X, Y], input_mask=M[0])


@pytest.mark.parametrize("name", REDUCTIONS + ["argmax", "median"])
def test_broadcast_and_nonbool_masks(name):
    _same(name, [X], grad=name != "argmax", mask=M[0])
    _same(name, [X], grad=name != "argmax", mask=M[:, :1])
    _same(name, [X], grad=name != "argmax", mask=M.astype(np.int64))
    _same(name, [X], grad=name != "argmax", mask=M[None])  # more dims than the input


@pytest.mark.parametrize("ord", [2.0, 1.0, 3.0, 0.0, math.inf, -math.inf])
def test_norm_orders(ord):
    _same("norm", [X], (ord,), mask=M)
    _same("norm", [X], (ord, 1), mask=M, keepdim=True)
    _same("norm", [X], (ord, 0))


@pytest.mark.parametrize("kw", [{"unbiased": False}, {"unbiased": True}, {"correction": 0},
                                {"correction": 2}, {"correction": 1, "unbiased": True}])
@pytest.mark.parametrize("name", ["var", "std"])
def test_var_std_corrections(name, kw):
    _same(name, [X], (1,), mask=M, **kw)
    _same(name, [X], **kw)


@pytest.mark.parametrize("dt", ["int32", "int64", "bool", "uint8"])
@pytest.mark.parametrize("name", ["sum", "prod", "amax", "amin", "argmax", "argmin", "mean",
                                  "var", "std", "cumsum", "cumprod", "median"])
def test_integer_inputs(name, dt):
    a = (np.arange(12).reshape(3, 4) % 5).astype(dt)
    args = (1,) if name in ("cumsum", "cumprod", "median") else ()
    _same(name, [a], args, grad=False, mask=M)
    _same(name, [a], args, grad=False)


@pytest.mark.parametrize("name", ["sum", "prod", "amax", "mean", "logsumexp", "norm", "var"])
def test_dtype_argument(name):
    _same(name, [X], (1,) if name != "norm" else (2.0, 1), mask=M, dtype="dtype:float32")


@pytest.mark.parametrize("name", ["sum", "amax", "mean", "var", "norm", "logsumexp"])
def test_dims_refused(name):
    args = (2.0,) if name == "norm" else ()
    _same(name, [X], args + ((0, 0),), mask=M)
    _same(name, [X], args + (2,), mask=M)
    _same(name, [X], args + (-3,))
    _same("softmax", [X], (2,), mask=M)


def test_zero_dim_inputs():
    a = np.array(1.5)
    for name in REDUCTIONS:
        for m in (np.array(True), np.array(False)):
            _same(name, [a], mask=m)
            _same(name, [a], dim=0, keepdim=True, mask=m)
    for name in ("argmax", "argmin"):
        _same(name, [a], grad=False, dim=0, keepdim=True, mask=np.array(False))
    _same("cumsum", [a], (0,), mask=np.array(False))
    _same("softmax", [a], (0,), mask=np.array(False))


def test_module_surface():
    assert torchlike.masked is not None
    for name in torch.masked.__all__:
        if name not in ("MaskedTensor", "as_masked_tensor", "is_masked_tensor",
                        "masked_tensor"):
            assert callable(getattr(torchlike.masked, name)), name
    with pytest.raises(NotImplementedError, match="torch.masked.MaskedTensor"):
        torchlike.masked.MaskedTensor  # noqa: B018
