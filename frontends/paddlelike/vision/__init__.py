"""paddle.vision: the datasets and transforms D2L's paddle code uses (MNIST, FashionMNIST;
ToTensor, Resize, Normalize, Compose) and the image backend switch."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr as _module_getattr

from . import datasets, transforms  # noqa: F401
from .datasets import MNIST, FashionMNIST
from .image import get_image_backend, set_image_backend
from .transforms import Compose, Normalize, Resize, ToTensor, normalize, resize, to_tensor

__all__ = ["set_image_backend", "get_image_backend"]
# (paddle.vision also re-exports the dataset and transform names below)
_REEXPORTED = (MNIST, FashionMNIST, Compose, Normalize, Resize, ToTensor, normalize, resize,
               to_tensor)

__getattr__ = _module_getattr("paddlelike", "paddle.vision")
