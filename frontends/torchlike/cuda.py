"""torch.cuda: GPUs as the engine's backend sees them (CuPy, or none).

Without a usable GPU the functions answer as a CPU build of torch does: queries say
no (``is_available()`` False, ``device_count()`` 0), and anything that needs a device
raises ``AssertionError: Torch not compiled with CUDA enabled``.

Random numbers for CUDA tensors are drawn from the one host stream that
``torch.manual_seed`` seeds (then moved), so ``manual_seed``/``manual_seed_all`` here
only remember their seed: a script seeded for CUDA draws the same numbers as on the CPU.
"""
from __future__ import annotations

from janusgrad.array import backend

from ._device import NO_CUDA, Device, current, device_str, resolve

_seed: list = [None]


def _need_gpu():
    b = backend.gpu_backend()
    if b is None:
        raise AssertionError(NO_CUDA)
    return b


def is_available() -> bool:
    return backend.gpu_available()


def device_count() -> int:
    return backend.gpu_count()


def is_initialized() -> bool:
    return backend.gpu_available()


def init() -> None:
    _need_gpu()


def current_device() -> int:
    _need_gpu()
    return current.index


def _index(d) -> int:
    if d is None:
        return current.index
    if isinstance(d, int) and not isinstance(d, bool):
        return d
    return resolve(d).index


def set_device(d) -> None:
    _need_gpu()
    index = _index(d)
    if index >= 0:
        resolve(f"cuda:{index}")  # an index out of range fails as torch's does
        current.index = index


class device:  # noqa: N801 - torch.cuda.device, the context manager
    """``with torch.cuda.device(i):`` makes ``'cuda'`` mean ``cuda:i`` inside."""

    def __init__(self, device) -> None:
        self.idx = _index(device)
        self.prev_idx = -1

    def __enter__(self):
        self.prev_idx = current.index
        if self.idx >= 0:
            set_device(self.idx)
        return self

    def __exit__(self, *exc) -> None:
        if self.prev_idx >= 0:
            current.index = self.prev_idx


def synchronize(device=None) -> None:
    _need_gpu()
    backend.synchronize(Device("gpu", _index(device)))


def manual_seed(seed: int) -> None:
    _seed[0] = int(seed)


def manual_seed_all(seed: int) -> None:
    _seed[0] = int(seed)


def seed() -> None:
    return None


def seed_all() -> None:
    return None


def initial_seed() -> int:
    _need_gpu()
    if _seed[0] is None:
        from ._ops import C
        return C.default_generator.initial_seed
    return _seed[0]


def get_device_name(device=None) -> str:
    b = _need_gpu()
    index = _index(device)
    name = getattr(b, "device_name", None)
    if callable(name):
        return name(index)
    try:  # CuPy names its devices through the CUDA runtime
        return b.xp.cuda.runtime.getDeviceProperties(index)["name"].decode()
    except Exception:  # another backend (the test double): a neutral name
        return f"{b.name} GPU {device_str(Device('gpu', index))}"


def empty_cache() -> None:
    return None


def memory_allocated(device=None) -> int:
    return 0


def max_memory_allocated(device=None) -> int:
    return 0


def memory_reserved(device=None) -> int:
    return 0


__all__ = ["current_device", "device", "device_count", "empty_cache", "get_device_name",
           "init", "initial_seed", "is_available", "is_initialized", "manual_seed",
           "manual_seed_all", "max_memory_allocated", "memory_allocated", "memory_reserved",
           "seed", "seed_all", "set_device", "synchronize"]
