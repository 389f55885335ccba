"""The elementwise math and special-function families against real torch and paddle: values,
dtypes and gradients at the special points the frameworks define (atan2 at (0, 0), xlogy at
x = 0, sinc and i1 at 0, fmax ties, copysign at 0, logit's eps), and the torch.special names
torch's OpInfo does not sample."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import torchlike  # noqa: E402

X = np.array([-1.5, -0.5, 0.0, 0.25, 0.7, 1.0, 2.5])
Y = np.array([0.0, 1.5, 0.0, -0.5, 0.7, 0.0, 2.0])


def _pair(lib, *arrays):
    return [lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in arrays]


def _run(lib, name, arrays, kwargs=None, args=(), grads=True):
    fn = lib
    for part in name.split("."):
        fn = getattr(fn, part)
    ins = _pair(lib, *arrays)
    out = fn(*ins, *args, **(kwargs or {}))
    if not grads:
        return out, None
    return out, lib.autograd.grad(out.sum(), ins, allow_unused=True)


def _np(t):
    if t is None:
        return None
    if isinstance(t, torch.Tensor):  # (a gradient torch knows to be zero: a ZeroTensor)
        return t.detach().numpy(force=t._is_zerotensor())
    return t.detach().numpy()


def _same(name, arrays, kwargs=None, args=(), grads=True):
    e, eg = _run(torch, name, arrays, kwargs, args, grads)
    g, gg = _run(torchlike, name, arrays, kwargs, args, grads)
    np.testing.assert_allclose(_np(g), _np(e), rtol=1e-10, atol=1e-12, equal_nan=True)
    if grads:
        for a, b, x in zip(gg, eg, arrays):
            b = np.zeros_like(x) if b is None else _np(b)
            a = np.zeros_like(x) if a is None else _np(a)
            np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12, equal_nan=True,
                                       err_msg=name)


@pytest.mark.parametrize("name", ["atan2", "xlogy", "copysign", "fmax", "fmin", "hypot",
                                  "logaddexp", "logaddexp2", "nextafter"])
def test_binary_special_points(name):
    x, y = X, Y
    if name == "xlogy":
        y = np.abs(Y) + np.array([0.0, 0, 0, 0, 0, 0.5, 0])
    if name in ("fmax", "fmin"):
        y = np.array([-1.5, 1.0, 0.0, np.nan, 0.7, 3.0, 2.5])
    if name == "hypot":
        x, y = np.abs(X) + 0.1, Y
    _same(name, [x, y])


def test_fmod_gradient():
    _same("fmod", [np.array([5.0, -5.0, 2.5, -0.5]), np.array([3.0, 3.0, -1.5, 0.3])])


@pytest.mark.parametrize("name", ["sinc", "special.i1", "special.i1e", "special.i0e", "erf",
                                  "erfc", "special.ndtr", "special.log_ndtr", "exp2",
                                  "deg2rad", "rad2deg", "frac", "special.expit",
                                  "special.erfcx", "i0", "sgn", "nan_to_num"])
def test_unary_at_special_points(name):
    _same(name, [X])


@pytest.mark.parametrize("name", ["lgamma", "digamma", "special.gammaln", "special.psi",
                                  "special.entr", "erfinv", "special.ndtri"])
def test_unary_in_domain(name):
    x = np.array([0.05, 0.3, 0.5, 0.75, 0.95])
    _same(name, [x])


@pytest.mark.parametrize("n", [0, 1, 2, 4])
def test_polygamma(n):
    x = np.array([0.3, 1.0, 2.5, 7.0])
    e = torch.polygamma(n, torch.tensor(x, requires_grad=True))
    g = torchlike.polygamma(n, torchlike.tensor(x, requires_grad=True))
    np.testing.assert_allclose(_np(g), _np(e), rtol=1e-8)  # (torch's trigamma: 5e-10)
    assert torchlike.special.polygamma(n, torchlike.tensor(x)).shape == (4,)
    ex = torch.tensor(x, requires_grad=True)
    gx = torchlike.tensor(x, requires_grad=True)
    (ed,) = torch.autograd.grad(torch.polygamma(n, ex).sum(), ex)
    (gd,) = torchlike.autograd.grad(gx.polygamma(n).sum(), gx)
    np.testing.assert_allclose(_np(gd), _np(ed), rtol=1e-8)


def test_logit_eps_and_mvlgamma():
    x = np.array([0.05, 0.2, 0.5, 0.8, 0.95])
    _same("logit", [x], {"eps": 0.2})
    _same("logit", [x])
    _same("mvlgamma", [x + 2.0], {"p": 3})
    _same("special.multigammaln", [x + 2.0], {"p": 2})


def test_xlog1py_and_zeta():
    _same("special.xlog1py", [X, np.abs(Y) - 0.5])
    _same("special.zeta", [np.array([1.5, 2.0, 3.0]), np.array([0.5, 1.0, 4.0])], grads=False)


@pytest.mark.parametrize("name", ["addmm", "addmv", "addr", "baddbmm", "addbmm"])
@pytest.mark.parametrize("beta,alpha", [(1, 1), (0.5, -2.0), (0, 1.5)])
def test_fused_products(name, beta, alpha):
    rng = np.random.default_rng(0)
    shapes = {"addmm": [(2, 4), (2, 3), (3, 4)], "addmv": [(2,), (2, 3), (3,)],
              "addr": [(2, 3), (2,), (3,)], "baddbmm": [(2, 2, 4), (2, 2, 3), (2, 3, 4)],
              "addbmm": [(2, 4), (3, 2, 3), (3, 3, 4)]}[name]
    arrays = [rng.standard_normal(s) for s in shapes]
    if beta == 0:
        arrays[0][0] = np.nan  # ignored
    _same(name, arrays, {"beta": beta, "alpha": alpha})
    ins = _pair(torchlike, *arrays)
    assert getattr(torchlike, name)(*ins).grad_fn.name() == getattr(torch, name)(
        *_pair(torch, *arrays)).grad_fn.name()


def test_dtypes_of_integer_inputs():
    for name in ("erf", "lgamma", "digamma", "exp2", "sinc", "deg2rad", "i0", "atan2",
                 "logit", "special.ndtr", "special.i1"):
        args = [torch.tensor([1, 2, 3])] * (2 if name == "atan2" else 1)
        fn_t, fn_l = torch, torchlike
        for part in name.split("."):
            fn_t, fn_l = getattr(fn_t, part), getattr(fn_l, part)
        e = fn_t(*args)
        g = fn_l(*[torchlike.tensor(a.numpy()) for a in args])
        assert str(g.dtype) == str(e.dtype), name
    assert torchlike.float_power(torchlike.tensor([2]), 2).dtype == torchlike.float64
    assert torchlike.signbit(torchlike.tensor([-0.0, 1.0])).tolist() == [True, False]
    assert torchlike.isposinf(torchlike.tensor([float("inf"), 1.0])).tolist() == [True, False]


def test_missing_special_name_is_named():
    with pytest.raises(NotImplementedError, match="torch.special.no_such_function"):
        torchlike.special.no_such_function  # noqa: B018


def test_paddle_counterparts():
    paddle = pytest.importorskip("paddle")
    import paddlelike
    x = np.array([0.2, 0.5, 1.5, 3.0])
    for name, args in (("erf", ()), ("lgamma", ()), ("digamma", ()), ("i0e", ()), ("i1", ()),
                       ("gammaln", ()), ("polygamma", (2,)), ("multigammaln", (2,)),
                       ("sinc", ()), ("frac", ()), ("logit", (0.3,)), ("deg2rad", ())):
        xs = x + 1.0 if name == "multigammaln" else x / 4.0 if name == "logit" else x
        e = getattr(paddle, name)(paddle.to_tensor(xs), *args)
        g = getattr(paddlelike, name)(paddlelike.to_tensor(xs), *args)
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-6, err_msg=name)
    a, b = paddle.to_tensor([-8, 5]), paddle.to_tensor([1, 2])
    for arith in (True, False):
        e = paddle.bitwise_right_shift(a, b, arith)
        g = paddlelike.bitwise_right_shift(paddlelike.to_tensor([-8, 5]),
                                           paddlelike.to_tensor([1, 2]), arith)
        assert g.numpy().tolist() == e.numpy().tolist()
