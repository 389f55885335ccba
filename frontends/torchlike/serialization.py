"""torch.save / torch.load in PyTorch's zip format (readable by real torch, and back).

The archive holds ``<name>/data.pkl`` (a protocol-2 pickle whose tensors refer to
storages by persistent id), one ``<name>/data/<key>`` record per storage, and the
version records torch writes.  Writing emits torch's own globals
(``torch._utils._rebuild_tensor_v2``, ``torch.FloatStorage`` ...) without importing
torch; reading maps them back onto torchlike.

A whole module pickles as torch's does (its class by torch's name,
``torch.nn.modules.linear.Linear``, then its attribute dict, which has torch's layout), so
each side loads the other's with ``weights_only=False``; ``weights_only=True`` (the default)
refuses it, in torch's words.
"""
from __future__ import annotations

import codecs
import functools
import importlib
import io
import os
import pickle
import types
from _compat_pickle import IMPORT_MAPPING, NAME_MAPPING
from collections import Counter, OrderedDict

from janusgrad.array.backend import to_device
from janusgrad.core.tensor import Tensor as EngineTensor
from janusgrad.host import io as EIO
from janusgrad.host.dropin import public_home, shim_object

from . import _dtypes
from ._device import device, resolve, tensor_device
from ._size import Size

_STORAGE_OF = {
    "float32": "FloatStorage", "float64": "DoubleStorage", "float16": "HalfStorage",
    "int64": "LongStorage", "int32": "IntStorage", "int16": "ShortStorage",
    "int8": "CharStorage", "uint8": "ByteStorage", "bool": "BoolStorage",
}
_DTYPE_OF = {**{v: k for k, v in _STORAGE_OF.items()}, "BFloat16Storage": "bfloat16"}
_ALIGN = 64


# ---------------------------------------------------------------- writing
class _Global:
    """Stands for a torch global (a class or function) in the written pickle."""

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name

    def __call__(self, *args):  # pickle requires reduce callables to be callable
        raise TypeError(f"{self.module}.{self.name} is a placeholder")


_REBUILD_TENSOR = _Global("torch._utils", "_rebuild_tensor_v2")
_REBUILD_PARAMETER = _Global("torch._utils", "_rebuild_parameter")
_STORAGE_GLOBALS = {name: _Global("torch", name) for name in _STORAGE_OF.values()}


class _Storage:
    def __init__(self, key: str, array) -> None:
        self.key = key
        self.array = array


class _TorchPickler(pickle._Pickler):
    """Pickles tensors as torch does: ``_rebuild_tensor_v2(storage, ...)`` with the storage
    as a persistent id, written out as a separate record."""

    dispatch = pickle._Pickler.dispatch.copy()

    def __init__(self, file) -> None:
        super().__init__(file, protocol=2)
        self.storages: dict = {}  # id(array) -> _Storage (holding the array alive)

    def _save_stand_in(self, obj) -> None:
        self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode())
        self.memoize(obj)

    def _save_dtype(self, obj) -> None:
        self.write(pickle.GLOBAL + f"torch\n{_dtypes.to_np(obj).name}\n".encode())

    def save_global(self, obj, name=None) -> None:
        """A torchlike class or function under the torch name it stands for, checked to
        lead back to it, so that real torch (and we, with or without the runner) find it."""
        home = _torch_name(obj) if name is None else None
        if home is None:
            return super().save_global(obj, name)
        self.write(pickle.GLOBAL + f"{home[0]}\n{home[1]}\n".encode())
        self.memoize(obj)

    dispatch[_Global] = _save_stand_in
    dispatch[_dtypes.dtype] = _save_dtype
    dispatch[types.FunctionType] = save_global

    def persistent_id(self, obj):
        if isinstance(obj, _Storage):
            name = _STORAGE_OF[obj.array.dtype.name]
            return ("storage", _STORAGE_GLOBALS[name], obj.key, str(tensor_device(obj.array)),
                    int(obj.array.size))
        return None

    def _storage(self, array) -> _Storage:
        s = self.storages.get(id(array))
        if s is None:
            s = self.storages[id(array)] = _Storage(str(len(self.storages)), array)
        return s

    def reducer_override(self, obj):
        if isinstance(obj, EngineTensor):
            from ._tensor import Tensor
            from .nn.parameter import Parameter
            array = obj.array
            if array.dtype.name not in _STORAGE_OF:
                raise pickle.PicklingError(f"cannot save a tensor of dtype {array.dtype}")
            if isinstance(obj, Parameter):
                return (_REBUILD_PARAMETER, (Tensor.wrap(array), obj.requires_grad,
                                             OrderedDict()))
            grad = bool(obj.requires_grad) and obj.node is None
            return (_REBUILD_TENSOR, (self._storage(array), 0, tuple(array.shape),
                                      EIO.contiguous_strides(array.shape), grad, OrderedDict()))
        if isinstance(obj, Size):
            return (_SIZE, (tuple(obj),))
        if isinstance(obj, device):
            return (_DEVICE, obj.__reduce__()[1])
        return NotImplemented


# where torch keeps functions torchlike serves from the engine (F.relu on a transformer
# layer): looked up by identity when the function's own name is not a torch one
_FUNCTION_MODULES = ("torch.nn.functional", "torch")


@functools.cache
def _functions() -> dict:
    found: dict = {}
    for module in _FUNCTION_MODULES:
        shim = importlib.import_module("torchlike" + module[len("torch"):])
        for name, value in vars(shim).items():
            if callable(value) and not name.startswith("_") and not isinstance(value, type):
                found.setdefault(id(value), (module, name, value))
    return found


def _torch_name(obj) -> tuple[str, str] | None:
    """(module, name) under which real torch (and torchlike's loader) finds ``obj``; None
    when it is not a torchlike object (a user's class: pickled under its own name)."""
    home = public_home(obj, "torch", "torchlike")
    if home is not None and "." not in home[1]:  # (protocol 2 names no nested class)
        try:
            if shim_object(*home, "torchlike") is obj:
                return home
        except AttributeError:
            pass
    hit = _functions().get(id(obj))
    if hit is not None and hit[2] is obj:
        return hit[:2]
    if home is not None:
        raise pickle.PicklingError(f"Can't pickle {obj!r}: it's not found as "
                                   f"{home[0]}.{home[1]}")
    return None


_SIZE = _Global("torch", "Size")
_DEVICE = _Global("torch", "device")


def _zip_records(prefix: str, pkl: bytes, storages: list) -> list:
    records = [(f"{prefix}/data.pkl", pkl), (f"{prefix}/.format_version", b"1"),
               (f"{prefix}/.storage_alignment", str(_ALIGN).encode()),
               (f"{prefix}/byteorder", b"little")]
    for s in storages:
        data, _, _ = EIO.array_to_bytes(s.array)
        records.append((f"{prefix}/data/{s.key}", data))
    records.append((f"{prefix}/version", b"3\n"))
    records.append((f"{prefix}/.data/serialization_id", b"0" * 40))
    return records


def save(obj, f, pickle_module=None, pickle_protocol: int = 2,
         _use_new_zipfile_serialization: bool = True, _disable_byteorder_record: bool = False
         ) -> None:
    buf = io.BytesIO()
    pickler = _TorchPickler(buf)
    pickler.dump(obj)
    prefix = "archive"
    if isinstance(f, (str, os.PathLike)):
        prefix = os.path.splitext(os.path.basename(os.fspath(f)))[0] or "archive"
    EIO.write_zip(f, _zip_records(prefix, buf.getvalue(), list(pickler.storages.values())),
                  _ALIGN)


# ---------------------------------------------------------------- reading
class _StorageType:
    def __init__(self, dtype_name: str) -> None:
        self.dtype_name = dtype_name


# a bfloat16 storage is read as its 16-bit patterns and widened to float32 (exactly: the
# engine has no bfloat16), after the layout was checked against the 2-byte elements
_FILE_DTYPE = {"bfloat16": "uint16"}


class _LoadedStorage:
    """A storage read from record ``name``: its host elements and the engine device its
    tensors go to (None: host)."""

    def __init__(self, name: str, dtype_name: str, array, device) -> None:
        self.name = name
        self.dtype_name = dtype_name
        self.array = array
        self.device = device


_CORRUPT = (". This is an internal miniz error. If you are seeing this error, there is a high "
            "likelihood that your checkpoint file is corrupted. This can happen if the "
            "checkpoint was not saved properly, was transferred incorrectly, or the file was "
            "modified after saving.")


def _archive_error(e: EIO.ArchiveError) -> RuntimeError:
    """torch's words for an unreadable archive (its reader's, miniz's)."""
    what = {
        EIO.ArchiveError.NOT_ZIP: "failed reading zip archive: not a ZIP archive",
        EIO.ArchiveError.NO_DIRECTORY:
            "failed reading zip archive: failed finding central directory",
        EIO.ArchiveError.MISSING: f"failed locating file {e.name}: file not found",
        EIO.ArchiveError.CORRUPT: f"failed reading file {e.name}: CRC-32 check failed",
    }[e.reason]
    return RuntimeError(f"PytorchStreamReader {what}{_CORRUPT}")


def _layout_error(e: EIO.LayoutError, record: str) -> Exception:
    """torch's exception and words for a tensor that does not fit its storage, naming the
    record the storage came from."""
    size, stride = e.size, e.stride
    if e.reason == EIO.LayoutError.NOT_INT and e.field == "numel":
        return TypeError("get_storage_from_record(): incompatible function arguments: the "
                         f"element count {size!r} of record '{record}' is not a "
                         "non-negative int")
    if e.reason == EIO.LayoutError.NOT_INT:
        got = ", ".join(type(v).__name__ for v in (e.offset, size, stride))
        return TypeError("set_() received an invalid combination of arguments - got "
                         f"(torch.storage.UntypedStorage, {got}), but expected (torch.Storage "
                         "source, int storage_offset, tuple of ints size, tuple of ints "
                         f"stride) (record '{record}': offset {e.offset!r}, size {size!r}, "
                         f"stride {stride!r})")
    if e.reason == EIO.LayoutError.INT64:
        field = "storage_offset" if e.field == "offset" else e.field
        return TypeError(f"set_(): argument '{field}' failed to unpack the object with error "
                         f"\"Overflow when unpacking long long\" (record '{record}': offset "
                         f"{e.offset}, size {list(size)}, stride {list(stride)})")
    if e.reason == EIO.LayoutError.RECORD:
        want = size * e.itemsize
        return RuntimeError(f"record size ({e.nbytes} bytes) does not match expected size "
                            f"({want} bytes = {want} elements * 1 bytes/element) for dtype "
                            f"Byte (record '{record}')")
    msg = {
        EIO.LayoutError.RANK: f"unequal size length ({len(size)}) and stride length "
                              f"({len(stride)})",
        EIO.LayoutError.OFFSET: f"Tensor: invalid storage offset {e.offset}",
        EIO.LayoutError.NUMEL: "numel: integer multiplication overflow",
        EIO.LayoutError.EXTENT: f"Storage size calculation overflowed with sizes="
                                f"{list(size)} and strides={list(stride)}",
        EIO.LayoutError.BOUNDS: "Trying to resize storage that is not resizable",
    }[e.reason]
    return RuntimeError(f"{msg} (record '{record}' holds {e.nbytes} bytes; the tensor has "
                        f"storage offset {e.offset}, size {list(size)}, stride {list(stride)}"
                        f" in {e.itemsize}-byte elements)")


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad=False,
                       backward_hooks=None, metadata=None):
    from ._tensor import Tensor
    if not isinstance(storage, _LoadedStorage):
        raise TypeError(f"_rebuild_tensor_v2(): expected a storage, got "
                        f"{type(storage).__name__}")
    try:
        array = EIO.strided_from_flat(storage.array, storage_offset, size, stride)
    except EIO.LayoutError as e:
        raise _layout_error(e, storage.name) from None
    if storage.dtype_name == "bfloat16":
        array = EIO.widen_bfloat16(array)
    t = Tensor.wrap(array if storage.device is None else to_device(array, storage.device))
    if requires_grad:
        t.requires_grad = True
    return t


def _rebuild_tensor(storage, storage_offset, size, stride):
    return _rebuild_tensor_v2(storage, storage_offset, size, stride)


def _rebuild_parameter(data, requires_grad, backward_hooks):
    from .nn.parameter import Parameter
    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    return _rebuild_parameter(data, requires_grad, backward_hooks)


_ALLOWED = {
    ("collections", "OrderedDict"): OrderedDict,
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
    ("torch._utils", "_rebuild_tensor"): _rebuild_tensor,
    ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
    ("torch._utils", "_rebuild_parameter_with_state"): _rebuild_parameter_with_state,
    ("torch", "Size"): Size,
    ("builtins", "set"): set,
    ("builtins", "complex"): complex,
    ("builtins", "bytearray"): bytearray,
    ("collections", "Counter"): Counter,
    ("_codecs", "encode"): codecs.encode,  # protocol 2 writes bytes as encode(str, "latin1")
}

_UNSAFE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in "
    "`torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to "
    "`False` will likely succeed, but it can result in arbitrary code execution. Do it only "
    "if you got the file from a trusted source.")
_DOCS = ("\n\nCheck the documentation of torch.load to learn more about types accepted by "
         "default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


def _weights_only_message(error: str, refused_global: bool = False) -> str:
    """torch's words around an error of its weights-only unpickler."""
    if refused_global:
        return ("Weights only load failed. This file can still be loaded, to do so you have "
                "two options, \033[1mdo those steps only if you trust the source of the "
                f"checkpoint\033[0m. \n\t(1) {_UNSAFE}\n\t(2) Alternatively, to load with "
                "`weights_only=True` please check the recommended steps in the following "
                f"error message.\n\tWeightsUnpickler error: {error}{_DOCS}")
    return (f"Weights only load failed. {_UNSAFE}\nPlease file an issue with the following so "
            "that we can make `weights_only=True` compatible with your use case: "
            f"WeightsUnpickler error: \n\n{error}{_DOCS}")


def _refusal(module: str, name: str) -> str:
    """torch's weights-only refusal of global ``module.name`` (a builtin named bare)."""
    path = name if module == "builtins" else f"{module}.{name}"
    return _weights_only_message(
        f"Unsupported global: GLOBAL {path} was not an allowed global by default. Please use "
        f"`torch.serialization.add_safe_globals([{path}])` or the "
        f"`torch.serialization.safe_globals([{path}])` context manager to allowlist this "
        "global if you trust this class/function.", refused_global=True)


class _Refused(pickle.UnpicklingError):
    """Our own refusal of a global (already worded), not a damaged pickle."""


class _TorchUnpickler(pickle.Unpickler):
    def __init__(self, file, records, weights_only: bool, place) -> None:
        super().__init__(file)
        self.records = records
        self.place = place
        self.weights_only = weights_only
        self.loaded: dict = {}

    def find_class(self, module: str, name: str):
        # protocol 2 writes Python 2's names (__builtin__.set): mapped, as torch maps them
        module, name = NAME_MAPPING.get((module, name),
                                        (IMPORT_MAPPING.get(module, module), name))
        hit = _ALLOWED.get((module, name))
        if hit is not None:
            return hit
        if module == "torch" and name in _DTYPE_OF:
            return _StorageType(_DTYPE_OF[name])
        if module == "torch" and isinstance(getattr(_dtypes, name, None), _dtypes.dtype):
            return getattr(_dtypes, name)
        if module == "torch" and name == "device":
            return device
        if self.weights_only:
            raise _Refused(_refusal(module, name))
        if module == "torch" or module.startswith("torch."):
            return shim_object(module, name, "torchlike")  # (a whole model's layer classes)
        return super().find_class(module, name)

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and len(pid) >= 5 and pid[0] == "storage"
                and isinstance(pid[2], str)):
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")
        _, storage_type, key, location, numel = pid[:5]
        if key not in self.loaded:
            record = f"data/{key}"
            data = self.records.read(record)
            name = "uint8"  # an untyped storage: numel counts bytes
            if isinstance(storage_type, _StorageType):
                name = storage_type.dtype_name
            file_dtype = _FILE_DTYPE.get(name, name)
            try:
                EIO.check_record(len(data), EIO.itemsize(file_dtype), numel)
            except EIO.LayoutError as e:
                raise _layout_error(e, self.records.prefix + record) from None
            array = EIO.array_from_bytes(data, file_dtype, (numel,))
            self.loaded[key] = _LoadedStorage(self.records.prefix + record, name, array,
                                              self.place(array, str(location)))
        return self.loaded[key]


_VERSION_MISSING = ('Expected hasRecord("version") to be true, but got false.  (Could this '
                    'error message be improved?  If so, please report an enhancement '
                    'request to PyTorch.)')


def _unpickle(unpickler: pickle.Unpickler, weights_only: bool):
    """Run ``unpickler``; a damaged pickle fails as torch's weights-only unpickler fails
    (a truncated one with EOFError, any other wrapped in its UnpicklingError)."""
    try:
        return unpickler.load()
    except _Refused as e:
        raise pickle.UnpicklingError(str(e)) from None  # (torch's type, by name too)
    except pickle.UnpicklingError as e:
        if not weights_only:
            raise
        if "truncated" in str(e):  # the C unpickler's words for data that ends early
            raise EOFError(str(e)) from None
        raise pickle.UnpicklingError(_weights_only_message(str(e))) from None


_LEGACY_MAGIC = 0x1950A86A20F9469CFC6C


def _load_legacy(f, weights_only: bool):
    """A file that is not a zip archive: torch reads it as its legacy format, which starts
    with a pickled magic number. We raise torch's errors for a file that is not one, and
    refuse the legacy format itself (torchlike reads the zip format only)."""
    opened = None
    if isinstance(f, (str, os.PathLike)):
        opened = f = open(f, "rb")
    try:
        magic = _unpickle(_TorchUnpickler(f, None, True, None), weights_only)
    finally:
        if opened is not None:
            opened.close()
    if magic != _LEGACY_MAGIC:
        raise RuntimeError("Invalid magic number; corrupt file?")
    raise RuntimeError("torchlike reads only torch's zip file format (torch >= 1.6): this "
                       "file is in the legacy format; re-save it with torch.save")


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None,
         **pickle_load_args):
    weights_only = True if weights_only is None else bool(weights_only)
    try:
        with EIO.read_zip(f) as archive:
            if archive is None:
                return _load_legacy(f, weights_only)
            if not (archive.has("version") or archive.has(".data/version")):
                raise RuntimeError(_VERSION_MISSING)
            pkl = archive.read("data.pkl")
            return _unpickle(_TorchUnpickler(io.BytesIO(pkl), archive, weights_only,
                                             _placement(map_location)), weights_only)
    except EIO.ArchiveError as e:
        raise _archive_error(e) from None


CUDA_ON_CPU = (
    "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
    "False. If you are running on a CPU-only machine, please use torch.load with "
    "map_location=torch.device('cpu') to map your storages to the CPU.")


def _restore(location: str):
    """The engine device for a storage saved at ``location`` ('cpu', 'cuda:0'); None: host."""
    if location == "cpu":
        return None
    if location.startswith("cuda"):
        from janusgrad.array.backend import gpu_available
        if not gpu_available():
            raise RuntimeError(CUDA_ON_CPU)
    dev = resolve(location)
    return None if dev.kind == "cpu" else dev


def _placement(map_location):
    """(host array, saved location) -> engine device or None, as torch's map_location."""
    if map_location is None:
        return lambda array, location: _restore(location)
    if isinstance(map_location, dict):
        return lambda array, location: _restore(str(map_location.get(location, location)))
    if callable(map_location) and not isinstance(map_location, str):
        def call(array, location):
            moved = map_location(array, location)
            if moved is None:
                return _restore(location)
            return None  # the callable returned the (host) storage
        return call
    target = _restore(str(map_location) if not isinstance(map_location, str)
                      else map_location)
    return lambda array, location: target


__all__ = ["load", "save"]
