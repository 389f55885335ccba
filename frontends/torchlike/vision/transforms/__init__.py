"""torchvision.transforms (the subset D2L uses): ToTensor, Resize, Normalize, Compose, Lambda
and InterpolationMode; the work is in ``functional`` (see its note on PIL images)."""
from __future__ import annotations

from collections.abc import Sequence

from janusgrad.host import vision as _V
from janusgrad.host.dropin import module_getattr as _module_getattr

from ...nn.modules.module import Module as _Module
from . import functional  # noqa: F401
from .functional import _FROM_INT, InterpolationMode, normalize, resize, to_tensor

__all__ = ["Compose", "Lambda", "ToTensor", "Resize", "Normalize", "InterpolationMode"]


class Compose:
    """Apply the transforms one after another."""

    def __init__(self, transforms) -> None:
        self.transforms = transforms

    def __call__(self, img):
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self) -> str:
        return _V.compose_repr(self)


class ToTensor:
    """PIL image or numpy array -> tensor (see ``to_tensor``)."""

    def __call__(self, pic):
        return to_tensor(pic)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}()"


class Lambda:
    """A user function as a transform."""

    def __init__(self, lambd) -> None:
        if not callable(lambd):
            raise TypeError(f"Argument lambd should be callable, got {type(lambd).__name__!r}")
        self.lambd = lambd

    def __call__(self, img):
        return self.lambd(img)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}()"


class Resize(_Module):
    """Resize to ``size`` (see ``resize``)."""

    def __init__(self, size, interpolation=InterpolationMode.BILINEAR, max_size=None,
                 antialias=True) -> None:
        super().__init__()
        if not isinstance(size, (int, Sequence)):
            raise TypeError(f"Size should be int or sequence. Got {type(size)}")
        if isinstance(size, Sequence) and len(size) not in (1, 2):
            raise ValueError("If size is a sequence, it should have 1 or 2 values")
        self.size = size
        self.max_size = max_size
        if isinstance(interpolation, int):
            interpolation = _FROM_INT[interpolation]
        self.interpolation = interpolation
        self.antialias = antialias

    def forward(self, img):
        return resize(img, self.size, self.interpolation, self.max_size, self.antialias)

    def __repr__(self) -> str:
        return (f"{self.__class__.__name__}(size={self.size}, interpolation="
                f"{self.interpolation.value}, max_size={self.max_size}, "
                f"antialias={self.antialias})")


class Normalize(_Module):
    """Per-channel (x - mean) / std of a float tensor image."""

    def __init__(self, mean, std, inplace: bool = False) -> None:
        super().__init__()
        self.mean = mean
        self.std = std
        self.inplace = inplace

    def forward(self, tensor):
        return normalize(tensor, self.mean, self.std, self.inplace)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(mean={self.mean}, std={self.std})"


for _c in (Compose, ToTensor, Lambda, Resize, Normalize):
    _c.__module__ = "torchvision.transforms.transforms"

__getattr__ = _module_getattr("torchlike", "torchvision.transforms")
