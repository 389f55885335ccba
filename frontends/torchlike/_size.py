"""torch.Size (a tuple) and torch.device (CPU only)."""
from __future__ import annotations


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


class device:  # noqa: N801 - torch spells it so
    """torch.device; only the CPU exists here."""

    __slots__ = ("type", "index")

    def __init__(self, type: str = "cpu", index: int | None = None) -> None:  # noqa: A002
        if isinstance(type, device):
            type, index = type.type, type.index
        kind, _, idx = str(type).partition(":")
        if idx:
            index = int(idx)
        if kind not in ("cpu", "cuda", "mps", "meta"):
            raise RuntimeError(
                "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, "
                "fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device "
                f"type at start of device string: {type}")
        self.type = kind
        self.index = index

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


device.__module__ = "torch"
CPU = device("cpu")


def check_device(d) -> None:
    """Accept a CPU device argument; refuse an accelerator as torch does without one."""
    if d is None:
        return
    kind = d.type if isinstance(d, device) else str(d).partition(":")[0]
    if kind == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    if kind != "cpu":
        raise RuntimeError("Cannot access accelerator device when none is available.")
