"""torch's op functions (``torch.add`` ...) and their ``Tensor`` method forms.

Each translates torch's argument names and defaults (``dim``/``keepdim``, also
the ``axis``/``keepdims`` aliases torch accepts) to an engine call, and names
the node where torch has several nodes for one engine op.
"""
from __future__ import annotations

from janusgrad.tensor import Tensor as EngineTensor
from janusgrad.views import mark_outputs

from . import _dtypes
from ._dialect import long_name
from ._grad_fn import tag
from ._ops import E, I, R, S, inplace, need
from ._tensor import MAX_T, MIN_T, Tensor, _cast, matmul

# ---------------------------------------------------------------- elementwise
# engine functions whose torch name and argument order agree: bound directly
_SAME = ("sub", "mul", "floor_divide", "remainder", "maximum", "minimum", "neg", "exp",
         "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "square", "abs", "sign",
         "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sigmoid",
         "relu", "reciprocal", "floor", "ceil", "round", "eq", "ne", "lt", "le", "gt", "ge",
         "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and",
         "bitwise_or", "bitwise_xor", "bitwise_not", "isnan", "isinf", "isfinite")
_ALIASES = {"multiply": "mul", "subtract": "sub", "negative": "neg", "absolute": "abs",
            "arcsin": "asin", "arccos": "acos", "arctan": "atan", "greater": "gt",
            "greater_equal": "ge", "less": "lt", "less_equal": "le", "not_equal": "ne"}
FUNCTIONS: dict = {name: getattr(E, name) for name in _SAME}
for _alias, _name in _ALIASES.items():
    FUNCTIONS[_alias] = FUNCTIONS[_name]


def add(input, other, *, alpha=1, out=None):  # noqa: A002
    if alpha != 1:
        other = E.mul(other, alpha)
    return E.add(input, other)


def sub(input, other, *, alpha=1, out=None):  # noqa: A002
    if alpha != 1:
        other = E.mul(other, alpha)
    return E.sub(input, other)


def div(input, other, *, rounding_mode=None, out=None):  # noqa: A002
    if rounding_mode is None:
        return E.div(input, other)
    if rounding_mode == "floor":
        return E.floor_divide(input, other)
    if rounding_mode == "trunc":
        q = E.div(input, other)
        r = E.where_(E.lt(q, 0), E.ceil(q), E.floor(q))
        exact = E.floor_divide(input, other)  # the dtype torch keeps for integer inputs
        return r if exact.array.dtype.kind == "f" else _cast(r, exact.dtype)
    raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                       f"but found '{rounding_mode}'")


def pow(input, exponent):  # noqa: A001
    if not isinstance(input, EngineTensor):
        return tag(E.pow(input, exponent), "PowBackward2")
    r = E.pow(input, exponent)
    return tag(r, "PowBackward1") if isinstance(exponent, EngineTensor) else r


def rsub(input, other, *, alpha=1):  # noqa: A002
    if alpha != 1:
        input = E.mul(input, alpha)  # torch: other - alpha * input
        return E.sub(other, input)
    return tag(E.sub(other, input), "RsubBackward0")


def clamp(input, min=None, max=None):  # noqa: A001, A002
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    return E.clamp(input, min, max)


def where(condition, input=None, other=None):  # noqa: A002
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    return E.where_(condition, input, other)


def nonzero(input, *, as_tuple=False):  # noqa: A002
    raise NotImplementedError("torchlike does not implement torch.nonzero")


FUNCTIONS.update(add=add, sub=sub, subtract=sub, div=div, divide=div, true_divide=E.div,
                 pow=pow, rsub=rsub, clamp=clamp, clip=clamp, where=where)


# ---------------------------------------------------------------- reductions
def _reduce_dims(dim, axis):
    d = axis if dim is None else dim
    if isinstance(d, list):
        d = tuple(d)
    return d


def sum(input, dim=None, keepdim=False, *, dtype=None, axis=None, keepdims=None):  # noqa: A001,A002
    if dim is None and axis is None and dtype is None and keepdims is None:
        return R.sum(input, None, keepdim)  # the loss's sum(), with nothing to translate
    d = _reduce_dims(dim, axis)
    r = R.sum(input, d, keepdims if keepdims is not None else keepdim,
              None if dtype is None else _dtypes.to_np(dtype))
    return r if d is None else tag(r, "SumBackward1")


def mean(input, dim=None, keepdim=False, *, dtype=None, axis=None, keepdims=None):  # noqa: A002
    if dtype is not None:
        input = _cast(input, dtype)
    elif input.array.dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {long_name(input.array.dtype)}")
    d = _reduce_dims(dim, axis)
    r = R.mean(input, d, keepdims if keepdims is not None else keepdim)
    return r if d is None else tag(r, "MeanBackward1")


def prod(input, dim=None, keepdim=False, *, dtype=None, axis=None, keepdims=None):  # noqa: A002
    if dtype is not None:
        input = _cast(input, dtype)
    d = _reduce_dims(dim, axis)
    r = need(R, "prod", "torch.prod")(input, d, keepdims if keepdims is not None else keepdim)
    return r if d is None else tag(r, "ProdBackward1")


def _extreme(name, pair, input, dim, keepdim, other):  # noqa: A002
    if isinstance(dim, EngineTensor):  # torch.max(a, b)
        other = dim
    if other is not None:
        return (E.maximum if name == "max" else E.minimum)(input, other)
    if dim is None:
        return tag(need(R, name, f"torch.{name}")(input), name.capitalize() + "Backward1")
    values = tag(need(R, name, f"torch.{name}")(input, dim, keepdim), name.capitalize()
                 + "Backward0")
    indices = need(R, "arg" + name, f"torch.arg{name}")(input, dim, keepdim)
    return pair((values, indices))


def max(input, dim=None, keepdim=False, *, other=None, axis=None, keepdims=None):  # noqa: A001,A002
    return _extreme("max", MAX_T, input, _reduce_dims(dim, axis),
                    keepdims if keepdims is not None else keepdim, other)


def min(input, dim=None, keepdim=False, *, other=None, axis=None, keepdims=None):  # noqa: A001,A002
    return _extreme("min", MIN_T, input, _reduce_dims(dim, axis),
                    keepdims if keepdims is not None else keepdim, other)


def amax(input, dim=(), keepdim=False, *, axis=None, keepdims=None):  # noqa: A002
    d = _reduce_dims(dim, axis)
    return tag(need(R, "amax", "torch.amax")(input, None if d == () else d,
                                            keepdims if keepdims is not None else keepdim),
               "AmaxBackward0")


def amin(input, dim=(), keepdim=False, *, axis=None, keepdims=None):  # noqa: A002
    d = _reduce_dims(dim, axis)
    return tag(need(R, "amin", "torch.amin")(input, None if d == () else d,
                                            keepdims if keepdims is not None else keepdim),
               "AminBackward0")


def argmax(input, dim=None, keepdim=False, *, axis=None, keepdims=None):  # noqa: A002
    return need(R, "argmax", "torch.argmax")(input, _reduce_dims(dim, axis),
                                            keepdims if keepdims is not None else keepdim)


def argmin(input, dim=None, keepdim=False, *, axis=None, keepdims=None):  # noqa: A002
    return need(R, "argmin", "torch.argmin")(input, _reduce_dims(dim, axis),
                                            keepdims if keepdims is not None else keepdim)


def _correction(unbiased, correction):
    if correction is not None:
        return correction
    if unbiased is None:
        return 1
    return 1 if unbiased else 0


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None, axis=None,  # noqa: A002
        keepdims=None):
    if isinstance(dim, bool):  # torch.var(x, False) is the unbiased flag
        dim, unbiased = None, dim
    return need(R, "var", "torch.var")(input, _reduce_dims(dim, axis),
                                      _correction(unbiased, correction),
                                      keepdims if keepdims is not None else keepdim)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None, axis=None,  # noqa: A002
        keepdims=None):
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    return need(R, "std", "torch.std")(input, _reduce_dims(dim, axis),
                                      _correction(unbiased, correction),
                                      keepdims if keepdims is not None else keepdim)


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):  # noqa: A002
    if p == "fro" or p is None:
        p = 2
    return need(R, "norm", "torch.norm")(input, p, _reduce_dims(dim, None), keepdim)


def logsumexp(input, dim, keepdim=False):  # noqa: A002
    return need(R, "logsumexp", "torch.logsumexp")(input, _reduce_dims(dim, None), keepdim)


def cumsum(input, dim, *, dtype=None):  # noqa: A002
    if dtype is not None:
        input = _cast(input, dtype)
    return need(R, "cumsum", "torch.cumsum")(input, dim)


def softmax(input, dim=None, dtype=None, *, _stacklevel=3):  # noqa: A002
    if dtype is not None:
        input = _cast(input, dtype)
    return need(R, "softmax", "torch.softmax")(input, dim)


def log_softmax(input, dim=None, dtype=None, *, _stacklevel=3):  # noqa: A002
    if dtype is not None:
        input = _cast(input, dtype)
    return need(R, "log_softmax", "torch.log_softmax")(input, dim)


FUNCTIONS.update(sum=sum, mean=mean, prod=prod, max=max, min=min, amax=amax, amin=amin,
                 argmax=argmax, argmin=argmin, var=var, std=std, norm=norm,
                 logsumexp=logsumexp, cumsum=cumsum, softmax=softmax, log_softmax=log_softmax)


# ---------------------------------------------------------------- linear algebra
def dot(input, tensor):  # noqa: A002
    a, b = input.array, tensor.array
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    return matmul(input, tensor)


def mm(input, mat2):  # noqa: A002
    if input.array.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if mat2.array.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    return matmul(input, mat2)


def bmm(input, mat2):  # noqa: A002
    if input.array.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if mat2.array.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if input.array.shape[0] != mat2.array.shape[0] or input.array.shape[2] != mat2.array.shape[1]:
        b, k = input.array.shape[0], input.array.shape[2]
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{b}, {k}] but got: [{mat2.array.shape[0]}, {mat2.array.shape[1]}].")
    return matmul(input, mat2)


def mv(input, vec):  # noqa: A002
    if input.array.ndim != 2 or vec.array.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.array.ndim}, "
                           f"{vec.array.ndim}")
    return matmul(input, vec)


def outer(input, vec2):  # noqa: A002
    for name, t in (("self", input), ("vec2", vec2)):
        if t.array.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.array.ndim}-D")
    return tag(E.mul(S.reshape(input, (-1, 1)), vec2), "MulBackward0")


def t(input):  # noqa: A002
    n = input.array.ndim
    if n > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {n}D")
    if n < 2:
        return input
    return tag(S.transpose(input, (1, 0)), "TBackward0")


FUNCTIONS.update(matmul=matmul, dot=dot, inner=dot, mm=mm, bmm=bmm, mv=mv, outer=outer,
                 ger=outer, t=t)


# ---------------------------------------------------------------- shape
def _shape_args(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return tuple(shape[0])
    return shape


def _resolve(shape, size):
    """torch's -1 in a target shape, and its 'invalid shape' error."""
    shape = tuple(int(s) for s in shape)
    if -1 in shape:
        known = 1
        for s in shape:
            if s != -1:
                known *= s
        if known and size % known == 0:
            shape = tuple(size // known if s == -1 else s for s in shape)
    n = 1
    for s in shape:
        n *= s
    if n != size or shape.count(-1):
        raise RuntimeError(f"shape '[{', '.join(str(s) for s in shape)}]' is invalid for input "
                           f"of size {size}")
    return shape


def reshape(input, *shape):  # noqa: A002
    return S.reshape(input, _resolve(_shape_args(shape), input.array.size))


def flatten(input, start_dim=0, end_dim=-1):  # noqa: A002
    if input.array.ndim == 0:
        return S.reshape(input, (1,))
    return S.flatten(input, input._axis(start_dim), input._axis(end_dim))


def squeeze(input, dim=None):  # noqa: A002
    if dim is None:
        return tag(S.squeeze(input), "SqueezeBackward0")
    if isinstance(dim, (tuple, list)):
        dims = tuple(input._axis(d) for d in dim)
        return tag(S.squeeze(input, dims), "SqueezeBackward2")
    return tag(S.squeeze(input, input._axis(dim)), "SqueezeBackward1")


def unsqueeze(input, dim):  # noqa: A002
    n = input.array.ndim + 1
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         f"but got {dim})")
    return tag(S.unsqueeze(input, dim + n if dim < 0 else dim), "UnsqueezeBackward0")


def transpose(input, dim0, dim1):  # noqa: A002
    a, b = input._axis(dim0), input._axis(dim1)
    axes = list(range(input.array.ndim))
    axes[a], axes[b] = axes[b], axes[a]
    return tag(S.transpose(input, axes), "TransposeBackward0")


def permute(input, *dims):  # noqa: A002
    dims = _shape_args(dims)
    return S.transpose(input, tuple(input._axis(d) for d in dims))


def expand(input, *sizes):  # noqa: A002
    return S.broadcast_to(input, _shape_args(sizes))


def broadcast_to(input, size):  # noqa: A002
    return S.broadcast_to(input, tuple(size))


def cat(tensors, dim=0, *, axis=None, out=None):
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    return S.concatenate(list(tensors), axis if axis is not None else dim)


def stack(tensors, dim=0, *, out=None):
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    return S.stack(list(tensors), dim)


def split(tensor, split_size_or_sections, dim=0):
    n = tensor.array.shape[tensor._axis(dim)]
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        sizes = [step] * (n // step) + ([n % step] if n % step else [])
        name = "SplitBackward0"
    else:
        sizes = list(split_size_or_sections)
        name = "SplitWithSizesBackward0"
    parts = S.split(tensor, sizes, dim)
    mark_outputs(parts, name[:-len("Backward0")])  # (torch names it so in-place errors)
    return tuple(tag(p, name) for p in parts)


def chunk(input, chunks, dim=0):  # noqa: A002
    n = input.array.shape[input._axis(dim)]
    step = -(-n // chunks) if n else 1
    return split(input, step, dim)


def flip(input, *dims):  # noqa: A002
    dims = tuple(input._axis(d) for d in _shape_args(dims))
    for i, d in enumerate(dims):
        if d in dims[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return S.flip(input, dims)


def repeat(input, *sizes):  # noqa: A002
    sizes = _shape_args(sizes)
    x = input
    if len(sizes) > x.array.ndim:
        x = S.reshape(x, (1,) * (len(sizes) - x.array.ndim) + x.array.shape)
    return tag(S.tile(x, sizes), "RepeatBackward0")


def tile(input, dims):  # noqa: A002
    dims = tuple(dims)
    if len(dims) < input.array.ndim:
        dims = (1,) * (input.array.ndim - len(dims)) + dims
    return repeat(input, dims)


def swapaxes(input, axis0, axis1):  # noqa: A002
    return transpose(input, axis0, axis1)


FUNCTIONS.update(reshape=reshape, flatten=flatten, squeeze=squeeze, unsqueeze=unsqueeze,
                 transpose=transpose, swapaxes=swapaxes, swapdims=swapaxes, permute=permute,
                 broadcast_to=broadcast_to, cat=cat, concat=cat, concatenate=cat, stack=stack,
                 split=split, chunk=chunk, flip=flip, tile=tile)


# ---------------------------------------------------------------- indexing
def index_select(input, dim, index):  # noqa: A002
    return tag(need(I, "index_select", "torch.index_select")(input, input._axis(dim), index),
               "IndexSelectBackward0")


def gather(input, dim, index, *, sparse_grad=False):  # noqa: A002
    return tag(need(I, "gather", "torch.gather")(input, input._axis(dim), index),
               "GatherBackward0")


def masked_select(input, mask):  # noqa: A002
    return tag(need(I, "masked_select", "torch.masked_select")(input, mask),
               "MaskedSelectBackward0")


FUNCTIONS.update(index_select=index_select, gather=gather, masked_select=masked_select)


# ---------------------------------------------------------------- comparisons of whole tensors
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:  # noqa: A002
    return bool(isclose(input, other, rtol, atol, equal_nan).array.all())


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):  # noqa: A002
    diff = E.abs(E.sub(input, other))
    tol = E.add(E.mul(E.abs(other), rtol), atol)
    close = E.logical_or(E.eq(input, other), E.le(diff, tol))
    if equal_nan:
        close = E.logical_or(close, E.logical_and(E.isnan(input), E.isnan(other)))
    return close


def equal(input, other) -> bool:  # noqa: A002
    if input.array.shape != other.array.shape:
        return False
    return bool(E.eq(input, other).array.all())


def is_tensor(obj) -> bool:
    return isinstance(obj, EngineTensor)


def numel(input) -> int:  # noqa: A002
    return input.array.size


def is_floating_point(input) -> bool:  # noqa: A002
    return input.array.dtype.kind == "f"


FUNCTIONS.update(allclose=allclose, isclose=isclose, equal=equal)


# ---------------------------------------------------------------- Tensor methods
_NOT_METHODS = {"where", "cat", "concat", "concatenate", "stack", "ger", "rsub", "broadcast_to"}


def _unary_inplace(fn):
    def method(self):
        return inplace.update(self, fn)

    return method


def _install() -> None:
    for name, fn in FUNCTIONS.items():
        if name not in _NOT_METHODS and not hasattr(EngineTensor, name):
            setattr(Tensor, name, fn)
    Tensor.view = reshape
    Tensor.multiply = E.mul
    Tensor.broadcast_to = broadcast_to
    Tensor.expand = expand
    Tensor.expand_as = lambda self, other: expand(self, other.array.shape)
    Tensor.view_as = lambda self, other: reshape(self, other.array.shape)
    Tensor.reshape_as = Tensor.view_as
    Tensor.repeat = repeat
    Tensor.where = lambda self, condition, other: E.where_(condition, self, other)
    Tensor.T = property(lambda self: S.transpose(self))
    Tensor.mT = property(lambda self: transpose(self, -2, -1))
    for name in ("neg", "exp", "log", "sqrt", "abs", "sigmoid", "tanh", "relu", "floor",
                 "ceil", "round", "reciprocal", "sin", "cos", "square"):
        setattr(Tensor, name + "_", _unary_inplace(FUNCTIONS[name]))


_install()
