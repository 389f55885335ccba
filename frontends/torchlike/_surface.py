"""torch's module-level surface beside the ops: version, default dtype, print options,
finfo/iinfo, type promotion queries, broadcast_shapes and DLPack exchange."""
from __future__ import annotations

import builtins
import operator

from janusgrad.array import backend as _backend
from janusgrad.array import dtypes as _edtypes
from janusgrad.host import dlpack as _dlpack
from janusgrad.host.dropin import stub_missing

from . import _dtypes, _printing, _tensor_api


class TorchVersion(str):
    """``torch.__version__``: a str that compares as a version, as torch's does."""

    def _key(self, other):
        def parts(v):
            out = []
            for p in str(v).split("+")[0].split("."):
                digits = "".join(c for c in p if c.isdigit())
                out.append(builtins.int(digits) if digits else 0)
            return tuple(out)
        other = other if isinstance(other, (tuple, list)) else parts(other)
        return parts(self), tuple(other)

    def __lt__(self, other):
        a, b = self._key(other)
        return a < b

    def __le__(self, other):
        a, b = self._key(other)
        return a <= b

    def __gt__(self, other):
        a, b = self._key(other)
        return a > b

    def __ge__(self, other):
        a, b = self._key(other)
        return a >= b

    __hash__ = str.__hash__


__version__ = TorchVersion("2.13.0+cpu")  # the release whose dialect torchlike speaks


# ---------------------------------------------------------------- default dtype
def set_default_dtype(d) -> None:
    if type(d) is not _dtypes.dtype or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _backend.set_default_float(d._np)


get_default_dtype = _dtypes.get_default_dtype


# ---------------------------------------------------------------- print options
_PROFILES = {"default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
             "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
             "full": dict(precision=4, threshold=builtins.float("inf"), edgeitems=3,
                          linewidth=80)}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None) -> None:
    """torch.set_printoptions: a profile first, then the options given; ``sci_mode`` is
    always set (None: chosen per tensor)."""
    given = dict(precision=precision, threshold=threshold, edgeitems=edgeitems,
                 linewidth=linewidth)
    values = dict(_PROFILES[profile]) if profile else {}
    values.update({k: v for k, v in given.items() if v is not None})
    for name, value in values.items():
        setattr(_printing, name.upper(), value)
    _printing.SCI_MODE = sci_mode


def get_printoptions() -> dict:
    return {"precision": _printing.PRECISION, "threshold": _printing.THRESHOLD,
            "edgeitems": _printing.EDGEITEMS, "linewidth": _printing.LINEWIDTH,
            "sci_mode": _printing.SCI_MODE}


# ---------------------------------------------------------------- finfo / iinfo
class finfo:  # noqa: N801 - torch spells it so
    def __init__(self, type=None) -> None:  # noqa: A002 - torch's parameter name
        d = get_default_dtype() if type is None else type
        if type is not None and (builtins.type(d) is not _dtypes.dtype
                                 or not d.is_floating_point):
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        vars(self).update(_backend.float_info(d._np))

    def __repr__(self) -> str:
        return _backend.info_repr("finfo", self,
                                  "resolution min max eps smallest_normal tiny dtype")

    __str__ = __repr__


class iinfo:  # noqa: N801 - torch spells it so
    def __init__(self, type) -> None:  # noqa: A002 - torch's parameter name
        if builtins.type(type) is not _dtypes.dtype or type._np.kind not in "iu":
            raise TypeError(f"{type} is not supported by torch.iinfo")
        vars(self).update(_backend.int_info(type._np))

    def __repr__(self) -> str:
        return _backend.info_repr("iinfo", self, "min max dtype",
                                  lambda v: f"{builtins.float(v):.6g}")

    __str__ = __repr__


# ---------------------------------------------------------------- promotion queries
def promote_types(type1, type2) -> _dtypes.dtype:
    return _dtypes.from_np(_edtypes.promote_types(type1._np, type2._np))


def _operand(x):
    from janusgrad.core.tensor import Tensor

    if isinstance(x, Tensor):
        return x.array.dtype, _edtypes.DIM if x.array.ndim else _edtypes.ZERO_DIM
    if builtins.type(x) in (builtins.bool, builtins.int, builtins.float):
        return _edtypes.scalar_dtype(x), _edtypes.SCALAR
    raise TypeError(f"result_type() received an invalid combination of arguments - got "
                    f"({builtins.type(x).__name__})")


def result_type(tensor1, tensor2) -> _dtypes.dtype:
    return _dtypes.from_np(_edtypes.result_type((_operand(tensor1), _operand(tensor2))))


_KIND_ORDER = {"b": 0, "u": 1, "i": 1, "f": 2}


def can_cast(from_, to) -> builtins.bool:
    """torch.can_cast: no cast to a lower category (float -> int, int -> bool)."""
    return _KIND_ORDER[from_._np.kind] <= _KIND_ORDER[to._np.kind]


def broadcast_shapes(*shapes):
    from ._size import Size

    norm = []
    for s in shapes:
        norm.append(tuple(s) if isinstance(s, (tuple, list)) or hasattr(s, "__len__")
                    else (operator.index(s),))
    out: list = []
    for k, shape in enumerate(norm):
        for i in range(1, len(shape) + 1):
            n = shape[-i]
            if i > len(out):
                out.insert(0, n)
            elif out[-i] == 1:
                out[-i] = n
            elif n not in (1, out[-i]):
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {n} at {-i}! "
                    f"Mismatching argument at index {k} had {tuple(shape)}; but expected "
                    f"shape should be broadcastable to {out}")
    return Size(out)


# ---------------------------------------------------------------- DLPack
def from_dlpack(ext_tensor):
    """A tensor over the memory of ``ext_tensor`` (anything with ``__dlpack__``, or a
    capsule from ``to_dlpack``), without a copy."""
    from ._creation import from_numpy

    return from_numpy(_dlpack.import_array(ext_tensor))


def to_dlpack(tensor):
    """A versioned capsule (a consumer may write through it; numpy makes the arrays of
    legacy capsules, as real torch's ``to_dlpack`` gives, read-only)."""
    return _dlpack.export(tensor.array, max_version=(1, 0))


def _refuse_grad(tensor) -> None:
    if tensor.requires_grad:
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")


def install(tensor_cls) -> None:
    """``__dlpack__``, and a missing public attribute named as missing (issue 15 item 8)."""
    _dlpack.install(tensor_cls, _refuse_grad)
    stub_missing(tensor_cls, "torchlike", "torch.Tensor", _tensor_api.NAMES)
