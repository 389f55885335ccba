"""paddle 3.3.1's tensor functions and Tensor methods as one table over engine ops.

``ROWS`` has one ``janusgrad.surface.Row`` per public name (paddle's parameter names and
defaults, the engine call, function / method / in-place forms); ``tensor.py`` installs it
onto ``Tensor`` and the package namespace.  The functions written out below are the ones
whose semantics differ from the engine op's; each says how.
"""
from __future__ import annotations

import builtins

from janusgrad import args as A
from janusgrad.mode import no_grad as _engine_no_grad
from janusgrad.ops import elementwise as E
from janusgrad.ops import index as I
from janusgrad.ops import linalg as L
from janusgrad.ops import reduce as R
from janusgrad.ops import shape as S
from janusgrad.surface import Row
from janusgrad.tensor import Tensor as _EngineTensor

from .dialect import matmul_error, norm_axis_error, reduce_axis_error, reshape_error
from .meta import to_np


# ---------------------------------------------------------------- argument helpers
def _axes(axis):
    """paddle axis arguments (int, list, tuple, Tensor) as an engine axis."""
    return A.axes_tuple(axis.array.tolist() if isinstance(axis, _EngineTensor) else axis)


def _ints(shape) -> tuple:
    """A paddle shape argument (int, list/tuple of ints or 0-d Tensors, Tensor) as ints."""
    if isinstance(shape, _EngineTensor):
        return tuple(int(v) for v in shape.array.reshape(-1).tolist())
    if isinstance(shape, int):
        return (shape,)
    return tuple(int(s.array) if isinstance(s, _EngineTensor) else int(s) for s in shape)


def _int_axis(axis):
    return int(axis.array) if isinstance(axis, _EngineTensor) else axis


def _checked_axes(x, axis, error) -> tuple | int | None:
    """``axis`` as an engine axis; paddle's error for the first one out of range (the
    engine's own check cannot tell paddle's kernels apart)."""
    axis = _axes(axis)
    nd = x.array.ndim
    for a in (() if axis is None else axis if isinstance(axis, tuple) else (axis,)):
        if nd and not -nd <= a < nd:
            raise error(a)
    return axis


def _reduce_axes(x, axis, dim, lines=None):
    """A reduction's axis (``dim`` is paddle's alias), checked where paddle words it."""
    axis = dim if dim is not None else axis
    if lines is None:
        return _axes(axis)
    return _checked_axes(x, axis, lambda a: reduce_axis_error(a, x.array.ndim, lines))


# ---------------------------------------------------------------- hand-written: semantics
def clip(x, min=None, max=None, name=None):  # noqa: A002
    return x if min is None and max is None else E.clamp(x, min, max)  # no bounds: x itself


def _all_true(c):
    """0-d bool: every element of the bool tensor ``c`` is True."""
    return E.eq(R.sum(E.logical_not(c)), 0)


def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    # kept until the neutral composite (janusgrad.composite) lands
    with _engine_no_grad():
        close = E.le(E.abs(E.sub(x, y)), E.add(E.mul(E.abs(y), rtol), atol))
        if equal_nan:
            close = E.logical_or(close, E.logical_and(E.isnan(x), E.isnan(y)))
        return close


def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    with _engine_no_grad():
        return _all_true(isclose(x, y, rtol, atol, equal_nan))


def equal_all(x, y, name=None):  # shapes that differ are "not equal", not an error
    with _engine_no_grad():
        if x.array.shape != y.array.shape:
            return type(x).wrap(E.as_out(False))
        return _all_true(E.eq(x, y))


def _scale(x, scale, bias, bias_after_scale):  # paddle's scale op: x * s + b or (x + b) * s
    if bias_after_scale:
        return E.add(E.mul(x, scale), bias) if bias else E.mul(x, scale)
    return E.mul(E.add(x, bias), scale)


def is_tensor(x) -> bool:
    return isinstance(x, _EngineTensor)


def numel(x, name=None):
    return x.numel()


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
    out = R.mean(x, _axes(dim if dim is not None else axis), keepdim)
    if x.array.dtype.kind in "iub":
        out = E.cast(out, x.array.dtype)  # paddle truncates the mean of an int tensor
    return out


def prod(x, axis=None, keepdim=False, dtype=None, name=None):
    out = R.prod(x, axis=_axes(axis), keepdims=keepdim)
    if dtype is None and out.array.dtype != x.array.dtype:
        return E.cast(out, x.array.dtype)  # paddle keeps an integer input's dtype
    return out if dtype is None else E.cast(out, to_np(dtype))


def _arg_reduce(op, x, axis, keepdim, dtype):  # argmax/argmin: paddle's index dtype
    out = op(x, axis=axis, keepdims=keepdim)
    return out if to_np(dtype) == out.array.dtype else E.cast(out, to_np(dtype))


def norm(x, p=None, axis=None, keepdim=False, name=None):  # p=None / "fro": the 2-norm
    axis = _checked_axes(x, axis, lambda a: norm_axis_error(a, x.array.shape))
    return R.norm(x, 2 if p is None or p == "fro" else p, axis=axis, keepdims=keepdim)


def cumsum(x, axis=None, dtype=None, name=None):  # axis None: over the flattened tensor
    if dtype is not None:
        x = E.cast(x, to_np(dtype))
    if axis is None:
        x, axis = S.flatten(x), 0
    return R.cumsum(x, axis)


def _swap_last(x):
    return S.swapaxes(x, -1, -2) if x.array.ndim > 1 else x


def matmul(x, y, transpose_x=False, transpose_y=False, name=None):  # transpose flags
    a, b = x.array.shape, y.array.shape
    if transpose_x:
        x = _swap_last(x)
    if transpose_y:
        y = _swap_last(y)
    ta, tb = x.array.shape, y.array.shape
    if ta and tb and ta[-1] != (tb[-2] if len(tb) > 1 else tb[0]):
        raise matmul_error(a, b, transpose_x, transpose_y)
    return L.matmul(x, y)


def dot(x, y, name=None):
    """paddle.dot: inner product of vectors, row-wise for 2-D inputs."""
    if x.array.shape != y.array.shape:
        raise RuntimeError(
            "(PreconditionNotMet) ShapeError: The shape of input tensor X: "
            f"[{', '.join(map(str, x.array.shape))}] should be exactly the same with input "
            f"tensor Y: [{', '.join(map(str, y.array.shape))}]\n  [Hint: Expected true == "
            "shape_match, but received true:1 != shape_match:0.] (at "
            "/paddle/paddle/phi/infermeta/binary.cc:1675)\n")
    if x.array.ndim == 2:
        return R.sum(E.mul(x, y), axis=-1)
    return L.dot(x, y)


def t(input, name=None):  # noqa: A002  (0-d and 1-d tensors come back as they are)
    return input if input.array.ndim < 2 else S.transpose(input, (1, 0))


def reshape(x, shape, name=None):
    shape = given = _ints(shape)
    # paddle: 0 copies the input's dim (then the engine's rule infers a -1)
    shape = tuple(x.array.shape[i] if d == 0 else d for i, d in enumerate(shape))
    if A.infer_shape(shape, x.array.size) is None:
        raise reshape_error(x.array.shape, shape, x.array.size)
    if given == x.array.shape:
        return x  # paddle: a reshape to its own shape, written out (no -1), is the input itself
    return S.reshape(x, shape)


def _reshape_method(self, *shape, name=None):  # x.reshape(2, 3) as well as x.reshape([2, 3])
    if len(shape) == 1 and not isinstance(shape[0], int):
        shape = shape[0]
    return reshape(self, shape)


def squeeze(x, axis=None, name=None):  # paddle's wording for an axis out of range
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


def unsqueeze(x, axis, name=None):  # paddle's wording for an axis out of range
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


def flatten(x, start_axis=0, stop_axis=-1, name=None):  # paddle's wording for bad axes
    nd = builtins.max(x.array.ndim, 1)
    for label, a in (("start_axis", start_axis), ("stop_axis", stop_axis)):
        if not isinstance(a, int) or not -nd <= a < nd:
            raise ValueError(f"The {label} should be a int, and in range [-rank(x), rank(x))")
    return S.flatten(x, start_axis, stop_axis)


def split(x, num_or_sections, axis=0, name=None):  # pieces are copies; paddle's wording
    axis = _int_axis(axis)
    n = x.array.shape[axis]
    if isinstance(num_or_sections, int):
        sizes = A.sizes_of_count(n, num_or_sections)
        if sizes is None:
            raise ValueError(
                f"(InvalidArgument) The input's size along the split dimension must be evenly "
                f"divisible by Attr(num_or_sections). But received Attr(num_or_sections) = "
                f"{num_or_sections}, input(X)'s shape = [{', '.join(map(str, x.array.shape))}], "
                f"Attr(dim) = {axis}.\n  [Hint: Expected input_axis_dim % num == 0, but "
                f"received input_axis_dim % num:{n % num_or_sections} != 0:0.] (at "
                "/paddle/paddle/phi/infermeta/unary.cc:5099)\n")
    else:
        sections = _ints(num_or_sections)
        sizes = A.sizes_with_rest(n, sections) or list(sections)  # the engine words a misfit
    return list(S.split(x, sizes, axis, copy=True))


def expand(x, shape, name=None):  # -1 keeps the input's dim; the result is a copy
    shape = _ints(shape)
    lead = len(shape) - x.array.ndim
    shape = tuple(x.array.shape[i - lead] if d == -1 else d for i, d in enumerate(shape))
    return S.broadcast_to(x, shape, copy=True)


def take_along_axis(arr, indices, axis, broadcast=True):  # broadcast=False: torch's gather
    if broadcast:
        return I.take_along_axis(arr, indices, axis)
    return I.gather(arr, axis, indices)


def _eq(self, other):  # x == None is False, not an error
    return False if other is None else E.eq(self, other)


def _ne(self, other):
    return True if other is None else E.ne(self, other)


def _invert(self):  # ~ is logical on bool tensors, bitwise on integers
    return E.logical_not(self) if self.array.dtype.kind == "b" else E.bitwise_not(self)


# ---------------------------------------------------------------- the table
ENV = {"_axes": _axes, "_ints": _ints, "_int_axis": _int_axis, "to_np": to_np,
       "_reduce_axes": _reduce_axes, "R": R}
_X = "x, name=None"
_XY = "x, y, name=None"
_RED = "x, axis=None, keepdim=False, name=None, *, dim=None"
_INPLACE_UNARY = frozenset(
    "neg exp log log2 log10 log1p sqrt rsqrt square abs sin cos tan asin acos atan sinh cosh "
    "tanh sigmoid reciprocal floor ceil round".split())

ROWS = [
    # elementwise, binary (paddle name, engine op, in-place where paddle has it)
    Row("add", "elementwise.add", _XY, "x, y", "fmi"),
    Row("subtract", "elementwise.sub", _XY, "x, y", "fmi"),
    Row("multiply", "elementwise.mul", _XY, "x, y", "fmi"),
    Row("divide", "elementwise.div", _XY, "x, y", "fmi"),
    Row("floor_divide", "elementwise.floor_divide", _XY, "x, y", "fmi"),
    Row("remainder", "elementwise.remainder", _XY, "x, y", "fmi", ("mod", "floor_mod")),
    Row("pow", "elementwise.pow", _XY, "x, y", "fmi"),
    Row("maximum", "elementwise.maximum", _XY, "x, y"),
    Row("minimum", "elementwise.minimum", _XY, "x, y"),
    # elementwise, unary
    *(Row(n, f"elementwise.{n}", _X, "x", "fmi" if n in _INPLACE_UNARY else "fm") for n in (
        "neg exp expm1 log log2 log10 log1p sqrt rsqrt square abs sign sin cos tan asin acos "
        "atan sinh cosh tanh sigmoid reciprocal floor ceil round isnan isinf isfinite "
        "logical_not bitwise_not").split()),
    Row("trunc", "elementwise.trunc", "input, name=None", "input", "fmi"),
    Row("clip", clip, "x, min=None, max=None, name=None", "x, min, max", "fmi"),
    Row("clamp", clip, "x, min=None, max=None, name=None", "x, min, max", "i"),  # clamp_ only
    Row("where", "elementwise.where_", "condition, x=None, y=None, name=None", "condition, x, y"),
    Row("scale", _scale, "x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None",
        "x, scale, bias, bias_after_scale", "fmi"),
    Row("cast", "elementwise.cast", "x, dtype", "x, to_np(dtype)"),
    Row("astype", "elementwise.cast", "x, dtype", "x, to_np(dtype)", "m"),
    Row("clone", "elementwise.clone", _X, "x"),
    # comparisons and logic
    Row("equal", "elementwise.eq", _XY, "x, y"),
    Row("not_equal", "elementwise.ne", _XY, "x, y"),
    Row("less_than", "elementwise.lt", _XY, "x, y", aliases=("less",)),
    Row("less_equal", "elementwise.le", _XY, "x, y"),
    Row("greater_than", "elementwise.gt", _XY, "x, y", aliases=("greater",)),
    Row("greater_equal", "elementwise.ge", _XY, "x, y"),
    *(Row(n, f"elementwise.{n}", _XY, "x, y") for n in (
        "logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor".split())),
    Row("isclose", isclose), Row("allclose", allclose), Row("equal_all", equal_all),
    Row("is_tensor", is_tensor, forms="f"), Row("numel", numel, forms="f"),
    # reductions
    Row("sum", sum), Row("mean", mean), Row("prod", prod), Row("norm", norm),
    Row("cumsum", cumsum),
    # paddle.max/min share the gradient among ties, as amax/amin do; their own error lines
    Row("max", "reduce.amax", _RED,
        "x, axis=_reduce_axes(x, axis, dim, (4180, 4190)), keepdims=keepdim"),
    Row("min", "reduce.amin", _RED,
        "x, axis=_reduce_axes(x, axis, dim, (4180, 4190)), keepdims=keepdim"),
    *(Row(n, f"reduce.{n}", _RED, "x, axis=_reduce_axes(x, axis, dim), keepdims=keepdim")
      for n in ("amax", "amin", "logsumexp")),
    *(Row(n, _arg_reduce, "x, axis=None, keepdim=False, dtype='int64', name=None",
          f"R.{n}, x, axis, keepdim, dtype") for n in ("argmax", "argmin")),
    Row("var", "reduce.var", "x, axis=None, unbiased=None, keepdim=False, name=None, *, "
        "correction=1", "x, axis=_axes(axis), keepdims=keepdim, "
        "correction=correction if unbiased is None else int(bool(unbiased))"),
    Row("std", "reduce.std", "x, axis=None, unbiased=True, keepdim=False, name=None",
        "x, axis=_axes(axis), keepdims=keepdim, correction=1 if unbiased else 0"),
    # linear algebra
    Row("matmul", matmul), Row("mm", matmul, "input, mat2, name=None", "input, mat2"),
    Row("bmm", "linalg.bmm", _XY, "x, y"), Row("mv", "linalg.mv", "x, vec, name=None", "x, vec"),
    Row("outer", "linalg.outer", _XY, "x, y"), Row("dot", dot), Row("t", t),
    # shape
    Row("reshape", reshape, forms="f"), Row("reshape", _reshape_method, forms="m"),
    Row("transpose", "shape.transpose", "x, perm, name=None", "x, tuple(perm)"),
    Row("squeeze", squeeze), Row("unsqueeze", unsqueeze), Row("flatten", flatten),
    Row("split", split), Row("chunk", split, "x, chunks, axis=0, name=None", "x, chunks, axis"),
    Row("concat", "shape.concatenate", "x, axis=0, name=None", "list(x), _int_axis(axis)", "f"),
    Row("stack", "shape.stack", "x, axis=0, name=None", "list(x), axis", "f"),
    Row("flip", "shape.flip", "x, axis, name=None",
        "x, (axis,) if isinstance(axis, int) else _axes(axis)"),
    Row("tile", "shape.tile", "x, repeat_times, name=None", "x, _ints(repeat_times)"),
    Row("expand", expand, aliases=("broadcast_to",)),
    Row("expand_as", "shape.broadcast_to", "x, y, name=None", "x, y.array.shape, copy=True"),
    # indexing (paddle.gather selects whole slices along ``axis``: the engine's index_select)
    Row("index_select", "index.index_select", "x, index, axis=0, name=None",
        "x, _int_axis(axis), index"),
    Row("gather", "index.index_select", "x, index, axis=None, name=None",
        "x, 0 if axis is None else _int_axis(axis), index"),
    Row("take_along_axis", take_along_axis),
    Row("masked_select", "index.masked_select", "x, mask, name=None", "x, mask"),
    # operators
    *(Row(f"__{d}__", f"elementwise.{op}", forms="m") for d, op in (
        ("add", "add"), ("sub", "sub"), ("mul", "mul"), ("truediv", "div"),
        ("floordiv", "floor_divide"), ("mod", "remainder"), ("pow", "pow"), ("neg", "neg"),
        ("abs", "abs"), ("and", "logical_and"), ("or", "logical_or"), ("xor", "logical_xor"),
        ("lt", "lt"), ("le", "le"), ("gt", "gt"), ("ge", "ge"))),
    *(Row(f"__r{d}__", f"elementwise.{op}", "x, y", "y, x", "m") for d, op in (
        ("add", "add"), ("sub", "sub"), ("mul", "mul"), ("truediv", "div"),
        ("floordiv", "floor_divide"), ("mod", "remainder"), ("pow", "pow"))),
    Row("__matmul__", matmul, forms="m"), Row("__rmatmul__", matmul, "x, y", "y, x", "m"),
    Row("__eq__", _eq, forms="m"), Row("__ne__", _ne, forms="m"),
    Row("__invert__", _invert, forms="m"), Row("__getitem__", "index.getitem", forms="m"),
]
