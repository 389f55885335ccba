"""Elementwise ops: arithmetic, math functions, comparisons, logic, casts.

Binary ops accept Tensors and Python/numpy scalars; the result dtype follows
janusgrad.array.dtypes.  Rules return gradients of the output's shape: the scheduler
sums them back to each input's shape and casts them to its dtype.
"""
from __future__ import annotations

import math

from janusgrad.array.backend import (
    ARRAY_TYPES,
    MODULES,
    TRACED,
    as_array,
    default_float,
    device_of,
    float32,
    float64,
    from_host,
    host,
    is_array,
    ndarray,
    quiet,
    xp_of,
)
from janusgrad.array.dtypes import DIM, SCALAR, ZERO_DIM, PromotionError, result_type, scalar_dtype
from janusgrad.core.mode import INFERENCE_ON, state
from janusgrad.core.tensor import Tensor, record, unrecorded
from janusgrad.ops import OpDef, check_same_device, defop, spec
from janusgrad.ops.rules import CONSTS, rule_arrays, rule_tensors
from janusgrad.ops.rules import const as _const
from janusgrad.ops.testing import binary, unary

as_out = as_array  # numpy returns scalars for 0-d operands; keep everything an array


def _rank(a) -> int:
    return DIM if a.ndim else ZERO_DIM


# How a dialect with strict promotion (paddle) treats a 0-d tensor operand, by op family
# (mapped against real paddle 3.3, tests/test_promotion_paddle.py):
# - ZERO_DIM_AS_SCALAR (+ - * / ** %, comparisons): the refusal applies only when both
#   operands have dimensions; a 0-d tensor ranks as torch's zero-dim operands do (the
#   dimensioned operand's dtype wins within a category, a higher category brings its own);
# - ZERO_DIM_PROMOTES (//): refused only when both have dimensions, else plain promotion;
# - STRICT (maximum, minimum, where, atan2, matmul ...): refused whatever the ranks, and
#   two float dtypes give the wider one.
# A non-strict dialect (torch) ranks 0-d tensors as zero-dim operands in every op.
ZERO_DIM_AS_SCALAR, ZERO_DIM_PROMOTES, STRICT = 0, 1, 2


def _pair_dtype(strict, family, da, ra, db, rb):
    if not strict:
        return result_type(((da, ra), (db, rb)))
    refuse = family == STRICT or (ra == DIM and rb == DIM)
    if family != ZERO_DIM_AS_SCALAR:
        ra = rb = DIM
    return result_type(((da, ra), (db, rb)), refuse)


def operands(x, y, float_result: bool = False, family: int = STRICT):
    """Raw operands of a binary op, cast to the computation dtype, and the tensor class;
    ``family``: how a strict dialect promotes a 0-d tensor here (above)."""
    tx, ty = isinstance(x, Tensor), isinstance(y, Tensor)
    cls = type(x) if tx else type(y)
    if tx or ty:
        _TENSOR_TYPES.add(cls)
    a = x.array if tx else x
    b = y.array if ty else y
    if tx and ty:
        da, db = a.dtype, b.dtype
        if da == db:
            dt = da
        else:
            try:
                dt = _pair_dtype(cls.dialect.strict_promotion and not state.rules, family,
                                 da, _rank(a), db, _rank(b))
            except PromotionError as e:
                raise cls.dialect.promotion(*e.dtypes) from None
    elif tx:
        dt = result_type(((a.dtype, _rank(a)), (scalar_dtype(b), SCALAR)))
    else:
        dt = result_type(((scalar_dtype(a), SCALAR), (b.dtype, _rank(b))))
    if float_result and dt.kind != "f":
        dt = default_float
    if tx and a.dtype != dt:
        a = a.astype(dt)
    elif not tx and dt.kind == "f" and type(a) is not float:
        a = float(a)
    if ty and b.dtype != dt:
        b = b.astype(dt)
    elif not ty and dt.kind == "f" and type(b) is not float:
        b = float(b)
    return a, b, cls


def broadcast_failure(cls, a, b):
    sa, sb = getattr(a, "shape", ()), getattr(b, "shape", ())
    n = max(len(sa), len(sb))
    pa, pb = (1,) * (n - len(sa)) + tuple(sa), (1,) * (n - len(sb)) + tuple(sb)
    dim = next(i for i in range(n - 1, -1, -1) if pa[i] != pb[i] and 1 not in (pa[i], pb[i]))
    return cls.dialect.broadcast(sa, sb, dim)


# Tensor classes seen so far: a set lookup on type(x) is cheaper than isinstance chains.
_TENSOR_TYPES: set = set()
# Python floats as ready 0-d arrays of the tensor's float dtype (engine.ops.rules)
_CONSTS = CONSTS


def kernel(name: str):
    """``name``'s function in the array module of the first operand that is an array,
    looked up once per array type (numpy's ufunc for numpy arrays, cupy's for cupy's)."""
    found: dict = {}

    def of(a, b=None):
        t = type(a)
        if b is not None and t not in ARRAY_TYPES and type(b) in ARRAY_TYPES:
            t = type(b)  # a Python or numpy scalar with an array: the array's module
        f = found.get(t)
        if f is None:
            f = found[t] = getattr(MODULES[t], name)
        return f
    return of


def _binary(opdef, find, x, y, saved, float_result=False, save_out=False, family=STRICT):
    """The general path of a binary op (any operand types, promotion, errors)."""
    a, b, cls = operands(x, y, float_result, family)
    try:
        out = find(a, b)(a, b)
    except ValueError:
        raise broadcast_failure(cls, a, b) from None
    except TypeError:
        a, b = _host_scalar_joins(cls, opdef.name, a, b)
        out = find(a, b)(a, b)
    if save_out is not False and save_out is not True:
        save_out = save_out(x, y)
    return record(opdef, as_array(out), (x, y), saved(x, y), None, save_out, cls)


def _host_scalar_joins(cls, op, a, b):
    """Operands refused by the kernel: a 0-d host array may join a device array where
    the frontend allows it (torch); any other mix of devices is the dialect's error."""
    if cls.dialect.host_scalars_join_devices and is_array(a) and is_array(b):
        da, db = device_of(a), device_of(b)
        if da.kind == "cpu" and a.ndim == 0 and db.kind != "cpu":
            return from_host(a, db), b
        if db.kind == "cpu" and b.ndim == 0 and da.kind != "cpu":
            return a, from_host(b, da)
    check_same_device(cls, op, a, b)
    raise TypeError(f"{op}: unsupported operand types {type(a).__name__} and "
                    f"{type(b).__name__}")


# numpy >= 2.3 returns an array, not a scalar, for a 0-d result when given out=...
try:
    host.negative(host.zeros(()), out=...)  # host-ok: a feature test of numpy
    _ARRAY_OUT = ...
except TypeError:
    _ARRAY_OUT = None  # (older numpy: as_array below)


def _def_binary(opdef, name, saved, float_result=False, save_out=False, by_float=False,
                family=STRICT):
    """The public function of a binary op: a fast path for the common operand pairs (a
    tensor with a tensor of its dtype, a float tensor with a Python float), where no
    promotion is needed, and ``_binary`` for everything else.  ``by_float``: the rule of
    ``x op number`` reads only the number, so the node does not keep ``x`` alive.
    ``save_out``: a bool, or a predicate on the operands (asked when a node is made)."""
    both = saved is _both
    out_if = callable(save_out)  # a predicate on the operands (pow)
    if by_float:  # the general path too: x op number (an int as well) keeps x out of it
        saved = _by_number
    find = kernel(name)
    ufunc = getattr(host, name)  # host-ok: numpy's, called only on numpy arrays

    def op(x, y):
        cx = type(x)
        if cx in _TENSOR_TYPES:
            a = x.array
            cy = type(y)
            if cy is float:
                table = _CONSTS.get(a.dtype)
                if table is None or type(a) is not ndarray:
                    return _binary(opdef, find, x, y, saved, float_result, save_out, family)
                b = table.get(y)
                if b is None:
                    b = _const(table, y, a.dtype)
            elif cy is cx or cy in _TENSOR_TYPES:
                b = y.array
                if (a.dtype is not b.dtype and a.dtype != b.dtype) or (
                        float_result and a.dtype.kind != "f"):
                    return _binary(opdef, find, x, y, saved, float_result, save_out, family)
            else:
                return _binary(opdef, find, x, y, saved, float_result, save_out, family)
        elif cx is float and type(y) in _TENSOR_TYPES:
            b = y.array
            cx = type(y)
            table = _CONSTS.get(b.dtype)
            if table is None or type(b) is not ndarray:
                return _binary(opdef, find, x, y, saved, float_result, save_out, family)
            a = table.get(x)
            if a is None:
                a = _const(table, x, b.dtype)
        else:
            return _binary(opdef, find, x, y, saved, float_result, save_out, family)
        try:
            out = ufunc(a, b, out=_ARRAY_OUT) if type(a) is ndarray else find(a)(a, b)
        except ValueError:
            raise broadcast_failure(cx, a, b) from None
        except TypeError:
            a, b = _host_scalar_joins(cx, opdef.name, a, b)
            out = find(a, b)(a, b)
        if type(out) is not ndarray:
            out = as_array(out)
        mode = state.mode
        if mode:  # grad off or inference mode: nothing recorded
            return unrecorded(cx, out) if mode & INFERENCE_ON else cx.wrap(out)
        if both:
            saved_ = (None, y) if by_float and type(y) is float else (x, y)
        else:
            saved_ = ()
        return record(opdef, out, (x, y), saved_, None,
                      save_out(x, y) if out_if else save_out, cx)

    op.__name__ = op.__qualname__ = opdef.name
    return op


# ---------------------------------------------------------------- arithmetic
# Rules (engine.ops.rules): ``np`` is the array module or the engine's ops under numpy's
# names; x, y the saved operands (tensors, arrays or numbers), out the output.
def _pow_x(np, g, x, y, out):
    # x**0 is constant: 0 also at x = 0 (not 0 * inf), as both frameworks give.  (A number
    # exponent stays a number here on arrays too when it is zero: the constants leave zero
    # out.)
    if type(y) in (int, float):
        return g * 0.0 if y == 0 else g * (np.power(x, y - 1.0) * y)
    # (masked at x = 0 only: elsewhere y x**(y-1) is 0 at y = 0 by itself, and keeps its
    # derivative in y for second order)
    return np.where(np.logical_and(np.equal(y, 0.0), np.equal(x, 0.0)), 0.0,
                    g * (np.power(x, y - 1.0) * y))


def _pow_y(np, g, x, y, out):
    # 0**y is 0 for every y > 0 and 1 at y = 0: both frameworks give it the one-sided 0
    # there (not 0 * -inf, nor 1 * -inf)
    if type(x) in (int, float):
        if x == 0:
            return np.where(np.greater_equal(y, 0.0), 0.0, g * (out * -math.inf))
        return g * (out * math.log(x))
    return np.where(np.logical_and(np.equal(x, 0.0), np.greater_equal(y, 0.0)), 0.0,
                    g * (out * np.log(x)))


_add = defop("add", rule=lambda np, g, need: (g, g), uses="need")
_sub = defop("sub", rule=(lambda np, g: g, lambda np, g: -g))
_mul = defop("mul", fresh=True, uses=("x", "y"),
             rule=(lambda np, g, x, y: g * y, lambda np, g, x, y: g * x),
             same=lambda np, g, x, y: g * (x + x))  # x * x
_div = defop("div", fresh=True, uses=("x", "y"),
             rule=(lambda np, g, x, y: g / y, lambda np, g, x, y: -((g * x) / (y * y))))
_pow = defop("pow", fresh=True, rule=(_pow_x, _pow_y), uses=("x", "y", "out"))
_floordiv = defop("floor_divide", None)
_remainder = defop("remainder", uses=("x", "y"), rule=(
    lambda np, g, x, y: g, lambda np, g, x, y: -(g * np.floor_divide(x, y))))


def _none(x, y):
    return ()


def _by_number(x, y):
    """The operands ``x op y`` saves when its rule for ``x`` reads only a number ``y``: a
    later in-place change of ``x`` (or of what it views) then leaves the node intact, as
    both frameworks' scale ops do (``c[2:] = c[2:] * 10``)."""
    return (None, y) if type(y) in (int, float) else (x, y)


def _both(x, y):
    return (x, y)


def _exponent_needs_grad(x, y) -> bool:
    """pow's ``save_out``: whether the exponent ``y`` will need a gradient (its rule alone
    reads the output), asked only when a node is recorded."""
    return isinstance(y, Tensor) and y._rg


add = _def_binary(_add, "add", _none, family=ZERO_DIM_AS_SCALAR)
sub = _def_binary(_sub, "subtract", _none, family=ZERO_DIM_AS_SCALAR)
mul = _def_binary(_mul, "multiply", _both, by_float=True, family=ZERO_DIM_AS_SCALAR)
div = _def_binary(_div, "true_divide", _both, float_result=True, by_float=True,
                  family=ZERO_DIM_AS_SCALAR)
# only the exponent's rule reads the output: without that gradient it is not kept (as
# torch saves it; an in-place change of the result stays legal, ``x ** 2``)
_power = _def_binary(_pow, "power", _both, save_out=_exponent_needs_grad,
                     family=ZERO_DIM_AS_SCALAR)


def _root_x(np, g, x, y, out):
    # d/dx x**0.5 as 0.5 / sqrt(x): -inf at x = -0.0 (torch's), where x**-0.5 gives +inf
    return g * (0.5 / np.sqrt(x)) if y > 0 else _pow_x(np, g, x, y, out)


# pow by a number exponent of +-0.5, computed as a root (same name: it is pow to a user)
_pow_root = OpDef("pow", fresh=True, rule=(_root_x, _pow_y), uses=("x", "y", "out"))


def pow(x, y):  # noqa: A001
    """x ** y; a dialect may compute x ** +-0.5 as sqrt(x) and 1 / sqrt(x) (torch does:
    the sign of a zero then carries through, -0.0 ** 0.5 = -0.0)."""
    if type(y) is float and y == 0.5 and type(x) in _TENSOR_TYPES and \
            not x.dialect.half_powers_as_roots:
        out = _power(x, y)
        if out.array.dtype.kind == "f":  # numpy's square root keeps -0.0; C's pow gives +0.0
            out.array += 0.0
        return out
    if type(y) is float and (y == 0.5 or y == -0.5) and type(x) in _TENSOR_TYPES and \
            x.dialect.half_powers_as_roots and x.array.dtype.kind == "f":
        a = x.array
        xp = xp_of(a)
        with quiet(divide="ignore", invalid="ignore"):
            out = xp.sqrt(a) if y > 0 else xp.reciprocal(xp.sqrt(a))
        return record(_pow_root, as_array(out), (x, y), (x, y), cls=type(x))
    return _power(x, y)


def _integral(v) -> bool:
    return v.array.dtype.kind in "iub" if isinstance(v, Tensor) else type(v) in (int, bool)


def check_int_zero(x, y, name: str) -> None:
    """Refuse an integer division of ``x`` by an integer zero in ``y``, as both frameworks
    do (numpy would give 0 with a warning)."""
    if _integral(x) and _integral(y):
        zero = not xp_of(y.array).all(y.array) if isinstance(y, Tensor) else y == 0
        if zero:
            cls = type(x) if isinstance(x, Tensor) else type(y)
            raise cls.dialect.zero_division(name)


def refuse_int_zero(op, name: str):
    """``op`` (an integer-valued division) with ``check_int_zero`` first."""
    def checked(x, y):
        check_int_zero(x, y, name)
        return op(x, y)
    checked.__name__ = checked.__qualname__ = op.__name__
    return checked


floor_divide = refuse_int_zero(
    _def_binary(_floordiv, "floor_divide", _none, family=ZERO_DIM_PROMOTES), "floor_divide")
remainder = refuse_int_zero(
    _def_binary(_remainder, "remainder", _both, family=ZERO_DIM_AS_SCALAR), "remainder")


def _extremum(compare):
    """The rule of maximum / minimum: the gradient goes to the operand that wins
    (``compare``), half to each at a tie (as torch does).  Read from the operands only:
    the node saves x and y, not its output, as torch's does (an in-place change of the
    output leaves its backward valid)."""
    def share(np, g, x, y, mine):
        half = np.where(np.equal(x, y), g * 0.5, g * 0.0 if mine else g)
        wins = compare(np, x, y)
        return np.where(wins, g, half) if mine else np.where(wins, g * 0.0, half)
    return (lambda np, g, x, y: share(np, g, x, y, True),
            lambda np, g, x, y: share(np, g, x, y, False))


_maximum = defop("maximum", fresh=True, rule=_extremum(lambda np, x, y: np.greater(x, y)),
                 uses=("x", "y"))
_minimum = defop("minimum", fresh=True, rule=_extremum(lambda np, x, y: np.less(x, y)),
                 uses=("x", "y"))
maximum = _def_binary(_maximum, "maximum", _both)
minimum = _def_binary(_minimum, "minimum", _both)


# ---------------------------------------------------------------- unary math
def _def_unary(name, fn, rule, uses=(), float_only=True):
    """``fn``: the array-module function's name, or a forward written with ``xp_of``;
    ``rule(np, g, ...)`` on the operands ``uses`` (``"x"``: the input, ``"out"``).
    Every unary rule multiplies, divides or selects: its gradients are new arrays."""
    uses = (uses,) if isinstance(uses, str) else uses
    save_in, save_out = "x" in uses, "out" in uses
    opdef = defop(name, fresh=True, rule=rule, uses=uses)
    fast = None  # numpy's ufunc, for the op to call itself on a float numpy array
    if isinstance(fn, str):
        find, ufunc = kernel(fn), getattr(host, fn)  # host-ok: called on numpy arrays only

        if isinstance(ufunc, host.ufunc):  # host-ok: numpy's type
            fast = ufunc

            def fn(a):  # noqa: F811 - the name's function, numpy's fetched directly
                return ufunc(a, out=_ARRAY_OUT) if type(a) is ndarray else find(a)(a)
        else:  # (round is not a ufunc)
            def fn(a):  # noqa: F811
                return ufunc(a) if type(a) is ndarray else find(a)(a)

    def op(x):
        a = x.array
        if fast is not None and type(a) is ndarray and a.dtype.kind == "f":
            out = fast(a, out=_ARRAY_OUT)  # the common case, without fn's dispatch
        else:
            if float_only and a.dtype.kind != "f":
                a = a.astype(default_float)
            out = fn(a)
        if type(out) is not ndarray:
            out = as_array(out)
        mode = state.mode
        if mode:  # grad off or inference mode: nothing recorded
            return unrecorded(type(x), out) if mode & INFERENCE_ON else type(x).wrap(out)
        return record(opdef, out, (x,), (x,) if save_in else (), None, save_out, type(x))

    op.__name__ = name
    return op


neg = _def_unary("neg", "negative", lambda np, g: -g, float_only=False)
exp = _def_unary("exp", "exp", lambda np, g, out: g * out, "out")
expm1 = _def_unary("expm1", "expm1", lambda np, g, out: g * (out + 1.0), "out")
log = _def_unary("log", "log", lambda np, g, x: g / x, "x")
_LN2, _LN10 = 0.6931471805599453, 2.302585092994046
log2 = _def_unary("log2", "log2", lambda np, g, x: g / (x * _LN2), "x")
log10 = _def_unary("log10", "log10", lambda np, g, x: g / (x * _LN10), "x")
log1p = _def_unary("log1p", "log1p", lambda np, g, x: g / (x + 1.0), "x")
sqrt = _def_unary("sqrt", "sqrt", lambda np, g, out: g / (out + out), "out")


def _rsqrt_fwd(a):
    return 1.0 / xp_of(a).sqrt(a)


rsqrt = _def_unary("rsqrt", _rsqrt_fwd, lambda np, g, out: g * (out * np.square(out) * -0.5),
                   "out")
square = _def_unary("square", "square", lambda np, g, x: g * (x + x), "x", float_only=False)
abs = _def_unary("abs", "abs", lambda np, g, x: g * np.sign(x), "x", float_only=False)


def _zero(np, g):
    """The rule of a piecewise-constant op: a zero gradient (g * 0.0: NaN stays NaN)."""
    return g * 0.0


def _asin(np, g, x):
    return g / np.sqrt(1.0 - np.square(x))


_sign = _def_unary("sign", "sign", _zero, float_only=False)


def sign(x):
    """-1, 0 or 1; NaN stays NaN (numpy, paddle) or gives 0 (torch), as the dialect says."""
    out = _sign(x)
    a = out.array
    if a.dtype.kind == "f" and x.dialect.sign_of_nan_is_zero:
        xp_of(a).nan_to_num(a, copy=False, nan=0.0)
    return out
sin = _def_unary("sin", "sin", lambda np, g, x: g * np.cos(x), "x")
cos = _def_unary("cos", "cos", lambda np, g, x: -(g * np.sin(x)), "x")
tan = _def_unary("tan", "tan", lambda np, g, out: g * (np.square(out) + 1.0), "out")
asin = _def_unary("asin", "arcsin", _asin, "x")
acos = _def_unary("acos", "arccos", lambda np, g, x: -_asin(np, g, x), "x")
atan = _def_unary("atan", "arctan", lambda np, g, x: g / (np.square(x) + 1.0), "x")
sinh = _def_unary("sinh", "sinh", lambda np, g, x: g * np.cosh(x), "x")
cosh = _def_unary("cosh", "cosh", lambda np, g, x: g * np.sinh(x), "x")
tanh = _def_unary("tanh", "tanh", lambda np, g, out: g * (1.0 - np.square(out)), "out")


def _sigmoid_fwd(a):
    # 1 / (1 + exp(-a)) in one new array (a fifth of the passes and temporaries of a
    # split by sign); exp(-a) overflows to inf where a is very negative, and 1 / inf is
    # then the right limit 0
    xp = xp_of(a)
    t = xp.negative(a, out=xp.empty_like(a))  # (an array also where a is 0-d)
    with quiet(over="ignore"):
        xp.exp(t, out=t)
    t += 1.0
    return xp.reciprocal(t, out=t)


sigmoid = _def_unary("sigmoid", _sigmoid_fwd, lambda np, g, out: g * (out * (1.0 - out)),
                     "out")


def _relu_fwd(a):
    return xp_of(a).maximum(a, 0).astype(a.dtype, copy=False)


relu = _def_unary("relu", _relu_fwd, lambda np, g, out: np.where(out > 0.0, g, 0.0), "out",
                  float_only=False)
reciprocal = _def_unary("reciprocal", "reciprocal", lambda np, g, out: -(g * np.square(out)),
                        "out")
floor = _def_unary("floor", "floor", _zero, float_only=False)
ceil = _def_unary("ceil", "ceil", _zero, float_only=False)
trunc = _def_unary("trunc", "trunc", _zero, float_only=False)  # rounds toward zero
spec("trunc", trunc, unary(avoid=(-2.0, -1.0, 0.0, 1.0, 2.0)), ref=host.trunc,
     differentiable=False)
round = _def_unary("round", "round", _zero, float_only=False)


# ---------------------------------------------------------------- clamp, where
def _clamp_rule(np, g, x, lo, hi):
    keep = np.equal(x, x)  # where clamp passed x through (not at NaN, as the comparisons)
    if lo is not None:
        keep = np.logical_and(keep, np.greater_equal(x, lo))
    if hi is not None:
        keep = np.logical_and(keep, np.less_equal(x, hi))
    return np.where(keep, g, 0.0)


_clamp = defop("clamp", rule=_clamp_rule, uses=("x", "y", "z"))


def clamp(x, min=None, max=None):
    a = x.array
    lo = min.array if isinstance(min, Tensor) else min
    hi = max.array if isinstance(max, Tensor) else max
    if lo is None and hi is None:
        raise x.dialect.invalid("clamp", "at least one of min and max must be given")
    dt = _clamp_dtype(a, lo, hi)
    if dt != a.dtype:
        a = a.astype(dt)
    try:
        out = xp_of(a).clip(a, lo, hi)
    except TypeError:
        check_same_device(type(x), "clamp", a, lo, hi)
        raise
    if out.dtype != dt:
        out = out.astype(dt)
    return record(_clamp, as_out(out), (x,), (x, min, max))


def _clamp_dtype(a, lo, hi):
    """The bounds take part in promotion as operands do (torch and paddle alike): a Python
    float bound makes an integer tensor the default float dtype, a 0-d tensor bound ranks
    as a zero-dim operand."""
    ops = [(a.dtype, _rank(a))]
    for v in (lo, hi):
        if v is not None:
            ops.append((v.dtype, _rank(v)) if hasattr(v, "ndim") else (scalar_dtype(v), SCALAR))
    return result_type(tuple(ops))


# (the unchosen side gets a plain zero, not g * 0.0: a NaN or inf gradient does not reach
# it, as in torch and paddle)
_where = defop("where", uses="x", rule=(None, lambda np, g, c: np.where(c, g, 0.0),
                                        lambda np, g, c: np.where(c, 0.0, g)))


# float dtype -> the signed integer of its width, for the branch-free select below
_BITS = {float32: host.dtype(host.int32), float64: host.dtype(host.int64)}
_BRANCHY = 2048  # elements: from here numpy's where loses to the bit mask


def _select_or_zero(c, a):
    """``where(c, a, 0.0)`` for a bool array ``c`` and a float array ``a`` of its shape,
    without branches: numpy's where (and copyto/putmask) costs about 10 ns an element on
    a random mask (mispredicted branches), the bit mask under 1 ns.  The kept elements are
    ``a``'s bits, the others +0.0, exactly what where gives (NaN and inf included)."""
    ints = _BITS[a.dtype]
    xp = xp_of(a)
    keep = xp.negative(c.view(xp.int8))  # 0 or -1 (all bits set)
    return xp.bitwise_and(a.view(ints), keep, dtype=ints).view(a.dtype)


def select_or_zero(c, a):
    """``where(c, a, 0.0)`` by the bit mask where that is how it is computed, else None."""
    return _select_or_zero(c, a) if _by_bits(c, a) else None


def _by_bits(c, a) -> bool:
    """Whether where(c, a, +0.0) is computed with the bit mask: a host bool mask of a's
    shape over a float array large enough for the mask to win."""
    return ((type(c) is ndarray or type(c) is TRACED[0]) and c.dtype == bool
            and a.dtype in _BITS
            and c.shape == a.shape and a.size >= _BRANCHY)


def where_(cond, x, y):
    """Elementwise choice; ``cond`` a bool Tensor, ``x``/``y`` Tensors or scalars."""
    c = cond.array if isinstance(cond, Tensor) else cond
    if type(y) is float and y == 0.0 and math.copysign(1.0, y) > 0 and \
            type(x) in _TENSOR_TYPES and _by_bits(c, x.array):
        return record(_where, _select_or_zero(c, x.array), (cond, x, y), (cond,), None,
                      False, type(x))
    if isinstance(x, Tensor) or isinstance(y, Tensor):
        a, b, cls = operands(x, y)
    else:
        cls = type(cond)
        a, b = x, y
        if isinstance(a, float) or isinstance(b, float):
            xp = xp_of(c)
            a, b = xp.asarray(a, default_float), xp.asarray(b, default_float)
    try:
        out = xp_of(c).where(c, a, b)
    except ValueError:
        raise broadcast_failure(cls, c, a) from None
    except TypeError:
        check_same_device(cls, "where", c, a, b)
        raise
    return record(_where, as_out(out), (cond, x, y), (cond,), cls=cls)


where = where_


# ---------------------------------------------------------------- comparisons, logic
_compare = defop("compare", None)


def _def_compare(name, fname):
    find = kernel(fname)

    def op(x, y):
        a, b, cls = operands(x, y, family=ZERO_DIM_AS_SCALAR)
        try:
            out = find(a, b)(a, b)
        except ValueError:
            raise broadcast_failure(cls, a, b) from None
        except TypeError:
            a, b = _host_scalar_joins(cls, name, a, b)
            out = find(a, b)(a, b)
        return cls.wrap(as_out(out))

    op.__name__ = name
    return op


eq = _def_compare("eq", "equal")
ne = _def_compare("ne", "not_equal")
lt = _def_compare("lt", "less")
le = _def_compare("le", "less_equal")
gt = _def_compare("gt", "greater")
ge = _def_compare("ge", "greater_equal")


def _def_logic(name, fname):
    find = kernel(fname)

    def op(x, y):
        a = x.array if isinstance(x, Tensor) else x
        b = y.array if isinstance(y, Tensor) else y
        cls = type(x) if isinstance(x, Tensor) else type(y)
        try:
            out = find(a, b)(a, b)
        except ValueError:
            raise broadcast_failure(cls, a, b) from None
        except TypeError:
            a, b = _host_scalar_joins(cls, name, a, b)
            out = find(a, b)(a, b)
        return cls.wrap(as_out(out))

    op.__name__ = name
    return op


logical_and = _def_logic("logical_and", "logical_and")
logical_or = _def_logic("logical_or", "logical_or")
logical_xor = _def_logic("logical_xor", "logical_xor")
bitwise_and = _def_logic("bitwise_and", "bitwise_and")
bitwise_or = _def_logic("bitwise_or", "bitwise_or")
bitwise_xor = _def_logic("bitwise_xor", "bitwise_xor")


def logical_not(x):
    return type(x).wrap(as_out(xp_of(x.array).logical_not(x.array)))


def bitwise_not(x):
    return type(x).wrap(as_out(xp_of(x.array).invert(x.array)))


def isnan(x):
    return type(x).wrap(as_out(xp_of(x.array).isnan(x.array)))


def isinf(x):
    return type(x).wrap(as_out(xp_of(x.array).isinf(x.array)))


def isfinite(x):
    return type(x).wrap(as_out(xp_of(x.array).isfinite(x.array)))


# ---------------------------------------------------------------- cast
def _pass(np, g):
    """The rule of an op whose gradient is the incoming one (the scheduler casts it to the
    input's dtype)."""
    return g


_cast = defop("cast", rule=_pass)
_cast_int = defop("cast_int", None)


def cast(x, dtype):
    """x converted to ``dtype`` (a numpy dtype); differentiable between floats."""
    if x.array.dtype == dtype:
        return x
    out = x.array.astype(dtype)
    return record(_cast if dtype.kind == "f" else _cast_int, out, (x,))


def clone(x):
    return record(_clone, x.array.copy(), (x,))


_clone = defop("clone", rule=_pass)


# ---------------------------------------------------------------- operators
# The engine's Tensor takes Python's arithmetic and order operators as these ops, so that
# a derivative rule's ``g * out`` runs on tensors as on arrays (engine.ops.rules).  No
# ``==``: a tensor stays hashable by identity (rules say np.equal).  Frontends' classes
# put their own operators over these.
def _reflected(op):
    def r(self, other):
        return op(other, self)
    r.__name__ = f"r{op.__name__}"
    return r


Tensor.__add__, Tensor.__radd__ = add, _reflected(add)
Tensor.__sub__, Tensor.__rsub__ = sub, _reflected(sub)
Tensor.__mul__, Tensor.__rmul__ = mul, _reflected(mul)
Tensor.__truediv__, Tensor.__rtruediv__ = div, _reflected(div)
Tensor.__pow__, Tensor.__rpow__ = pow, _reflected(pow)
Tensor.__neg__ = neg
Tensor.__gt__, Tensor.__ge__, Tensor.__lt__, Tensor.__le__ = gt, ge, lt, le


# ---------------------------------------------------------------- specs
_NO_KINK = (0.0,)
spec("add", add, binary(), ref=host.add)
spec("sub", sub, binary(), ref=host.subtract)
spec("mul", mul, binary(), ref=host.multiply)
spec("div", div, binary(lo2=0.5, hi2=2.0), ref=host.true_divide)
spec("pow", pow, binary(0.5, 2.0, -2.0, 2.0), ref=host.power)
spec("pow_scalar", lambda x: pow(x, 3), unary(), ref=lambda a: a ** 3)
spec("pow_reflected", lambda x: pow(2.0, x), unary(), ref=lambda a: 2.0 ** a)
spec("maximum", maximum, binary(apart=0.05), ref=host.maximum)
spec("minimum", minimum, binary(apart=0.05), ref=host.minimum)
spec("remainder", remainder, binary(1.4, 2.1, 1.1, 1.3), ref=host.remainder)
spec("floor_divide", floor_divide, binary(0.5, 4.0, 0.7, 1.3), ref=host.floor_divide,
     differentiable=False)
spec("neg", neg, unary(), ref=host.negative)
spec("exp", exp, unary(), ref=host.exp)
spec("expm1", expm1, unary(), ref=host.expm1)
spec("log", log, unary(0.2, 3.0), ref=host.log)
spec("log2", log2, unary(0.2, 3.0), ref=host.log2)
spec("log10", log10, unary(0.2, 3.0), ref=host.log10)
spec("log1p", log1p, unary(-0.7, 3.0), ref=host.log1p)
spec("sqrt", sqrt, unary(0.2, 3.0), ref=host.sqrt)
spec("rsqrt", rsqrt, unary(0.2, 3.0), ref=lambda a: 1 / host.sqrt(a))
spec("square", square, unary(), ref=host.square)
spec("abs", abs, unary(avoid=_NO_KINK), ref=host.abs)
spec("sign", sign, unary(avoid=_NO_KINK), ref=host.sign, differentiable=False)
spec("sin", sin, unary(), ref=host.sin)
spec("cos", cos, unary(), ref=host.cos)
spec("tan", tan, unary(-1.2, 1.2), ref=host.tan)
spec("asin", asin, unary(-0.8, 0.8), ref=host.arcsin)
spec("acos", acos, unary(-0.8, 0.8), ref=host.arccos)
spec("atan", atan, unary(), ref=host.arctan)
spec("sinh", sinh, unary(), ref=host.sinh)
spec("cosh", cosh, unary(), ref=host.cosh)
spec("tanh", tanh, unary(), ref=host.tanh)
spec("sigmoid", sigmoid, unary(-5.0, 5.0), ref=lambda a: 1 / (1 + host.exp(-a)))
spec("relu", relu, unary(avoid=_NO_KINK), ref=lambda a: host.maximum(a, 0))
spec("reciprocal", reciprocal, unary(0.3, 3.0), ref=host.reciprocal)
spec("floor", floor, unary(avoid=(-2.0, -1.0, 0.0, 1.0, 2.0)), ref=host.floor,
     differentiable=False)
spec("ceil", ceil, unary(avoid=(-2.0, -1.0, 0.0, 1.0, 2.0)), ref=host.ceil,
     differentiable=False)
spec("round", round, unary(avoid=(-1.5, -0.5, 0.5, 1.5)), ref=host.round, differentiable=False)
spec("clamp", lambda x: clamp(x, -0.5, 0.7), unary(avoid=(-0.5, 0.7)),
     ref=lambda a: host.clip(a, -0.5, 0.7))
spec("clamp_min", lambda x: clamp(x, min=0.3), unary(avoid=(0.3,)),
     ref=lambda a: host.maximum(a, 0.3))
def _parity_ref(a, b):
    """A fixed checkerboard condition of the broadcast shape (no kink to dodge)."""
    shape = host.broadcast_shapes(host.shape(a), host.shape(b))
    return host.arange(int(host.prod(shape)) if shape else 1).reshape(shape) % 2 == 0


def _parity_like(x, y):
    """``_parity_ref`` on the device of ``x``."""
    a, b = x.array, y.array
    xp = xp_of(a)
    shape = xp.broadcast_arrays(a, b)[0].shape
    return type(x).wrap(xp.arange(math.prod(shape)).reshape(shape) % 2 == 0)


spec("where", lambda x, y: where_(_parity_like(x, y), x, y), binary(),
     ref=lambda a, b: host.where(_parity_ref(a, b), a, b))
spec("cast", lambda x: cast(x, float32), unary(),
     ref=lambda a: a.astype(float32), atol=1e-4, rtol=1e-4, second_order=False,
     extra={"eps": 1e-2})
spec("clone", clone, unary(), ref=lambda a: a.copy())


# ---------------------------------------------------------------- rule namespaces
@rule_arrays
def _rule_arrays(xp) -> dict:
    np_where = xp.where

    def where_arrays(c, a, b):
        if type(b) is float and b == 0.0:
            r = select_or_zero(c, a)  # (a branch-free select, where that is faster)
            if r is not None:
                return r
        return np_where(c, a, b)

    return {"where": where_arrays}


@rule_tensors
def _rule_tensors() -> dict:
    def constant_sign(t):
        # sign's derivative is zero: recording it would only add a link to t, which the
        # dialects' create_graph links make where a framework's formula does
        # (janusgrad.core.links)
        return sign(t.detach())

    return {"add": add, "subtract": sub, "multiply": mul, "divide": div, "negative": neg,
            "power": pow, "square": square, "sqrt": sqrt, "exp": exp, "log": log, "sin": sin,
            "cos": cos, "tan": tan, "sinh": sinh, "cosh": cosh, "sign": constant_sign,
            "abs": abs, "maximum": maximum, "minimum": minimum, "equal": eq, "greater": gt,
            "greater_equal": ge, "less": lt, "less_equal": le, "logical_and": logical_and,
            "floor_divide": floor_divide, "where": where_}
