"""paddle.device: the expected place (where new tensors go) and device strings.

Like a GPU build of paddle, the default is ``gpu:0`` whenever a GPU is usable; that
is decided when a tensor is made (not at import), until ``set_device`` fixes it.
"""
from __future__ import annotations

import re

from janusgrad.array import backend as _backend
from janusgrad.host.dropin import module_getattr as _module_getattr

from ..meta import CPU, CPUPlace, CUDAPlace, Place, place_of_device

_GPU0 = _backend.Device("gpu", 0)
_chosen: Place | None = None  # set_device's place; None: decided per tensor


def expected_place() -> Place:
    if _chosen is not None:
        return _chosen
    return place_of_device(_GPU0) if _backend.gpu_available() else CPU


def expected_device():
    """The engine Device new tensors go to; None for the host (the cheap path)."""
    p = _chosen
    if p is None:
        return _GPU0 if _backend.gpu_available() else None
    return None if p.device.kind == "cpu" else p.device


def device_of_place(place):
    """The engine Device for a ``place=``/``device=`` argument; None for the host,
    the expected device when the argument is None."""
    if place is None:
        return expected_device()
    p = to_place(place)
    return None if p.device.kind == "cpu" else p.device


def _not_compiled(what) -> ValueError:
    return ValueError(f"The device should not be {what}, since PaddlePaddle is not compiled "
                      "with CUDA")


def to_place(device) -> Place:
    """paddle's device_to_place: strings ('cpu', 'gpu', 'gpu:1', 'cuda:0'), indices and
    Place objects, with paddle's errors for what this build cannot use."""
    if isinstance(device, Place):
        return device
    if isinstance(device, int) and not isinstance(device, bool):
        if device < 0:
            raise ValueError(f"Device index must be non-negative, got {device}")
        current = get_device()
        if current == "cpu":
            if device != 0:
                raise ValueError(f"CPU device only supports index 0, got {device}")
            return CPUPlace()
        device = f"{current.split(':')[0]}:{device}"
    if not isinstance(device, str):
        return device
    device = device.strip()
    if "cuda:" in device:
        device = device.replace("cuda:", "gpu:")
    lower = device.lower()
    if lower.startswith("cuda"):
        lower = lower.replace("cuda", "gpu")
    if lower == "cpu":
        return CPUPlace()
    if lower in ("gpu", "dcu"):
        if not _backend.gpu_available():
            raise _not_compiled("'gpu'")
        return CUDAPlace(0)
    if lower == "xpu":
        raise ValueError("The device should not be 'xpu', since PaddlePaddle is not compiled "
                         "with XPU")
    if lower == "ipu":
        raise ValueError("The device should not be 'ipu', since PaddlePaddle is not compiled "
                         "with IPU")
    gpu = re.match(r"gpu:\d+", lower) or re.match(r"dcu:\d+", lower)
    if gpu:
        if not _backend.gpu_available():
            raise _not_compiled(gpu)  # paddle really prints the re.Match object
        return CUDAPlace(int(device.split(":", 1)[1]))
    xpu = re.match(r"xpu:\d+", lower)
    if xpu:
        raise ValueError(f"The device should not be {xpu}, since PaddlePaddle is not compiled "
                         "with XPU")
    raise ValueError("The device must be a string which is like 'cpu', 'gpu', 'gpu:x', 'dcu', "
                     "'dcu:x', 'xpu', 'xpu:x', 'npu', 'npu:x'")


def set_device(device) -> Place:
    """Fix the place new tensors go to; returns it."""
    global _chosen
    place = to_place(device)
    _chosen = place
    return place


def reset_device() -> None:
    """Forget set_device's choice (tests): the default is decided per tensor again."""
    global _chosen
    _chosen = None


def get_device(input=None):  # noqa: A002 (paddle's name)
    """'cpu' or 'gpu:N' for the expected place; for a tensor, its GPU index or -1."""
    if input is not None and hasattr(input, "array"):
        d = _backend.device_of(input.array)
        return -1 if d.kind == "cpu" else d.index
    p = expected_place()
    return "cpu" if p.device.kind == "cpu" else f"gpu:{p.device.index}"


def is_compiled_with_cuda() -> bool:
    """True where a GPU is usable (janusgrad is 'compiled with CUDA' when CuPy sees one)."""
    return _backend.gpu_available()


def is_compiled_with_xpu() -> bool:
    return False


def synchronize(device=None) -> None:
    place = expected_place() if device is None else to_place(device)
    if not place.is_gpu_place():
        raise TypeError("device should be gpu, xpu, ")
    _backend.synchronize(place.device)


from . import cuda  # noqa: E402, F401  (paddle.device.cuda)

__getattr__ = _module_getattr("paddlelike", "paddle.device")
