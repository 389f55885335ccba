"""torch.Size: a tuple printed as torch prints it."""
from __future__ import annotations

# torch.device lives in _device; re-exported for older imports
from ._device import CPU, check_device, device  # noqa: F401


class Size(tuple):
    """A shape: a tuple of ints printed as ``torch.Size([2, 3])``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(n) for n in self)}])"

    __str__ = __repr__

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, n):
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__

    def numel(self) -> int:
        n = 1
        for d in self:
            n *= d
        return n


# Python names a heap type by __name__ in its errors ("can only concatenate list (not
# "torch.Size") to list"); module "builtins" keeps the class repr <class 'torch.Size'>.
Size.__name__ = Size.__qualname__ = "torch.Size"
Size.__module__ = "builtins"
