"""torch's op surface as a table: one row per public name (see janusgrad.binding.surface).

A row gives the engine function, torch's parameter list, the engine call, the forms (``f``
``torch.name``, ``m`` ``Tensor.name``, ``i`` ``Tensor.name_``) and the grad-node name; every
row also takes torch's ``axis=`` / ``keepdims=`` for ``dim`` / ``keepdim``.  The functions
above the table are hand-written because torch's semantics differ there, each says how.
"""
from __future__ import annotations

import warnings

from janusgrad.array.backend import is_array
from janusgrad.binding.args import axes_tuple, chunk_step, infer_shape, sizes_of_step  # noqa: F401
from janusgrad.binding.surface import Row, install
from janusgrad.core.tensor import Tensor as EngineTensor
from janusgrad.core.views import mark_outputs
from janusgrad.nn import attention as NA
from janusgrad.ops import composite as K
from janusgrad.ops import manip as MP
from janusgrad.ops import math as M
from janusgrad.ops import special as SP
from janusgrad.ops.shape import checked_axis

from . import _conv as CV
from . import _creation, _dtypes
from . import _norm as _NORM
from ._dialect import TORCH, long_name
from ._grad_fn import tag
from ._ops import E, I, R, S, inplace
from ._tensor import MAX_T, MIN_T, Tensor, _cast, matmul  # noqa: F401 (rows' calls)


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
def _rdiv(self, other):
    # ``other / self`` as torch computes it (its graph: MulBackward0 over ReciprocalBackward0)
    return E.mul(E.reciprocal(self), other)


def _divide(input, other, rounding_mode=None):  # noqa: A002
    # torch's rounding modes; trunc keeps an integer dtype for integer inputs
    if rounding_mode is None:
        return E.div(input, other)
    if rounding_mode == "floor":
        return E.floor_divide(input, other)
    if rounding_mode == "trunc":
        from janusgrad.ops.scatters import div_trunc
        return div_trunc(input, other)  # (integer inputs keep their floor division's dtype)
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
        from janusgrad.ops.sorting import nonzero_tuple
        return nonzero_tuple(condition)
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


# ---------------------------------------------------------------- sorting family (hand-written)
# torch returns named (values, indices) tuples, names the nodes by the overload, gives the
# gradient of a value-selecting op to the returned index only, and keeps a uint8 input's
# dtype in all/any; these functions say so over janusgrad.ops.sorting.
from janusgrad.ops import sorting as Q  # noqa: E402

from ._tensor import _pair  # noqa: E402

SORT_TYPES = {n: _pair(n) for n in ("sort", "topk", "kthvalue", "median", "nanmedian", "mode",
                                    "cummax", "cummin")}
_UINT8 = _dtypes.to_np(_dtypes.uint8)


def _logical(op, input, dim, keepdim):  # noqa: A002
    out = getattr(Q, op)(input, axes_tuple(dim), keepdim)
    return _cast(out, _dtypes.uint8) if input.array.dtype == _UINT8 else out


def _named(name, pair, node):
    return SORT_TYPES[name]((tag(pair[0], node), pair[1]))


def sort(input, dim=-1, descending=False, *, stable=False, out=None):  # noqa: A002
    node = "SortBackward1" if stable else "SortBackward0"
    return _named("sort", Q.sort(input, dim, descending), node)


def _median(name, input, dim, keepdim):  # noqa: A002
    # without dim: one value whose gradient is shared among equal elements (node 0);
    # with dim: (values, indices), the gradient to the index (node 1)
    node = name.capitalize() + "Backward"
    if dim is None:
        return tag(Q.median_all(input, name == "nanmedian"), node + "0")
    return _named(name, Q.median(input, dim, keepdim, name == "nanmedian"), node + "1")


def nonzero(input, *, out=None, as_tuple=False):  # noqa: A002
    return Q.nonzero_tuple(input) if as_tuple else Q.nonzero(input)


def _unique_parts(parts, return_inverse, return_counts):
    if not return_inverse and not return_counts:
        return parts[0]
    return (parts[0],) + ((parts[1],) if return_inverse else ()) + (
        (parts[2],) if return_counts else ())


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    # torch sorts whatever ``sorted`` says (its CPU kernel does); inverse and counts only
    # when asked for
    v, _, inv, cnt = Q.unique(input, dim)
    return _unique_parts((v, inv, cnt), return_inverse, return_counts)


def _index_dtype(t, out_int32):
    return _cast(t, _dtypes.int32) if out_int32 else t


def _tensor_of(v):
    """A Python number as a 0-d tensor (a tensor as itself)."""
    from ._ops import C
    return v if isinstance(v, EngineTensor) else Tensor.wrap(C.infer_array(v, None))


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None,  # noqa: A002
                 sorter=None, out=None):
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but "
                               f"got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, "
                               "got side of left while right was True")
        right = side == "right"
    values = _tensor_of(input)
    return _index_dtype(Q.searchsorted(sorted_sequence, values, right, sorter), out_int32)


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):  # noqa: A002
    values = _tensor_of(input)
    return _index_dtype(Q.bucketize(values, boundaries, right), out_int32)


def histc(input, bins=100, min=0, max=0, *, out=None):  # noqa: A002
    if input.array.dtype.kind != "f":
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for "
                                  f"'{long_name(input.array.dtype)}'")
    return Q.histc(input, bins, min, max)


# ---------------------------------------------------------------- manip family (hand-written)
# Where torch's call forms or semantics differ from the engine op's: several call forms of one
# name (meshgrid, atleast_*, einsum, repeat_interleave, scatter), tuples of views whose
# in-place changes torch refuses (unbind), torch's own range checks and error types (narrow,
# select, take, the h/v/dsplit divisibility rule, trace's matrix-only rule, one_hot's dtype).
def _tensors_arg(tensors):
    """``f(a, b)`` and ``f([a, b])`` alike."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return list(tensors[0])
    return list(tensors)


def unbind(input, dim=0):  # noqa: A002
    parts = MP.unbind(input, dim)
    mark_outputs(parts, "Unbind")
    return tuple(tag(p, "UnbindBackward0") for p in parts)


def meshgrid(*tensors, indexing=None):
    tensors = _tensors_arg(tensors)
    if indexing not in (None, "ij", "xy"):
        raise ValueError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but "
                         f"received: {indexing}")
    for t in tensors:
        if t.array.ndim > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but "
                               f"got: {t}")
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the "
                      "indexing argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    return tuple(MP.meshgrid(tensors, indexing))


def _atleast(n):
    def atleast(*tensors):
        if len(tensors) == 1 and isinstance(tensors[0], EngineTensor):
            return MP.atleast(tensors[0], n)
        return tuple(MP.atleast(t, n) for t in _tensors_arg(tensors))
    atleast.__name__ = atleast.__qualname__ = f"atleast_{n}d"
    return atleast


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):  # noqa: A002
    if repeats is None:  # torch.repeat_interleave(repeats): positions repeated by counts
        return MP.repeat_counts(input)
    return MP.repeat_interleave(input, repeats, dim)


def tensor_split(input, indices_or_sections, dim=0):  # noqa: A002
    v = indices_or_sections
    if isinstance(v, EngineTensor):
        v = int(v.array) if v.array.ndim == 0 else [int(i) for i in v.array.tolist()]
    if isinstance(v, int):
        return tuple(MP.tensor_split(input, v, None, dim))
    return tuple(MP.tensor_split(input, None, list(v), dim))


def _hvd_split(name, need, axis_of):
    def split(input, indices_or_sections):  # noqa: A002
        nd = input.array.ndim
        if nd < need:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {need} dimension, "
                               f"but got a tensor with {nd} dimensions!")
        dim = axis_of(nd)
        v = indices_or_sections
        if isinstance(v, int):
            size = input.array.shape[dim]
            if v == 0 or size % v:
                raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but "
                                   f"the size of the dimension {size} is not divisible by the "
                                   f"split_size {v}!")
        return tensor_split(input, v, dim)
    split.__name__ = split.__qualname__ = name
    return split


def narrow(input, dim, start, length):  # noqa: A002
    d = input._axis(dim)
    size = input.array.shape[d]
    if isinstance(start, EngineTensor):
        start = int(start.array)
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if start < 0:
        start += size
    if start + length > size or length < 0:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    return S.narrow(input, d, start, length)


def select(input, dim, index):  # noqa: A002
    if input.array.ndim:
        size = input.array.shape[input._axis(dim)]
        if not -size <= int(index) < size:
            raise IndexError(f"select(): index {int(index)} out of range for tensor of size "
                             f"{list(input.array.shape)} at dimension {input._axis(dim)}")
    return tag(MP.select(input, dim, index), "SelectBackward0")


def take(input, index):  # noqa: A002
    n = input.array.size
    bad = [i for i in index.array.reshape(-1).tolist() if not -n <= i < n]
    if bad:
        raise IndexError(f"out of range: tried to access index {bad[0]} on a tensor of {n} "
                         "elements.")
    return tag(MP.take_flat(input, index), "TakeBackward0")


def trace(input):  # noqa: A002
    if input.array.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim "
                           f"{input.array.ndim}")
    out = MP.trace(input)
    if out.array.dtype.kind in "biu":
        out = _cast(out, _dtypes.int64)  # torch sums integers as int64
    return tag(out, "TraceBackward0")


def fliplr(input):  # noqa: A002
    if input.array.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return tag(S.flip(input, (1,)), "FlipBackward0")


def flipud(input):  # noqa: A002
    if input.array.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return tag(S.flip(input, (0,)), "FlipBackward0")


def scatter(input, dim, index, src=None, value=None, *, reduce=None):  # noqa: A002
    if src is None:
        src = value
    if reduce is not None:
        if reduce not in ("add", "multiply"):
            raise RuntimeError("reduce argument must be either add or multiply.")
        return MP.scatter_reduced(input, dim, index, src, reduce)
    out = MP.scatter(input, dim, index, src)
    return tag(out, "ScatterBackward0" if isinstance(src, EngineTensor) else "ScatterBackward1")


def einsum(*args):
    # torch.einsum(eq, a, b), einsum(eq, [a, b]) and the sublist form einsum(a, [0, 1], b, [1])
    if args and isinstance(args[0], str):
        ops = _tensors_arg(args[1:])
        return MP.einsum(args[0], ops)
    ops, subs = list(args[0::2]), list(args[1::2])
    out = None
    if len(args) % 2:
        out, ops = ops[-1], ops[:-1]

    def letters(sub):
        return "".join("..." if s is Ellipsis else MP._LETTERS[s] for s in sub)
    eq = ",".join(letters(s) for s in subs) + ("" if out is None else "->" + letters(out))
    return MP.einsum(eq, ops)


def take_along_dim(input, indices, dim=None, *, out=None):  # noqa: A002
    if dim is not None and indices.array.ndim != input.array.ndim:
        raise RuntimeError("torch.take_along_dim(): input and indices should have the same "
                           f"number of dimensions, but got {input.array.ndim} dimensions for "
                           f"input, and {indices.array.ndim} dimensions for indices")
    return tag(MP.take_along(input, indices, dim), "GatherBackward0")


def tensordot(a, b, dims=2, out=None):
    if isinstance(dims, EngineTensor):
        dims = dims.array.tolist()
    return MP.tensordot(a, b, dims)


# ---------------------------------------------------------------- scatters family (hand-written)
# torch's memory formats and layout as named objects (janusgrad has one row-major layout: the
# arguments are accepted and change nothing); the *_copy ops (the view op's values in a fresh
# tensor); torch's call forms over janusgrad.ops.scatters; and where torch differs from the
# engine op: outputs torch records although their gradient is zero (div floor, norm p=0,
# fill), 0-d inputs (cumsum, index_select, inner), flip's dims= keyword, round's decimals=.
from janusgrad.array.backend import bool_ as _BOOL  # noqa: E402
from janusgrad.ops import creation as _CR  # noqa: E402
from janusgrad.ops import reduce as _RD  # noqa: E402
from janusgrad.ops import scatters as TM  # noqa: E402


class memory_format:  # noqa: N801 - torch.memory_format
    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return "torch." + self._name


class layout(memory_format):  # noqa: N801 - torch.layout (a named object alike)
    __slots__ = ()


MEMORY_FORMATS = {n: memory_format(n) for n in (
    "contiguous_format", "preserve_format", "channels_last", "channels_last_3d")}
LAYOUTS = {"strided": layout("strided")}


def _as_dtype(dt):
    def convert(self, memory_format=None):
        return _cast(self, dt)
    return convert


def _copy_of(view):
    """torch's ``<view>_copy``: the view's values in a new tensor (tuples: each part)."""
    def copy(input, *args, **kwargs):  # noqa: A002
        out = getattr(input, view)(*args, **kwargs)
        if isinstance(out, (tuple, list)):
            return [E.clone(o) for o in out]
        return E.clone(out)
    copy.__name__ = copy.__qualname__ = f"{view}_copy"
    return copy


def _zero_grad_link(out, *inputs):
    """``out`` recorded from ``inputs`` with a zero gradient, where torch records an op whose
    derivative is zero (the other branch of an all-true where gets none)."""
    ins = [t for t in inputs if isinstance(t, EngineTensor) and t.requires_grad]
    if not ins:
        return out
    mask = _CR.ones_like(out, _BOOL)
    other = ins[0] if len(ins) == 1 else E.add(_RD.sum(ins[0]), _RD.sum(ins[1]))
    other = _RD.sum(other)
    if other.array.dtype != out.array.dtype:
        other = E.cast(other, out.array.dtype)
    return E.where_(mask, out, other)


def _div(input, other, *, rounding_mode=None, out=None):  # noqa: A002
    r = _divide(input, other, rounding_mode)
    if rounding_mode is not None and r.array.dtype.kind == "f":
        r = _zero_grad_link(r, input, other)
    return r


def _norm(input, p="fro", dim=None, keepdim=False, dtype=None):  # noqa: A002
    if p == "nuc":  # the nuclear norm of the matrices over dim (the last two by default)
        return LA.matrix_norm(_cast_to(input, dtype), "nuc",
                              (-2, -1) if dim is None else tuple(dim), keepdim)
    r = R.norm(_cast_to(input, dtype), _ord(p), axes_tuple(dim), keepdim)
    return _zero_grad_link(r, input) if r.node is None else r


def _fill(input, value):  # noqa: A002
    if isinstance(value, EngineTensor):
        if value.array.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value.array.ndim} dimensions.")
        v = E.cast(value, input.array.dtype) if value.array.dtype != input.array.dtype \
            else value
    else:
        v = _CR.full_like(input, value)
    return E.where_(_CR.ones_like(input, _BOOL), v, input)


def _flip(input, *dims, **kw):  # noqa: A002
    if "dims" in kw:
        dims = kw.pop("dims")
    if kw:
        raise TypeError(f"flip() got an unexpected keyword argument '{next(iter(kw))}'")
    return S.flip(input, _distinct_axes(input, dims))


def _round(input, *, decimals=0, out=None):  # noqa: A002
    if decimals == 0:
        return E.round(input)
    if input.array.dtype.kind != "f":
        raise NotImplementedError(f"\"round_cpu\" not implemented for "
                                  f"'{long_name(input.array.dtype)}'")
    ten = 10.0 ** abs(decimals)
    if decimals > 0:
        return tag(E.div(E.round(E.mul(input, ten)), ten), "RoundBackward1")
    return tag(E.mul(E.round(E.div(input, ten)), ten), "RoundBackward1")


def _cumsum(input, dim, *, dtype=None, out=None):  # noqa: A002
    x = _cast_to(input, dtype)
    if x.array.ndim == 0:  # torch keeps a 0-d input 0-d
        checked_axis(x, "cumsum", dim)
        return S.reshape(R.cumsum(x, 0), ())
    return R.cumsum(x, dim)


def _index_select(input, dim, index):  # noqa: A002
    if input.array.ndim == 0:
        if index.array.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                               f"{index.array.size} value(s)")
        checked_axis(input, "index_select", dim)
        one = I.index_select(S.reshape(input, (1,)), 0, S.reshape(index, (1,)))
        return tag(S.reshape(one, ()), "IndexSelectBackward0")
    return tag(I.index_select(input, input._axis(dim), index), "IndexSelectBackward0")


def _inner(input, other, *, out=None):  # noqa: A002
    a, b = input.array, other.array
    if a.ndim == 0 or b.ndim == 0:
        return E.mul(input, other)
    if a.shape[-1] != b.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but "
                           f"got shapes {list(a.shape)} and {list(b.shape)}")
    return MP.tensordot(input, other, ([-1], [-1]))


def _sum_to_size(self, *size):
    size = tuple(_shape_args(size))
    shape = tuple(self.array.shape)
    ok = len(size) <= len(shape) and all(
        s == n or s == 1 for s, n in zip(size[::-1], shape[::-1]))
    if not ok:
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")
    return S.sum_to(self, size)


def _resize_(self, *sizes, memory_format=None):
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    return TM.resize_(self, _shape_args(sizes))


def _H(self):  # noqa: N802
    n = self.array.ndim
    if n not in (0, 2):
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {n}-D "
                           "tensor.")
    return self if n == 0 else S.transpose(self, (1, 0))


def _tri_indices(lower):
    def indices(row, col, offset=0, *, dtype=None, device=None, layout=None,
                pin_memory=False):
        from ._device import resolve
        dt = _dtypes.int64._np if dtype is None else _dtypes.to_np(dtype)
        return TM.tri_indices(Tensor, row, col, offset, lower, dt,
                              device=None if device is None else resolve(device))
    indices.__name__ = indices.__qualname__ = "tril_indices" if lower else "triu_indices"
    return indices


def _scalar_tensor_fn(s, *, dtype=None, layout=None, device=None, requires_grad=False,
                      pin_memory=None):
    from ._creation import tensor
    return tensor(s, dtype=_dtypes.get_default_dtype() if dtype is None else dtype,
                  device=device, requires_grad=requires_grad)


def _randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None,  # noqa: A002
                  requires_grad=False, memory_format=None, generator=None):
    from ._creation import randint
    if high is None:
        low, high = 0, low
    return randint(low, high, tuple(input.array.shape), generator=generator,
                   dtype=input.dtype if dtype is None else dtype,
                   device=device, requires_grad=requires_grad)


def _bernoulli_(self, p=0.5, *, generator=None):
    return inplace.update(self, lambda t: TM.bernoulli(t, p, generator))


# ---------------------------------------------------------------- the table
_NO_INPLACE = frozenset("logaddexp logaddexp2 fmax fmin".split())  # (torch has no x.fmax_)
_BINARY = "input, other, *, alpha=1, out=None"
_REDUCE = "input, dim=None, keepdim=False, *, dtype=None"
# torch.softmax and Tensor.softmax need a dim (nn.functional's may pick one: functional.py)
_SOFTMAX = "input, dim=_NO_DIM, dtype=None, *, _stacklevel=3"
_NO_DIM = object()


def _dim_of(dim, op: str):
    if dim is _NO_DIM:
        raise TypeError(f'{op}() missing 1 required positional arguments: "dim"')
    return dim


_CLOSE = "input, other, rtol=1e-05, atol=1e-08, equal_nan=False"
_BY_WEIGHT = "'{0}Backward1' if isinstance({1}, EngineTensor) else '{0}Backward0'"


def _rows(names: str, fn_of, forms: str = "fm", **aliases) -> list[Row]:
    """Rows binding engine functions of the same name directly (``aliases``: alias=name)."""
    back: dict = {}
    for alias, name in aliases.items():
        back.setdefault(name, []).append(alias)
    return [Row(n, f"{fn_of.__name__}.{n}", forms=forms, aliases=tuple(back.get(n, ())))
            for n in names.split()]


# ---- linear algebra (janusgrad.ops.linalg_factor): torch returns named tuples, torch.linalg.norm
# picks a vector or matrix norm from ord/dim, torch.cross's dim defaults to the first of size 3
from collections import namedtuple as _namedtuple  # noqa: E402

from janusgrad.array.backend import broadcast_shapes as _broadcast_shapes  # noqa: E402
from janusgrad.ops import linalg_factor as LA  # noqa: E402

_SLOGDET_T = _namedtuple("linalg_slogdet", "sign logabsdet")
_EIGH_T = _namedtuple("linalg_eigh", "eigenvalues eigenvectors")


def _linalg_norm(A, ord=None, dim=None, keepdim=False, *, out=None, dtype=None):
    A = _cast_to(A, dtype)
    if isinstance(dim, int) or (isinstance(dim, (tuple, list)) and len(dim) == 1):
        return LA.vector_norm(A, 2 if ord is None else ord, dim, keepdim)
    if dim is None:
        if ord is None:
            return LA.vector_norm(A, 2, None, keepdim)
        if A.ndim == 1:
            return LA.vector_norm(A, ord, None, keepdim)
        if A.ndim != 2:
            raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input "
                               f"must be 1D or 2D. Got {A.ndim}D.")
        dim = (0, 1)
    return LA.matrix_norm(A, "fro" if ord is None else ord, tuple(dim), keepdim)


def _torch_cross(input, other, dim=None, *, out=None):
    if dim is None:
        shape = _broadcast_shapes(tuple(input.shape), tuple(other.shape))
        dim = next((i for i, n in enumerate(shape) if n == 3), -1)
    return LA.cross(input, other, dim)


_SVD_T = _namedtuple("linalg_svd", "U S Vh")
_LEGACY_SVD_T = _namedtuple("svd", "U S V")
_QR_T = _namedtuple("linalg_qr", "Q R")
_LEGACY_QR_T = _namedtuple("qr", "Q R")
_LSTSQ_T = _namedtuple("linalg_lstsq", "solution residuals rank singular_values")


def _legacy_svd(input, some=True, compute_uv=True, *, out=None):  # V, not V^T
    u, s, vh = LA.svd(input, not some)
    return _LEGACY_SVD_T(u, s, S.swapaxes(vh, -1, -2))


_INV_EX_T = _namedtuple("linalg_inv_ex", "inverse info")
_CHOLESKY_EX_T = _namedtuple("linalg_cholesky_ex", "L info")
_SOLVE_EX_T = _namedtuple("linalg_solve_ex", "result info")


def _nn_functional(name, **fixed):
    """torch.NAME as torch.nn.functional.NAME (part pool)."""
    from . import _pool
    f = getattr(_pool, name)
    if not fixed:
        return f

    def fn(*args, **kwargs):
        return f(*args, **kwargs, **fixed)
    fn.__name__ = fn.__qualname__ = name
    return fn
# ---------------------------------------------------------------- activations and losses family
# torch.<name> for the activations, distances and losses torch also keeps in its namespace
# (aten's forms: ``reduction`` an int, 0 none, 1 mean, 2 sum; in-place twins of some), over
# engine.ops.activation and engine.nn.losses; torch.nn.functional's own forms, with their
# checks, are torchlike/nn/functional.py's
from janusgrad.nn import losses as _NL  # noqa: E402
from janusgrad.ops import activation as _A  # noqa: E402

_ENUM = "('none', 'mean', 'sum')[reduction] if isinstance(reduction, int) else reduction"


def _in_place(fn):
    def f(input, *args):  # noqa: A002
        return inplace.update(input, fn, *args)
    f.__name__ = fn.__name__ + "_"
    return f


_ACTS_LOSSES_ROWS = [
    Row("selu", _A.selu, "input", "input", "f"),
    Row("selu_", _in_place(_A.selu), "input", "input", "f"),
    Row("celu", _A.celu, "input, alpha=1.0", forms="f"),
    Row("celu_", _in_place(_A.celu), "input, alpha=1.0", forms="f"),
    Row("rrelu", _A.rrelu, "input, lower=0.125, upper=0.3333333333333333, training=False, "
        "generator=None", "input, lower, upper, training", "f"),
    Row("rrelu_", _in_place(_A.rrelu), "input, lower=0.125, upper=0.3333333333333333, "
        "training=False, generator=None", "input, lower, upper, training", "f"),
    Row("threshold", _A.threshold, "input, threshold, value", forms="f"),
    Row("threshold_", _in_place(_A.threshold), "input, threshold, value", forms="f"),
    Row("hardshrink", _A.hardshrink, "input, lambd=0.5", "input, lambd"),
    Row("prelu", _A.prelu, "input, weight", "input, weight, 1 if input.array.ndim >= 2 else 0"),
    Row("cosine_similarity", _NL.cosine_similarity, "x1, x2, dim=1, eps=1e-08", forms="f"),
    Row("pairwise_distance", _NL.pairwise_distance, "x1, x2, p=2.0, eps=1e-06, keepdim=False",
        forms="f"),
    Row("pdist", _NL.pdist, "input, p=2", forms="f"),
    Row("bilinear", _NL.bilinear, "input1, input2, weight, bias=None", forms="f"),
    Row("kl_div", _NL.kl_div, "input, target, reduction=1, *, log_target=False",
        f"input, target, {_ENUM}, log_target", "f"),
    Row("cosine_embedding_loss", _NL.cosine_embedding_loss,
        "input1, input2, target, margin=0.0, reduction=1",
        f"input1, input2, target, margin, {_ENUM}, 1e-12, target.array.ndim", "f"),
    Row("hinge_embedding_loss", _NL.hinge_embedding_loss,
        "input, target, margin=1.0, reduction=1", f"input, target, margin, {_ENUM}", "f"),
    Row("margin_ranking_loss", _NL.margin_ranking_loss,
        "input1, input2, target, margin=0.0, reduction=1",
        f"input1, input2, target, margin, {_ENUM}", "f"),
    Row("poisson_nll_loss", _NL.poisson_nll_loss,
        "input, target, log_input, full, eps, reduction",
        f"input, target, log_input, full, eps, {_ENUM}", "f"),
    Row("triplet_margin_loss", _NL.triplet_margin_loss,
        "anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction=1",
        f"anchor, positive, negative, margin, p, eps, swap, {_ENUM}", "f"),
]
# ---- math/stat family (janusgrad.ops.stats, janusgrad.ops.linalg_lu): torch returns named tuples
# (aminmax, frexp, histogram, var_mean as a plain tuple), reads dim=None of trapezoid as -1
# and takes bins/range/spacing in its own shapes; creation functions (logspace, windows)
# build tensors of torchlike's class
from janusgrad.ops import stats as MS  # noqa: E402

_AMINMAX_T = _namedtuple("aminmax", "min max")
_FREXP_T = _namedtuple("frexp", "mantissa exponent")
_HISTOGRAM_T = _namedtuple("histogram", "hist bin_edges")
_HISTOGRAMDD_T = _namedtuple("histogramdd", "hist bin_edges")


def _hist_float(input, what="histogram"):
    if input.array.dtype.kind != "f":
        raise NotImplementedError(f"\"{what}_cpu\" not implemented for "
                                  f"'{long_name(input.array.dtype)}'")


def _histogram(input, bins=100, *, range=None, weight=None, density=False, out=None):  # noqa: A002
    _hist_float(input)
    if isinstance(bins, EngineTensor) and bins.array.dtype != input.array.dtype:
        raise RuntimeError("torch.histogram: input tensor and bins tensors should have the "
                           "same dtype, but got input " + long_name(input.array.dtype) +
                           " and bins " + long_name(bins.array.dtype))
    return _HISTOGRAM_T(*MS.histogram(input, bins, range, weight, density))


def _histogramdd(input, bins=10, *, range=None, weight=None, density=False, out=None):  # noqa: A002
    _hist_float(input, "histogramdd")
    return _HISTOGRAMDD_T(*MS.histogramdd(input, bins, range, weight, density))


def _trapezoid(y, x=None, *, dx=None, dim=-1):
    if isinstance(x, (int, float)) and not isinstance(x, bool):  # trapz(y, dx) positionally
        x, dx = None, x
    return MS.trapezoid(y, x, dx, dim)


def _cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        x, dx = None, x
    return MS.cumulative_trapezoid(y, x, dx, dim)


def _gradient(input, *, spacing=1, dim=None, edge_order=1):
    if spacing is None:
        spacing = 1
    if isinstance(spacing, (list, tuple)) and dim is None and len(spacing) == 1 and \
            input.array.ndim != 1:
        spacing = list(spacing) * input.array.ndim
    if dim is not None and not isinstance(dim, int) and isinstance(spacing, (int, float)):
        spacing = [spacing] * len(dim)
    return MS.gradient(input, spacing, dim, edge_order)


def _nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    if input.array.dtype.kind != "f" and dtype is None:
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype "
                           f"but got {long_name(input.array.dtype)}")
    return MS.nanmean(_cast_to(input, dtype), axes_tuple(dim), keepdim)


def _block_diag(*tensors):
    if not tensors:  # (no blocks: a 1 x 0 tensor, as torch)
        from ._creation import zeros
        return zeros(1, 0)
    return MS.block_diag(tensors)


def _logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=None,
              device=None, requires_grad=False):
    from ._creation import _dev, _finish
    s = start.item() if isinstance(start, EngineTensor) else start
    e = end.item() if isinstance(end, EngineTensor) else end
    return _finish(MS.logspace(Tensor, s, e, steps, base,
                               None if dtype is None else _dtypes.to_np(dtype),
                               device=_dev(device)), requires_grad)


_WINDOW = "*, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False"


def _legacy_window(kind, window_length, periodic, dtype, device, requires_grad, **params):
    from ._creation import _dev, _finish
    return _finish(MS.legacy_window(Tensor, kind, window_length, periodic,
                                    None if dtype is None else _dtypes.to_np(dtype),
                                    device=_dev(device), **params), requires_grad)


from janusgrad.ops import linalg_lu as L3  # noqa: E402

_LU_FACTOR_T = _namedtuple("linalg_lu_factor", "LU pivots")
_LU_FACTOR_EX_T = _namedtuple("linalg_lu_factor_ex", "LU pivots info")
_LU_T = _namedtuple("linalg_lu", "P L U")
_LU_UNPACK_T = _namedtuple("lu_unpack", "P L U")
_TRIANGULAR_SOLVE_T = _namedtuple("triangular_solve", "solution cloned_coefficient")


def _legacy_lu(A, pivot=True, get_infos=False, out=None):  # (LU, pivots[, infos])
    packed, piv = L3.lu_factor(A, pivot)
    return (packed, piv, LA.info_zeros(A)) if get_infos else (packed, piv)


# ---- layer norm (attn): torch's shape checks (torch.nn.functional uses these functions)
def _normalized_dims(input, normalized_shape, weight=None, bias=None) -> int:  # noqa: A002
    """The number of trailing axes ``normalized_shape`` names, after torch's checks."""
    shape = [normalized_shape] if isinstance(normalized_shape, int) else [
        int(n) for n in normalized_shape]
    xs = list(input.array.shape)
    n = len(shape)
    if n and (len(xs) < n or xs[len(xs) - n:] != shape):
        raise RuntimeError(f"Given normalized_shape={shape}, expected input with shape "
                           f"[*, {', '.join(map(str, shape))}], but got input of size{xs}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and list(t.array.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but "
                               f"got {name} of shape {list(t.array.shape)} and "
                               f"normalized_shape = {shape}")
    return n


def _layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05,  # noqa: A002
                cudnn_enable=True):
    n = _normalized_dims(input, normalized_shape, weight, bias)
    return tag(NA.layer_norm(input, n, weight, bias, eps), "NativeLayerNormBackward0")


def _native_layer_norm(input, normalized_shape, weight, bias, eps):  # noqa: A002
    """torch.native_layer_norm: (output, mean, rstd), the statistics untracked."""
    n = _normalized_dims(input, normalized_shape, weight, bias)
    mean, rstd = NA.layer_norm_stats(input, n, eps)
    return _layer_norm(input, normalized_shape, weight, bias, eps), mean, rstd


ROWS = [
    # elementwise: engine op, torch name and argument order agree
    *_rows("neg exp expm1 log log2 log10 log1p sqrt rsqrt square abs sign sin cos tan asin "
           "acos atan sinh cosh tanh sigmoid relu reciprocal floor ceil mul remainder "
           "floor_divide", E, "fmi", multiply="mul", negative="neg", absolute="abs",
           arcsin="asin", arccos="acos", arctan="atan"),
    *_rows("maximum minimum eq ne lt le gt ge logical_and logical_or logical_xor logical_not "
           "bitwise_and bitwise_or bitwise_xor bitwise_not isnan isinf isfinite", E,
           greater="gt", greater_equal="ge", less="lt", less_equal="le", not_equal="ne"),
    Row("add", E.add, _BINARY, "input, _alpha(other, alpha)", "fmi"),
    Row("sub", E.sub, _BINARY, "input, _alpha(other, alpha)", "fmi", ("subtract",)),
    Row("rsub", E.sub, "input, other, *, alpha=1", "other, _alpha(input, alpha)", "f",
        node="'RsubBackward0' if alpha == 1 else None"),
    Row("div", _div, forms="fmi", aliases=("divide",)),
    Row("true_divide", E.div, forms="fmi"),
    Row("trunc", "elementwise.trunc", forms="fmi", aliases=("fix",)),
    Row("round", _round, forms="fmi"),
    Row("pow", pow, forms="fmi"),
    Row("clamp", TM.clamp, "input, min=None, max=None", "input, *_bounds(min, max)", "fmi",
        ("clip",)),
    Row("clamp_min", TM.clamp, "input, min", "input, min, None", "fmi",
        node="ClampMinBackward0"),
    Row("clamp_max", TM.clamp, "input, max", "input, None, max", "fmi",
        node="ClampMaxBackward0"),
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
    *(Row(n, _extreme, "input, dim=None, keepdim=False, *, other=None",
          f"'{n}', {n.upper()}_T, input, dim, keepdim, other") for n in ("max", "min")),
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
    Row("norm", _norm),
    Row("logsumexp", R.logsumexp, "input, dim, keepdim=False", "input, axes_tuple(dim), keepdim"),
    Row("cumsum", _cumsum, forms="fmi"),
    Row("softmax", R.softmax, _SOFTMAX, "_cast_to(input, dtype), _dim_of(dim, 'softmax')"),
    Row("log_softmax", R.log_softmax, _SOFTMAX,
        "_cast_to(input, dtype), _dim_of(dim, 'log_softmax')"),
    # linear algebra
    Row("matmul", matmul), Row("dot", dot), Row("inner", _inner), Row("mm", mm), Row("bmm", bmm),
    Row("mv", mv), Row("outer", outer, aliases=("ger",)), Row("t", t),
    # shape
    Row("reshape", S.reshape, "input, *shape", "input, _target(input, shape)"),
    Row("view", S.view, "input, *shape", "input, _target(input, shape)", "m"),
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
    Row("cat", S.concatenate, "tensors, dim=0, *, out=None", "_some(tensors, 'cat'), dim", "f",
        ("concat", "concatenate")),
    Row("stack", S.stack, "tensors, dim=0, *, out=None", "_some(tensors, 'stack'), dim", "f"),
    Row("split", split),
    *(Row(n, split, "input, chunks, dim=0",
          "input, chunk_step(input.array.shape[input._axis(dim)], chunks), dim")
      for n in ("chunk", "unsafe_chunk")), Row("repeat", repeat, forms="m"),
    Row("tile", tile),
    Row("flip", _flip),
    # indexing
    Row("index_select", _index_select),
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
        ("sub", E.sub, "RsubBackward1"), ("floordiv", E.floor_divide, None),
        ("mod", E.remainder, None), ("pow", pow, None), ("matmul", matmul, None))],
    # torch's reflected add and mul put the tensor first, and its reflected division is
    # ``self.reciprocal() * other`` (their grad_fn.next_functions show it)
    *[Row(f"__r{n}__", fn, "self, other", "self, _w(other)", "m") for n, fn in (
        ("add", E.add), ("mul", E.mul))],
    Row("__rtruediv__", _rdiv, "self, other", "self, _w(other)", "m"),
    # in-place operators: torch updates the tensor object itself
    *[Row(f"__i{n}__", fn, forms="i", inplace=f"__i{n}__") for n, fn in (
        ("add", E.add), ("sub", E.sub), ("mul", E.mul), ("truediv", E.div),
        ("floordiv", E.floor_divide), ("mod", E.remainder), ("pow", E.pow),
        ("matmul", matmul), ("and", E.bitwise_and), ("or", E.bitwise_or),
        ("xor", E.bitwise_xor))],
    # sorting family: sorting, searching, logical reductions, counting (janusgrad.ops.sorting)
    *(Row(n, _logical, "input, dim=None, keepdim=False, *, out=None",
          f"'{n}', input, dim, keepdim") for n in ("all", "any")),
    Row("sort", sort, "input, dim=-1, descending=False, *, stable=False, out=None",
        "input, dim, descending, stable=stable"),
    Row("argsort", Q.argsort, "input, dim=-1, descending=False, *, stable=False",
        "input, dim, descending"),
    Row("msort", Q.msort, "input, *, out=None", "input", node="SortBackward0"),
    Row("topk", _named, "input, k, dim=-1, largest=True, sorted=True, *, out=None",
        "'topk', Q.topk(input, int(k), dim, largest, sorted), 'TopkBackward0'"),
    Row("kthvalue", _named, "input, k, dim=-1, keepdim=False, *, out=None",
        "'kthvalue', Q.kthvalue(input, int(k), dim, keepdim), 'KthvalueBackward0'"),
    *(Row(n, _median, "input, dim=None, keepdim=False, *, out=None",
          f"'{n}', input, dim, keepdim") for n in ("median", "nanmedian")),
    Row("mode", _named, "input, dim=-1, keepdim=False, *, out=None",
        "'mode', Q.mode(input, dim, keepdim), 'ModeBackward0'"),
    *(Row(n, _named, "input, dim, *, out=None",
          f"'{n}', Q.{n}(input, dim), '{n.capitalize()}Backward0'") for n in ("cummax", "cummin")),
    Row("cumprod", Q.cumprod, "input, dim, *, dtype=None, out=None", "_cast_to(input, dtype), dim",
        "fmi"),
    Row("logcumsumexp", Q.logcumsumexp, "input, dim, *, out=None", "input, dim"),
    Row("nonzero", nonzero), Row("argwhere", Q.nonzero, "input", "input"),
    Row("count_nonzero", Q.count_nonzero, "input, dim=None", "input, axes_tuple(dim)"),
    Row("unique", unique, "input, sorted=True, return_inverse=False, return_counts=False, "
        "dim=None", "input, sorted, return_inverse, return_counts, dim"),
    Row("unique_consecutive", _unique_parts, "input, return_inverse=False, "
        "return_counts=False, dim=None",
        "Q.unique_consecutive(input, dim), return_inverse, return_counts"),
    Row("bincount", Q.bincount, "input, weights=None, minlength=0"),
    Row("histc", histc), Row("searchsorted", searchsorted, forms="f"),
    Row("bucketize", bucketize, forms="f"), Row("isin", Q.isin, "elements, test_elements, *, "
        "assume_unique=False, invert=False", "_tensor_of(elements), test_elements, invert", "f"),
    # ---- elementwise math and special functions (engine.ops.math, engine.ops.special)
    *[Row(n, getattr(M, n), "input, other", forms="fm" if n in _NO_INPLACE else "fmi",
          aliases=("arctan2",) if n == "atan2" else ()) for n in (
        "atan2 hypot fmod copysign nextafter ldexp gcd lcm logaddexp logaddexp2 fmax "
        "fmin").split()],
    Row("float_power", M.float_power, "input, exponent", forms="fmi"),
    *_rows("frac exp2 sinc deg2rad rad2deg", M, "fmi"),
    *_rows("erf erfc erfinv lgamma digamma i0", SP, "fmi"),
    *_rows("signbit positive isposinf isneginf isreal angle", M),
    Row("xlogy", SP.xlogy, "input, other", forms="fmi"),
    Row("heaviside", M.heaviside, "input, values", forms="fmi"),
    Row("bitwise_left_shift", M.left_shift, "input, other", forms="fmi"),
    Row("bitwise_right_shift", M.right_shift, "input, other", forms="fmi"),
    Row("__lshift__", M.left_shift, forms="m"), Row("__rshift__", M.right_shift, forms="m"),
    Row("__ilshift__", M.left_shift, forms="i", inplace="__ilshift__"),
    Row("__irshift__", M.right_shift, forms="i", inplace="__irshift__"),
    Row("logit", M.logit, "input, eps=None", forms="fmi"),
    Row("nan_to_num", M.nan_to_num, "input, nan=0.0, posinf=None, neginf=None", forms="fmi"),
    Row("sgn", E.sign, forms="fmi", node="SgnBackward0"),
    Row("conj", M.positive, "input", aliases=("resolve_conj", "resolve_neg")),
    Row("conj_physical", M.positive, "input", forms="fmi"),
    Row("real", M.positive, "input", forms="f"),
    Row("polygamma", SP.polygamma, "n, input", forms="f"),
    Row("polygamma", SP.polygamma, "input, n", "n, input", "mi"),
    Row("mvlgamma", SP.mvlgamma, "input, p", forms="fmi"),
    Row("igamma", SP.gammainc, "input, other", forms="fmi"),
    Row("igammac", SP.gammaincc, "input, other", forms="fmi"),
    *[Row(n, getattr(M, n), f"input, {a}, {b}, *, beta=1, alpha=1", forms="fmi",
          node=node) for n, a, b, node in (
        ("addmm", "mat1", "mat2", "AddmmBackward0"), ("addmv", "mat", "vec", "AddmvBackward0"),
        ("addr", "vec1", "vec2", "AddrBackward0"),
        ("baddbmm", "batch1", "batch2", "BaddbmmBackward0"),
        ("addbmm", "batch1", "batch2", "AddbmmBackward0"))],
    # manip family (engine/janusgrad/ops/manip.py)
    Row("tril", MP.tril, "input, diagonal=0, *, out=None", "input, diagonal", "fmi"),
    Row("triu", MP.triu, "input, diagonal=0, *, out=None", "input, diagonal", "fmi"),
    Row("diagonal", MP.diagonal, "input, offset=0, dim1=0, dim2=1"),
    Row("diag_embed", MP.diag_embed, "input, offset=0, dim1=-2, dim2=-1",
        node="DiagEmbedBackward0"),
    Row("diag", MP.diag, "input, diagonal=0, *, out=None", "input, diagonal",
        node="'DiagEmbedBackward0' if input.array.ndim == 1 else None"),
    Row("diagflat", MP.diagflat, "input, offset=0", node="DiagEmbedBackward0"),
    Row("trace", trace),
    Row("roll", MP.roll, "input, shifts, dims=None", node="RollBackward0"),
    Row("rot90", MP.rot90, "input, k=1, dims=(0, 1)", node="Rot90Backward0"),
    Row("fliplr", fliplr), Row("flipud", flipud),
    Row("movedim", MP.movedim, "input, source, destination", aliases=("moveaxis",)),
    Row("unbind", unbind), Row("narrow", narrow), Row("select", select),
    Row("unflatten", MP.unflatten, "input, dim, sizes"),
    Row("meshgrid", meshgrid, forms="f"),
    Row("broadcast_tensors", tuple, "*tensors", "MP.broadcast_tensors(_tensors_arg(tensors))",
        "f"),
    *(Row(f"atleast_{n}d", _atleast(n), forms="f") for n in (1, 2, 3)),
    Row("repeat_interleave", repeat_interleave),
    *(Row(n, getattr(MP, n), "tensors, *, out=None", "list(tensors)", "f")
      for n in ("hstack", "vstack", "dstack", "column_stack")),
    Row("row_stack", MP.vstack, "tensors, *, out=None", "list(tensors)", "f"),
    Row("tensor_split", tensor_split),
    Row("hsplit", _hvd_split("hsplit", 1, lambda nd: 0 if nd == 1 else 1)),
    Row("vsplit", _hvd_split("vsplit", 2, lambda nd: 0)),
    Row("dsplit", _hvd_split("dsplit", 3, lambda nd: 2)),
    Row("scatter", scatter, forms="fmi"),
    *(Row(n, fn, params, forms="fmi", node=node) for n, fn, params, node in (
        ("scatter_add", MP.scatter_add, "input, dim, index, src", "ScatterAddBackward0"),
        ("index_add", MP.index_add_along, "input, dim, index, source, *, alpha=1",
         "IndexAddBackward0"),
        ("index_copy", MP.index_copy, "input, dim, index, source", "IndexCopyBackward0"),
        ("index_fill", MP.index_fill, "input, dim, index, value", "IndexFillBackward0"),
        ("index_put", MP.index_put, "input, indices, values, accumulate=False",
         "IndexPutBackward0"),
        ("masked_scatter", MP.masked_scatter, "input, mask, source", "MaskedScatterBackward0"))),
    Row("take", take),
    Row("take_along_dim", take_along_dim),
    Row("einsum", einsum, forms="f"), Row("tensordot", tensordot, forms="f"),
    Row("kron", MP.kron, "input, other"),
    Row("cartesian_prod", lambda *tensors: MP.cartesian_prod(tensors), forms="f"),
    Row("combinations", MP.combinations, "input, r=2, with_replacement=False", forms="f"),
    # ---- linear algebra (janusgrad.ops.linalg_factor)
    Row("det", LA.det, "input", node="LinalgDetBackward0"),
    Row("slogdet", _SLOGDET_T, "A, *, out=None", "*LA.slogdet(A)"),
    Row("logdet", LA.logdet, "input"),
    Row("inverse", LA.inv, "input, *, out=None", "input", node="LinalgInvExBackward0"),
    Row("cholesky", LA.cholesky, "input, upper=False, *, out=None", "input, upper",
        node="LinalgCholeskyExBackward0"),
    Row("cross", _torch_cross),
    Row("matrix_power", LA.matrix_power, "input, n, *, out=None", "input, n"),
    Row("pinverse", LA.pinv, "input, rcond=1e-15", "input, None, rcond"),
    Row("svd", _legacy_svd),
    Row("qr", _LEGACY_QR_T, "input, some=True, *, out=None",
        "*LA.qr(input, 'reduced' if some else 'complete')"),
    # ---- scatters family (engine/janusgrad/ops/scatters.py; hand-written block above)
    *(Row(n, _as_dtype(getattr(_dtypes, d)), forms="m") for n, d in (
        ("bool", "bool"), ("byte", "uint8"), ("char", "int8"), ("double", "float64"),
        ("float", "float32"), ("half", "float16"), ("int", "int32"), ("long", "int64"),
        ("short", "int16"))),
    Row("to", Tensor.to, "self, *args, memory_format=None, **kwargs", "self, *args, **kwargs",
        "m"),
    *(Row(f"{v}_copy", _copy_of(v), forms="f") for v in (
        "expand", "diagonal", "permute", "narrow", "view", "squeeze", "unsqueeze",
        "transpose", "t", "unbind", "split_with_sizes", "unfold", "as_strided")),
    Row("alias_copy", E.clone, "input, *, out=None", "input", "f"),
    Row("narrow_copy", _copy_of("narrow"), forms="m"),
    Row("clone", E.clone, "input, *, memory_format=None", "input", "fm",
        node="CloneBackward0"),
    Row("as_strided", TM.as_strided, "input, size, stride, storage_offset=None",
        "input, tuple(size), tuple(stride), storage_offset or 0", node="AsStridedBackward0"),
    Row("as_strided_scatter", TM.as_strided_scatter,
        "input, src, size, stride, storage_offset=None",
        "input, src, tuple(size), tuple(stride), storage_offset or 0",
        node="AsStridedScatterBackward0"),
    Row("diagonal_scatter", TM.diagonal_scatter, "input, src, offset=0, dim1=0, dim2=1",
        node="DiagonalScatterBackward0"),
    Row("select_scatter", TM.select_scatter, "input, src, dim, index",
        node="SelectScatterBackward0"),
    Row("slice_scatter", TM.slice_scatter, "input, src, dim=0, start=None, end=None, step=1",
        node="SliceScatterBackward0"),
    Row("unsafe_split", split),
    Row("split_with_sizes", split, "input, split_sizes, dim=0", "input, list(split_sizes), dim"),
    Row("sum_to_size", _sum_to_size, forms="m"),
    Row("ravel", S.reshape, "input", "input, (-1,)", node="ViewBackward0"),
    Row("unravel_index", TM.unravel_index, "indices, shape", "_tensor_of(indices), shape", "f"),
    Row("unfold", TM.unfold, "self, dimension, size, step", forms="m", node="UnfoldBackward0"),
    Row("fill", _fill, forms="f", node="FillBackward0"),
    Row("zero_", lambda input: input.zero_(), forms="f"),
    Row("resize_", _resize_, forms="m"),
    Row("resize_as_", _resize_, "input, the_template, *, memory_format=None",
        "input, tuple(the_template.array.shape)"),
    Row("triu_indices", _tri_indices(False), forms="f"),
    Row("tril_indices", _tri_indices(True), forms="f"),
    Row("nonzero_static", TM.nonzero_static, "input, *, size, fill_value=-1",
        "input, size, fill_value"),
    Row("put", TM.put, "input, index, source, accumulate=False", forms="fmi", node="PutBackward0"),
    *(Row(n, getattr(TM, n), f"input, dim, index, {src}, reduce, *, include_self=True",
          forms="fmi", node=node) for n, src, node in (
        ("index_reduce", "source", "IndexReduceBackward0"),
        ("scatter_reduce", "src", "ScatterReduceBackward0"))),
    Row("__rdiv__", _rdiv, "self, other", "self, _w(other)", "m"),
    Row("scalar_tensor", _scalar_tensor_fn, forms="f"),
    *(Row(n, _creation.empty, f"size, {second}, {_WINDOW}", "tuple(size), dtype=dtype, "
          "device=device, requires_grad=requires_grad", "f") for n, second in (
        ("empty_strided", "stride"), ("empty_permuted", "physical_layout"))),
    Row("new_empty_strided", Tensor.new_empty, f"self, size, stride, {_WINDOW}",
        "self, tuple(size), dtype=dtype, device=device, requires_grad=requires_grad", "m"),
    Row("randint_like", _randint_like, forms="f"),
    Row("multinomial", TM.multinomial, "input, num_samples, replacement=False, *, generator=None, "
        "out=None", "input, num_samples, replacement, generator"),
    Row("bernoulli", TM.bernoulli, "input, p=None, *, generator=None, out=None",
        "input, p, generator"),
    Row("bernoulli_", _bernoulli_, forms="m"),
    # -- norm part: normalisation, embedding, structured dropout (torchlike/_norm.py)
    *(Row(n, getattr(_NORM, f), forms="f") for n, f in (
        ("batch_norm", "torch_batch_norm"), ("instance_norm", "torch_instance_norm"),
        ("group_norm", "torch_group_norm"), ("embedding", "torch_embedding"),
        ("native_batch_norm", "native_batch_norm"),
        ("_native_batch_norm_legit", "_native_batch_norm_legit"),
        ("native_group_norm", "native_group_norm"), ("alpha_dropout", "torch_alpha_dropout"),
        ("feature_alpha_dropout", "torch_feature_alpha_dropout"),
        ("feature_dropout", "torch_feature_dropout"))),
    # ---- convolutions (conv part: frontends/torchlike/_conv.py, janusgrad.nn.conv)
    *(Row(n, getattr(CV, n), forms="f") for n in (
        "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
        "conv_transpose3d")),
    # part pool: torch.* names of torch.nn.functional's pooling, padding and shuffles
    *(Row(n, _nn_functional(n), forms="f") for n in (
        "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "adaptive_avg_pool1d",
        "constant_pad_nd", "pixel_shuffle", "pixel_unshuffle", "channel_shuffle")),
    Row("native_channel_shuffle", _nn_functional("channel_shuffle"), forms="f"),
    *(Row(n, _nn_functional(n, return_indices=True), forms="f") for n in (
        "max_pool1d_with_indices", "adaptive_max_pool1d")),
    # activations and losses family (engine.ops.activation, engine.nn.losses)
    *_ACTS_LOSSES_ROWS,
    # ---- math/stat family (janusgrad.ops.stats, janusgrad.ops.linalg_lu)
    *_rows("acosh asinh atanh", MS, "fmi", arccosh="acosh", arcsinh="asinh",
           arctanh="atanh"),
    Row("vdot", MS.vdot, "input, other, *, out=None", "input, other"),
    Row("block_diag", _block_diag, forms="f"),
    Row("cdist", MS.cdist, "x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary'",
        "x1, x2, p", "f"),
    Row("cov", MS.cov, "input, *, correction=1, fweights=None, aweights=None"),
    Row("corrcoef", MS.corrcoef, "input"),
    Row("diff", MS.diff, "input, n=1, dim=-1, prepend=None, append=None"),
    Row("frexp", _FREXP_T, "input, *, out=None", "*MS.frexp(input)"),
    Row("gradient", _gradient, forms="f"),
    Row("logspace", _logspace, forms="f"),
    *(Row(n, getattr(MS, n), "input, dim=None, unbiased=None, keepdim=False, *, "
          "correction=None", "input, *_var_args(dim, unbiased, correction), keepdim", "f")
      for n in ("var_mean", "std_mean")),
    *(Row(n, getattr(MS, n), "input, q, dim=None, keepdim=False, *, interpolation='linear', "
          "out=None", "input, q, dim, keepdim, interpolation") for n in ("quantile",
                                                                         "nanquantile")),
    Row("aminmax", _AMINMAX_T, "input, *, dim=None, keepdim=False, out=None",
        "*MS.aminmax(input, dim, keepdim)"),
    Row("dist", MS.dist, "input, other, p=2"),
    Row("renorm", MS.renorm, "input, p, dim, maxnorm", forms="fmi"),
    Row("trapezoid", _trapezoid, forms="f", aliases=("trapz",)),
    Row("cumulative_trapezoid", _cumulative_trapezoid, forms="f"),
    Row("nanmean", _nanmean),
    Row("nansum", MS.nansum, "input, dim=None, keepdim=False, *, dtype=None, out=None",
        "input, axes_tuple(dim), keepdim, dtype and _np(dtype)"),
    Row("histogram", _histogram), Row("histogramdd", _histogramdd, forms="f"),
    *(Row(f"{k}_window", _legacy_window, f"window_length, periodic=True, {extra}{_WINDOW}",
          f"'{k}', window_length, periodic, dtype, device, requires_grad{given}", "f")
      for k, extra, given in (
        ("hamming", "alpha=0.54, beta=0.46, ", ", alpha=alpha, beta=beta"),
        ("kaiser", "beta=12.0, ", ", beta=beta"), ("hann", "", ""), ("bartlett", "", ""),
        ("blackman", "", ""))),
    Row("cholesky_solve", L3.cholesky_solve, "input, input2, upper=False, *, out=None",
        "input, input2, upper"),
    Row("cholesky_inverse", L3.cholesky_inverse, "input, upper=False, *, out=None",
        "input, upper"),
    Row("lu", _legacy_lu, forms="fm"),
    Row("lu_unpack", _LU_UNPACK_T, "LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, "
        "*, out=None", "*L3.lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots)", "f"),
    Row("lu_solve", L3.lu_solve, "input, LU_data, LU_pivots, *, out=None",
        "LU_data, LU_pivots, input"),
    Row("triangular_solve", _TRIANGULAR_SOLVE_T, "b, A, upper=True, transpose=False, "
        "unitriangular=False, *, out=None",
        "*L3.triangular_solve(b, A, upper, transpose, unitriangular)"),
    Row("matrix_exp", L3.matrix_exp, "input"),
    Row("vander", L3.vander, "x, N=None, increasing=False", forms="f"),
    # ---- layer norm (attn)
    Row("layer_norm", _layer_norm, forms="f"),
    Row("native_layer_norm", _native_layer_norm, forms="f"),
    Row("rms_norm", NA.rms_norm, "input, normalized_shape, weight=None, eps=None",
        "input, _normalized_dims(input, normalized_shape, weight), weight, eps", "f"),
]

FUNCTIONS: dict = {}
# the rows' call expressions see this module's names (its helpers above, the engine modules)
INSTALLED = install(ROWS, FUNCTIONS, Tensor, module="torch", tag=tag, inplace=inplace.update,
                    env=dict(globals()), kw_aliases={"dim": "axis", "keepdim": "keepdims"})

# ---- torch.special (torchlike/special.py): its own names here, the ones it shares with
# torch (erf, digamma, xlogy, ...) are torch's functions themselves
SPECIAL_ROWS = [
    *_rows("entr erfcx i0e i1 i1e log_ndtr ndtr ndtri xlog1py zeta bessel_j0 bessel_j1 "
           "bessel_y0 bessel_y1 modified_bessel_i0 modified_bessel_i1 modified_bessel_k0 "
           "modified_bessel_k1 scaled_modified_bessel_k0 scaled_modified_bessel_k1 "
           "spherical_bessel_j0 airy_ai gammainc gammaincc", SP, "f"),
    Row("gammaln", SP.lgamma, forms="f"), Row("psi", SP.digamma, forms="f"),
    Row("expit", E.sigmoid, forms="f"),
    Row("multigammaln", SP.mvlgamma, "input, p", forms="f"),
    # ---- math/stat family: the orthogonal polynomials (janusgrad.ops.stats)
    *(Row(n, getattr(MS, n), "input, n, *, out=None", "input, n", "f") for n in (
        "chebyshev_polynomial_t chebyshev_polynomial_u chebyshev_polynomial_v "
        "chebyshev_polynomial_w hermite_polynomial_h hermite_polynomial_he "
        "laguerre_polynomial_l legendre_polynomial_p shifted_chebyshev_polynomial_t "
        "shifted_chebyshev_polynomial_u shifted_chebyshev_polynomial_v "
        "shifted_chebyshev_polynomial_w").split()),
]
SPECIAL_SHARED = ("digamma erf erfc erfinv exp2 expm1 i0 log1p logit logsumexp polygamma "
                  "round sinc softmax log_softmax xlogy").split()
SPECIAL: dict = {n: FUNCTIONS[n] for n in SPECIAL_SHARED}
INSTALLED_SPECIAL = install(SPECIAL_ROWS, SPECIAL, None, module="torch.special", tag=tag,
                            env=dict(globals()))

# ---- torch.linalg (torchlike/linalg.py): linear algebra (janusgrad.ops.linalg_factor)
LINALG_ROWS = [
    Row("det", LA.det, "A, *, out=None", "A", "f", node="LinalgDetBackward0"),
    Row("slogdet", _SLOGDET_T, "A, *, out=None", "*LA.slogdet(A)", "f"),
    Row("inv", LA.inv, "A, *, out=None", "A", "f", node="LinalgInvExBackward0"),
    Row("solve", LA.solve, "A, B, *, left=True, out=None", "A, B, left", "f",
        node="LinalgSolveExBackward0"),
    Row("cholesky", LA.cholesky, "A, *, upper=False, out=None", "A, upper", "f",
        node="LinalgCholeskyExBackward0"),
    Row("eigh", _EIGH_T, "A, UPLO='L', *, out=None", "*LA.eigh(A, UPLO)", "f"),
    Row("eigvalsh", LA.eigvalsh, "A, UPLO='L', *, out=None", "A, UPLO", "f",
        node="LinalgEighBackward0"),
    Row("svdvals", LA.svdvals, "A, *, driver=None, out=None", "A", "f",
        node="LinalgSvdBackward0"),
    Row("pinv", LA.pinv, "A, *, atol=None, rtol=None, hermitian=False, out=None",
        "A, atol, rtol, hermitian", "f", node="LinalgPinvBackward0"),
    Row("matrix_power", LA.matrix_power, "A, n, *, out=None", "A, n", "f"),
    Row("multi_dot", LA.multi_dot, "tensors, *, out=None", "tensors", "f"),
    Row("cross", LA.cross, "input, other, *, dim=-1, out=None", "input, other, dim", "f"),
    Row("norm", _linalg_norm, forms="f"),
    Row("vector_norm", LA.vector_norm, "x, ord=2, dim=None, keepdim=False, *, dtype=None, "
        "out=None", "_cast_to(x, dtype), ord, dim, keepdim", "f"),
    Row("matrix_norm", LA.matrix_norm, "A, ord='fro', dim=(-2, -1), keepdim=False, *, "
        "dtype=None, out=None", "_cast_to(A, dtype), ord, tuple(dim), keepdim", "f"),
    Row("matmul", matmul, forms="f"),
    Row("svd", _SVD_T, "A, full_matrices=True, *, driver=None, out=None",
        "*LA.svd(A, full_matrices)", "f"),
    Row("qr", _QR_T, "A, mode='reduced', *, out=None", "*LA.qr(A, mode)", "f"),
    Row("lstsq", _LSTSQ_T, "A, B, rcond=None, *, driver=None", "*LA.lstsq(A, B, rcond, driver)",
        "f"),
    # (a singular input raises: info is 0)
    Row("inv_ex", _INV_EX_T, "A, *, check_errors=False, out=None", "LA.inv(A), LA.info_zeros(A)",
        "f"),
    Row("cholesky_ex", _CHOLESKY_EX_T, "A, *, upper=False, check_errors=False, out=None",
        "LA.cholesky(A, upper), LA.info_zeros(A)", "f"),
    Row("solve_ex", _SOLVE_EX_T, "A, B, *, left=True, check_errors=False, out=None",
        "LA.solve(A, B, left), LA.info_zeros(A)", "f"),
    Row("cond", LA.cond, "A, p=None, *, out=None", "A, p", "f"),
    Row("vecdot", LA.vecdot, "x, y, *, dim=-1, out=None", "x, y, dim", "f"),
    Row("diagonal", MP.diagonal, "A, *, offset=0, dim1=-2, dim2=-1", "A, offset, dim1, dim2",
        "f"),
    Row("matrix_rank", LA.matrix_rank,
        "A, *, atol=None, rtol=None, hermitian=False, out=None", "A, atol, rtol, hermitian",
        "f"),
    # ---- math/stat family (janusgrad.ops.linalg_lu)
    Row("householder_product", L3.householder_product, "A, tau, *, out=None", "A, tau", "f"),
    Row("vander", L3.vander, "x, *, N=None", "x, N", "f"),
    Row("lu_factor", _LU_FACTOR_T, "A, *, pivot=True, out=None", "*L3.lu_factor(A, pivot)", "f"),
    Row("lu_factor_ex", _LU_FACTOR_EX_T, "A, *, pivot=True, check_errors=False, out=None",
        "*L3.lu_factor(A, pivot), LA.info_zeros(A)", "f"),
    Row("lu", _LU_T, "A, *, pivot=True, out=None", "*L3.lu(A, pivot)", "f"),
    Row("lu_solve", L3.lu_solve, "LU, pivots, B, *, left=True, adjoint=False, out=None",
        "LU, pivots, B, left, adjoint", "f"),
    Row("solve_triangular", L3.solve_triangular, "A, B, *, upper, left=True, unitriangular=False, "
        "out=None", "A, B, upper, left, unitriangular", "f"),
    Row("tensorinv", L3.tensorinv, "A, ind=2, *, out=None", "A, ind", "f"),
    Row("tensorsolve", L3.tensorsolve, "A, B, dims=None, *, out=None", "A, B, dims", "f"),
    Row("matrix_exp", L3.matrix_exp, "A", forms="f"),
]
LINALG: dict = {}
INSTALLED_LINALG = install(LINALG_ROWS, LINALG, None, module="torch.linalg", tag=tag,
                           env=dict(globals()),
                           kw_aliases={"dim": "axis", "keepdim": "keepdims"})


def __pos__(self):
    return self  # +x is x itself in torch


Tensor.__pos__ = __pos__
Tensor.T = property(lambda self: S.transpose(self))
Tensor.mT = property(lambda self: FUNCTIONS["transpose"](self, -2, -1))
Tensor.mH = Tensor.mT  # (linalg: the conjugate transpose of a real tensor is its transpose)
Tensor.H = property(_H)
FUNCTIONS.update(MEMORY_FORMATS)
FUNCTIONS.update(LAYOUTS)
