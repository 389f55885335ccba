"""paddle.device.cuda: GPU count and synchronisation."""
from __future__ import annotations

from janusgrad.array import backend as _backend
from janusgrad.host.dropin import module_getattr as _module_getattr


def device_count() -> int:
    return _backend.gpu_count()


def synchronize(device=None) -> None:
    """Wait for the GPU's work (device: None, an index, 'gpu', 'gpu:N' or a CUDAPlace)."""
    index = 0
    if isinstance(device, int):
        index = device
    elif isinstance(device, str):
        if device.startswith("gpu:"):
            index = int(device[4:])
        elif device != "gpu":
            raise ValueError(f"The current string {device} is not expected. Because "
                             "paddle.device.cuda.synchronize only support string which is "
                             "like 'gpu:x' or 'gpu'. Please input appropriate string again!")
    elif device is not None:
        if not hasattr(device, "get_device_id"):
            raise ValueError("device type must be int, str or paddle.CUDAPlace")
        index = device.get_device_id()
    if not _backend.gpu_available():
        raise RuntimeError("(Unavailable) Paddle is not compiled with CUDA. Cannot visit "
                           "device synchronize. (at /paddle/paddle/fluid/pybind/"
                           "cuda_streams_py.cc:169)\n")
    _backend.synchronize(_backend.Device("gpu", index))


__getattr__ = _module_getattr("paddlelike", "paddle.device.cuda")
