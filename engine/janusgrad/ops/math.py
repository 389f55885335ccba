"""Elementwise math beyond arithmetic: atan2, hypot, logaddexp, fmod, copysign, fmax ...,
the small unary functions (exp2, sinc, frac, logit, nan_to_num ...) and the fused
``beta * input + alpha * product`` family (addmm, addmv, addr, baddbmm, addbmm).

Derivatives match the frameworks' at their special points: atan2's is 0 at (0, 0),
copysign's 0 at x = 0, sinc's 0 at 0, fmax/fmin give a tie to the first input.
"""
from __future__ import annotations

import math

from janusgrad.array.backend import as_array, default_float, float64, host, xp_of
from janusgrad.core.tensor import record
from janusgrad.ops import defop, spec
from janusgrad.ops import elementwise as E
from janusgrad.ops import reduce as R
from janusgrad.ops.elementwise import _both, _def_binary, _def_unary, _none, _zero, refuse_int_zero
from janusgrad.ops.linalg import matmul
from janusgrad.ops.rules import rule_arrays, rule_tensors
from janusgrad.ops.shape import reshape
from janusgrad.ops.testing import array, binary, unary

_LN2 = 0.6931471805599453
_DEG = math.pi / 180.0


def _safe_reciprocal(np, d):
    """1/d, and 0 where d is 0."""
    zero = np.equal(d, 0.0)
    return np.where(zero, 0.0, 1.0 / np.where(zero, 1.0, d))


# ---------------------------------------------------------------- binary, differentiable
def _atan2_x(np, g, x, y):
    return g * (y * _safe_reciprocal(np, x * x + y * y))


def _atan2_y(np, g, x, y):
    return -(g * (x * _safe_reciprocal(np, x * x + y * y)))


_atan2 = defop("atan2", fresh=True, uses=("x", "y"), rule=(_atan2_x, _atan2_y))
atan2 = _def_binary(_atan2, "arctan2", _both, float_result=True)
_hypot = defop("hypot", fresh=True, uses=("x", "y", "out"), rule=(
    lambda np, g, x, y, out: g * x / out, lambda np, g, x, y, out: g * y / out))
hypot = _def_binary(_hypot, "hypot", _both, float_result=True, save_out=True)
_logaddexp = defop("logaddexp", fresh=True, uses=("x", "y", "out"), rule=(
    lambda np, g, x, y, out: g * np.exp(x - out), lambda np, g, x, y, out: g * np.exp(y - out)))
logaddexp = _def_binary(_logaddexp, "logaddexp", _both, float_result=True, save_out=True)
_logaddexp2 = defop("logaddexp2", fresh=True, uses=("x", "y", "out"), rule=(
    lambda np, g, x, y, out: g * np.exp((x - out) * _LN2),
    lambda np, g, x, y, out: g * np.exp((y - out) * _LN2)))
logaddexp2 = _def_binary(_logaddexp2, "logaddexp2", _both, float_result=True, save_out=True)
# fmod(x, y) = x - trunc(x / y) y: d/dy = -trunc(x / y) = -(x - out) / y
_fmod = defop("fmod", fresh=True, uses=("x", "y", "out"), rule=(
    lambda np, g, x, y, out: g * 1.0, lambda np, g, x, y, out: -(g * ((x - out) / y))))
fmod = refuse_int_zero(_def_binary(_fmod, "fmod", _both, save_out=True), "fmod")
# |x| with y's sign: the gradient is sign(x) sign(out) (0 at x = 0); none reaches y
_copysign = defop("copysign", fresh=True, uses=("x", "y", "out"), rule=(
    lambda np, g, x, y, out: g * (np.sign(x) * np.sign(out)),
    lambda np, g, x, y, out: g * 0.0))
copysign = _def_binary(_copysign, "copysign", _both, float_result=True, save_out=True)


def _fmax_first(np, x, y):
    """Where fmax takes x: x >= y, or y is NaN."""
    return np.where(np.equal(y, y), np.greater_equal(x, y), True)


def _fmin_first(np, x, y):
    return np.where(np.equal(y, y), np.less_equal(x, y), True)


_fmax = defop("fmax", fresh=True, uses=("x", "y"), rule=(
    lambda np, g, x, y: np.where(_fmax_first(np, x, y), g, 0.0),
    lambda np, g, x, y: np.where(_fmax_first(np, x, y), 0.0, g)))
_fmin = defop("fmin", fresh=True, uses=("x", "y"), rule=(
    lambda np, g, x, y: np.where(_fmin_first(np, x, y), g, 0.0),
    lambda np, g, x, y: np.where(_fmin_first(np, x, y), 0.0, g)))
fmax = _def_binary(_fmax, "fmax", _both)
fmin = _def_binary(_fmin, "fmin", _both)

# ---------------------------------------------------------------- binary, not differentiable
# the next float after x towards y: the gradient passes to x where x != y (as torch's)
_nextafter = defop("nextafter", fresh=True, uses=("x", "y"), rule=(
    lambda np, g, x, y: np.where(np.equal(x, y), 0.0, g), lambda np, g, x, y: g * 0.0))
nextafter = _def_binary(_nextafter, "nextafter", _both, float_result=True)
heaviside = _def_binary(defop("heaviside", None), "heaviside", _none)
gcd = _def_binary(defop("gcd", None), "gcd", _none)
lcm = _def_binary(defop("lcm", None), "lcm", _none)
left_shift = _def_binary(defop("left_shift", None), "left_shift", _none)
right_shift = _def_binary(defop("right_shift", None), "right_shift", _none)


def logical_right_shift(x, y):
    """x >> y with zeros shifted in: x's bits read as an unsigned integer of its width."""
    a = x.array
    xp = xp_of(a)
    u = xp.dtype(f"uint{a.dtype.itemsize * 8}")
    b = y.array if hasattr(y, "array") else y
    b = b.astype(u) if hasattr(b, "astype") else b
    return type(x).wrap(as_array(xp.right_shift(a.view(u), b).view(a.dtype)))


def float_power(x, y):
    """x ** y in float64 (a composite of pow)."""
    x = E.cast(x, float64) if hasattr(x, "array") else float(x)
    y = E.cast(y, float64) if hasattr(y, "array") else float(y)
    return E.pow(x, y)


def ldexp(x, y):
    """x * 2 ** y (a composite)."""
    return E.mul(x, E.pow(2.0, y) if hasattr(y, "array") else 2.0 ** y)


# ---------------------------------------------------------------- unary
exp2 = _def_unary("exp2", "exp2", lambda np, g, out: g * (out * _LN2), "out")
deg2rad = _def_unary("deg2rad", "deg2rad", lambda np, g: g * _DEG)
rad2deg = _def_unary("rad2deg", "rad2deg", lambda np, g: g * (1.0 / _DEG))


def _sinc_rule(np, g, x, out):
    # (cos(pi x) - sinc(x)) / x, 0 at x = 0
    return g * ((np.cos(x * math.pi) - out) * _safe_reciprocal(np, x))


sinc = _def_unary("sinc", "sinc", _sinc_rule, ("x", "out"))


def _frac_fwd(a):
    return a - xp_of(a).trunc(a)


frac = _def_unary("frac", _frac_fwd, lambda np, g: g * 1.0, float_only=False)


def _angle_fwd(a):
    # the angle of a real number: pi below 0, 0 from 0 up, NaN stays NaN
    xp = xp_of(a)
    return xp.where(a < 0, math.pi, xp.where(a == a, 0.0, a)).astype(a.dtype)


angle = _def_unary("angle", _angle_fwd, _zero)


def _logit_rule(np, g, x, eps):
    d = g / (x * (1.0 - x))
    if eps is None:
        return d
    inside = np.logical_and(np.greater_equal(x, eps), np.less_equal(x, 1.0 - eps))
    return np.where(inside, d, 0.0)


_logit = defop("logit", fresh=True, uses=("x", "attrs"), rule=_logit_rule)


def logit(x, eps=None):
    """log(z / (1 - z)) of z = x clamped to [eps, 1 - eps] (no clamp without eps)."""
    a = x.array
    if a.dtype.kind != "f":
        a = a.astype(default_float)
    xp = xp_of(a)
    z = a if eps is None else xp.clip(a, eps, 1.0 - eps)
    out = xp.log(z / (1.0 - z)).astype(a.dtype, copy=False)
    return record(_logit, as_array(out), (x,), (x,), None if eps is None else float(eps))


_nan_to_num = defop("nan_to_num", fresh=True, uses="x",
                    rule=lambda np, g, x: np.where(np.isfinite(x), g, 0.0))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """NaN, +inf and -inf replaced (by default: 0 and the dtype's largest and lowest)."""
    a = x.array
    if a.dtype.kind != "f":
        return x
    out = xp_of(a).nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf)
    return record(_nan_to_num, as_array(out), (x,), (x,))


def positive(x):
    """x itself (+x; also conj, real, resolve_conj and resolve_neg of a real tensor)."""
    return x


def signbit(x):
    return type(x).wrap(as_array(xp_of(x.array).signbit(x.array)))


def isposinf(x):
    a = x.array
    return type(x).wrap(as_array(xp_of(a).isinf(a) & (a > 0)))


def isneginf(x):
    a = x.array
    return type(x).wrap(as_array(xp_of(a).isinf(a) & (a < 0)))


def isreal(x):
    """True everywhere: the engine's tensors are real."""
    a = x.array
    return type(x).wrap(xp_of(a).ones(a.shape, dtype=bool))


# ---------------------------------------------------------------- beta * input + alpha * product
def _fused(x, product, beta, alpha):
    """beta * x + alpha * product; x is ignored where beta is 0 (its NaN too)."""
    p = product if alpha == 1 else E.mul(product, alpha)
    if beta == 0:
        return p
    return E.add(x if beta == 1 else E.mul(x, beta), p)


def addmm(x, mat1, mat2, beta=1, alpha=1):
    return _fused(x, matmul(mat1, mat2), beta, alpha)


def addmv(x, mat, vec, beta=1, alpha=1):
    return _fused(x, matmul(mat, vec), beta, alpha)


def addr(x, vec1, vec2, beta=1, alpha=1):
    return _fused(x, E.mul(reshape(vec1, (-1, 1)), vec2), beta, alpha)


def baddbmm(x, batch1, batch2, beta=1, alpha=1):
    return _fused(x, matmul(batch1, batch2), beta, alpha)


def addbmm(x, batch1, batch2, beta=1, alpha=1):
    return _fused(x, R.sum(matmul(batch1, batch2), 0), beta, alpha)


# ---------------------------------------------------------------- rule namespaces
@rule_arrays
def math_arrays(xp) -> dict:
    """The names this family's rules use besides numpy's usual ones, on arrays."""
    return {"isfinite": xp.isfinite}


@rule_tensors
def math_tensors() -> dict:
    return {"isfinite": E.isfinite}


# ---------------------------------------------------------------- specs
def binary_avoiding(lo=-2.0, hi=2.0, lo2=None, hi2=None, avoid=(), avoid2=()):
    """``testing.binary``'s two broadcastable arrays, each kept 0.05 from its points."""
    def make(draw, st, hnp):
        shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3))
        a = array(draw, st, hnp, shapes.input_shapes[0], lo, hi, avoid)
        b = array(draw, st, hnp, shapes.input_shapes[1], lo if lo2 is None else lo2,
                  hi if hi2 is None else hi2, avoid2)
        return [a, b], {}
    return make


spec("atan2", atan2, binary_avoiding(avoid=(0.0,)), ref=host.arctan2)
spec("hypot", hypot, binary(0.2, 2.0), ref=host.hypot)
spec("logaddexp", logaddexp, binary(), ref=host.logaddexp)
spec("logaddexp2", logaddexp2, binary(), ref=host.logaddexp2)
spec("fmod", fmod, binary(1.4, 2.1, 1.1, 1.3), ref=host.fmod)
spec("fmod_negative", fmod, binary(-2.1, -1.4, 1.1, 1.3), ref=host.fmod)
spec("copysign", copysign, binary_avoiding(avoid=(0.0,), avoid2=(0.0,)), ref=host.copysign)
spec("fmax", fmax, binary(apart=0.05), ref=host.fmax)
spec("fmin", fmin, binary(apart=0.05), ref=host.fmin)
spec("nextafter", nextafter, binary(apart=0.05), ref=host.nextafter, second_order=False)
spec("heaviside", heaviside, binary(), ref=host.heaviside, differentiable=False)
spec("float_power", float_power, binary(0.5, 2.0, -2.0, 2.0), ref=host.float_power)
spec("ldexp", lambda x: ldexp(x, 3), unary(), ref=lambda a: host.ldexp(a, 3))
spec("exp2", exp2, unary(), ref=host.exp2)
spec("deg2rad", deg2rad, unary(), ref=host.deg2rad)
spec("rad2deg", rad2deg, unary(), ref=host.rad2deg)
spec("sinc", sinc, unary(avoid=(0.0,)), ref=host.sinc)
spec("frac", frac, unary(avoid=(-2.0, -1.0, 0.0, 1.0, 2.0)), ref=lambda a: a - host.trunc(a))
spec("angle", angle, unary(avoid=(0.0,)), ref=lambda a: host.angle(a))
spec("logit", logit, unary(0.1, 0.9), ref=lambda a: host.log(a / (1 - a)))
spec("logit_eps", lambda x: logit(x, 0.2), unary(0.05, 0.95, avoid=(0.2, 0.8)),
     ref=lambda a: host.log(host.clip(a, 0.2, 0.8) / (1 - host.clip(a, 0.2, 0.8))))
spec("nan_to_num", nan_to_num, unary(), ref=host.nan_to_num)


def _make_mm(shapes):
    def make(draw, st, hnp):
        return [array(draw, st, hnp, s) for s in shapes], {}
    return make


def _make_scaled(shapes):
    def make(draw, st, hnp):
        arrays, _ = _make_mm(shapes)(draw, st, hnp)
        return arrays, {"beta": 0.5, "alpha": -1.5}
    return make


spec("addmm", addmm, _make_scaled([(2, 4), (2, 3), (3, 4)]),
     ref=lambda x, a, b, beta, alpha: beta * x + alpha * (a @ b))
spec("addmm_broadcast", addmm, _make_mm([(4,), (2, 3), (3, 4)]), ref=lambda x, a, b: x + a @ b)
spec("addmv", addmv, _make_scaled([(2,), (2, 3), (3,)]),
     ref=lambda x, a, b, beta, alpha: beta * x + alpha * (a @ b))
spec("addr", addr, _make_scaled([(2, 3), (2,), (3,)]),
     ref=lambda x, a, b, beta, alpha: beta * x + alpha * host.outer(a, b))
spec("baddbmm", baddbmm, _make_scaled([(2, 2, 4), (2, 2, 3), (2, 3, 4)]),
     ref=lambda x, a, b, beta, alpha: beta * x + alpha * (a @ b))
spec("addbmm", addbmm, _make_scaled([(2, 4), (3, 2, 3), (3, 3, 4)]),
     ref=lambda x, a, b, beta, alpha: beta * x + alpha * (a @ b).sum(0))
spec("addmm_beta0", lambda x, a, b: addmm(x, a, b, beta=0), _make_mm([(2, 4), (2, 3), (3, 4)]),
     ref=lambda x, a, b: a @ b, grad_args=(1, 2))


