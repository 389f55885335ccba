"""Pooling, padding, upsampling and shuffle modules (torch's attributes and extra_repr)."""
from __future__ import annotations

from janusgrad.nn.dims import per_dimension

from .. import functional as F
from .module import Module


def _ntuple(v, n):
    if isinstance(v, (list, tuple)):
        return tuple(v)
    return (v,) * n


class _MaxPoolNd(Module):
    _d = 2

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def forward(self, input):  # noqa: A002
        fn = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[self._d - 1]
        return fn(input, self.kernel_size, self.stride, self.padding, self.dilation,
                  ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"
                f", dilation={self.dilation}, ceil_mode={self.ceil_mode}")


MaxPool1d, MaxPool2d, MaxPool3d = per_dimension("MaxPool{}d", __name__, _MaxPoolNd,
                                                 _d=(1, 2, 3))


class AvgPool1d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, 1)
        self.stride = _ntuple(stride if stride is not None else kernel_size, 1)
        self.padding = _ntuple(padding, 1)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):  # noqa: A002
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _AvgPoolNd(Module):
    _d = 2

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override=None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):  # noqa: A002
        fn = F.avg_pool2d if self._d == 2 else F.avg_pool3d
        return fn(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                  self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


AvgPool2d, AvgPool3d = per_dimension("AvgPool{}d", __name__, _AvgPoolNd, dims=(2, 3),
                                     _d=(2, 3))


class _AdaptiveAvgPoolNd(Module):
    _fn = None

    def __init__(self, output_size) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input):  # noqa: A002
        return type(self)._fn(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d = per_dimension(
    "AdaptiveAvgPool{}d", __name__, _AdaptiveAvgPoolNd, _fn=tuple(map(staticmethod, (
        F.adaptive_avg_pool1d, F.adaptive_avg_pool2d, F.adaptive_avg_pool3d))))


class _AdaptiveMaxPoolNd(Module):
    _fn = None

    def __init__(self, output_size, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def forward(self, input):  # noqa: A002
        return type(self)._fn(input, self.output_size, self.return_indices)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d = per_dimension(
    "AdaptiveMaxPool{}d", __name__, _AdaptiveMaxPoolNd, _fn=tuple(map(staticmethod, (
        F.adaptive_max_pool1d, F.adaptive_max_pool2d, F.adaptive_max_pool3d))))


class _MaxUnpoolNd(Module):
    _d = 2

    def __init__(self, kernel_size, stride=None, padding=0) -> None:
        super().__init__()
        d = self._d
        self.kernel_size = _ntuple(kernel_size, d)
        self.stride = _ntuple(stride if stride is not None else kernel_size, d)
        self.padding = _ntuple(padding, d)

    def forward(self, input, indices, output_size=None):  # noqa: A002
        fn = (F.max_unpool1d, F.max_unpool2d, F.max_unpool3d)[self._d - 1]
        return fn(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


MaxUnpool1d, MaxUnpool2d, MaxUnpool3d = per_dimension("MaxUnpool{}d", __name__,
                                                       _MaxUnpoolNd, _d=(1, 2, 3))


class _PadNd(Module):
    _d = 2
    _mode = "constant"

    def __init__(self, padding) -> None:
        super().__init__()
        self.padding = _ntuple(padding, 2 * self._d)

    def forward(self, input):  # noqa: A002
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input):  # noqa: A002
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


ConstantPad1d, ConstantPad2d, ConstantPad3d = per_dimension("ConstantPad{}d", __name__,
                                                             _ConstantPadNd, _d=(1, 2, 3))


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


ZeroPad1d, ZeroPad2d, ZeroPad3d = per_dimension("ZeroPad{}d", __name__, _ZeroPadNd,
                                                 _d=(1, 2, 3))


ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = per_dimension(
    "ReflectionPad{}d", __name__, _PadNd, _d=(1, 2, 3), _mode=("reflect",) * 3)
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = per_dimension(
    "ReplicationPad{}d", __name__, _PadNd, _d=(1, 2, 3), _mode=("replicate",) * 3)
CircularPad1d, CircularPad2d, CircularPad3d = per_dimension(
    "CircularPad{}d", __name__, _PadNd, _d=(1, 2, 3), _mode=("circular",) * 3)


class Upsample(Module):
    def __init__(self, size=None, scale_factor=None, mode: str = "nearest",
                 align_corners=None, recompute_scale_factor=None) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):  # noqa: A002
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            info = "scale_factor=" + repr(self.scale_factor)
        else:
            info = "size=" + repr(self.size)
        return info + ", mode=" + repr(self.mode)


class UpsamplingNearest2d(Upsample):
    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class PixelShuffle(Module):
    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):  # noqa: A002
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):  # noqa: A002
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class ChannelShuffle(Module):
    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input):  # noqa: A002
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"


__all__ = [
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
    "ChannelShuffle", "CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d",
    "ConstantPad2d", "ConstantPad3d", "MaxPool1d", "MaxPool2d", "MaxPool3d", "MaxUnpool1d",
    "MaxUnpool2d", "MaxUnpool3d", "PixelShuffle", "PixelUnshuffle", "ReflectionPad1d",
    "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
    "ReplicationPad3d", "Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d", "ZeroPad1d",
    "ZeroPad2d", "ZeroPad3d",
]

# the modules torch defines them in (where its pickles name them)
for _name in __all__:
    globals()[_name].__module__ = "torch.nn.modules." + (
        "padding" if "Pad" in _name else "upsampling" if "Upsampl" in _name
        else "pixelshuffle" if "PixelU" in _name or "PixelS" in _name
        else "channelshuffle" if _name == "ChannelShuffle" else "pooling")
