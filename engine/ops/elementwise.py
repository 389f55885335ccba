"""Elementwise ops: arithmetic, math functions, comparisons, logic, casts.

Binary ops accept Tensors and Python/numpy scalars; the result dtype follows
engine.dtypes.  Rules return gradients of the output's shape: the scheduler
sums them back to each input's shape and casts them to its dtype.
"""
from __future__ import annotations

import math

from ..backend import default_float, float32, float64, ndarray, xp
from ..dtypes import DIM, SCALAR, ZERO_DIM, PromotionError, result_type, scalar_dtype
from ..tensor import Tensor, record
from . import defop, spec
from .testing import binary, unary


def as_out(a):
    """numpy returns scalars for 0-d operands; keep everything an ndarray."""
    return a if type(a) is ndarray else xp.asarray(a)


def _rank(a) -> int:
    return DIM if a.ndim else ZERO_DIM


def operands(x, y, float_result: bool = False):
    """Raw operands of a binary op, cast to the computation dtype, and the tensor class."""
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
                dt = result_type(((da, _rank(a)), (db, _rank(b))), cls.dialect.strict_promotion)
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
    sa, sb = xp.shape(a), xp.shape(b)
    n = max(len(sa), len(sb))
    pa, pb = (1,) * (n - len(sa)) + tuple(sa), (1,) * (n - len(sb)) + tuple(sb)
    dim = next(i for i in range(n - 1, -1, -1) if pa[i] != pb[i] and 1 not in (pa[i], pb[i]))
    return cls.dialect.broadcast(sa, sb, dim)


# Tensor classes seen so far: a set lookup on type(x) is cheaper than isinstance chains.
_TENSOR_TYPES: set = set()
# Python floats as ready 0-d arrays of the tensor's float dtype, per dtype.  numpy casts a
# Python float operand to the array's dtype anyway (NEP 50), so the result is bit for bit
# the same; the ready array skips that conversion on every call (about a third of a small
# op's ufunc time).  Zero is left out (0.0 and -0.0 are one dict key), and so are values a
# float32 cannot hold.
_CONSTS: dict = {float32: {}, float64: {}}
_CONST_LIMIT = 3.0e38


def _const(table, v, dt):
    """``v`` as a 0-d array of ``dt`` from ``table`` (``v`` itself where that is unsafe)."""
    if v == 0.0 or not -_CONST_LIMIT < v < _CONST_LIMIT:  # also NaN
        return v
    if len(table) > 4096:
        table.clear()
    z = xp.array(v, dt)
    z.flags.writeable = False
    table[v] = z
    return z


def _binary(opdef, ufunc, x, y, saved, float_result=False, save_out=False):
    """The general path of a binary op (any operand types, promotion, errors)."""
    a, b, cls = operands(x, y, float_result)
    try:
        out = ufunc(a, b)
    except ValueError:
        raise broadcast_failure(cls, a, b) from None
    if type(out) is not ndarray:
        out = xp.asarray(out)
    return record(opdef, out, (x, y), saved(x, y), None, save_out, cls)


def _def_binary(opdef, ufunc, saved, float_result=False, save_out=False):
    """The public function of a binary op: a fast path for the common operand pairs (a
    tensor with a tensor of its dtype, a float tensor with a Python float), where no
    promotion is needed, and ``_binary`` for everything else."""
    both = saved is _both

    def op(x, y):
        cx = type(x)
        if cx in _TENSOR_TYPES:
            a = x.array
            cy = type(y)
            if cy is float:
                table = _CONSTS.get(a.dtype)
                if table is None:
                    return _binary(opdef, ufunc, x, y, saved, float_result, save_out)
                b = table.get(y)
                if b is None:
                    b = _const(table, y, a.dtype)
            elif cy is cx or cy in _TENSOR_TYPES:
                b = y.array
                if a.dtype != b.dtype or (float_result and a.dtype.kind != "f"):
                    return _binary(opdef, ufunc, x, y, saved, float_result, save_out)
            else:
                return _binary(opdef, ufunc, x, y, saved, float_result, save_out)
        elif cx is float and type(y) in _TENSOR_TYPES:
            b = y.array
            cx = type(y)
            table = _CONSTS.get(b.dtype)
            if table is None:
                return _binary(opdef, ufunc, x, y, saved, float_result, save_out)
            a = table.get(x)
            if a is None:
                a = _const(table, x, b.dtype)
        else:
            return _binary(opdef, ufunc, x, y, saved, float_result, save_out)
        try:
            out = ufunc(a, b)
        except ValueError:
            raise broadcast_failure(cx, a, b) from None
        if type(out) is not ndarray:
            out = xp.asarray(out)
        return record(opdef, out, (x, y), (x, y) if both else (), None, save_out, cx)

    op.__name__ = op.__qualname__ = opdef.name
    return op


def _need(n, i) -> bool:
    return n.parents[i] is not None


# ---------------------------------------------------------------- arithmetic
def _add_vjp(n, g):
    return g, g


def _sub_vjp(n, g):
    return g, (neg(g) if n.parents[1] is not None else None)


def _mul_vjp(n, g):
    x, y = n.saved
    p = n.parents
    if x is y and p[0] is not None:  # x*x: all of 2*x*g to the first input (the same node)
        return mul(g, mul(x, 2.0)), None
    return (mul(g, y) if p[0] is not None else None, mul(g, x) if p[1] is not None else None)


def _div_vjp(n, g):
    x, y = n.saved
    gx = div(g, y) if n.parents[0] is not None else None
    gy = neg(div(mul(g, x), mul(y, y))) if n.parents[1] is not None else None
    return gx, gy


def _pow_vjp(n, g):
    x, y = n.saved
    gx = gy = None
    if _need(n, 0):
        if isinstance(y, Tensor):
            gx = mul(g, mul(y, pow(x, sub(y, 1))))
        elif y == 0:
            gx = mul(g, 0.0)
        else:
            gx = mul(g, mul(pow(x, y - 1), y))
    if _need(n, 1):
        gy = mul(g, mul(n.output(), log(x) if isinstance(x, Tensor) else math.log(x)))
    return gx, gy


_add = defop("add", _add_vjp)
_sub = defop("sub", _sub_vjp)
_mul = defop("mul", _mul_vjp)
_div = defop("div", _div_vjp)
_pow = defop("pow", _pow_vjp)
_floordiv = defop("floor_divide", None)
_remainder = defop("remainder", lambda n, g: (g, neg(mul(g, floor_divide(*n.saved)))))


def _none(x, y):
    return ()


def _both(x, y):
    return (x, y)


add = _def_binary(_add, xp.add, _none)
sub = _def_binary(_sub, xp.subtract, _none)
mul = _def_binary(_mul, xp.multiply, _both)
div = _def_binary(_div, xp.true_divide, _both, float_result=True)
pow = _def_binary(_pow, xp.power, _both, save_out=True)
floor_divide = _def_binary(_floordiv, xp.floor_divide, _none)
remainder = _def_binary(_remainder, xp.remainder, _both)


def _extremum_vjp(n, g):
    # ties share the gradient equally, as torch does
    x, y = n.saved
    out = n.output()
    wx = where_(eq(x, out), where_(eq(x, y), 0.5, 1.0), 0.0)
    gx = mul(g, wx) if _need(n, 0) else None
    gy = mul(g, sub(1.0, wx)) if _need(n, 1) else None
    return gx, gy


_maximum = defop("maximum", _extremum_vjp)
_minimum = defop("minimum", _extremum_vjp)
maximum = _def_binary(_maximum, xp.maximum, _both, save_out=True)
minimum = _def_binary(_minimum, xp.minimum, _both, save_out=True)


# ---------------------------------------------------------------- unary math
def _unary(opdef, fn, x, save_in=False, save_out=False, float_only=True):
    a = x.array
    if float_only and a.dtype.kind != "f":
        a = a.astype(default_float)
    return record(opdef, as_out(fn(a)), (x,), (x,) if save_in else (), save_out=save_out)


def _def_unary(name, fn, vjp, save_in=False, save_out=False, float_only=True):
    opdef = defop(name, vjp)
    if float_only:
        def op(x):  # _unary, inlined: one Python call less per op
            a = x.array
            if a.dtype.kind != "f":
                a = a.astype(default_float)
            out = fn(a)
            if type(out) is not ndarray:
                out = xp.asarray(out)
            return record(opdef, out, (x,), (x,) if save_in else (), None, save_out)
    else:
        def op(x):
            out = fn(x.array)
            if type(out) is not ndarray:
                out = xp.asarray(out)
            return record(opdef, out, (x,), (x,) if save_in else (), None, save_out)

    op.__name__ = name
    return op


def _x(n):
    return n.saved[0]


neg = _def_unary("neg", xp.negative, lambda n, g: (neg(g),), float_only=False)
exp = _def_unary("exp", xp.exp, lambda n, g: (mul(g, n.output()),), save_out=True)
expm1 = _def_unary("expm1", xp.expm1, lambda n, g: (mul(g, add(n.output(), 1.0)),),
                   save_out=True)
log = _def_unary("log", xp.log, lambda n, g: (div(g, _x(n)),), save_in=True)
log2 = _def_unary("log2", xp.log2, lambda n, g: (div(g, mul(_x(n), 0.6931471805599453)),),
                  save_in=True)
log10 = _def_unary("log10", xp.log10,
                   lambda n, g: (div(g, mul(_x(n), 2.302585092994046)),), save_in=True)
log1p = _def_unary("log1p", xp.log1p, lambda n, g: (div(g, add(_x(n), 1.0)),), save_in=True)
sqrt = _def_unary("sqrt", xp.sqrt, lambda n, g: (div(g, mul(n.output(), 2.0)),),
                  save_out=True)


def _rsqrt_fwd(a):
    return 1.0 / xp.sqrt(a)


rsqrt = _def_unary("rsqrt", _rsqrt_fwd,
                   lambda n, g: (mul(g, mul(pow(n.output(), 3), -0.5)),), save_out=True)
square = _def_unary("square", xp.square, lambda n, g: (mul(g, mul(_x(n), 2.0)),),
                    save_in=True, float_only=False)
abs = _def_unary("abs", xp.abs, lambda n, g: (mul(g, sign(_x(n))),), save_in=True,
                 float_only=False)
sign = _def_unary("sign", xp.sign, lambda n, g: (mul(g, 0.0),), float_only=False)
sin = _def_unary("sin", xp.sin, lambda n, g: (mul(g, cos(_x(n))),), save_in=True)
cos = _def_unary("cos", xp.cos, lambda n, g: (neg(mul(g, sin(_x(n)))),), save_in=True)
tan = _def_unary("tan", xp.tan,
                 lambda n, g: (mul(g, add(square(n.output()), 1.0)),), save_out=True)
asin = _def_unary("asin", xp.arcsin,
                  lambda n, g: (mul(g, rsqrt(sub(1.0, square(_x(n))))),), save_in=True)
acos = _def_unary("acos", xp.arccos,
                  lambda n, g: (neg(mul(g, rsqrt(sub(1.0, square(_x(n)))))),), save_in=True)
atan = _def_unary("atan", xp.arctan,
                  lambda n, g: (div(g, add(square(_x(n)), 1.0)),), save_in=True)
sinh = _def_unary("sinh", xp.sinh, lambda n, g: (mul(g, cosh(_x(n))),), save_in=True)
cosh = _def_unary("cosh", xp.cosh, lambda n, g: (mul(g, sinh(_x(n))),), save_in=True)
tanh = _def_unary("tanh", xp.tanh,
                  lambda n, g: (mul(g, sub(1.0, square(n.output()))),), save_out=True)


def _sigmoid_fwd(a):
    # split by sign so that neither branch overflows
    e = xp.exp(-xp.abs(a))
    return xp.where(a >= 0, 1.0 / (1.0 + e), e / (1.0 + e)).astype(a.dtype, copy=False)


sigmoid = _def_unary("sigmoid", _sigmoid_fwd,
                     lambda n, g: (mul(g, mul(n.output(), sub(1.0, n.output()))),),
                     save_out=True)


def _relu_fwd(a):
    return xp.maximum(a, 0).astype(a.dtype, copy=False)


relu = _def_unary("relu", _relu_fwd, lambda n, g: (where_(gt(n.output(), 0.0), g, 0.0),),
                  save_out=True, float_only=False)
reciprocal = _def_unary("reciprocal", xp.reciprocal,
                        lambda n, g: (neg(mul(g, square(n.output()))),), save_out=True)
floor = _def_unary("floor", xp.floor, lambda n, g: (mul(g, 0.0),), float_only=False)
ceil = _def_unary("ceil", xp.ceil, lambda n, g: (mul(g, 0.0),), float_only=False)
round = _def_unary("round", xp.round, lambda n, g: (mul(g, 0.0),), float_only=False)


# ---------------------------------------------------------------- clamp, where
def _clamp_vjp(n, g):
    x, lo, hi = n.saved
    mask = x.array == x.array  # all True, same shape
    if lo is not None:
        mask = mask & (x.array >= (lo.array if isinstance(lo, Tensor) else lo))
    if hi is not None:
        mask = mask & (x.array <= (hi.array if isinstance(hi, Tensor) else hi))
    return (where_(type(x).wrap(mask), g, 0.0),)


_clamp = defop("clamp", _clamp_vjp)


def clamp(x, min=None, max=None):
    a = x.array
    lo = min.array if isinstance(min, Tensor) else min
    hi = max.array if isinstance(max, Tensor) else max
    if lo is None and hi is None:
        raise x.dialect.invalid("clamp", "at least one of min and max must be given")
    out = xp.clip(a, lo, hi)
    if out.dtype != a.dtype and a.dtype.kind == "f":
        out = out.astype(a.dtype)
    return record(_clamp, as_out(out), (x,), (x, min, max))


def _where_vjp(n, g):
    cond = n.saved[0]
    zero = mul(g, 0.0)
    return (None, where_(cond, g, zero) if _need(n, 1) else None,
            where_(cond, zero, g) if _need(n, 2) else None)


_where = defop("where", _where_vjp)


# float dtype -> the signed integer of its width, for the branch-free select below
_BITS = {float32: xp.dtype(xp.int32), float64: xp.dtype(xp.int64)}
_BRANCHY = 2048  # elements: from here numpy's where loses to the bit mask


def _select_or_zero(c, a):
    """``where(c, a, 0.0)`` for a bool array ``c`` and a float array ``a`` of its shape,
    without branches: numpy's where (and copyto/putmask) costs about 10 ns an element on
    a random mask (mispredicted branches), the bit mask under 1 ns.  The kept elements are
    ``a``'s bits, the others +0.0, exactly what where gives (NaN and inf included)."""
    ints = _BITS[a.dtype]
    keep = xp.negative(c.view(xp.int8))  # 0 or -1 (all bits set)
    return xp.bitwise_and(a.view(ints), keep, dtype=ints).view(a.dtype)


def where_(cond, x, y):
    """Elementwise choice; ``cond`` a bool Tensor, ``x``/``y`` Tensors or scalars."""
    c = cond.array if isinstance(cond, Tensor) else cond
    if type(y) is float and y == 0.0 and type(x) in _TENSOR_TYPES and type(c) is ndarray:
        a = x.array
        if (a.dtype in _BITS and c.dtype == bool and c.shape == a.shape
                and a.size >= _BRANCHY and math.copysign(1.0, y) > 0):
            return record(_where, _select_or_zero(c, a), (cond, x, y), (cond,), None,
                          False, type(x))
    if isinstance(x, Tensor) or isinstance(y, Tensor):
        a, b, cls = operands(x, y)
    else:
        cls = type(cond)
        a, b = x, y
        if isinstance(a, float) or isinstance(b, float):
            a, b = xp.asarray(a, default_float), xp.asarray(b, default_float)
    try:
        out = xp.where(c, a, b)
    except ValueError:
        raise broadcast_failure(cls, c, a) from None
    return record(_where, as_out(out), (cond, x, y), (cond,), cls=cls)


where = where_


# ---------------------------------------------------------------- comparisons, logic
_compare = defop("compare", None)


def _def_compare(name, ufunc):
    def op(x, y):
        a, b, cls = operands(x, y)
        try:
            out = ufunc(a, b)
        except ValueError:
            raise broadcast_failure(cls, a, b) from None
        return cls.wrap(as_out(out))

    op.__name__ = name
    return op


eq = _def_compare("eq", xp.equal)
ne = _def_compare("ne", xp.not_equal)
lt = _def_compare("lt", xp.less)
le = _def_compare("le", xp.less_equal)
gt = _def_compare("gt", xp.greater)
ge = _def_compare("ge", xp.greater_equal)


def _def_logic(name, ufunc):
    def op(x, y):
        a = x.array if isinstance(x, Tensor) else x
        b = y.array if isinstance(y, Tensor) else y
        cls = type(x) if isinstance(x, Tensor) else type(y)
        try:
            out = ufunc(a, b)
        except ValueError:
            raise broadcast_failure(cls, a, b) from None
        return cls.wrap(as_out(out))

    op.__name__ = name
    return op


logical_and = _def_logic("logical_and", xp.logical_and)
logical_or = _def_logic("logical_or", xp.logical_or)
logical_xor = _def_logic("logical_xor", xp.logical_xor)
bitwise_and = _def_logic("bitwise_and", xp.bitwise_and)
bitwise_or = _def_logic("bitwise_or", xp.bitwise_or)
bitwise_xor = _def_logic("bitwise_xor", xp.bitwise_xor)


def logical_not(x):
    return type(x).wrap(as_out(xp.logical_not(x.array)))


def bitwise_not(x):
    return type(x).wrap(as_out(xp.invert(x.array)))


def isnan(x):
    return type(x).wrap(as_out(xp.isnan(x.array)))


def isinf(x):
    return type(x).wrap(as_out(xp.isinf(x.array)))


def isfinite(x):
    return type(x).wrap(as_out(xp.isfinite(x.array)))


# ---------------------------------------------------------------- cast
_cast = defop("cast", lambda n, g: (g,))
_cast_int = defop("cast_int", None)


def cast(x, dtype):
    """x converted to ``dtype`` (a numpy dtype); differentiable between floats."""
    if x.array.dtype == dtype:
        return x
    out = x.array.astype(dtype)
    return record(_cast if dtype.kind == "f" else _cast_int, out, (x,))


def clone(x):
    return record(_clone, x.array.copy(), (x,))


_clone = defop("clone", lambda n, g: (g,))


# ---------------------------------------------------------------- specs
_NO_KINK = (0.0,)
spec("add", add, binary(), ref=xp.add)
spec("sub", sub, binary(), ref=xp.subtract)
spec("mul", mul, binary(), ref=xp.multiply)
spec("div", div, binary(lo2=0.5, hi2=2.0), ref=xp.true_divide)
spec("pow", pow, binary(0.5, 2.0, -2.0, 2.0), ref=xp.power)
spec("pow_scalar", lambda x: pow(x, 3), unary(), ref=lambda a: a ** 3)
spec("pow_reflected", lambda x: pow(2.0, x), unary(), ref=lambda a: 2.0 ** a)
spec("maximum", maximum, binary(apart=0.05), ref=xp.maximum)
spec("minimum", minimum, binary(apart=0.05), ref=xp.minimum)
spec("remainder", remainder, binary(1.4, 2.1, 1.1, 1.3), ref=xp.remainder)
spec("floor_divide", floor_divide, binary(0.5, 4.0, 0.7, 1.3), ref=xp.floor_divide,
     differentiable=False)
spec("neg", neg, unary(), ref=xp.negative)
spec("exp", exp, unary(), ref=xp.exp)
spec("expm1", expm1, unary(), ref=xp.expm1)
spec("log", log, unary(0.2, 3.0), ref=xp.log)
spec("log2", log2, unary(0.2, 3.0), ref=xp.log2)
spec("log10", log10, unary(0.2, 3.0), ref=xp.log10)
spec("log1p", log1p, unary(-0.7, 3.0), ref=xp.log1p)
spec("sqrt", sqrt, unary(0.2, 3.0), ref=xp.sqrt)
spec("rsqrt", rsqrt, unary(0.2, 3.0), ref=lambda a: 1 / xp.sqrt(a))
spec("square", square, unary(), ref=xp.square)
spec("abs", abs, unary(avoid=_NO_KINK), ref=xp.abs)
spec("sign", sign, unary(avoid=_NO_KINK), ref=xp.sign, differentiable=False)
spec("sin", sin, unary(), ref=xp.sin)
spec("cos", cos, unary(), ref=xp.cos)
spec("tan", tan, unary(-1.2, 1.2), ref=xp.tan)
spec("asin", asin, unary(-0.8, 0.8), ref=xp.arcsin)
spec("acos", acos, unary(-0.8, 0.8), ref=xp.arccos)
spec("atan", atan, unary(), ref=xp.arctan)
spec("sinh", sinh, unary(), ref=xp.sinh)
spec("cosh", cosh, unary(), ref=xp.cosh)
spec("tanh", tanh, unary(), ref=xp.tanh)
spec("sigmoid", sigmoid, unary(-5.0, 5.0), ref=lambda a: 1 / (1 + xp.exp(-a)))
spec("relu", relu, unary(avoid=_NO_KINK), ref=lambda a: xp.maximum(a, 0))
spec("reciprocal", reciprocal, unary(0.3, 3.0), ref=xp.reciprocal)
spec("floor", floor, unary(avoid=(-2.0, -1.0, 0.0, 1.0, 2.0)), ref=xp.floor,
     differentiable=False)
spec("ceil", ceil, unary(avoid=(-2.0, -1.0, 0.0, 1.0, 2.0)), ref=xp.ceil,
     differentiable=False)
spec("round", round, unary(avoid=(-1.5, -0.5, 0.5, 1.5)), ref=xp.round, differentiable=False)
spec("clamp", lambda x: clamp(x, -0.5, 0.7), unary(avoid=(-0.5, 0.7)),
     ref=lambda a: xp.clip(a, -0.5, 0.7))
spec("clamp_min", lambda x: clamp(x, min=0.3), unary(avoid=(0.3,)),
     ref=lambda a: xp.maximum(a, 0.3))
def _parity(a, b):
    """A fixed checkerboard condition of the broadcast shape (no kink to dodge)."""
    shape = xp.broadcast_shapes(xp.shape(a), xp.shape(b))
    return xp.arange(int(xp.prod(shape)) if shape else 1).reshape(shape) % 2 == 0


spec("where", lambda x, y: where_(type(x).wrap(_parity(x.array, y.array)), x, y), binary(),
     ref=lambda a, b: xp.where(_parity(a, b), a, b))
spec("cast", lambda x: cast(x, xp.dtype(xp.float32)), unary(),
     ref=lambda a: a.astype(xp.float32), atol=1e-4, rtol=1e-4, second_order=False,
     extra={"eps": 1e-2})
spec("clone", clone, unary(), ref=lambda a: a.copy())
