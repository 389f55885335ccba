"""torchvision, as far as D2L's scripts use it (served as ``torchvision`` by
``python -m torchlike``): ``transforms`` (ToTensor, Resize, Normalize, Compose, Lambda) and
``datasets`` (MNIST, FashionMNIST). Pillow is optional (see transforms)."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr as _module_getattr

from . import datasets, transforms  # noqa: F401

__version__ = "0.28.0"  # the torchvision release built for torch 2.13

__getattr__ = _module_getattr("torchlike", "torchvision")
