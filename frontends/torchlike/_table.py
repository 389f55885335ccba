"""torch's op surface as a table: one row per public name (see janusgrad.surface).

A row gives the engine function, torch's parameter list, the engine call, the forms (``f``
``torch.name``, ``m`` ``Tensor.name``, ``i`` ``Tensor.name_``) and the grad-node name; every
row also takes torch's ``axis=`` / ``keepdims=`` for ``dim`` / ``keepdim``.  The functions
above the table are hand-written because torch's semantics differ there, each says how.
"""
from __future__ import annotations

from janusgrad import composite as K
from janusgrad.args import axes_tuple, chunk_step, infer_shape, sizes_of_step
from janusgrad.backend import is_array
from janusgrad.ops.shape import checked_axis
from janusgrad.surface import Row, install
from janusgrad.tensor import Tensor as EngineTensor
from janusgrad.views import mark_outputs

from . import _dtypes
from ._dialect import TORCH, long_name
from ._grad_fn import tag
from ._ops import E, I, R, S, inplace
from ._tensor import MAX_T, MIN_T, Tensor, _cast, matmul


# ---------------------------------------------------------------- argument helpers (calls)
def _alpha(v, alpha):
    if alpha == 1:
        return v
    return E.mul(v, alpha) if isinstance(v, EngineTensor) else v * alpha


def _all_if_empty(dim):
    return None if dim == () else axes_tuple(dim)


def _cast_to(t, dtype):
    return t if dtype is None else _cast(t, dtype)


def _np(dtype):
    return None if dtype is None else _dtypes.to_np(dtype)


def _float_input(t, dtype):
    if dtype is not None:
        return _cast(t, dtype)
    if t.array.dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {long_name(t.array.dtype)}")
    return t


def _var_args(dim, unbiased, correction):
    if isinstance(dim, bool):  # torch.var(x, False) is the unbiased flag
        dim, unbiased = None, dim
    if correction is None:
        correction = 0 if unbiased is False else 1
    return axes_tuple(dim), correction


def _ord(p):
    return 2 if p == "fro" or p is None else p


def _bounds(min, max):  # noqa: A002
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    return min, max


def _shape_args(shape):
    """``f(2, 3)`` and ``f((2, 3))`` / ``f([2, 3])`` / ``f(torch.Size)`` alike."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return tuple(shape[0])
    return shape


def _target(t, shape):
    shape = _shape_args(shape)
    size = t.array.size
    resolved = infer_shape(shape, size)
    if resolved is None:
        raise TORCH.invalid("reshape", "", shape=tuple(int(s) for s in shape), size=size)
    return resolved


def _swapped(t, dim0, dim1):
    a, b = t._axis(dim0), t._axis(dim1)
    axes = list(range(t.array.ndim))
    axes[a], axes[b] = axes[b], axes[a]
    return axes


def _axes_of(t, dims):
    return tuple(t._axis(d) for d in _shape_args(dims))


def _distinct_axes(t, dims):
    dims = _axes_of(t, dims)
    for i, d in enumerate(dims):
        if d in dims[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return dims


def _squeeze_axes(t, dim):
    if dim is None:
        return None
    if isinstance(dim, (tuple, list)):
        return tuple(t._axis(d) for d in dim)
    return t._axis(dim)


def _squeeze_node(dim):
    if dim is None:
        return "SqueezeBackward0"
    return "SqueezeBackward2" if isinstance(dim, (tuple, list)) else "SqueezeBackward1"


_EMPTY = {"cat": lambda: ValueError("torch.cat(): expected a non-empty list of Tensors"),
          "stack": lambda: RuntimeError("stack expects a non-empty TensorList")}


def _some(tensors, op):
    if not tensors:
        raise _EMPTY[op]()
    return list(tensors)


def _w(other):
    """A numpy array on the left of an operator becomes a tensor (numpy defers to us)."""
    return Tensor.wrap(other) if is_array(other) else other


# ---------------------------------------------------------------- hand-written ops
def _divide(input, other, rounding_mode=None):  # noqa: A002
    # torch's rounding modes; trunc keeps an integer dtype for integer inputs
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


def pow(input, exponent):  # noqa: A001, A002
    # torch names the node by the operands' kinds (tensor ** tensor, scalar ** tensor)
    if not isinstance(input, EngineTensor):
        return tag(E.pow(input, exponent), "PowBackward2")
    r = E.pow(input, exponent)
    return tag(r, "PowBackward1") if isinstance(exponent, EngineTensor) else r


def where(condition, input=None, other=None):  # noqa: A002
    # torch.where(condition) alone is nonzero(as_tuple=True)
    if input is None and other is None:
        raise NotImplementedError("torchlike does not implement torch.nonzero")
    return E.where_(condition, input, other)


def _extreme(name, pair, input, dim, keepdim, other):  # noqa: A002
    # torch.max is three ops: the whole maximum, (values, indices) along dim, and maximum
    if isinstance(dim, EngineTensor):  # torch.max(a, b)
        other = dim
    if other is not None:
        return (E.maximum if name == "max" else E.minimum)(input, other)
    dim = axes_tuple(dim)
    if dim is None:
        return tag(getattr(R, name)(input), name.capitalize() + "Backward1")
    # along a dim the gradient goes to the returned index only (amax/amin share it)
    values, indices = getattr(R, name + "_along")(input, dim, keepdim)
    return pair((tag(values, name.capitalize() + "Backward0"), indices))


def max(input, dim=None, keepdim=False, *, other=None, axis=None, keepdims=None):  # noqa: A001,A002
    return _extreme("max", MAX_T, input, axis if dim is None else dim,
                    keepdims if keepdims is not None else keepdim, other)


def min(input, dim=None, keepdim=False, *, other=None, axis=None, keepdims=None):  # noqa: A001,A002
    return _extreme("min", MIN_T, input, axis if dim is None else dim,
                    keepdims if keepdims is not None else keepdim, other)


# torch's products check the operands' ranks first, each in its own words
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
    a, b = input.array.shape, mat2.array.shape
    if len(a) != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if len(b) != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if a[0] != b[0] or a[2] != b[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{a[0]}, {a[2]}] but got: [{b[0]}, {b[1]}].")
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
    # torch's t(): 0-d and 1-d tensors are their own transpose
    n = input.array.ndim
    if n > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {n}D")
    return input if n < 2 else tag(S.transpose(input, (1, 0)), "TBackward0")


def split(tensor, split_size_or_sections, dim=0):
    # torch names the pieces' node by the kind of request (in-place errors say it too)
    if isinstance(split_size_or_sections, int):
        sizes = sizes_of_step(tensor.array.shape[tensor._axis(dim)], split_size_or_sections)
        name = "SplitBackward0"
    else:
        sizes, name = list(split_size_or_sections), "SplitWithSizesBackward0"
    parts = S.split(tensor, sizes, dim)
    mark_outputs(parts, name[:-len("Backward0")])
    return tuple(tag(p, name) for p in parts)


def chunk(input, chunks, dim=0):  # noqa: A002
    return split(input, chunk_step(input.array.shape[input._axis(dim)], chunks), dim)


def repeat(input, *sizes):  # noqa: A002
    # torch's repeat adds leading axes to the tensor (numpy's tile to the counts)
    sizes = _shape_args(sizes)
    x = input
    if len(sizes) > x.array.ndim:
        x = S.reshape(x, (1,) * (len(sizes) - x.array.ndim) + x.array.shape)
    return tag(S.tile(x, sizes), "RepeatBackward0")


def tile(input, dims):  # noqa: A002
    dims = tuple(dims)
    return repeat(input, (1,) * (input.array.ndim - len(dims)) + dims)


def is_tensor(obj) -> bool:
    return isinstance(obj, EngineTensor)


def numel(input) -> int:  # noqa: A002
    return input.array.size


def is_floating_point(input) -> bool:  # noqa: A002
    return input.array.dtype.kind == "f"


# ---------------------------------------------------------------- the table
_BINARY = "input, other, *, alpha=1, out=None"
_REDUCE = "input, dim=None, keepdim=False, *, dtype=None"
_SOFTMAX = "input, dim=None, dtype=None, *, _stacklevel=3"
_CLOSE = "input, other, rtol=1e-05, atol=1e-08, equal_nan=False"
_BY_WEIGHT = "'{0}Backward1' if isinstance({1}, _T) else '{0}Backward0'"


def _rows(names: str, fn_of, forms: str = "fm", **aliases) -> list[Row]:
    """Rows binding engine functions of the same name directly (``aliases``: alias=name)."""
    back: dict = {}
    for alias, name in aliases.items():
        back.setdefault(name, []).append(alias)
    return [Row(n, f"{fn_of.__name__}.{n}", forms=forms, aliases=tuple(back.get(n, ())))
            for n in names.split()]


ROWS = [
    # elementwise: engine op, torch name and argument order agree
    *_rows("neg exp expm1 log log2 log10 log1p sqrt rsqrt square abs sign sin cos tan asin "
           "acos atan sinh cosh tanh sigmoid relu reciprocal floor ceil round mul remainder "
           "floor_divide", E, "fmi", multiply="mul", negative="neg", absolute="abs",
           arcsin="asin", arccos="acos", arctan="atan"),
    *_rows("maximum minimum eq ne lt le gt ge logical_and logical_or logical_xor logical_not "
           "bitwise_and bitwise_or bitwise_xor bitwise_not isnan isinf isfinite", E,
           greater="gt", greater_equal="ge", less="lt", less_equal="le", not_equal="ne"),
    Row("add", E.add, _BINARY, "input, _alpha(other, alpha)", "fmi"),
    Row("sub", E.sub, _BINARY, "input, _alpha(other, alpha)", "fmi", ("subtract",)),
    Row("rsub", E.sub, "input, other, *, alpha=1", "other, _alpha(input, alpha)", "f",
        node="'RsubBackward0' if alpha == 1 else None"),
    Row("div", _divide, "input, other, *, rounding_mode=None, out=None",
        "input, other, rounding_mode", "fmi", ("divide",)),
    Row("true_divide", E.div, forms="fmi"),
    Row("trunc", "elementwise.trunc", forms="fmi", aliases=("fix",)),
    Row("pow", pow, forms="fmi"),
    Row("clamp", E.clamp, "input, min=None, max=None", "input, *_bounds(min, max)", "fmi",
        ("clip",)),
    Row("clamp_min", E.clamp, "input, min", "input, min, None", "fmi", node="ClampMinBackward0"),
    Row("clamp_max", E.clamp, "input, max", "input, None, max", "fmi", node="ClampMaxBackward0"),
    Row("where", where, forms="f"),
    Row("where", E.where_, "self, condition, other", "condition, self, other", "m"),
    Row("lerp", K.lerp, "input, end, weight", forms="fmi",
        node=_BY_WEIGHT.format("Lerp", "weight")),
    Row("addcmul", K.addcmul, "input, tensor1, tensor2, *, value=1", forms="fmi",
        node="AddcmulBackward0"),
    Row("addcdiv", K.addcdiv, "input, tensor1, tensor2, *, value=1", forms="fmi",
        node="AddcdivBackward0"),
    Row("masked_fill", K.masked_fill, "input, mask, value", forms="fmi",
        node=_BY_WEIGHT.format("MaskedFill", "value")),
    Row("isclose", K.isclose, _CLOSE),
    Row("allclose", K.allclose, _CLOSE),
    Row("equal", K.all_equal, "input, other"),
    # reductions
    Row("sum", R.sum, _REDUCE, "input, axes_tuple(dim), keepdim, dtype and _np(dtype)",
        node="'SumBackward1' if dim is not None else None"),
    Row("mean", R.mean, _REDUCE, "_float_input(input, dtype), axes_tuple(dim), keepdim",
        node="'MeanBackward1' if dim is not None else None"),
    Row("prod", R.prod, _REDUCE, "_cast_to(input, dtype), axes_tuple(dim), keepdim",
        node="'ProdBackward1' if dim is not None else None"),
    Row("max", max), Row("min", min),
    Row("amax", R.amax, "input, dim=(), keepdim=False", "input, _all_if_empty(dim), keepdim",
        node="AmaxBackward0"),
    Row("amin", R.amin, "input, dim=(), keepdim=False", "input, _all_if_empty(dim), keepdim",
        node="AminBackward0"),
    Row("argmax", R.argmax, "input, dim=None, keepdim=False", "input, axes_tuple(dim), keepdim"),
    Row("argmin", R.argmin, "input, dim=None, keepdim=False", "input, axes_tuple(dim), keepdim"),
    Row("var", R.var, "input, dim=None, unbiased=None, keepdim=False, *, correction=None",
        "input, *_var_args(dim, unbiased, correction), keepdim"),
    Row("std", R.std, "input, dim=None, unbiased=None, keepdim=False, *, correction=None",
        "input, *_var_args(dim, unbiased, correction), keepdim"),
    Row("norm", R.norm, "input, p='fro', dim=None, keepdim=False, dtype=None",
        "input, _ord(p), axes_tuple(dim), keepdim"),
    Row("logsumexp", R.logsumexp, "input, dim, keepdim=False", "input, axes_tuple(dim), keepdim"),
    Row("cumsum", R.cumsum, "input, dim, *, dtype=None", "_cast_to(input, dtype), dim"),
    Row("softmax", R.softmax, _SOFTMAX, "_cast_to(input, dtype), dim"),
    Row("log_softmax", R.log_softmax, _SOFTMAX, "_cast_to(input, dtype), dim"),
    # linear algebra
    Row("matmul", matmul), Row("dot", dot, aliases=("inner",)), Row("mm", mm), Row("bmm", bmm),
    Row("mv", mv), Row("outer", outer, aliases=("ger",)), Row("t", t),
    # shape
    Row("reshape", S.reshape, "input, *shape", "input, _target(input, shape)"),
    Row("view", S.reshape, "input, *shape", "input, _target(input, shape)", "m"),
    Row("view_as", S.reshape, "self, other", "self, other.array.shape", "m", ("reshape_as",)),
    Row("flatten", S.flatten, "input, start_dim=0, end_dim=-1",
        "input, input._axis(start_dim), input._axis(end_dim)"),
    Row("squeeze", S.squeeze, "input, dim=None", "input, _squeeze_axes(input, dim)",
        node="_squeeze_node(dim)"),
    Row("unsqueeze", S.unsqueeze, "input, dim",
        "input, checked_axis(input, 'unsqueeze', dim, input.array.ndim + 1)",
        node="UnsqueezeBackward0"),
    Row("transpose", S.transpose, "input, dim0, dim1", "input, _swapped(input, dim0, dim1)",
        node="TransposeBackward0"),
    Row("swapaxes", S.transpose, "input, axis0, axis1", "input, _swapped(input, axis0, axis1)",
        aliases=("swapdims",), node="TransposeBackward0"),
    Row("permute", S.transpose, "input, *dims", "input, _axes_of(input, dims)"),
    Row("expand", S.broadcast_to, "input, *sizes", "input, _shape_args(sizes)", "m"),
    Row("expand_as", S.broadcast_to, "self, other", "self, other.array.shape", "m"),
    Row("broadcast_to", S.broadcast_to, "input, size", "input, tuple(size)"),
    Row("cat", S.concatenate, "tensors, dim=0, *, axis=None, out=None",
        "_some(tensors, 'cat'), axis if axis is not None else dim", "f",
        ("concat", "concatenate")),
    Row("stack", S.stack, "tensors, dim=0, *, out=None", "_some(tensors, 'stack'), dim", "f"),
    Row("split", split), Row("chunk", chunk), Row("repeat", repeat, forms="m"),
    Row("tile", tile),
    Row("flip", S.flip, "input, *dims", "input, _distinct_axes(input, dims)"),
    # indexing
    Row("index_select", I.index_select, "input, dim, index", "input, input._axis(dim), index",
        node="IndexSelectBackward0"),
    Row("gather", I.gather, "input, dim, index, *, sparse_grad=False",
        "input, input._axis(dim), index", node="GatherBackward0"),
    Row("masked_select", I.masked_select, node="MaskedSelectBackward0"),
    # operators: bound to the engine function itself where nothing needs translating
    *[Row(f"__{n}__", getattr(E, op), forms="m") for n, op in (
        ("add", "add"), ("sub", "sub"), ("mul", "mul"), ("truediv", "div"),
        ("floordiv", "floor_divide"), ("mod", "remainder"), ("neg", "neg"), ("abs", "abs"),
        ("invert", "bitwise_not"), ("eq", "eq"), ("ne", "ne"), ("lt", "lt"), ("le", "le"),
        ("gt", "gt"), ("ge", "ge"))],
    *[Row(f"__{n}__", getattr(E, op), forms="m", aliases=(f"__r{n}__",))
      for n, op in (("and", "bitwise_and"), ("or", "bitwise_or"), ("xor", "bitwise_xor"))],
    Row("__pow__", pow, forms="m"), Row("__matmul__", matmul, forms="m"),
    *[Row(f"__r{n}__", fn, "self, other", "_w(other), self", "m", node=node) for n, fn, node in (
        ("add", E.add, None), ("sub", E.sub, "RsubBackward1"), ("mul", E.mul, None),
        ("truediv", E.div, "MulBackward0"), ("floordiv", E.floor_divide, None),
        ("mod", E.remainder, None), ("pow", pow, None), ("matmul", matmul, None))],
    # in-place operators: torch updates the tensor object itself
    *[Row(f"__i{n}__", fn, forms="i", inplace=f"__i{n}__") for n, fn in (
        ("add", E.add), ("sub", E.sub), ("mul", E.mul), ("truediv", E.div),
        ("floordiv", E.floor_divide), ("mod", E.remainder), ("pow", E.pow),
        ("matmul", matmul), ("and", E.bitwise_and), ("or", E.bitwise_or),
        ("xor", E.bitwise_xor))],
]

FUNCTIONS: dict = {}
INSTALLED = install(ROWS, FUNCTIONS, Tensor, module="torch", tag=tag, inplace=inplace.update,
                    env={"_alpha": _alpha, "_all_if_empty": _all_if_empty, "_T": EngineTensor,
                         "_cast_to": _cast_to, "_np": _np, "_float_input": _float_input,
                         "_var_args": _var_args, "_ord": _ord, "_bounds": _bounds,
                         "_shape_args": _shape_args, "_target": _target, "_swapped": _swapped,
                         "_axes_of": _axes_of, "_distinct_axes": _distinct_axes,
                         "_squeeze_axes": _squeeze_axes, "_squeeze_node": _squeeze_node,
                         "_some": _some, "_w": _w, "axes_tuple": axes_tuple,
                         "checked_axis": checked_axis},
                    kw_aliases={"dim": "axis", "keepdim": "keepdims"})


def __pos__(self):
    return self  # +x is x itself in torch


Tensor.__pos__ = __pos__
Tensor.T = property(lambda self: S.transpose(self))
Tensor.mT = property(lambda self: FUNCTIONS["transpose"](self, -2, -1))
