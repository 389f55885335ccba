"""torch.device, and how torch's device arguments map onto the engine's neutral Device.

The engine speaks of ``Device('gpu', i)``; torch spells it ``device(type='cuda', index=i)``.
A request for CUDA where no GPU is usable fails as a CPU build of torch fails.
"""
from __future__ import annotations

import re

from janusgrad.array import backend
from janusgrad.array.backend import CPU as ENGINE_CPU
from janusgrad.array.backend import Device, device_of, ndarray, to_device
from janusgrad.ops import placement

_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
          "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
          "privateuseone")
_DEVICE_STRING = re.compile(r"([a-zA-Z_]+)(?::([1-9]\d*|0))?")
NO_CUDA = "Torch not compiled with CUDA enabled"
NO_ACCELERATOR = "Cannot access accelerator device when none is available."
BAD_ORDINAL = (
    "CUDA error: invalid device ordinal\nCUDA kernel errors might be asynchronously reported "
    "at some other API call, so the stacktrace below might be incorrect.\nFor debugging "
    "consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable "
    "device-side assertions.\n")


def _parse(text: str) -> tuple[str, int | None]:
    m = _DEVICE_STRING.fullmatch(text)
    if m is None:
        raise RuntimeError(f"Invalid device string: '{text}'")
    kind, index = m.group(1), m.group(2)
    if kind not in _TYPES:
        raise RuntimeError(f"Expected one of {', '.join(_TYPES)} device type at start of "
                           f"device string: {kind}")
    return kind, None if index is None else int(index)


class device:  # noqa: N801 - torch spells it so
    """torch.device: a type ('cpu', 'cuda', ...) and an optional index."""

    __slots__ = ("_type", "_index")

    def __init__(self, type=None, index: int | None = None) -> None:  # noqa: A002
        if isinstance(type, device):
            if index is not None:
                raise RuntimeError("type (string) must not include an index because index "
                                   f"was passed explicitly: {type}")
            type, index = type.type, type.index
        elif isinstance(type, int) and not isinstance(type, bool):
            if not backend.gpu_available():
                raise RuntimeError(NO_ACCELERATOR)
            type, index = "cuda", type
        elif isinstance(type, str):
            kind, idx = _parse(type)
            if idx is not None:
                if index is not None:
                    raise RuntimeError("type (string) must not include an index because "
                                       f"index was passed explicitly: {type}")
                index = idx
            type = kind
        else:
            raise TypeError(f"device() received an invalid combination of arguments - got "
                            f"({_type_name(type)})")
        if index is not None:
            index = int(index)
            if index < 0:
                raise RuntimeError("Device index must not be negative")
        object.__setattr__(self, "_type", type)
        object.__setattr__(self, "_index", index)

    type = property(lambda self: self._type)
    index = property(lambda self: self._index)

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"attribute '{name}' of 'torch.device' objects is not writable")

    def __repr__(self) -> str:
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __str__(self) -> str:
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __eq__(self, other) -> bool:
        return (isinstance(other, device) and self._type == other._type
                and self._index == other._index)

    def __hash__(self) -> int:
        return hash((self._type, self._index))

    def __reduce__(self):
        if self._index is None:
            return (device, (self._type,))
        return (device, (self._type, self._index))

    # torch.device is also a context manager setting the default device; not supported
    def __enter__(self):
        raise NotImplementedError("torchlike does not implement `with torch.device(...)`")

    def __exit__(self, *exc) -> None:
        return None


device.__module__ = "torch"
CPU = device("cpu")


def _type_name(v) -> str:
    if isinstance(v, device):
        return "torch.device"
    from . import _dtypes
    if isinstance(v, _dtypes.dtype):
        return "torch.dtype"
    from janusgrad.core.tensor import Tensor
    if isinstance(v, Tensor):
        return "Tensor"
    return type(v).__name__


# ---------------------------------------------------------------- torch <-> engine
class _Current:
    """torch.cuda's current device index (what 'cuda' without an index means)."""

    index = 0


current = _Current()
_PARSED: dict = {}  # device string -> (type, index)
_TORCH_OF: dict = {}  # engine Device -> torch device


def torch_device(d: Device) -> device:
    """The torch.device naming engine device ``d``."""
    t = _TORCH_OF.get(d)
    if t is None:
        t = CPU if d.kind == "cpu" else device("meta") if d.kind == "meta" else \
            device("cuda" if d.kind == "gpu" else d.kind, d.index)
        _TORCH_OF[d] = t
    return t


def device_str(d: Device) -> str:
    """'cpu', 'cuda:0': how torch's messages name engine device ``d``."""
    return str(torch_device(d))


def tensor_device(array) -> device:
    """The torch.device of an array of any backend."""
    if type(array) is ndarray:
        return CPU
    return torch_device(device_of(array))


def _cuda(index: int | None) -> Device:
    b = backend.gpu_backend()
    if b is None:
        raise AssertionError(NO_CUDA)
    if index is None:
        index = current.index
    if not 0 <= index < b.count():
        raise RuntimeError(BAD_ORDINAL)
    return Device("gpu", index)


def resolve(d) -> Device | None:
    """The engine Device a torch device argument names (None stays None: the host).

    Strings, ints (a CUDA index) and torch.device objects are accepted, as torch does.
    """
    if d is None:
        return None
    if isinstance(d, Device):  # already the engine's (internal callers)
        return d
    if isinstance(d, str):
        parsed = _PARSED.get(d)
        if parsed is None:
            parsed = _PARSED[d] = _parse(d)
        kind, index = parsed
    elif isinstance(d, device):
        kind, index = d._type, d._index
    elif isinstance(d, int) and not isinstance(d, bool):
        if not backend.gpu_available():
            raise RuntimeError(NO_ACCELERATOR)
        if d < 0:
            raise RuntimeError("Device index must not be negative")
        kind, index = "cuda", d
    else:
        raise TypeError(f"expected a torch.device, a string or an int, got "
                        f"{_type_name(d)}")
    if kind == "cpu":
        return ENGINE_CPU
    if kind == "cuda":
        return _cuda(index)
    if kind == "meta":  # shapes and dtypes without data (janusgrad.array.backend.MetaArray)
        return backend.META
    raise RuntimeError(NO_ACCELERATOR)


def check_device(d) -> None:
    """Validate a device argument (kept for callers that only check)."""
    resolve(d)


# ---------------------------------------------------------------- moving tensors
def move(t, dev: Device | None):
    """``t`` on engine device ``dev``; a differentiable copy when it moves (ToCopyBackward0),
    ``t`` itself when it is already there."""
    return t if dev is None else placement.to_device(t, dev)


def move_array(a, dev: Device | None):
    """An array on ``dev`` (no graph): for in-place moves of parameters and buffers."""
    return a if dev is None else to_device(a, dev)


# ---------------------------------------------------------------- Tensor.to / Module.to
_TO_SIGNATURES = (
    " * (torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, "
    "bool copy = False, *, torch.memory_format memory_format = None)\n"
    " * (torch.dtype dtype, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)\n"
    " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)\n")
_BY_DEVICE = ("device", "dtype", "non_blocking", "copy")
_BY_DTYPE = ("dtype", "non_blocking", "copy")
_BY_TENSOR = ("tensor", "non_blocking", "copy")


def _bind(names, args, kwargs):
    """Positional and keyword arguments by name for one signature; None if they don't fit."""
    if len(args) > len(names):
        return None
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k in bound or (k not in names and k != "memory_format"):
            return None
        bound[k] = v
    for flag in ("non_blocking", "copy"):
        if not isinstance(bound.get(flag, False), bool):
            return None
    return bound


def _is_device_arg(v) -> bool:
    return v is None or isinstance(v, (str, device)) or (isinstance(v, int)
                                                         and not isinstance(v, bool))


def parse_to(args, kwargs) -> tuple:
    """(device argument, torch dtype, copy) from torch's three ``to()`` signatures."""
    from janusgrad.core.tensor import Tensor

    from ._dtypes import dtype
    b = _bind(_BY_DEVICE, args, kwargs)
    if b is not None and _is_device_arg(b.get("device")) and (
            b.get("dtype") is None or isinstance(b["dtype"], dtype)):
        return b.get("device"), b.get("dtype"), b.get("copy", False)
    b = _bind(_BY_DTYPE, args, kwargs)
    if b is not None and isinstance(b.get("dtype"), dtype):
        return None, b["dtype"], b.get("copy", False)
    b = _bind(_BY_TENSOR, args, kwargs)
    if b is not None and isinstance(b.get("tensor"), Tensor):
        from ._dtypes import from_np
        t = b["tensor"]
        return tensor_device(t.array), from_np(t.array.dtype), b.get("copy", False)
    if len(args) + len(kwargs) == 5:  # only the first signature takes 5: its own errors
        _explain_first_signature(args, kwargs)
        return args[0] if args else kwargs.get("device"), (
            args[1] if len(args) > 1 else kwargs.get("dtype")), (
            args[3] if len(args) > 3 else kwargs.get("copy", False))
    # torch lists the keyword arguments last to first
    got = [_type_name(a) for a in args] + [f"{k}={_type_name(v)}"
                                           for k, v in reversed(kwargs.items())]
    text = ", ".join(got) + (", " if not args and kwargs else "")
    raise TypeError(f"to() received an invalid combination of arguments - got ({text}), but "
                    f"expected one of:\n{_TO_SIGNATURES}")


def _explain_first_signature(args, kwargs) -> None:
    """torch's argument parser's message when one signature alone could take the call."""
    from ._dtypes import dtype
    if len(args) > 4:
        raise TypeError(f"to() takes from 0 to 4 positional arguments but {len(args)} were "
                        "given")
    checks = (("device", "torch.device", _is_device_arg),
              ("dtype", "torch.dtype", lambda v: v is None or isinstance(v, dtype)),
              ("non_blocking", "bool", lambda v: isinstance(v, bool)),
              ("copy", "bool", lambda v: isinstance(v, bool)))
    for position, (name, expected, ok) in enumerate(checks, 1):
        positional = position <= len(args)
        if not positional and name not in kwargs:
            continue
        v = args[position - 1] if positional else kwargs[name]
        if not ok(v):
            where = f" (position {position})" if positional else ""
            raise TypeError(f"to(): argument '{name}'{where} must be {expected}, not "
                            f"{_type_name(v)}")
    names = [c[0] for c in checks]
    for k in kwargs:
        if k in names[:len(args)]:
            raise TypeError(f"to() got multiple values for argument '{k}'")
        if k not in names and k != "memory_format":
            raise TypeError(f"to() got an unexpected keyword argument '{k}'")
