"""Special functions: scipy.special's (cupyx.scipy.special's on GPUs), never hand-written.

The forward of each op is the function of the same purpose in the special-function module
of its input's array module (``backend.special_of``: scipy.special for numpy arrays,
cupyx.scipy.special for cupy arrays, what another backend registers for its arrays); the
derivatives are written once over the rule namespace ``np`` (engine.ops.rules), which
carries the special functions a rule needs (digamma, polygamma, i0, i1, ...) in both forms:
on bare arrays (from ``special_arrays``) and as the engine ops below (``special_tensors``).
"""
from __future__ import annotations

import math

from janusgrad.array.backend import as_array, default_float, special_of, xp_of
from janusgrad.core.mode import INFERENCE_ON, state
from janusgrad.core.tensor import Tensor, record, unrecorded
from janusgrad.ops import defop, spec
from janusgrad.ops import elementwise as E
from janusgrad.ops.elementwise import _def_unary, operands
from janusgrad.ops.math import binary_avoiding
from janusgrad.ops.rules import rule_arrays, rule_tensors
from janusgrad.ops.testing import array, binary, small_shape, unary

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_HALF_SQRT_PI = math.sqrt(math.pi) / 2.0
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2PI = math.sqrt(2.0 * math.pi)
_LOG_PI = math.log(math.pi)


def _sp(fname: str):
    """A forward: scipy.special's ``fname`` for the input's array module, in its dtype."""
    def fwd(a):
        out = getattr(special_of(a), fname)(a)
        return out if out.dtype == a.dtype else out.astype(a.dtype)
    fwd.__name__ = fname
    return fwd


def _nonzero(np, x):
    """``x`` with its zeros replaced by ones (a divisor that never divides by zero)."""
    return np.where(np.equal(x, 0.0), 1.0, x)


# ---------------------------------------------------------------- unary, differentiable
erf = _def_unary("erf", _sp("erf"),
                 lambda np, g, x: g * (np.exp(-np.square(x)) * _TWO_OVER_SQRT_PI), "x")
erfc = _def_unary("erfc", _sp("erfc"),
                  lambda np, g, x: g * (np.exp(-np.square(x)) * -_TWO_OVER_SQRT_PI), "x")
erfinv = _def_unary("erfinv", _sp("erfinv"),
                    lambda np, g, out: g * (np.exp(np.square(out)) * _HALF_SQRT_PI), "out")
erfcx = _def_unary("erfcx", _sp("erfcx"),
                   lambda np, g, x, out: g * (x * out * 2.0 - _TWO_OVER_SQRT_PI), ("x", "out"))
lgamma = _def_unary("lgamma", _sp("gammaln"), lambda np, g, x: g * np.digamma(x), "x")
digamma = _def_unary("digamma", _sp("psi"), lambda np, g, x: g * np.polygamma(1, x), "x")
i0 = _def_unary("i0", _sp("i0"), lambda np, g, x: g * np.i1(x), "x")
i0e = _def_unary("i0e", _sp("i0e"),
                 lambda np, g, x, out: g * (np.i1e(x) - np.sign(x) * out), ("x", "out"))
# i1' = i0 - i1/x and i1e' = i0e - i1e (sign(x) + 1/x): 1/2 at 0, as torch's
i1 = _def_unary("i1", _sp("i1"), lambda np, g, x, out: g * np.where(
    np.equal(x, 0.0), 0.5, np.i0(x) - out / _nonzero(np, x)), ("x", "out"))
i1e = _def_unary("i1e", _sp("i1e"), lambda np, g, x, out: g * np.where(
    np.equal(x, 0.0), 0.5, np.i0e(x) - out * (np.sign(x) + 1.0 / _nonzero(np, x))),
    ("x", "out"))
ndtr = _def_unary("ndtr", _sp("ndtr"),
                  lambda np, g, x: g * (np.exp(np.square(x) * -0.5) * _INV_SQRT_2PI), "x")
ndtri = _def_unary("ndtri", _sp("ndtri"),
                   lambda np, g, out: g * (np.exp(np.square(out) * 0.5) * _SQRT_2PI), "out")
log_ndtr = _def_unary("log_ndtr", _sp("log_ndtr"), lambda np, g, x, out: g * (
    np.exp(np.square(x) * -0.5 - out) * _INV_SQRT_2PI), ("x", "out"))
entr = _def_unary("entr", _sp("entr"), lambda np, g, x: -(g * (np.log(x) + 1.0)), "x")


# ---------------------------------------------------------------- polygamma
def _polygamma_array(n: int, a):
    """polygamma(n, a) in a's module: psi for n = 0, else (-1)^(n+1) n! zeta(n+1, a)
    (what scipy's polygamma computes, without its array-only argument handling)."""
    sp = special_of(a)
    if n == 0:
        out = sp.psi(a)
    else:
        out = sp.zeta(float(n + 1), a) * ((-1.0) ** (n + 1) * math.factorial(n))
    return out if out.dtype == a.dtype else out.astype(a.dtype)


_polygamma = defop("polygamma", fresh=True, uses=("x", "attrs"),
                   rule=lambda np, g, x, n: g * np.polygamma(n + 1, x))


def polygamma(n: int, x):
    """The n-th derivative of digamma (n = 0: digamma itself)."""
    n = int(n)
    if n == 0:
        return digamma(x)
    a = x.array
    if a.dtype.kind != "f":
        a = a.astype(default_float)
    return record(_polygamma, as_array(_polygamma_array(n, a)), (x,), (x,), n)


def mvlgamma(x, p: int):
    """The multivariate log-gamma of dimension ``p`` (a composite of lgamma)."""
    p = int(p)
    total = lgamma(x)
    for i in range(1, p):
        total = E.add(total, lgamma(E.sub(x, i * 0.5)))
    return E.add(total, p * (p - 1) * 0.25 * _LOG_PI)


# ---------------------------------------------------------------- binary: x log y, ...
def _def_special_binary(name, fname, rule, uses=("x", "y")):
    """A binary op whose forward is scipy.special's ``fname`` (a float result)."""
    opdef = defop(name, fresh=rule is not None, rule=rule, uses=uses)

    def op(x, y):
        a, b, cls = operands(x, y, True)
        like = a if isinstance(x, Tensor) else b  # an array of the computation dtype
        out = as_array(getattr(special_of(like), fname)(a, b))
        if out.dtype != like.dtype:
            out = out.astype(like.dtype)
        mode = state.mode
        if mode:
            return unrecorded(cls, out) if mode & INFERENCE_ON else cls.wrap(out)
        return record(opdef, out, (x, y), (x, y) if rule is not None else (), None, False, cls)

    op.__name__ = name
    return op


def _xlogy_x(np, g, x, y):
    # 0 where x is 0 (torch's xlogy(x != 0, y)), log y elsewhere
    return g * np.where(np.equal(x, 0.0), 0.0, np.log(y))


def _xlog1py_x(np, g, x, y):
    return g * np.log1p(y)  # (not masked at x = 0: torch's xlog1py derivative is not)


xlogy = _def_special_binary("xlogy", "xlogy",
                            (_xlogy_x, lambda np, g, x, y: g * x / y))
xlog1py = _def_special_binary("xlog1py", "xlog1py",
                              (_xlog1py_x, lambda np, g, x, y: g * x / (y + 1.0)))
zeta = _def_special_binary("zeta", "zeta", None)  # Hurwitz's zeta(x, q): no derivative


def _gammainc_y(np, g, x, y):
    # d/dy P(x, y) = y^(x-1) e^-y / Gamma(x); no derivative in x (as the frameworks)
    return g * np.exp((x - 1.0) * np.log(y) - y - np.lgamma(x))


gammainc = _def_special_binary("gammainc", "gammainc", (None, _gammainc_y))
gammaincc = _def_special_binary("gammaincc", "gammaincc",
                                (None, lambda np, g, x, y: -_gammainc_y(np, g, x, y)))


# ---------------------------------------------------------------- forward only
def _def_forward_only(name, fwd):
    """A function of the input alone whose derivative the frameworks do not define."""
    def op(x):
        a = x.array
        if a.dtype.kind != "f":
            a = a.astype(default_float)
        return type(x).wrap(as_array(fwd(a)))
    op.__name__ = name
    return op


def _spherical_j0(a):
    xp = xp_of(a)
    nz = xp.where(a == 0, 1.0, a).astype(a.dtype)
    return xp.where(a == 0, 1.0, xp.sin(nz) / nz).astype(a.dtype)


def _airy_ai(a):
    return _sp_first("airy")(a)


def _sp_first(fname):
    def fwd(a):
        out = getattr(special_of(a), fname)(a)[0]
        return out if out.dtype == a.dtype else out.astype(a.dtype)
    return fwd


bessel_j0 = _def_forward_only("bessel_j0", _sp("j0"))
bessel_j1 = _def_forward_only("bessel_j1", _sp("j1"))
bessel_y0 = _def_forward_only("bessel_y0", _sp("y0"))
bessel_y1 = _def_forward_only("bessel_y1", _sp("y1"))
modified_bessel_i0 = _def_forward_only("modified_bessel_i0", _sp("i0"))
modified_bessel_i1 = _def_forward_only("modified_bessel_i1", _sp("i1"))
modified_bessel_k0 = _def_forward_only("modified_bessel_k0", _sp("k0"))
modified_bessel_k1 = _def_forward_only("modified_bessel_k1", _sp("k1"))
scaled_modified_bessel_k0 = _def_forward_only("scaled_modified_bessel_k0", _sp("k0e"))
scaled_modified_bessel_k1 = _def_forward_only("scaled_modified_bessel_k1", _sp("k1e"))
spherical_bessel_j0 = _def_forward_only("spherical_bessel_j0", _spherical_j0)
airy_ai = _def_forward_only("airy_ai", _airy_ai)


# ---------------------------------------------------------------- rule namespaces
@rule_arrays
def special_arrays(xp) -> dict:
    """The special functions rules use, on bare arrays of module ``xp``
    (engine.ops.rules)."""
    def sp(a):
        return special_of(a)

    def lgamma_a(a):
        return sp(a).gammaln(a)

    def digamma_a(a):
        return sp(a).psi(a)

    def polygamma_a(n, a):
        return _polygamma_array(int(n), a)

    return {"lgamma": lgamma_a, "digamma": digamma_a, "polygamma": polygamma_a,
            "i0": lambda a: sp(a).i0(a), "i1": lambda a: sp(a).i1(a),
            "i0e": lambda a: sp(a).i0e(a), "i1e": lambda a: sp(a).i1e(a),
            "log1p": xp.log1p}


@rule_tensors
def special_tensors() -> dict:
    """The same names as engine ops, for the recording backward."""
    return {"lgamma": lgamma, "digamma": digamma, "polygamma": polygamma, "i0": i0,
            "i1": i1, "i0e": i0e, "i1e": i1e, "log1p": E.log1p}


# ---------------------------------------------------------------- specs
def _ref(fname):
    def ref(*arrays):
        import scipy.special as scipy_special
        return getattr(scipy_special, fname)(*arrays)
    return ref


spec("erf", erf, unary(-2.5, 2.5), ref=_ref("erf"))
spec("erfc", erfc, unary(-2.5, 2.5), ref=_ref("erfc"))
spec("erfinv", erfinv, unary(-0.9, 0.9), ref=_ref("erfinv"))
spec("erfcx", erfcx, unary(-1.5, 3.0), ref=_ref("erfcx"))
spec("lgamma", lgamma, unary(0.2, 4.0), ref=_ref("gammaln"))
spec("digamma", digamma, unary(0.3, 4.0), ref=_ref("psi"))
spec("polygamma1", lambda x: polygamma(1, x), unary(0.3, 4.0),
     ref=lambda a: _ref("polygamma")(1, a))
spec("polygamma3", lambda x: polygamma(3, x), unary(0.5, 4.0),
     ref=lambda a: _ref("polygamma")(3, a), rtol=1e-4)
spec("mvlgamma", lambda x: mvlgamma(x, 3), unary(1.2, 4.0),
     ref=lambda a: _ref("multigammaln")(a, 3))
spec("i0", i0, unary(-3.0, 3.0), ref=_ref("i0"))
spec("i0e", i0e, unary(-3.0, 3.0, avoid=(0.0,)), ref=_ref("i0e"))
spec("i1", i1, unary(-3.0, 3.0, avoid=(0.0,)), ref=_ref("i1"))
spec("i1e", i1e, unary(-3.0, 3.0, avoid=(0.0,)), ref=_ref("i1e"))
spec("ndtr", ndtr, unary(-3.0, 3.0), ref=_ref("ndtr"))
spec("ndtri", ndtri, unary(0.05, 0.95), ref=_ref("ndtri"))
spec("log_ndtr", log_ndtr, unary(-3.0, 3.0), ref=_ref("log_ndtr"))
spec("entr", entr, unary(0.1, 3.0), ref=_ref("entr"))
spec("xlogy", xlogy, binary_avoiding(-2.0, 2.0, 0.2, 3.0, avoid=(0.0,)), ref=_ref("xlogy"))
spec("xlog1py", xlog1py, binary_avoiding(-2.0, 2.0, -0.7, 3.0, avoid=(0.0,)),
     ref=_ref("xlog1py"))
spec("zeta", zeta, binary(1.5, 4.0, 0.5, 3.0), ref=_ref("zeta"), differentiable=False)
spec("gammainc", gammainc, binary(0.5, 3.0, 0.3, 3.0), ref=_ref("gammainc"), grad_args=(1,))
spec("gammaincc", gammaincc, binary(0.5, 3.0, 0.3, 3.0), ref=_ref("gammaincc"),
     grad_args=(1,))


def _make_point(draw, st, hnp):
    return [array(draw, st, hnp, small_shape(draw, hnp), 0.3, 4.0)], {}


for _name, _fn, _ref_name in (
        ("bessel_j0", bessel_j0, "j0"), ("bessel_j1", bessel_j1, "j1"),
        ("bessel_y0", bessel_y0, "y0"), ("bessel_y1", bessel_y1, "y1"),
        ("modified_bessel_i0", modified_bessel_i0, "i0"),
        ("modified_bessel_i1", modified_bessel_i1, "i1"),
        ("modified_bessel_k0", modified_bessel_k0, "k0"),
        ("modified_bessel_k1", modified_bessel_k1, "k1"),
        ("scaled_modified_bessel_k0", scaled_modified_bessel_k0, "k0e"),
        ("scaled_modified_bessel_k1", scaled_modified_bessel_k1, "k1e")):
    spec(_name, _fn, _make_point, ref=_ref(_ref_name), differentiable=False)
spec("spherical_bessel_j0", spherical_bessel_j0, _make_point,
     ref=lambda a: _ref("spherical_jn")(0, a), differentiable=False)
spec("airy_ai", airy_ai, _make_point, ref=lambda a: _ref("airy")(a)[0], differentiable=False)


