"""torchvision.transforms.functional: to_tensor, resize, normalize, InterpolationMode.

PIL images are resized by Pillow itself; tensors (..., C, H, W) by janusgrad.host.vision (bilinear
with torchvision's default antialiasing when shrinking; float tensors recorded for autograd).
When Pillow is not installed, the datasets give uint8 (H, W) numpy arrays in place of PIL
images, and Resize and ToTensor take such arrays as they would take the PIL image."""
from __future__ import annotations

import warnings
from enum import Enum

from janusgrad.array.backend import is_array as _is_array
from janusgrad.host import vision as _V
from janusgrad.host.dropin import module_getattr as _module_getattr

from ... import _dtypes
from ..._creation import from_numpy as _from_numpy
from ..._tensor import Tensor as _Tensor

__all__ = ["InterpolationMode", "to_tensor", "resize", "normalize"]


class InterpolationMode(Enum):
    NEAREST = "nearest"
    NEAREST_EXACT = "nearest-exact"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"
    BOX = "box"
    HAMMING = "hamming"
    LANCZOS = "lanczos"


_FROM_INT = {0: InterpolationMode.NEAREST, 2: InterpolationMode.BILINEAR,
             3: InterpolationMode.BICUBIC, 4: InterpolationMode.BOX,
             5: InterpolationMode.HAMMING, 1: InterpolationMode.LANCZOS}


def _pil_standin(img) -> bool:
    """A numpy image standing for a PIL image (only when Pillow is missing)."""
    return not _V.have_pil() and _is_array(img) and img.ndim in (2, 3)


# ------------------------------------------------------------------ functional
def to_tensor(pic):
    """PIL image or (H, W[, C]) array -> (C, H, W) tensor; uint8 pixels become the default
    float dtype in [0, 1], anything else keeps its values and dtype."""
    is_array = _is_array(pic)
    if not (_V.is_pil_image(pic) or is_array):
        raise TypeError(f"pic should be PIL Image or ndarray. Got {type(pic)}")
    if is_array and pic.ndim not in (2, 3):
        raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
    a = pic if is_array else _V.pil_array(pic)
    return _from_numpy(_V.to_channels_first(a, True, _dtypes.to_np(_dtypes.get_default_dtype())))


def _dimensions(img) -> tuple:
    if isinstance(img, _Tensor):
        if img.ndim < 2:
            raise TypeError("Tensor is not a torch image.")
        return img.shape[-2], img.shape[-1]
    if _V.is_pil_image(img) or _pil_standin(img):
        return _V.image_size(img, channels_first=False)
    raise TypeError(f"Unexpected type {type(img)}")


def resize(img, size, interpolation=InterpolationMode.BILINEAR, max_size=None,
           antialias=True):
    """Resize to ``size`` ((h, w), or [n] / n for the shorter edge)."""
    if isinstance(interpolation, int):
        interpolation = _FROM_INT[interpolation]
    elif not isinstance(interpolation, InterpolationMode):
        raise TypeError("Argument interpolation should be a InterpolationMode or a "
                        "corresponding Pillow integer constant")
    if isinstance(size, (list, tuple)):
        if len(size) not in [1, 2]:
            raise ValueError(f"Size must be an int or a 1 or 2 element tuple/list, not a "
                             f"{len(size)} element tuple/list")
        if max_size is not None and len(size) != 1:
            raise ValueError("max_size should only be passed if size specifies the length of "
                             "the smaller edge, i.e. size should be an int or a sequence of "
                             "length 1 in torchscript mode.")
    h, w = _dimensions(img)
    if isinstance(size, int):
        size = [size]
    oh, ow = _V.output_size(h, w, list(size), max_size)
    if (h, w) == (oh, ow):
        return img
    mode = interpolation.value
    if not isinstance(img, _Tensor):
        if antialias is False:
            warnings.warn("Anti-alias option is always applied for PIL Image input. Argument "
                          "antialias is ignored.", stacklevel=2)
        if _V.is_pil_image(img):
            return _V.pil_resize(img, oh, ow, mode)
        return _V.resize_array(img, oh, ow, mode, antialias=True, axes=(0, 1))
    if mode not in ("nearest", "bilinear"):
        raise NotImplementedError(f"torchlike's Resize supports nearest and bilinear tensors, "
                                  f"not {mode}")
    return _V.resize_tensor(img, oh, ow, mode, antialias=bool(antialias) and mode != "nearest")


def normalize(tensor, mean, std, inplace: bool = False):
    """(tensor - mean) / std per channel of a float (..., C, H, W) tensor."""
    if not isinstance(tensor, _Tensor):
        raise TypeError(f"img should be Tensor Image. Got {type(tensor)}")
    if tensor.ndim < 2:
        raise TypeError("Tensor is not a torch image.")
    if not tensor.is_floating_point():
        raise TypeError(f"Input tensor should be a float tensor. Got {tensor.dtype}.")
    if tensor.ndim < 3:
        raise ValueError("Expected tensor to be a tensor image of size (..., C, H, W). Got "
                         f"tensor.size() = {tensor.size()}")
    if _V.has_zero(std, _dtypes.to_np(tensor.dtype)):
        raise ValueError(f"std evaluated to zero after conversion to {tensor.dtype}, leading "
                         "to division by zero.")
    out = _V.normalize_tensor(tensor, mean, std, -3)
    if inplace:
        return tensor.copy_(out)
    return out


for _f in (to_tensor, resize, normalize):
    _f.__module__ = "torchvision.transforms.functional"
InterpolationMode.__module__ = "torchvision.transforms.functional"

__getattr__ = _module_getattr("torchlike", "torchvision.transforms.functional")
