"""DLPack exchange, framework-neutral: tensors share memory with numpy, torch, cupy ...

``export(array)`` is what ``Tensor.__dlpack__`` returns (the array's own capsule, so the
consumer reads the same memory); ``import_array(obj)`` accepts any object with
``__dlpack__`` (a torch tensor, a numpy or cupy array, one of our tensors) or a bare
capsule (what ``to_dlpack`` functions return) and gives a backend array over the same
memory, without a copy.
"""
from __future__ import annotations

from janusgrad.array.backend import MODULES

_CPU, _CUDA = 1, 2  # DLDeviceType


class _Capsule:
    """A bare DLPack capsule wrapped in the protocol that ``from_dlpack`` functions ask for
    (the device is not recorded in a capsule: CPU unless told otherwise)."""

    def __init__(self, capsule, device=(_CPU, 0)) -> None:
        self.capsule, self.device = capsule, device

    def __dlpack__(self, *args, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


def _module_for(device_type: int):
    for module in MODULES.values():
        if device_type == _CPU and module.__name__ == "numpy":
            return module
        if device_type == _CUDA and module.__name__ == "cupy":
            return module
    raise BufferError(f"no array backend for DLPack device type {device_type}")


def import_array(obj):
    """A backend array sharing ``obj``'s memory."""
    if type(obj).__name__ == "PyCapsule":
        obj = _Capsule(obj)
    device = obj.__dlpack_device__()
    return _module_for(int(device[0])).from_dlpack(obj)


def export(array, *args, **kwargs):
    """The DLPack capsule of a backend array (``__dlpack__``'s arguments passed on)."""
    try:
        return array.__dlpack__(*args, **kwargs)
    except TypeError:
        if not kwargs:
            raise
        kwargs.pop("max_version", None)  # an older producer
        return array.__dlpack__(*args, **kwargs)


def device(array):
    return array.__dlpack_device__()


def install(tensor_cls, refuse=None) -> None:
    """``tensor_cls.__dlpack__`` / ``__dlpack_device__`` over the tensor's data (the consumer
    shares the memory); ``refuse(tensor)`` may raise first (torch refuses a tensor that
    requires grad)."""

    def __dlpack__(self, *args, **kwargs):
        if refuse is not None:
            refuse(self)
        return export(self.array, *args, **kwargs)

    def __dlpack_device__(self):
        return device(self.array)

    tensor_cls.__dlpack__ = __dlpack__
    tensor_cls.__dlpack_device__ = __dlpack_device__
