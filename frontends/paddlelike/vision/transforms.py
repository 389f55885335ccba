"""paddle.vision.transforms: ToTensor, Resize, Normalize, Compose (and their functions), on
PIL images (Pillow's own resize), numpy arrays (HWC; resized as paddle's cv2 backend does:
bilinear without antialiasing) and tensors (CHW). The image math is janusgrad.host.vision's."""
from __future__ import annotations

import numbers
import traceback
from collections.abc import Iterable, Sequence

from janusgrad.array.backend import is_array as _is_array
from janusgrad.host import vision as _V
from janusgrad.host.dropin import module_getattr as _module_getattr

from ..creation import to_tensor as _to_tensor
from ..tensor import Tensor as _Tensor

__all__ = ["BaseTransform", "Compose", "ToTensor", "Resize", "Normalize", "to_tensor",
           "resize", "normalize"]


def _is_numpy_image(img) -> bool:
    return _is_array(img) and img.ndim in (2, 3)


def _is_tensor_image(img) -> bool:
    return isinstance(img, _Tensor)


def _assert_image_tensor(img, data_format) -> None:
    if not isinstance(img, _Tensor) or img.ndim < 3 or img.ndim > 4 or \
            data_format.lower() not in ("chw", "hwc"):
        raise RuntimeError(f"not support [type={type(img)}, ndim={img.ndim}, "
                           f"data_format={data_format}] paddle image")


# ------------------------------------------------------------------ functions
def to_tensor(pic, data_format: str = "CHW"):
    """PIL image or (H, W[, C]) array -> Tensor (C, H, W) (or (H, W, C)); uint8 pixels are
    scaled to float32 in [0, 1], other types kept as they are."""
    if not (_V.is_pil_image(pic) or _is_numpy_image(pic) or _is_tensor_image(pic)):
        raise TypeError("pic should be PIL Image or Tensor Image or ndarray with dim=[2 or 3]. "
                        f"Got {type(pic)}")
    if _is_tensor_image(pic):
        return pic if data_format.lower() == "chw" else pic.transpose((1, 2, 0))
    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    a = _V.pil_array(pic, wide16=True) if _V.is_pil_image(pic) else pic
    return _to_tensor(_V.to_channels_first(a, data_format == "CHW", "float32"))


def resize(img, size, interpolation: str = "bilinear"):
    """Resize to ``size`` ((h, w), or an int for the shorter edge)."""
    if not (_V.is_pil_image(img) or _is_numpy_image(img) or _is_tensor_image(img)):
        raise TypeError("img should be PIL Image or Tensor Image or ndarray with dim=[2 or 3]. "
                        f"Got {type(img)}")
    pil, tensor = _V.is_pil_image(img), _is_tensor_image(img)
    if tensor:
        _assert_image_tensor(img, "CHW")
        ok = isinstance(size, int) or (isinstance(size, (tuple, list)) and len(size) == 2)
    else:
        ok = isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)
    if not ok:
        raise TypeError(f"Got inappropriate size arg: {size}")
    h, w = _V.image_size(img, channels_first=tensor)
    if isinstance(size, int) and ((w <= h and w == size) or (h <= w and h == size)):
        return img
    oh, ow = _V.output_size(h, w, size if isinstance(size, int) else tuple(size))
    if pil:
        return _V.pil_resize(img, oh, ow, interpolation)
    if tensor:
        return _V.resize_tensor(img, oh, ow, interpolation.lower(), axes=(-2, -1))
    return _V.resize_array(img, oh, ow, interpolation, axes=(0, 1))


def normalize(img, mean, std, data_format: str = "CHW", to_rgb: bool = False):
    """(img - mean) / std per channel; a tensor gives a tensor, a PIL image or array an
    array (float32 for a PIL image)."""
    if _is_tensor_image(img):
        _assert_image_tensor(img, data_format)
        axis = -3 if data_format.upper() == "CHW" else -1
        return _V.normalize_tensor(img, mean, std, axis)
    if _V.is_pil_image(img):
        img = _V.pil_float_array(img)
    return _V.normalize_array(img, mean, std, 0 if data_format == "CHW" else -1, to_rgb)


# ------------------------------------------------------------------ classes
class Compose:
    """Apply the transforms one after another."""

    def __init__(self, transforms) -> None:
        self.transforms = transforms

    def __call__(self, data):
        for f in self.transforms:
            try:
                data = f(data)
            except Exception as e:
                print(f"fail to perform transform [{f}] with error: "
                      f"{e} and stack:\n{traceback.format_exc()}")
                raise e
        return data

    def __repr__(self) -> str:
        return _V.compose_repr(self)


class BaseTransform:
    """A transform applied to the fields named by ``keys`` (default: the image only)."""

    def __init__(self, keys=None) -> None:
        if keys is None:
            keys = ("image",)
        elif not isinstance(keys, Sequence):
            raise ValueError(f"keys should be a sequence, but got keys={keys}")
        for k in keys:
            if self._get_apply(k) is None:
                raise NotImplementedError(f"{k} is unsupported data structure")
        self.keys = keys
        self.params = None

    def _get_params(self, inputs):
        pass

    def __call__(self, inputs):
        if not isinstance(inputs, tuple):
            inputs = (inputs,)
        self.params = self._get_params(inputs)
        outputs = []
        for i in range(min(len(inputs), len(self.keys))):
            apply_func = self._get_apply(self.keys[i])
            outputs.append(inputs[i] if apply_func is None else apply_func(inputs[i]))
        if len(inputs) > len(self.keys):
            outputs.extend(inputs[len(self.keys):])
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _get_apply(self, key):
        return getattr(self, f"_apply_{key}", None)

    def _apply_image(self, image):
        raise NotImplementedError


class ToTensor(BaseTransform):
    def __init__(self, data_format: str = "CHW", keys=None) -> None:
        super().__init__(keys)
        self.data_format = data_format

    def _apply_image(self, img):
        return to_tensor(img, self.data_format)


class Resize(BaseTransform):
    def __init__(self, size, interpolation: str = "bilinear", keys=None) -> None:
        super().__init__(keys)
        assert isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)
        self.size = size
        self.interpolation = interpolation

    def _apply_image(self, img):
        return resize(img, self.size, self.interpolation)


class Normalize(BaseTransform):
    def __init__(self, mean=0.0, std=1.0, data_format: str = "CHW", to_rgb: bool = False,
                 keys=None) -> None:
        super().__init__(keys)
        if isinstance(mean, numbers.Number):
            mean = [mean, mean, mean]
        if isinstance(std, numbers.Number):
            std = [std, std, std]
        self.mean = mean
        self.std = std
        self.data_format = data_format
        self.to_rgb = to_rgb

    def _apply_image(self, img):
        return normalize(img, self.mean, self.std, self.data_format, self.to_rgb)


for _f in (to_tensor, resize, normalize):
    _f.__module__ = "paddle.vision.transforms.functional"
for _c in (Compose, BaseTransform, ToTensor, Resize, Normalize):
    _c.__module__ = "paddle.vision.transforms.transforms"

__getattr__ = _module_getattr("paddlelike", "paddle.vision.transforms")
