"""paddle's tensor functions (``paddle.add``, ``paddle.sum`` ...) mapped onto engine ops.

Names, argument names and defaults are paddle 3.3.1's; the math is the
engine's.  Most functions double as Tensor methods (``attach_methods``).
"""
from __future__ import annotations

import builtins
import importlib

from janusgrad.mode import no_grad as _engine_no_grad
from janusgrad.ops import elementwise as E
from janusgrad.ops import linalg as L
from janusgrad.ops import reduce as R
from janusgrad.ops import shape as S
from janusgrad.tensor import Tensor as _EngineTensor

from .dialect import matmul_error, norm_axis_error, reduce_axis_error, reshape_error
from .meta import to_np
from .tensor import Tensor


def _eng(family: str, name: str):
    """An engine op by family and name; a clear error if the engine lacks it."""
    fn = getattr(importlib.import_module(f"janusgrad.ops.{family}"), name, None)
    if fn is not None:
        return fn

    def missing(*args, **kwargs):
        raise NotImplementedError(f"paddlelike: the engine has no op {family}.{name} yet")

    missing.__name__ = name
    return missing


def _axes(axis):
    """paddle axis arguments (int, list, tuple, Tensor) as an engine axis."""
    if axis is None:
        return None
    if isinstance(axis, _EngineTensor):
        axis = axis.array.tolist()
    if isinstance(axis, list):
        return tuple(axis)
    return axis


def _ints(shape) -> tuple:
    """A paddle shape argument (int, list/tuple of ints or 0-d Tensors, Tensor) as ints."""
    if isinstance(shape, _EngineTensor):
        return tuple(int(v) for v in shape.array.reshape(-1).tolist())
    if isinstance(shape, int):
        return (shape,)
    return tuple(int(s.array) if isinstance(s, _EngineTensor) else int(s) for s in shape)


# ---------------------------------------------------------------- elementwise
def add(x, y, name=None):
    return E.add(x, y)


def subtract(x, y, name=None):
    return E.sub(x, y)


def multiply(x, y, name=None):
    return E.mul(x, y)


def divide(x, y, name=None):
    return E.div(x, y)


def floor_divide(x, y, name=None):
    return E.floor_divide(x, y)


def remainder(x, y, name=None):
    return E.remainder(x, y)


mod = remainder
floor_mod = remainder


def pow(x, y, name=None):  # noqa: A001
    return E.pow(x, y)


def maximum(x, y, name=None):
    return E.maximum(x, y)


def minimum(x, y, name=None):
    return E.minimum(x, y)


def _unary(engine_fn, paddle_name: str):
    def fn(x, name=None):
        return engine_fn(x)

    fn.__name__ = fn.__qualname__ = paddle_name
    return fn


neg = _unary(E.neg, "neg")
exp = _unary(E.exp, "exp")
expm1 = _unary(E.expm1, "expm1")
log = _unary(E.log, "log")
log2 = _unary(E.log2, "log2")
log10 = _unary(E.log10, "log10")
log1p = _unary(E.log1p, "log1p")
sqrt = _unary(E.sqrt, "sqrt")
rsqrt = _unary(E.rsqrt, "rsqrt")
square = _unary(E.square, "square")
abs = _unary(E.abs, "abs")  # noqa: A001
sign = _unary(E.sign, "sign")
sin = _unary(E.sin, "sin")
cos = _unary(E.cos, "cos")
tan = _unary(E.tan, "tan")
asin = _unary(E.asin, "asin")
acos = _unary(E.acos, "acos")
atan = _unary(E.atan, "atan")
sinh = _unary(E.sinh, "sinh")
cosh = _unary(E.cosh, "cosh")
tanh = _unary(E.tanh, "tanh")
sigmoid = _unary(E.sigmoid, "sigmoid")
reciprocal = _unary(E.reciprocal, "reciprocal")
floor = _unary(E.floor, "floor")
ceil = _unary(E.ceil, "ceil")
round = _unary(E.round, "round")  # noqa: A001
isnan = _unary(E.isnan, "isnan")
isinf = _unary(E.isinf, "isinf")
isfinite = _unary(E.isfinite, "isfinite")
logical_not = _unary(E.logical_not, "logical_not")
bitwise_not = _unary(E.bitwise_not, "bitwise_not")
_UNARY = (
    "neg", "exp", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "square", "abs",
    "sign", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sigmoid",
    "reciprocal", "floor", "ceil", "round", "isnan", "isinf", "isfinite", "logical_not",
    "bitwise_not",
)


def clip(x, min=None, max=None, name=None):  # noqa: A002
    if min is None and max is None:
        return x
    return E.clamp(x, min, max)


def where(condition, x=None, y=None, name=None):
    return E.where_(condition, x, y)


def _binary(engine_fn, paddle_name: str):
    def fn(x, y, name=None):
        return engine_fn(x, y)

    fn.__name__ = fn.__qualname__ = paddle_name
    return fn


equal = _binary(E.eq, "equal")
not_equal = _binary(E.ne, "not_equal")
less_than = _binary(E.lt, "less_than")
less_equal = _binary(E.le, "less_equal")
greater_than = _binary(E.gt, "greater_than")
greater_equal = _binary(E.ge, "greater_equal")
logical_and = _binary(E.logical_and, "logical_and")
logical_or = _binary(E.logical_or, "logical_or")
logical_xor = _binary(E.logical_xor, "logical_xor")
bitwise_and = _binary(E.bitwise_and, "bitwise_and")
bitwise_or = _binary(E.bitwise_or, "bitwise_or")
bitwise_xor = _binary(E.bitwise_xor, "bitwise_xor")
less = less_than
greater = greater_than


def _all_true(c):
    """0-d bool: every element of the bool tensor ``c`` is True."""
    return E.eq(R.sum(E.logical_not(c)), 0)


def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    with _engine_no_grad():
        close = E.le(E.abs(E.sub(x, y)), E.add(E.mul(E.abs(y), rtol), atol))
        if equal_nan:
            close = E.logical_or(close, E.logical_and(E.isnan(x), E.isnan(y)))
        return close


def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    with _engine_no_grad():
        return _all_true(isclose(x, y, rtol, atol, equal_nan))


def equal_all(x, y, name=None):
    with _engine_no_grad():
        if x.array.shape != y.array.shape:
            return Tensor.wrap(E.as_out(False))
        return _all_true(E.eq(x, y))


def cast(x, dtype):
    return E.cast(x, to_np(dtype))


def clone(x, name=None):
    return E.clone(x)


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    if bias_after_scale:
        return E.add(E.mul(x, scale), bias) if bias else E.mul(x, scale)
    return E.mul(E.add(x, bias), scale)


def is_tensor(x) -> bool:
    return isinstance(x, _EngineTensor)


def numel(x, name=None):
    return x.numel()


# ---------------------------------------------------------------- reductions
def sum(x, axis=None, dtype=None, keepdim=False, name=None, **kwargs):  # noqa: A001
    if axis is None and dtype is None and not kwargs:
        return R.sum(x, None, keepdim)  # the loss's sum(), with nothing to translate
    if kwargs:
        # paddle's C binding: ``dim`` is an alias of ``axis``; anything else is refused
        if set(kwargs) - {"dim"}:
            raise ValueError("(InvalidArgument) has too many arguments (at "
                             "/paddle/paddle/fluid/pybind/op_function_common.cc:1596)\n")
        axis = kwargs["dim"]
    return R.sum(x, _axes(axis), keepdim, to_np(dtype))


def mean(x, axis=None, keepdim=False, name=None, *, dim=None):
    if dim is not None:
        axis = dim
    out = R.mean(x, _axes(axis), keepdim)
    if x.array.dtype.kind in "iub":
        out = E.cast(out, x.array.dtype)  # paddle truncates the mean of an int tensor
    return out


def _check_axes(x, axis, error) -> None:
    """Raise paddle's error for the first out-of-range axis (where the engine's facts
    cannot tell paddle's kernels apart)."""
    if axis is None:
        return
    nd = x.array.ndim
    for a in (axis if isinstance(axis, tuple) else (axis,)):
        if nd and not -nd <= a < nd:
            raise error(a)


def _reduction(family: str, engine_name: str, paddle_name: str, lines=None):
    engine_fn = _eng(family, engine_name)

    def fn(x, axis=None, keepdim=False, name=None, *, dim=None):
        if dim is not None:
            axis = dim
        axis = _axes(axis)
        if lines is not None:
            _check_axes(x, axis, lambda a: reduce_axis_error(a, x.array.ndim, lines))
        return engine_fn(x, axis=axis, keepdims=keepdim)

    fn.__name__ = fn.__qualname__ = paddle_name
    return fn


# paddle.max/min share the gradient among ties, as amax/amin do
max = _reduction("reduce", "amax", "max", (4180, 4190))  # noqa: A001
min = _reduction("reduce", "amin", "min", (4180, 4190))  # noqa: A001
amax = _reduction("reduce", "amax", "amax")
amin = _reduction("reduce", "amin", "amin")
logsumexp = _reduction("reduce", "logsumexp", "logsumexp")


def prod(x, axis=None, keepdim=False, dtype=None, name=None):
    out = _eng("reduce", "prod")(x, axis=_axes(axis), keepdims=keepdim)
    if dtype is None and out.array.dtype != x.array.dtype:
        return E.cast(out, x.array.dtype)  # paddle keeps an integer input's dtype
    return out if dtype is None else cast(out, dtype)


def argmax(x, axis=None, keepdim=False, dtype="int64", name=None):
    out = _eng("reduce", "argmax")(x, axis=axis, keepdims=keepdim)
    return out if to_np(dtype) == out.array.dtype else E.cast(out, to_np(dtype))


def argmin(x, axis=None, keepdim=False, dtype="int64", name=None):
    out = _eng("reduce", "argmin")(x, axis=axis, keepdims=keepdim)
    return out if to_np(dtype) == out.array.dtype else E.cast(out, to_np(dtype))


def var(x, axis=None, unbiased=None, keepdim=False, name=None, *, correction=1):
    if unbiased is not None:
        correction = 1 if unbiased else 0
    return _eng("reduce", "var")(x, axis=_axes(axis), keepdims=keepdim, correction=correction)


def std(x, axis=None, unbiased=True, keepdim=False, name=None):
    return _eng("reduce", "std")(x, axis=_axes(axis), keepdims=keepdim,
                                 correction=1 if unbiased else 0)


def norm(x, p=None, axis=None, keepdim=False, name=None):
    if p is None or p == "fro":
        p = 2
    axis = _axes(axis)
    _check_axes(x, axis, lambda a: norm_axis_error(a, x.array.shape))
    return _eng("reduce", "norm")(x, p, axis=axis, keepdims=keepdim)


def cumsum(x, axis=None, dtype=None, name=None):
    if dtype is not None:
        x = cast(x, dtype)
    if axis is None:
        x, axis = S.flatten(x), 0
    return _eng("reduce", "cumsum")(x, axis)


# ---------------------------------------------------------------- linear algebra
def _swap_last(x):
    return S.swapaxes(x, -1, -2) if x.array.ndim > 1 else x


def matmul(x, y, transpose_x=False, transpose_y=False, name=None):
    a, b = x.array.shape, y.array.shape
    if transpose_x:
        x = _swap_last(x)
    if transpose_y:
        y = _swap_last(y)
    ta, tb = x.array.shape, y.array.shape
    if ta and tb and ta[-1] != (tb[-2] if len(tb) > 1 else tb[0]):
        raise matmul_error(a, b, transpose_x, transpose_y)
    return L.matmul(x, y)


def mm(input, mat2, name=None):  # noqa: A002
    return matmul(input, mat2)


def bmm(x, y, name=None):
    return _eng("linalg", "bmm")(x, y)


def mv(x, vec, name=None):
    return _eng("linalg", "mv")(x, vec)


def outer(x, y, name=None):
    return _eng("linalg", "outer")(x, y)


def _dot_error(x, y):
    if x.array.shape != y.array.shape:
        return RuntimeError(
            "(PreconditionNotMet) ShapeError: The shape of input tensor X: "
            f"[{', '.join(map(str, x.array.shape))}] should be exactly the same with input "
            f"tensor Y: [{', '.join(map(str, y.array.shape))}]\n  [Hint: Expected true == "
            "shape_match, but received true:1 != shape_match:0.] (at "
            "/paddle/paddle/phi/infermeta/binary.cc:1675)\n")
    return None


def dot(x, y, name=None):
    """paddle.dot: inner product of vectors, row-wise for 2-D inputs."""
    err = _dot_error(x, y)
    if err is not None:
        raise err
    if x.array.ndim == 2:
        return R.sum(E.mul(x, y), axis=-1)
    return L.dot(x, y)


def t(input, name=None):  # noqa: A002
    if input.array.ndim < 2:
        return input
    return S.transpose(input, (1, 0))


# ---------------------------------------------------------------- shape
def _reshape_target(x, shape):
    shape = _ints(shape)
    size = x.array.size
    # paddle: 0 copies the input's dim; -1 is inferred
    shape = tuple(x.array.shape[i] if d == 0 else d for i, d in enumerate(shape))
    known = 1
    for d in shape:
        if d != -1:
            known *= d
    ok = (size % known == 0) if -1 in shape and known else (known == size)
    if not ok:
        raise reshape_error(x.array.shape, shape, size)
    return shape


def reshape(x, shape, name=None):
    return S.reshape(x, _reshape_target(x, shape))


def _reshape_method(self, *shape, name=None):
    if len(shape) == 1 and not isinstance(shape[0], int):
        shape = shape[0]
    return reshape(self, shape)


def transpose(x, perm, name=None):
    return S.transpose(x, tuple(perm))


def squeeze(x, axis=None, name=None):
    axis = _axes(axis)
    nd = x.array.ndim
    for a in (axis if isinstance(axis, tuple) else () if axis is None else (axis,)):
        if a >= nd or a < -nd:
            bad = f"current:{a} >= in_dims.size():{nd}" if a >= 0 else f"current:{a} < 0:0"
            cond = "current < in_dims.size()" if a >= 0 else "current >= 0"
            raise ValueError(
                f"(InvalidArgument) Each axis in Attr(axes) should be in the range of [-{nd}, "
                f"{nd - 1}]But current axis is:{a}, input tensor's shape = "
                f"[{', '.join(map(str, x.array.shape))}].\n  [Hint: Expected {cond}, but "
                f"received {bad}.] (at /paddle/paddle/phi/kernels/funcs/unsqueeze.h:70)\n")
    return S.squeeze(x, axis)


def unsqueeze(x, axis, name=None):
    axis = _axes(axis)
    rank = x.array.ndim
    for a in (axis if isinstance(axis, tuple) else (axis,)):
        cur = a if a >= 0 else a + rank + 1
        if cur > rank:
            raise ValueError(
                "(InvalidArgument) The insert dimension value should not be larger than the "
                "dimension size of input tensor\n  [Hint: Expected cur <= cur_output_rank, but "
                f"received cur:{cur} > cur_output_rank:{rank}.] (at "
                "/paddle/paddle/phi/kernels/funcs/unsqueeze.h:128)\n")
        rank += 1
    return S.unsqueeze(x, axis)


def flatten(x, start_axis=0, stop_axis=-1, name=None):
    nd = builtins.max(x.array.ndim, 1)
    for label, a in (("start_axis", start_axis), ("stop_axis", stop_axis)):
        if not isinstance(a, int) or not -nd <= a < nd:
            raise ValueError(f"The {label} should be a int, and in range [-rank(x), rank(x))")
    return S.flatten(x, start_axis, stop_axis)


def _int_axis(axis):
    return int(axis.array) if isinstance(axis, _EngineTensor) else axis


def split(x, num_or_sections, axis=0, name=None):
    axis = _int_axis(axis)
    n = x.array.shape[axis]
    if isinstance(num_or_sections, int):
        if n % num_or_sections:
            raise ValueError(
                f"(InvalidArgument) The input's size along the split dimension must be evenly "
                f"divisible by Attr(num_or_sections). But received Attr(num_or_sections) = "
                f"{num_or_sections}, input(X)'s shape = [{', '.join(map(str, x.array.shape))}], "
                f"Attr(dim) = {axis}.\n  [Hint: Expected input_axis_dim % num == 0, but "
                f"received input_axis_dim % num:{n % num_or_sections} != 0:0.] (at "
                "/paddle/paddle/phi/infermeta/unary.cc:5099)\n")
        sizes = [n // num_or_sections] * num_or_sections
    else:
        sizes = list(_ints(num_or_sections))
        if -1 in sizes:
            known = builtins.sum(s for s in sizes if s != -1)
            sizes[sizes.index(-1)] = n - known
    return list(S.split(x, sizes, axis, copy=True))  # paddle's pieces are copies


def chunk(x, chunks, axis=0, name=None):
    return split(x, chunks, axis)


def concat(x, axis=0, name=None):
    return S.concatenate(list(x), _int_axis(axis))


def stack(x, axis=0, name=None):
    return S.stack(list(x), axis)


def flip(x, axis, name=None):
    return S.flip(x, _axes(axis) if not isinstance(axis, int) else (axis,))


def tile(x, repeat_times, name=None):
    return S.tile(x, _ints(repeat_times))


def expand(x, shape, name=None):
    shape = _ints(shape)
    lead = len(shape) - x.array.ndim
    shape = tuple(x.array.shape[i - lead] if d == -1 else d for i, d in enumerate(shape))
    return S.broadcast_to(x, shape, copy=True)  # paddle's expand is a copy, writable


broadcast_to = expand


def expand_as(x, y, name=None):
    return S.broadcast_to(x, y.array.shape, copy=True)


# ---------------------------------------------------------------- indexing
def index_select(x, index, axis=0, name=None):
    return _eng("index", "index_select")(x, _int_axis(axis), index)


def gather(x, index, axis=None, name=None):
    """paddle.gather selects whole slices along ``axis`` (torch's index_select)."""
    return index_select(x, index, 0 if axis is None else _int_axis(axis))


def take_along_axis(arr, indices, axis, broadcast=True):
    if broadcast:
        return _eng("index", "take_along_axis")(arr, indices, axis)
    return _eng("index", "gather")(arr, axis, indices)


def masked_select(x, mask, name=None):
    return _eng("index", "masked_select")(x, mask)


# ---------------------------------------------------------------- Tensor methods
def _reflected(fn):
    def method(self, other):
        return fn(other, self)

    return method


def _eq(self, other):
    if other is None:
        return False
    return E.eq(self, other)


def _ne(self, other):
    if other is None:
        return True
    return E.ne(self, other)


def _invert(self):
    return E.logical_not(self) if self.array.dtype.kind == "b" else E.bitwise_not(self)


_METHODS = (
    "add subtract multiply divide floor_divide remainder mod pow maximum minimum clip where "
    "equal not_equal less_than less_equal greater_than greater_equal logical_and logical_or "
    "logical_xor bitwise_and bitwise_or bitwise_xor isclose allclose equal_all cast clone "
    "scale sum mean max min amax amin logsumexp prod argmax argmin var std norm cumsum "
    "matmul mm bmm mv outer dot t transpose squeeze unsqueeze flatten split chunk flip tile "
    "expand broadcast_to expand_as index_select gather take_along_axis masked_select"
).split() + list(_UNARY)


def attach_methods(cls) -> None:
    g = globals()
    for name in _METHODS:
        setattr(cls, name, g[name])
    cls.reshape = _reshape_method
    cls.__add__ = E.add
    cls.__radd__ = _reflected(E.add)
    cls.__sub__ = E.sub
    cls.__rsub__ = _reflected(E.sub)
    cls.__mul__ = E.mul
    cls.__rmul__ = _reflected(E.mul)
    cls.__truediv__ = E.div
    cls.__rtruediv__ = _reflected(E.div)
    cls.__floordiv__ = E.floor_divide
    cls.__rfloordiv__ = _reflected(E.floor_divide)
    cls.__mod__ = E.remainder
    cls.__rmod__ = _reflected(E.remainder)
    cls.__pow__ = E.pow
    cls.__rpow__ = _reflected(E.pow)
    cls.__matmul__ = matmul
    cls.__rmatmul__ = _reflected(matmul)
    cls.__neg__ = E.neg
    cls.__abs__ = E.abs
    cls.__invert__ = _invert
    cls.__and__ = E.logical_and
    cls.__or__ = E.logical_or
    cls.__xor__ = E.logical_xor
    cls.__eq__ = _eq
    cls.__ne__ = _ne
    cls.__lt__ = E.lt
    cls.__le__ = E.le
    cls.__gt__ = E.gt
    cls.__ge__ = E.ge
    cls.__getitem__ = _eng("index", "getitem")


attach_methods(Tensor)
