"""paddle 3.3.1's tensor functions and Tensor methods as one table over engine ops.

``ROWS`` has one ``janusgrad.binding.surface.Row`` per public name (paddle's parameter names and
defaults, the engine call, function / method / in-place forms); ``tensor.py`` installs it
onto ``Tensor`` and the package namespace.  The functions written out below are the ones
whose semantics differ from the engine op's; each says how.
"""
from __future__ import annotations

import builtins

from janusgrad.array.backend import quiet as _quiet
from janusgrad.binding import args as A
from janusgrad.binding.surface import Row
from janusgrad.core.tensor import Tensor as _EngineTensor
from janusgrad.ops import composite as K
from janusgrad.ops import elementwise as E
from janusgrad.ops import index as I
from janusgrad.ops import linalg as L
from janusgrad.ops import manip as MP
from janusgrad.ops import math as M
from janusgrad.ops import reduce as R
from janusgrad.ops import shape as S

from .dialect import (
    add_n_shape_error,
    concat_dtype_error,
    kernel_dtype_error,
    list_required,
    matmul_error,
    norm_axis_error,
    reduce_axis_error,
    reshape_error,
    tag,
)
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


def _reduce_axes(x, axis, lines=None):
    """A reduction's axis, checked where paddle words it."""
    if lines is None:
        return _axes(axis)
    return _checked_axes(x, axis, lambda a: reduce_axis_error(a, x.array.ndim, lines))


# ---------------------------------------------------------------- hand-written: semantics
def clip(x, min=None, max=None, name=None):  # noqa: A002
    return x if min is None and max is None else E.clamp(x, min, max)  # no bounds: x itself


def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    return type(x).wrap(E.as_out(K.allclose(x, y, rtol, atol, equal_nan)))  # a 0-d bool


def equal_all(x, y, name=None):  # shapes that differ are "not equal", not an error
    return type(x).wrap(E.as_out(K.all_equal(x, y)))


def _scale(x, scale, bias, bias_after_scale):  # paddle's scale op: x * s + b or (x + b) * s
    if bias_after_scale:
        return E.add(E.mul(x, scale), bias) if bias else E.mul(x, scale)
    return E.mul(E.add(x, bias), scale)


def is_tensor(x) -> bool:
    return isinstance(x, _EngineTensor)


def numel(x, name=None):
    return x.numel()


_TOO_MANY = ("(InvalidArgument) has too many arguments (at "
             "/paddle/paddle/fluid/pybind/op_function_common.cc:1596)\n")


def sum(x, axis=None, dtype=None, keepdim=False, name=None, **kwargs):  # noqa: A001
    if kwargs:  # paddle's C binding refuses any other keyword
        raise ValueError(_TOO_MANY)
    if axis is None and dtype is None:
        return R.sum(x, None, keepdim)  # the loss's sum(), with nothing to translate
    return R.sum(x, _axes(axis), keepdim, to_np(dtype))


def mean(x, axis=None, keepdim=False, name=None):
    out = R.mean(x, _axes(axis), keepdim)
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
    if keepdim and axis is not None and not x.array.ndim:  # paddle: [1] for a 0-d input
        out = S.reshape(out, (1,))
    return out if to_np(dtype) == out.array.dtype else E.cast(out, to_np(dtype))


_INF = float("inf")


def norm(x, p=None, axis=None, keepdim=False, name=None):
    """paddle.norm's dispatch: a matrix norm over two axes (or for a string ``p`` other than
    'fro' over one axis or all), a vector norm otherwise (p None: 2)."""
    if isinstance(axis, tuple):
        axis = list(axis)
    elif isinstance(axis, list) and len(axis) == 1:
        axis = axis[0]
    if isinstance(p, str):
        if p == "fro" and (axis is None or isinstance(axis, int)):
            return _vector_norm(x, 2, axis, keepdim)
        return _matrix_norm(x, p, list(range(x.array.ndim)) if axis is None else axis,
                            keepdim)
    p = 2.0 if p is None else p
    if isinstance(axis, list) and len(axis) == 2:
        return _matrix_norm(x, p, axis, keepdim)
    return _vector_norm(x, p, axis, keepdim)


def _matrix_norm(x, p, axis, keepdim):
    if len(axis) != 2:
        raise ValueError(f"except axis type int or list (length of list == 2), found "
                         f"{len(axis)}")
    if p not in ("fro", "nuc", 1, -1, 2, -2, _INF, -_INF):
        raise ValueError("just support p value 'fro','nuc',1,-1,inf,-inf,2,-2 if axis is "
                         f"2D, found {p}")
    axis = _checked_axes(x, axis, lambda a: norm_axis_error(a, x.array.shape))
    return LA.matrix_norm(x, p, tuple(axis), keepdim)


def _vector_norm(x, p, axis, keepdim):
    axis = _checked_axes(x, axis, lambda a: norm_axis_error(a, x.array.shape))
    if p == 0 and x.array.dtype.kind == "f":  # a count, recorded with a zero gradient
        return LA.vector_norm(x, 0, axis, keepdim)
    if x.array.size == 0:  # paddle: every norm of nothing is 0
        p = 1
    if -_INF < p < 1 and x.array.dtype.kind == "f":
        # paddle's formula (sum |x|^p)^(1/p) differentiated as it stands: NaN at a zero
        # element (where |x|^p has no derivative), 0 elsewhere when the norm is 0 (p < 0)
        with _quiet():
            return E.pow(R.sum(E.pow(E.abs(x), float(p)), axis, keepdim), 1.0 / p)
    return R.norm(x, p, axis=axis, keepdims=keepdim)


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
    dx, dy = x.array.dtype, y.array.dtype
    if dx != dy:  # paddle's kernel takes y's dtype; it converts only int32/int64 y for float32 x
        if dx.name != "float32" or dy.name not in ("int32", "int64"):
            raise kernel_dtype_error(dy, dx)
        y = E.cast(y, dx)
    return L.matmul(x, y)


def _bmm(x, y, name=None):  # mixed dtypes refused as matmul's, after the shape checks
    a, b = x.array, y.array
    if a.dtype != b.dtype and a.ndim == b.ndim == 3 and a.shape[0] == b.shape[0] and \
            a.shape[2] == b.shape[1]:
        raise kernel_dtype_error(b.dtype, a.dtype)
    return L.bmm(x, y)


def _matmul_op(x, y):  # x @ y: paddle converts y to x's dtype first
    return matmul(x, y if y.array.dtype == x.array.dtype else E.cast(y, x.array.dtype))


def dot(x, y, name=None):
    """paddle.dot: inner product of vectors, row-wise for 2-D inputs."""
    if x.array.shape != y.array.shape:
        raise RuntimeError(
            "(PreconditionNotMet) ShapeError: The shape of input tensor X: "
            f"[{', '.join(map(str, x.array.shape))}] should be exactly the same with input "
            f"tensor Y: [{', '.join(map(str, y.array.shape))}]\n  [Hint: Expected true == "
            "shape_match, but received true:1 != shape_match:0.] (at "
            "/paddle/paddle/phi/infermeta/binary.cc:1675)\n")
    if x.array.dtype != y.array.dtype:  # (x's dtype picks the kernel)
        raise kernel_dtype_error(x.array.dtype, y.array.dtype)
    if x.array.ndim == 2:
        return R.sum(E.mul(x, y), axis=-1)
    return L.dot(x, y)


def _tensor_list(x, op: str, arg: str = "x") -> list:
    """A list-of-tensors argument as a list; paddle refuses one tensor and an empty list."""
    if isinstance(x, _EngineTensor):
        raise list_required(op, arg, "Tensor", 1645)
    ts = list(x)
    if not ts:
        raise list_required(op, arg, "empty list", 1562 if isinstance(x, list) else 1604)
    return ts


def _one_dtype(ts) -> None:
    """paddle's stack/add_n: mixed dtypes fail in the kernel (of the first one's dtype),
    after the shape checks; unequal shapes are left to those."""
    first = ts[0].array
    bad = next((t.array.dtype for t in ts if t.array.dtype != first.dtype), None)
    if bad is not None and all(t.array.shape == first.shape for t in ts):
        raise kernel_dtype_error(first.dtype, bad)


def concat(x, axis=0, name=None):  # mixed dtypes refused before the shapes are checked
    ts = _tensor_list(x, "concat")
    first = ts[0].array.dtype
    for i, t in enumerate(ts):
        if t.array.dtype != first:
            raise concat_dtype_error(first, i, t.array.dtype)
    return S.concatenate(ts, _int_axis(axis))


def stack(x, axis=0, name=None):
    ts = _tensor_list(x, "stack")
    _one_dtype(ts)
    return S.stack(ts, axis)


def add_n(inputs, name=None):  # one tensor or a list of equally shaped ones, summed
    ts = [inputs] if isinstance(inputs, _EngineTensor) else _tensor_list(inputs, "add_n",
                                                                             "inputs")
    for i, t in enumerate(ts):
        if t.array.shape != ts[0].array.shape:
            raise add_n_shape_error(i, ts[0].array.shape, t.array.shape)
    _one_dtype(ts)
    out = E.clone(ts[0]) if len(ts) == 1 else ts[0]  # (a new tensor even for one)
    for t in ts[1:]:
        out = E.add(out, t)
    return out


def _softmax(input, dim=None, dtype=None, *, out=None):  # noqa: A002
    """paddle.softmax / Tensor.softmax, torch-compatible: no ``dim`` picks torch's legacy
    implicit one (0 for 0-, 1- and 3-d inputs, else 1)."""
    if dim is None:
        dim = 0 if input.array.ndim in (0, 1, 3) else 1
    return R.softmax(input if dtype is None else E.cast(input, to_np(dtype)), dim)


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
    if axis == ():  # paddle: no axes, like None, squeezes every size-1 axis
        axis = None
    if not nd and axis is not None:  # paddle: a 0-d tensor takes axes in [-1, 0]
        for a in axis if isinstance(axis, tuple) else (axis,):
            if not -1 <= a <= 0:
                cond = f"<= 0, but received squeeze_dims[i]:{a} > 0:0.] (at /paddle/paddle/" \
                    "phi/kernels/funcs/unsqueeze.h:47)" if a > 0 else \
                    f">= -1, but received squeeze_dims[i]:{a} < -1:-1.] (at /paddle/paddle/" \
                    "phi/kernels/funcs/unsqueeze.h:40)"
                raise ValueError("(InvalidArgument) For 0D Tensor, Each axis in Attr(axes) "
                                 "should be in the range of [-1, 0]But current axis is:\n  "
                                 f"[Hint: Expected squeeze_dims[i] {cond}\n")
        axis = None
    for a in (axis if isinstance(axis, tuple) else () if axis is None else (axis,)):
        if a >= nd or a < -nd:
            cur = a if a >= 0 else a + nd  # (paddle shows a negative axis plus the rank)
            bad = f"current:{a} >= in_dims.size():{nd}" if a >= 0 else f"current:{cur} < 0:0"
            cond = "current < in_dims.size()" if a >= 0 else "current >= 0"
            raise ValueError(
                f"(InvalidArgument) Each axis in Attr(axes) should be in the range of [-{nd}, "
                f"{nd - 1}]But current axis is:{cur}, input tensor's shape = "
                f"[{', '.join(map(str, x.array.shape))}].\n  [Hint: Expected {cond}, but "
                f"received {bad}.] (at /paddle/paddle/phi/kernels/funcs/unsqueeze.h:"
                f"{70 if a >= 0 else 60})\n")
    return tag(S.squeeze(x, axis), "SqueezeGradNode", x)


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
    return tag(S.unsqueeze(x, axis), "UnsqueezeGradNode", x)


def flatten(x, start_axis=0, stop_axis=-1, name=None):  # paddle's wording for bad axes
    nd = builtins.max(x.array.ndim, 1)
    for label, a in (("start_axis", start_axis), ("stop_axis", stop_axis)):
        if not isinstance(a, int) or not -nd <= a < nd:
            raise ValueError(f"The {label} should be a int, and in range [-rank(x), rank(x))")
    return tag(S.flatten(x, start_axis, stop_axis), "FlattenGradNode", x)


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
    node = "SplitWithNumGradNode" if isinstance(num_or_sections, int) else "SplitGradNode"
    return [tag(t, node, x) for t in S.split(x, sizes, axis, copy=True)]


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


# ---------------------------------------------------------------- sorting family (hand-written)
# paddle's sort returns the values only, topk a TopKRetType pair, the others tuples; axis
# None means the last axis (topk, kthvalue) or the flattened tensor (cumprod, cummax,
# cummin, logcumsumexp); median averages the two middle elements by default; index
# outputs take a ``dtype``; integer cumprod keeps its dtype: these functions say so over
# janusgrad.ops.sorting.
from collections import namedtuple  # noqa: E402

from janusgrad.ops import sorting as Q  # noqa: E402

TopKRetType = namedtuple("TopKRetType", ["values", "indices"])
TopKRetType.__module__ = "paddle.tensor.search"


def _last(axis):
    return -1 if axis is None else _int_axis(axis)


def _flat_if_none(x, axis):
    return (S.flatten(x), 0) if axis is None else (x, _int_axis(axis))


def _index_as(t, dtype):
    dt = to_np(dtype)
    return t if dt == t.array.dtype else E.cast(t, dt)


def sort(x, axis=-1, descending=False, stable=False, name=None):
    return tag(Q.sort(x, _int_axis(axis), descending)[0], "ArgsortGradNode", x)


def topk(x, k, axis=None, largest=True, sorted=True, name=None, *, out=None):  # noqa: A002
    values, indices = Q.topk(x, int(_int_axis(k)), _last(axis), largest, sorted)
    return TopKRetType(tag(values, "TopkGradNode", x), indices)


def _median(x, axis, keepdim, mode, ignore_nan):
    if mode == "avg":
        return Q.median_avg(x, None if axis is None else _int_axis(axis), keepdim, ignore_nan)
    if mode != "min":
        raise ValueError(f"Mode {mode} is not supported. Must be avg or min.")
    if axis is None:  # the lower median of all elements, its value only
        v = Q.median(S.flatten(x), 0, False, ignore_nan)[0]
        return S.reshape(v, (1,) * x.array.ndim) if keepdim else v
    values, indices = Q.median(x, _int_axis(axis), keepdim, ignore_nan)
    if ignore_nan:  # a slice of NaNs only: index -1
        indices = E.where_(E.isnan(values), -1, indices)
    return values, indices


def cumprod(x, dim=None, dtype=None, name=None, *, out=None):
    if dtype is not None:
        x = E.cast(x, to_np(dtype))
    x, dim = _flat_if_none(x, dim)
    out = Q.cumprod(x, dim)
    return out if out.array.dtype == x.array.dtype else E.cast(out, x.array.dtype)


def _cum_extreme(fn, x, axis, dtype):
    x, axis = _flat_if_none(x, axis)
    values, indices = fn(x, axis)
    return values, _index_as(indices, dtype)


def logcumsumexp(x, axis=None, dtype=None, name=None):
    if dtype is not None:
        x = E.cast(x, to_np(dtype))
    x, axis = _flat_if_none(x, axis)
    return Q.logcumsumexp(x, axis)


def nonzero(x, as_tuple=False, *, out=None):
    if not x.array.ndim:
        raise ValueError(
            "(InvalidArgument) Input(Condition) should have number of dimension at least 1\n"
            "  [Hint: Expected rank >= 1UL, but received rank:0 < 1UL:1.] (at "
            "/paddle/paddle/phi/infermeta/unary.cc:3301)\n")
    return Q.nonzero_tuple(x) if as_tuple else Q.nonzero(x)


def where(condition, x=None, y=None, name=None):  # where(condition) alone: nonzero's tuple
    if x is None and y is None:
        return nonzero(condition, as_tuple=True)
    return E.where_(condition, x, y)


def unique(x, return_index=False, return_inverse=False, return_counts=False, axis=None,
           dtype="int64", sorted=True, name=None):  # noqa: A002
    v, first, inv, cnt = Q.unique(x, None if axis is None else _int_axis(axis))
    parts = [v] + [_index_as(t, dtype) for t, want in (
        (first, return_index), (inv, return_inverse), (cnt, return_counts)) if want]
    return parts[0] if len(parts) == 1 else tuple(parts)


def unique_consecutive(x, return_inverse=False, return_counts=False, axis=None,
                       dtype="int64", name=None):
    v, inv, cnt = Q.unique_consecutive(x, None if axis is None else _int_axis(axis))
    parts = [v] + [_index_as(t, dtype) for t, want in (
        (inv, return_inverse), (cnt, return_counts)) if want]
    return parts[0] if len(parts) == 1 else tuple(parts)


def histogram(input, bins=100, min=0.0, max=0.0, weight=None, density=False,  # noqa: A002
              name=None):
    out = Q.histc(input, bins, min, max, weight, density)
    # (counts as int64; weighted or density histograms are float32 whatever the input)
    return E.cast(out, to_np("float32" if weight is not None or density else "int64"))


def searchsorted(sorted_sequence, values, out_int32=False, right=False, name=None, *,
                 side=None, out=None, sorter=None):
    if side is not None:
        right = side == "right"
    out = Q.searchsorted(sorted_sequence, values, right, sorter)
    return E.cast(out, to_np("int32")) if out_int32 else out


def bucketize(x, sorted_sequence, out_int32=False, right=False, name=None, *, out=None):
    out = Q.bucketize(x, sorted_sequence, right)
    return E.cast(out, to_np("int32")) if out_int32 else out
# ---------------------------------------------------------------- elementwise math
def _right_shift(x, y, is_arithmetic=True):  # is_arithmetic=False: zeros shifted in
    return M.right_shift(x, y) if is_arithmetic else M.logical_right_shift(x, y)


_MATH_INPLACE = frozenset(
    "hypot copysign ldexp gcd lcm frac sinc erfinv lgamma digamma i0".split())
_SHIFT = "x, y, is_arithmetic=True, out=None, name=None"


# ---------------------------------------------------------------- manip family (hand-written)
# Where paddle's call forms differ from the engine op's: lists for several tensors (meshgrid,
# atleast_*, broadcast_tensors, unbind), one integer or indices in one argument
# (tensor_split and the h/v/dsplits), put_along_axis' reductions, take's index modes,
# trace keeping an integer input's dtype.  paddle's diagonal, narrow, unbind, moveaxis and
# unflatten share the input's memory; its other results are new tensors.
def _listed(args):
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return list(args[0])
    return list(args)


def meshgrid(*args, **kwargs):
    return MP.meshgrid(_listed(args), kwargs.get("indexing", "ij"), copy=True)


def broadcast_tensors(input, name=None):  # noqa: A002
    return MP.broadcast_tensors(_tensor_list(input, "broadcast_tensors", "input"), copy=True)


def _atleast(n):
    def atleast(*inputs, name=None):
        out = [MP.atleast(t, n) for t in inputs]
        return out[0] if len(out) == 1 else out
    atleast.__name__ = atleast.__qualname__ = f"atleast_{n}d"
    return atleast


def unbind(input, axis=0):  # noqa: A002
    return tuple(tag(t, "UnbindGradNode", input) for t in MP.unbind(input, _int_axis(axis)))


def tensor_split(x, num_or_indices, axis=0, name=None):
    v = num_or_indices
    if isinstance(v, _EngineTensor):
        v = int(v.array) if v.array.ndim == 0 else v.array.tolist()
    if isinstance(v, int):
        return MP.tensor_split(x, v, None, _int_axis(axis), copy=True)
    return MP.tensor_split(x, None, [int(i) for i in v], _int_axis(axis), copy=True)


def _hvd_split(need, axis_of):
    def split(x, num_or_indices, name=None):
        if x.array.ndim < need:
            raise ValueError(f"The input tensor's dimension must be greater than or equal to "
                             f"{need}, but got {x.array.ndim}")
        return tensor_split(x, num_or_indices, axis_of(x.array.ndim))
    return split


def trace(x, offset=0, axis1=0, axis2=1, name=None):  # an integer input keeps its dtype
    out = MP.trace(x, offset, axis1, axis2)
    out = out if out.array.dtype == x.array.dtype else E.cast(out, x.array.dtype)
    return tag(out, "TraceGradNode", x)


def put_along_axis(arr, indices, values, axis, reduce="assign", include_self=True,
                   broadcast=True):
    idx = indices
    if broadcast:
        idx_shape = list(arr.array.shape)
        idx_shape[axis] = indices.array.shape[axis]
        idx = S.broadcast_to(indices, tuple(idx_shape), copy=True)
    if not isinstance(values, _EngineTensor):
        values = E.add(E.mul(E.cast(idx, arr.array.dtype), 0), values)
    elif values.array.shape != idx.array.shape:
        values = S.broadcast_to(values, idx.array.shape, copy=True)
    if values.array.dtype != arr.array.dtype:
        values = E.cast(values, arr.array.dtype)
    if reduce == "assign":
        return MP.scatter(arr, axis, idx, values)
    if reduce == "add":
        return MP.scatter_add(arr, axis, idx, values)
    if reduce in ("mul", "multiply"):
        return MP.scatter_reduced(arr, axis, idx, values, "multiply")
    raise NotImplementedError(f"paddlelike does not implement put_along_axis with "
                              f"reduce='{reduce}'")


def take(x, index, mode="raise", name=None):
    n = x.array.size
    if mode == "wrap":
        index = E.remainder(index, n)
    elif mode == "clip":
        index = E.clamp(index, 0, n - 1)
    return MP.take_flat(x, index)


def einsum(equation, *operands):
    operands = _listed(operands)
    return tag(MP.einsum(equation, operands), "EinsumGradNode", *operands)


def tensordot(x, y, axes=2, name=None):
    if isinstance(axes, _EngineTensor):
        axes = axes.array.tolist()
    if not isinstance(axes, int) and len(axes) == 1:
        axes = (axes[0], axes[0])
    return MP.tensordot(x, y, axes)


def moveaxis(x, source, destination, name=None):
    return MP.movedim(x, source, destination)
# ---------------------------------------------------------------- the table
# ---------------------------------------------------------------- scatters family (hand-written)
# paddle's call forms over janusgrad.ops.scatters where they differ from the engine op's:
# slice_scatter takes lists of axes/starts/ends/strides, permute takes a list or varargs,
# new_* take paddle's dtype strings and requires_grad, divide's rounding modes, round's
# decimals, cumsum keeps a 0-d input 0-d along an axis.
from janusgrad.ops import creation as _CR  # noqa: E402
from janusgrad.ops import scatters as TM  # noqa: E402


def _slice_scatter(x, value, axes, starts, ends, strides, name=None):
    key = [slice(None)] * x.array.ndim

    def seq(v):
        return list(v) if isinstance(v, (list, tuple)) else [v]
    for a, s, e, st in zip(seq(axes), seq(starts), seq(ends), seq(strides)):
        key[a] = slice(s, e, st)
    return TM.scatter_at(x, tuple(key), value, "slice_scatter")


def _permute(input, *dims, **kw):  # noqa: A002
    if "dims" in kw:
        dims = (kw.pop("dims"),)
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        dims = dims[0]
    return S.transpose(input, tuple(int(d) for d in dims))


def _new_factory(fill):
    def new(var, size, *args, dtype=None, device=None, requires_grad=False,
            pin_memory=False):
        value = args[0] if args else fill
        if isinstance(value, _EngineTensor):
            value = value.item()
        dt = var.array.dtype if dtype is None else to_np(dtype)
        t = _CR.full(type(var), _ints(size), value, dt)
        t.stop_gradient = not requires_grad
        return t
    return new


def _repeat(input, repeats):  # noqa: A002
    # Tensor.repeat: torch's (numpy's tile with leading axes added to the tensor)
    reps = _ints(repeats)
    x = input
    if len(reps) > x.array.ndim:
        x = S.reshape(x, (1,) * (len(reps) - x.array.ndim) + x.array.shape)
    return S.tile(x, reps)


def _inner(x, y, name=None):
    a, b = x.array, y.array
    if a.ndim == 0 or b.ndim == 0:
        return E.mul(x, y)
    return MP.tensordot(x, y, ([-1], [-1]))


def _divide(x, y, name=None, *, rounding_mode=None, out=None):
    if rounding_mode is None:
        return E.div(x, y)
    if rounding_mode == "floor":
        return E.floor_divide(x, y)
    if rounding_mode == "trunc":
        return TM.div_trunc(x, y)
    raise ValueError(f"rounding_mode must be one of None, 'trunc' or 'floor', but got "
                     f"{rounding_mode}")


def _round(x, decimals=0, name=None, *, out=None):
    if decimals == 0:
        return E.round(x)
    ten = 10.0 ** abs(decimals)
    if decimals > 0:
        return E.div(E.round(E.mul(x, ten)), ten)
    return E.mul(E.round(E.div(x, ten)), ten)


def _cumsum(x, axis=None, dtype=None, name=None, *, out=None):
    if axis is not None and x.array.ndim == 0:
        if dtype is not None:
            x = E.cast(x, to_np(dtype))
        return S.reshape(R.cumsum(x, 0), ())
    return cumsum(x, axis, dtype)


def _tri_indices(lower):
    def indices(row, col=None, offset=0, dtype="int64"):
        return TM.tri_indices(Tensor_of(), row, row if col is None else col, offset, lower,
                              to_np(dtype))
    return indices


def mt_error(x):
    raise ValueError(f"Tensor.ndim({x.array.ndim}) is required to be greater than or equal "
                     "to 2.")


_TENSOR_CLASS: list = []  # the dialect's Tensor class: tensor.py, which imports us, sets it


def Tensor_of():  # noqa: N802
    return _TENSOR_CLASS[0]


def _randint_like(x, low=0, high=None, dtype=None, name=None):
    if high is None:
        low, high = 0, low
    dt = x.array.dtype if dtype is None else to_np(dtype)
    t = _CR.randint(type(x), low, high, x.array.shape, host_int64)
    return t if t.array.dtype == dt else E.cast(t, dt)


from janusgrad.array.backend import int64 as host_int64  # noqa: E402

# ---- paddle 3's other names (issue 22)
_CONVERSIONS = {"float": "float32", "double": "float64", "half": "float16", "int": "int32",
                "long": "int64", "short": "int16", "char": "int8", "byte": "uint8",
                "bool": "bool", **{n: n for n in ("float16 float32 float64 int8 int16 int32 "
                                                  "int64 uint8").split()}}


def _as(x, dt):
    return x if x.array.dtype == dt else E.cast(x, dt)


def _converter(dtype: str):
    def convert(self):
        return _as(self, to_np(dtype))
    return convert


def _type_as(self, other):
    return _as(self, other.array.dtype)


def _swapaxes(x, perm, *dims, name=None):
    if dims:  # swapaxes(0, 2): torch's form
        return S.swapaxes(x, perm, dims[0])
    return S.transpose(x, tuple(perm))


def _matrix_transpose(x, name=None):
    return S.swapaxes(x, -1, -2) if x.array.ndim >= 2 else mt_error(x)


def _dtype_is(kinds: str):
    def test(x) -> bool:
        return x.array.dtype.kind in kinds
    return test


def _is_empty(x, name=None):
    return type(x).wrap(E.as_out(x.array.size == 0))


def _rank(input):  # noqa: A002  (an int32 0-d tensor)
    return E.cast(type(input).wrap(E.as_out(input.array.ndim)), to_np("int32"))

ENV = {"_axes": _axes, "_ints": _ints, "_int_axis": _int_axis, "to_np": to_np,
       "_reduce_axes": _reduce_axes, "R": R, "_T": _EngineTensor, "Q": Q, "_last": _last,
       "_median": _median, "_cum_extreme": _cum_extreme}
_X = "x, name=None"
_XY = "x, y, name=None"
_RED = "x, axis=None, keepdim=False, name=None"
# paddle 3.3.1 takes ``dim`` for ``axis`` in the functions that declare _DIM, in one of three
# ways, each refusing both in its own words: its C binding's argument parser (_C_ALIASED),
# its ParamAliasDecorator (_DECORATED), or a decorator that passes both on (the rest: the
# function refuses the alias as an unexpected keyword)
_DIM = (("axis", "dim"),)
_C_ALIASED = frozenset("sum amax amin logsumexp all any argmax argmin".split())
_DECORATED = frozenset("argsort var concat stack norm diff cross chunk take_along_axis".split())


def both_given(name: str, param: str, alias: str) -> Exception:
    """paddle's error for a call giving a parameter and its alias."""
    if name in _C_ALIASED:
        return ValueError(_TOO_MANY)
    if name in _DECORATED:
        return ValueError(f"Cannot specify both '{param}' and its alias '{alias}'")
    return TypeError(f"{name}() got an unexpected keyword argument '{alias}'")
_INPLACE_UNARY = frozenset(
    "neg exp log log2 log10 log1p sqrt rsqrt square abs sin cos tan asin acos atan sinh cosh "
    "tanh sigmoid reciprocal floor ceil".split())

# ---- linear algebra (janusgrad.ops.linalg_factor): paddle's slogdet stacks (sign, log|det|) into
# one tensor; cross's axis 9 means the first axis of size 3; pinv's rcond is a relative
# tolerance (torch's rtol)
from janusgrad.array.backend import DTYPES as _DTYPES  # noqa: E402
from janusgrad.array.backend import broadcast_shapes as _broadcast_shapes  # noqa: E402
from janusgrad.ops import linalg_factor as LA  # noqa: E402


def _slogdet(x, name=None):
    return S.stack(list(LA.slogdet(x)), 0)


def _cross(x, y, axis=9, name=None):
    if axis == 9:
        shape = _broadcast_shapes(tuple(x.shape), tuple(y.shape))
        axis = next((i for i, n in enumerate(shape) if n == 3), -1)
    return LA.cross(x, y, axis)


def _pinv(x, rcond=1e-15, hermitian=False, name=None):
    return LA.pinv(x, None, rcond, hermitian)


def _qr(x, mode="reduced", name=None):  # mode 'r': R alone
    q, r = LA.qr(x, mode)
    return r if mode == "r" else (q, r)


def _lstsq(x, y, rcond=None, driver=None, name=None):  # rank as int32 (but gels: empty)
    sol, res, rank, sv = LA.lstsq(x, y, rcond, driver)
    return sol, res, rank if driver == "gels" else E.cast(rank, _DTYPES["int32"]), sv


# ---- math/stat family (janusgrad.ops.stats, janusgrad.ops.linalg_lu): paddle's cov takes rowvar
# and a bool ddof, frexp's exponent has the input's dtype, trapezoid's x and dx
from janusgrad.ops import stats as MS  # noqa: E402


def _cov(x, rowvar=True, ddof=True, fweights=None, aweights=None, name=None):
    x = x if rowvar or x.array.ndim < 2 else S.swapaxes(x, 0, 1)
    return MS.cov(x, int(ddof), fweights, aweights)


def _corrcoef(x, rowvar=True, name=None):
    return MS.corrcoef(x if rowvar or x.array.ndim < 2 else S.swapaxes(x, 0, 1))


def _frexp(x, name=None):
    m, e = MS.frexp(x)  # (paddle's exponent is a float recorded from x, with gradient 0)
    return m, E.where_(E.eq(e, e), E.cast(e, x.array.dtype), x)


def _quantile(x, q, axis=None, keepdim=False, interpolation="linear", name=None, *, out=None):
    return MS.quantile(x, q, axis, keepdim, interpolation)


def _nanquantile(x, q, axis=None, keepdim=False, interpolation="linear", name=None):
    return MS.nanquantile(x, q, axis, keepdim, interpolation)


from janusgrad.ops import linalg_lu as L3  # noqa: E402


def _lu(x, pivot=True, get_infos=False, name=None):  # (LU, pivots[, infos])
    packed, piv = L3.lu_factor(x, pivot)
    return (packed, piv, LA.info_zeros(x)) if get_infos else (packed, piv)


def _triangular_solve(x, y, upper=True, transpose=False, unitriangular=False, name=None):
    t = S.swapaxes(x, -1, -2) if transpose else x  # (the solution alone, not torch's pair)
    return L3.solve_triangular(t, y, upper != transpose, True, unitriangular)


def _lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True, name=None):
    p, low, up = L3.lu_unpack(x, y, unpack_ludata, unpack_pivots)
    if unpack_pivots and x.array.ndim >= 2:  # (paddle records P from x, gradient zero)
        p = E.add(p, R.sum(S.narrow(x, -1, 0, 0), (-2, -1), True))
    return p, low, up


def _lu_solve(b, lu, pivots, trans="N", name=None):
    return L3.lu_solve(lu, pivots, b, True, trans != "N")


ROWS = [
    # elementwise, binary (paddle name, engine op, in-place where paddle has it)
    Row("add", "elementwise.add", _XY, "x, y", "fmi"),
    Row("subtract", "elementwise.sub", _XY, "x, y", "fmi", ("sub",)),
    Row("multiply", "elementwise.mul", _XY, "x, y", "fmi", ("mul",)),
    Row("divide", _divide, forms="fmi", aliases=("div",)),
    Row("floor_divide", "elementwise.floor_divide", _XY, "x, y", "fmi"),
    Row("remainder", "elementwise.remainder", _XY, "x, y", "fmi", ("mod", "floor_mod")),
    Row("pow", "elementwise.pow", _XY, "x, y", "fmi"),
    Row("maximum", "elementwise.maximum", _XY, "x, y"),
    Row("minimum", "elementwise.minimum", _XY, "x, y"),
    # elementwise, unary
    *(Row(n, f"elementwise.{n}", _X, "x", "fmi" if n in _INPLACE_UNARY else "fm") for n in (
        "neg exp expm1 log log2 log10 log1p sqrt rsqrt square abs sign sin cos tan asin acos "
        "atan sinh cosh tanh sigmoid reciprocal floor ceil isnan isinf isfinite "
        "logical_not bitwise_not").split()),
    Row("round", _round, forms="fmi"),
    Row("trunc", "elementwise.trunc", "input, name=None", "input", "fmi"),
    Row("clip", clip, "x, min=None, max=None, name=None", "x, min, max", "fmi", ("clamp",)),
    Row("where", where),
    Row("scale", _scale, "x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None",
        "x, scale, bias, bias_after_scale", "fmi"),
    Row("cast", "elementwise.cast", "x, dtype", "x, to_np(dtype)"),
    Row("astype", "elementwise.cast", "x, dtype", "x, to_np(dtype)", "m"),
    Row("clone", "elementwise.clone", _X, "x"),
    # comparisons and logic
    Row("equal", "elementwise.eq", _XY, "x, y", aliases=("eq",)),
    Row("not_equal", "elementwise.ne", _XY, "x, y", aliases=("ne",)),
    Row("less_than", "elementwise.lt", _XY, "x, y", aliases=("less", "lt")),
    Row("less_equal", "elementwise.le", _XY, "x, y", aliases=("le",)),
    Row("greater_than", "elementwise.gt", _XY, "x, y", aliases=("greater", "gt")),
    Row("greater_equal", "elementwise.ge", _XY, "x, y", aliases=("ge",)),
    *(Row(n, f"elementwise.{n}", _XY, "x, y") for n in (
        "logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor".split())),
    Row("isclose", K.isclose, "x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None",
        "x, y, rtol, atol, equal_nan"),
    Row("allclose", allclose), Row("equal_all", equal_all),
    Row("lerp", K.lerp, "x, y, weight, name=None", "x, y, weight", "fmi", node="LerpGradNode"),
    Row("masked_fill", K.masked_fill, "x, mask, value, name=None", "x, mask, value", "fmi",
        node="MaskedFillGradNode"),
    Row("is_tensor", is_tensor, forms="f"), Row("numel", numel, forms="f"),
    # reductions
    *(Row(n, f, kw_aliases=_DIM) for n, f in (("sum", sum), ("mean", mean), ("prod", prod),
                                              ("norm", norm))),
    Row("cumsum", _cumsum, forms="fmi", kw_aliases=_DIM),
    # paddle.max/min share the gradient among ties, as amax/amin do; their own error lines
    Row("max", "reduce.amax", _RED,
        "x, axis=_reduce_axes(x, axis, (4180, 4190)), keepdims=keepdim"),
    Row("min", "reduce.amin", _RED,
        "x, axis=_reduce_axes(x, axis, (4180, 4190)), keepdims=keepdim"),
    *(Row(n, f"reduce.{n}", _RED, "x, axis=_reduce_axes(x, axis), keepdims=keepdim",
          kw_aliases=_DIM, node=node)
      for n, node in (("amax", "AmaxGradNode"), ("amin", "AminGradNode"), ("logsumexp", None))),
    *(Row(n, _arg_reduce, "x, axis=None, keepdim=False, dtype='int64', name=None",
          f"R.{n}, x, axis, keepdim, dtype", kw_aliases=(*_DIM, ("keepdim", "keepdims")))
      for n in ("argmax", "argmin")),
    Row("var", "reduce.var", "x, axis=None, unbiased=None, keepdim=False, name=None, *, "
        "correction=1", "x, axis=_axes(axis), keepdims=keepdim, "
        "correction=correction if unbiased is None else int(bool(unbiased))", kw_aliases=_DIM),
    Row("std", "reduce.std", "x, axis=None, unbiased=True, keepdim=False, name=None",
        "x, axis=_axes(axis), keepdims=keepdim, correction=1 if unbiased else 0"),
    # linear algebra
    Row("matmul", matmul), Row("mm", matmul, "input, mat2, name=None", "input, mat2"),
    Row("bmm", _bmm, _XY, "x, y", node="BmmGradNode"),
    Row("mv", "linalg.mv", "x, vec, name=None", "x, vec"),
    Row("outer", "linalg.outer", _XY, "x, y", node="MultiplyGradNode"),
    Row("dot", dot), Row("t", t),
    # shape
    Row("reshape", reshape, forms="f"), Row("reshape", _reshape_method, forms="m"),
    Row("transpose", "shape.transpose", "x, perm, name=None", "x, tuple(perm)"),
    Row("squeeze", squeeze, kw_aliases=_DIM), Row("unsqueeze", unsqueeze, kw_aliases=_DIM),
    Row("flatten", flatten), Row("split", split),
    Row("chunk", split, "x, chunks, axis=0, name=None", "x, chunks, axis", kw_aliases=_DIM),
    Row("concat", concat, kw_aliases=_DIM), Row("stack", stack, kw_aliases=_DIM),
    Row("add_n", add_n),
    Row("flip", "shape.flip", "x, axis, name=None",
        "x, (axis,) if isinstance(axis, int) else _axes(axis)", aliases=("reverse",)),
    Row("tile", "shape.tile", "x, repeat_times, name=None", "x, _ints(repeat_times)"),
    Row("expand", expand, aliases=("broadcast_to",)),
    Row("expand_as", "shape.broadcast_to", "x, y, name=None", "x, y.array.shape, copy=True"),
    # indexing (paddle.gather selects whole slices along ``axis``: the engine's index_select)
    Row("index_select", "index.index_select", "x, index, axis=0, name=None",
        "x, _int_axis(axis), index", node="IndexSelectGradNode", kw_aliases=_DIM),
    Row("gather", "index.index_select", "x, index, axis=None, name=None",
        "x, 0 if axis is None else _int_axis(axis), index", node="GatherGradNode"),
    Row("take_along_axis", take_along_axis, aliases=("take_along_dim",), kw_aliases=_DIM),
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
    Row("__matmul__", _matmul_op, forms="m"),
    Row("__rmatmul__", _matmul_op, "x, y", "y, x", "m"),
    Row("__eq__", _eq, forms="m"), Row("__ne__", _ne, forms="m"),
    Row("__invert__", _invert, forms="m"), Row("__getitem__", "index.getitem", forms="m"),
    # sorting family: sorting, searching, logical reductions, counting (janusgrad.ops.sorting)
    *(Row(n, f"sorting.{n}", "x, axis=None, keepdim=False, name=None, *, out=None",
          "x, _axes(axis), keepdim", kw_aliases=_DIM) for n in ("all", "any")),
    Row("sort", sort),
    Row("argsort", Q.argsort, "x, axis=-1, descending=False, stable=False, name=None",
        "x, _int_axis(axis), descending", kw_aliases=_DIM),
    Row("msort", Q.msort, "input, *, out=None", "input"),
    Row("topk", topk, kw_aliases=_DIM),
    Row("kthvalue", tuple, "x, k, axis=None, keepdim=False, name=None",
        "Q.kthvalue(x, int(_int_axis(k)), _last(axis), keepdim)"),
    Row("median", _median, "x, axis=None, keepdim=False, mode='avg', name=None, *, out=None",
        "x, axis, keepdim, mode, False", kw_aliases=_DIM),
    Row("nanmedian", _median, "x, axis=None, keepdim=False, mode='avg', name=None",
        "x, axis, keepdim, mode, True"),
    Row("mode", tuple, "x, axis=-1, keepdim=False, name=None",
        "Q.mode(x, _int_axis(axis), keepdim)"),
    Row("cumprod", cumprod, forms="fmi"),
    *(Row(n, _cum_extreme, "x, axis=None, dtype='int64', name=None", f"Q.{n}, x, axis, dtype")
      for n in ("cummax", "cummin")),
    Row("logcumsumexp", logcumsumexp), Row("nonzero", nonzero),
    Row("argwhere", "sorting.nonzero", "input", "input"),
    Row("count_nonzero", "sorting.count_nonzero", "x, axis=None, keepdim=False, name=None",
        "x, _axes(axis), keepdim"),
    Row("unique", unique), Row("unique_consecutive", unique_consecutive, kw_aliases=_DIM),
    Row("bincount", "sorting.bincount", "x, weights=None, minlength=0, name=None",
        "x, weights, minlength"),
    Row("histogram", histogram), Row("searchsorted", searchsorted, forms="f"),
    Row("bucketize", bucketize),
    Row("isin", "sorting.isin", "x, test_x, assume_unique=False, invert=False, name=None",
        "x, test_x, invert"),
    # ---- elementwise math and special functions (engine.ops.math, engine.ops.special)
    *(Row(n, f"math.{n}", _XY, "x, y", "fmi" if n in _MATH_INPLACE else "fm") for n in (
        "atan2 hypot logaddexp copysign nextafter fmax fmin heaviside ldexp gcd lcm".split())),
    Row("bitwise_left_shift", "math.left_shift", _SHIFT, "x, y", "fmi"),
    Row("bitwise_right_shift", _right_shift, _SHIFT, "x, y, is_arithmetic", "fmi"),
    *(Row(n, f"math.{n}", _X, "x", "fmi" if n in _MATH_INPLACE else "fm") for n in (
        "frac sinc deg2rad rad2deg signbit isposinf isneginf isreal angle".split())),
    Row("sgn", "elementwise.sign", _X, "x"),
    Row("positive", "math.positive", _X, "x", "f"), Row("conj", "math.positive", _X, "x"),
    Row("logit", "math.logit", "x, eps=None, name=None", "x, eps", "fmi"),
    Row("nan_to_num", "math.nan_to_num", "x, nan=0.0, posinf=None, neginf=None, name=None",
        "x, nan, posinf, neginf", "fmi"),
    *(Row(n, f"special.{n}", _X, "x", "fmi" if n in _MATH_INPLACE else "fm") for n in (
        "erf erfinv lgamma digamma i0 i0e i1 i1e".split())),
    Row("gammaln", "special.lgamma", _X, "x", "fmi"),
    Row("polygamma", "special.polygamma", "x, n, name=None", "n, x", "fmi"),
    Row("multigammaln", "special.mvlgamma", "x, p, name=None", "x, p", "fmi"),
    Row("gammainc", "special.gammainc", _XY, "x, y", "fmi"),
    Row("gammaincc", "special.gammaincc", _XY, "x, y", "fmi"),
    *(Row(n, f"math.{n}", "input, x, y, beta=1.0, alpha=1.0, name=None",
          "input, x, y, beta, alpha", "fmi", node=node)
      for n, node in (("addmm", "AddmmGradNode"), ("baddbmm", "BaddbmmGradNode"))),
    # manip family (engine/janusgrad/ops/manip.py)
    Row("tril", MP.tril, "x, diagonal=0, name=None, *, out=None", "x, diagonal", "fmi"),
    Row("triu", MP.triu, "x, diagonal=0, name=None, *, out=None", "x, diagonal", "fmi"),
    Row("diag", MP.diag, "x, offset=0, padding_value=0, name=None", "x, offset, padding_value",
        node="DiagGradNode"),
    Row("diagonal", MP.diagonal, "x, offset=0, axis1=0, axis2=1, name=None",
        "x, offset, axis1, axis2"),
    Row("diag_embed", MP.diag_embed, "input, offset=0, dim1=-2, dim2=-1"),
    Row("diagflat", MP.diagflat, "x, offset=0, name=None", "x, offset"),
    Row("trace", trace),
    Row("roll", MP.roll, "x, shifts, axis=None, name=None", "x, shifts, axis",
        node="RollGradNode"),
    Row("rot90", MP.rot90, "x, k=1, axes=(0, 1), name=None", "x, k, axes"),
    Row("moveaxis", moveaxis), Row("unbind", unbind, kw_aliases=_DIM),
    Row("narrow", "shape.narrow", "input, dim, start, length",
        "input, dim, int(start.array) if isinstance(start, _T) else start, length"),
    Row("unflatten", MP.unflatten, "x, axis, shape, name=None", "x, axis, _ints(shape)"),
    Row("meshgrid", meshgrid, forms="f"),
    Row("broadcast_tensors", broadcast_tensors),
    *(Row(f"atleast_{n}d", _atleast(n)) for n in (1, 2, 3)),
    Row("repeat_interleave", MP.repeat_interleave,
        "x, repeats, axis=None, name=None, *, output_size=None", "x, repeats, axis",
        kw_aliases=_DIM),
    *(Row(n, getattr(MP, n), "x, name=None", "list(x)", "f")
      for n in ("hstack", "vstack", "dstack", "column_stack")),
    Row("row_stack", MP.vstack, "x, name=None", "list(x)", "f"),
    Row("tensor_split", tensor_split),
    Row("hsplit", _hvd_split(1, lambda nd: 0 if nd == 1 else 1)),
    Row("vsplit", _hvd_split(2, lambda nd: 0)),
    Row("dsplit", _hvd_split(3, lambda nd: 2)),
    Row("put_along_axis", put_along_axis, forms="fmi"),
    Row("scatter_add", MP.scatter_add, "input, dim, index, src", forms="fmi"),
    Row("index_add", MP.index_add_along, "x, index, axis, value, alpha=1, name=None, *, "
        "out=None", "x, axis, index, value, alpha", "fmi"),
    Row("index_put", MP.index_put, "x, indices, value, accumulate=False, name=None",
        "x, indices, value, accumulate", "fmi"),
    Row("index_fill", MP.index_fill, "x, index, axis, value, name=None",
        "x, axis, index, value", "fmi"),
    Row("masked_scatter", MP.masked_scatter, "x, mask, value, name=None", "x, mask, value",
        "fmi"),
    Row("take", take),
    Row("einsum", einsum, forms="f"), Row("tensordot", tensordot),
    Row("kron", MP.kron, _XY, "x, y", node="KronGradNode"),
    Row("cartesian_prod", MP.cartesian_prod, "x, name=None", "list(x)", "f"),
    Row("combinations", MP.combinations, "x, r=2, with_replacement=False, name=None",
        "x, r, with_replacement"),
    # ---- linear algebra (janusgrad.ops.linalg_factor): paddle.<name> and Tensor.<name> where
    # paddle has them (paddle.linalg's own names: LINALG_ROWS)
    Row("inverse", LA.inv, _X, "x"),
    Row("cholesky", LA.cholesky, "x, upper=False, name=None", "x, upper"),
    Row("eigvalsh", LA.eigvalsh, "x, UPLO='L', name=None", "x, UPLO"),
    Row("cross", _cross, kw_aliases=_DIM),
    Row("slogdet", _slogdet, forms="m"),
    Row("solve", LA.solve, "x, y, left=True, name=None, *, out=None", "x, y, left", "m"),
    Row("pinv", _pinv, forms="m"),
    Row("matrix_power", LA.matrix_power, "x, n, name=None", "x, n", "m"),
    Row("qr", _qr, forms="m"), Row("lstsq", _lstsq, forms="m"),
    Row("cond", LA.cond, "x, p=None, name=None", "x, p", "m"),
    Row("vecdot", LA.vecdot, "x, y, axis=-1, name=None", "x, y, axis", "f"),
    # ---- scatters family (engine/janusgrad/ops/scatters.py; hand-written block above)
    Row("contiguous", lambda self: self, forms="m"),
    Row("permute", _permute),
    Row("view", S.reshape, "x, shape_or_dtype, name=None", "x, _ints(shape_or_dtype)",
        node="ViewShapeGradNode"),
    Row("view_as", S.reshape, "x, other, name=None", "x, other.array.shape",
        node="ViewShapeGradNode"),
    Row("new_zeros", _new_factory(0), forms="m"), Row("new_ones", _new_factory(1), forms="m"),
    Row("new_full", _new_factory(None), forms="m"),
    Row("repeat", _repeat, forms="m"),
    Row("ravel", S.reshape, "input", "input, (-1,)"),
    Row("inner", _inner),
    Row("select_scatter", TM.select_scatter, "x, values, axis, index, name=None",
        "x, values, axis, index"),
    Row("slice_scatter", _slice_scatter),
    Row("diagonal_scatter", TM.diagonal_scatter,
        "x, y, offset=0, axis1=0, axis2=1, name=None", "x, y, offset, axis1, axis2"),
    Row("triu_indices", _tri_indices(False), forms="f"),
    Row("tril_indices", _tri_indices(True), forms="f"),
    Row("scatter_reduce", TM.scatter_reduce,
        "input, dim, index, src, reduce, *, include_self=True"),
    Row("as_strided", TM.as_strided, "x, shape, stride, offset=0, name=None",
        "x, shape, stride, offset"),
    Row("unfold", TM.unfold, "x, axis, size, step, name=None", "x, axis, size, step"),
    Row("randint_like", _randint_like, forms="f"),
    # activations and losses family (engine.nn.losses): paddle.pdist
    Row("pdist", "janusgrad.nn.losses.pdist", "x, p=2.0, name=None", "x, p", "f"),
    # ---- math/stat family (janusgrad.ops.stats, janusgrad.ops.linalg_lu)
    *(Row(n, f"stats.{n}", _X, "x", "fmi") for n in ("acosh", "asinh", "atanh")),
    Row("block_diag", MS.block_diag, "inputs, name=None", "inputs"),
    Row("cdist", MS.cdist, "x, y, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary', "
        "name=None", "x, y, p"),
    Row("cov", _cov, forms="m"), Row("corrcoef", _corrcoef, forms="m"),
    Row("diff", MS.diff, "x, n=1, axis=-1, prepend=None, append=None, name=None, *, out=None",
        "x, n, axis, prepend, append", kw_aliases=_DIM),
    Row("frexp", _frexp),
    Row("quantile", _quantile, kw_aliases=_DIM), Row("nanquantile", _nanquantile),
    Row("dist", MS.dist, "x, y, p=2, name=None", "x, y, p"),
    Row("renorm", MS.renorm, "x, p, axis, max_norm", "x, p, axis, max_norm", "fmi"),
    Row("trapezoid", MS.trapezoid, "y, x=None, dx=None, axis=-1, name=None", "y, x, dx, axis"),
    Row("cumulative_trapezoid", MS.cumulative_trapezoid,
        "y, x=None, dx=None, axis=-1, name=None", "y, x, dx, axis"),
    Row("nanmean", MS.nanmean, "x, axis=None, keepdim=False, name=None",
        "x, _axes(axis), keepdim"),
    Row("nansum", MS.nansum, "x, axis=None, dtype=None, keepdim=False, name=None",
        "x, _axes(axis), keepdim, None if dtype is None else to_np(dtype)"),
    Row("vander", L3.vander, "x, n=None, increasing=False, name=None", "x, n, increasing"),
    Row("cholesky_solve", L3.cholesky_solve, "x, y, upper=False, name=None", "x, y, upper",
        "m"),
    Row("cholesky_inverse", L3.cholesky_inverse, "x, upper=False, name=None", "x, upper", "m"),
    Row("lu", _lu, forms="m"),
    Row("lu_unpack", _lu_unpack, forms="m"),
    Row("householder_product", L3.householder_product, "x, tau, name=None", "x, tau", "m"),
    # ---- paddle 3's other names for the ops above (issue 22): Tensor.float() and the other
    # dtype conversions (the tensor itself where it has the dtype), torch-compatible
    # softmax, swapaxes (paddle's transpose, with torch's two-axis form)
    *(Row(n, _converter(dt), forms="m") for n, dt in _CONVERSIONS.items()),
    Row("type_as", _type_as, forms="m"),
    Row("softmax", _softmax),
    Row("swapaxes", _swapaxes, aliases=("swapdims",)),
    Row("true_divide", "elementwise.div", "input, other, *, out=None", "input, other"),
    Row("negative", "elementwise.neg", _X, "x"),
    Row("matrix_transpose", _matrix_transpose),
    Row("split_with_sizes", split, "self, split_sizes, dim=0", "self, list(split_sizes), dim",
        "m"),
    Row("new_empty", _new_factory(0), forms="m"),  # (zeros: an empty tensor's values are any)
    *(Row(n, _dtype_is(kinds)) for n, kinds in (
        ("is_floating_point", "f"), ("is_integer", "iu"), ("is_complex", "c"))),
    Row("is_empty", _is_empty), Row("rank", _rank),
    Row("unstack", MP.unbind, "x, axis=0, num=None", "x, axis"),
]

# ---- paddle.linalg (paddlelike/linalg.py): linear algebra (janusgrad.ops.linalg_factor)
LINALG_ROWS = [
    Row("det", LA.det, _X, "x", "f"),
    Row("slogdet", _slogdet, forms="f"),
    Row("inv", LA.inv, _X, "x", "f"),
    Row("solve", LA.solve, "x, y, left=True, name=None, *, out=None", "x, y, left", "f"),
    Row("cholesky", LA.cholesky, "x, upper=False, name=None", "x, upper", "f"),
    Row("eigh", LA.eigh, "x, UPLO='L', name=None", "x, UPLO", "f"),
    Row("eigvalsh", LA.eigvalsh, "x, UPLO='L', name=None", "x, UPLO", "f"),
    Row("svdvals", LA.svdvals, _X, "x", "f"),
    Row("pinv", _pinv, forms="f"),
    Row("matrix_power", LA.matrix_power, "x, n, name=None", "x, n", "f"),
    Row("multi_dot", LA.multi_dot, _X, "list(x)", "f"),
    Row("cross", _cross, forms="f"),
    Row("vector_norm", LA.vector_norm, "x, p=2.0, axis=None, keepdim=False, name=None, *, "
        "dtype=None, out=None", "x, p, axis, keepdim", "f"),
    Row("matrix_norm", LA.matrix_norm, "x, p='fro', axis=[-2, -1], keepdim=False, name=None",
        "x, p, tuple(axis), keepdim", "f"),
    Row("svd", LA.svd, "x, full_matrices=False, name=None, *, out=None", "x, full_matrices",
        "f"),
    Row("qr", _qr, forms="f"), Row("lstsq", _lstsq, forms="f"),
    Row("cond", LA.cond, "x, p=None, name=None", "x, p", "f"),
    Row("matrix_rank", LA.matrix_rank, "x, tol=None, hermitian=False, atol=None, rtol=None, "
        "name=None", "x, atol, rtol, hermitian, tol", "f"),
    # ---- math/stat family (janusgrad.ops.stats, janusgrad.ops.linalg_lu)
    Row("cov", _cov, forms="f"), Row("corrcoef", _corrcoef, forms="f"),
    Row("cholesky_solve", L3.cholesky_solve, "x, y, upper=False, name=None", "x, y, upper",
        "f"),
    Row("cholesky_inverse", L3.cholesky_inverse, "x, upper=False, name=None", "x, upper", "f"),
    Row("lu", _lu, forms="f"),
    Row("lu_unpack", _lu_unpack, forms="f"),
    Row("lu_solve", _lu_solve, forms="f"),
    Row("triangular_solve", _triangular_solve, forms="f"),
    Row("matrix_exp", L3.matrix_exp, _X, "x", "f"),
    Row("householder_product", L3.householder_product, "x, tau, name=None", "x, tau", "f"),
]
