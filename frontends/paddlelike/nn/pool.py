"""paddle.nn pooling, padding, upsampling and shuffle layers (paddle's attributes and reprs)."""
from __future__ import annotations

from janusgrad.nn.dims import per_dimension

from . import functional as F
from .layer import Layer


def _name(name):
    return f", name={name}" if name else ""


class _MaxPoolND(Layer):
    _d = 2

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format=None, name=None) -> None:
        super().__init__()
        self.ksize = kernel_size
        self.stride = stride
        self.padding = padding
        self.return_mask = return_mask
        self.ceil_mode = ceil_mode
        self.data_format = data_format if data_format is not None else \
            ("NCL", "NCHW", "NCDHW")[self._d - 1]
        self.name = name

    def forward(self, x):
        fn = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[self._d - 1]
        if self._d == 1:
            return fn(x, self.ksize, self.stride, self.padding, self.return_mask, self.ceil_mode)
        return fn(x, self.ksize, self.stride, self.padding, self.return_mask, self.ceil_mode,
                  self.data_format)

    def extra_repr(self) -> str:
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"


class MaxPool1D(_MaxPoolND):
    _d = 1

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 name=None) -> None:
        super().__init__(kernel_size, stride, padding, return_mask, ceil_mode, None, name)


MaxPool2D, MaxPool3D = per_dimension("MaxPool{}D", __name__, _MaxPoolND, dims=(2, 3),
                                     _d=(2, 3))


class _AvgPoolND(Layer):
    _d = 2

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                 divisor_override=None, data_format=None, name=None) -> None:
        super().__init__()
        self.ksize = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.exclusive = exclusive
        self.divisor = divisor_override
        self.data_format = data_format if data_format is not None else \
            ("NCL", "NCHW", "NCDHW")[self._d - 1]
        self.name = name

    def forward(self, x):
        if self._d == 1:
            return F.avg_pool1d(x, self.ksize, self.stride, self.padding, self.exclusive,
                                self.ceil_mode)
        fn = F.avg_pool2d if self._d == 2 else F.avg_pool3d
        return fn(x, self.ksize, self.stride, self.padding, self.ceil_mode, self.exclusive,
                  self.divisor, self.data_format)

    def extra_repr(self) -> str:
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"


class AvgPool1D(_AvgPoolND):
    _d = 1

    def __init__(self, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False,
                 name=None) -> None:
        super().__init__(kernel_size, stride, padding, ceil_mode, exclusive, None, None, name)


AvgPool2D, AvgPool3D = per_dimension("AvgPool{}D", __name__, _AvgPoolND, dims=(2, 3),
                                     _d=(2, 3))


class AdaptiveAvgPool1D(Layer):
    def __init__(self, output_size, name=None) -> None:
        super().__init__()
        self.output_size = output_size
        self.name = name

    def forward(self, x):
        return F.adaptive_avg_pool1d(x, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class _AdaptiveAvgPoolND(Layer):
    _fn = None

    def __init__(self, output_size, data_format=None, name=None) -> None:
        super().__init__()
        self._output_size = output_size
        self._data_format = data_format
        self._name = name

    def forward(self, x):
        return type(self)._fn(x, self._output_size, self._data_format)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}"


AdaptiveAvgPool2D, AdaptiveAvgPool3D = per_dimension(
    "AdaptiveAvgPool{}D", __name__, _AdaptiveAvgPoolND, dims=(2, 3),
    _fn=(staticmethod(F.adaptive_avg_pool2d), staticmethod(F.adaptive_avg_pool3d)))


class _AdaptiveMaxPoolND(Layer):
    _fn = None

    def __init__(self, output_size, return_mask=False, name=None) -> None:
        super().__init__()
        self._output_size = output_size
        self._return_mask = return_mask
        self._name = name

    def forward(self, x):
        return type(self)._fn(x, self._output_size, self._return_mask)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


AdaptiveMaxPool1D, AdaptiveMaxPool2D, AdaptiveMaxPool3D = per_dimension(
    "AdaptiveMaxPool{}D", __name__, _AdaptiveMaxPoolND, _fn=tuple(map(staticmethod, (
        F.adaptive_max_pool1d, F.adaptive_max_pool2d, F.adaptive_max_pool3d))))


class _MaxUnPoolND(Layer):
    _d = 2

    def __init__(self, kernel_size, stride=None, padding=0, data_format=None, output_size=None,
                 name=None) -> None:
        super().__init__()
        self.ksize = kernel_size
        self.stride = stride
        self.padding = padding
        self.data_format = data_format
        self.output_size = output_size
        self.name = name

    def forward(self, x, indices):
        fn = (F.max_unpool1d, F.max_unpool2d, F.max_unpool3d)[self._d - 1]
        return fn(x, indices, self.ksize, self.stride, self.padding, self.data_format,
                  self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


MaxUnPool1D, MaxUnPool2D, MaxUnPool3D = per_dimension("MaxUnPool{}D", __name__,
                                                       _MaxUnPoolND, _d=(1, 2, 3))


class _PadND(Layer):
    _d = 2

    def __init__(self, padding, mode="constant", value=0.0, data_format=None,
                 name=None) -> None:
        super().__init__()
        if isinstance(padding, int):
            padding = [padding] * (2 * self._d)
        self._pad = padding
        self._mode = mode
        self._value = value
        self._data_format = data_format if data_format is not None else \
            ("NCL", "NCHW", "NCDHW")[self._d - 1]
        self._name = name

    def forward(self, x):
        return F.pad(x, self._pad, self._mode, self._value, self._data_format)

    def extra_repr(self) -> str:
        return (f"padding={self._pad}, mode={self._mode}, value={self._value}, "
                f"data_format={self._data_format}{_name(self._name)}")


Pad1D, Pad2D, Pad3D = per_dimension("Pad{}D", __name__, _PadND, _d=(1, 2, 3))


class ZeroPad2D(_PadND):
    def __init__(self, padding, data_format=None, name=None) -> None:
        super().__init__(padding, "constant", 0.0, data_format, name)


class Upsample(Layer):
    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=False,
                 align_mode=0, data_format=None, recompute_scale_factor=None,
                 name=None) -> None:
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode.lower()
        self.align_corners = align_corners
        self.align_mode = align_mode
        self.data_format = data_format
        self.recompute_scale_factor = recompute_scale_factor
        self.name = name

    def forward(self, x):
        return F.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.align_mode, self.data_format, self.recompute_scale_factor)

    def extra_repr(self) -> str:
        main = (f"scale_factor={self.scale_factor}" if self.scale_factor is not None
                else f"size={self.size}")
        return (f"{main}, mode={self.mode}, align_corners={self.align_corners}, "
                f"align_mode={self.align_mode}, data_format={self.data_format}"
                f"{_name(self.name)}")


class _Upsampling2D(Layer):
    _mode = "nearest"

    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None) -> None:
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.data_format = data_format
        self.name = name

    def forward(self, x):
        return F.interpolate(x, self.size, self.scale_factor, self._mode,
                             self._mode == "bilinear", 0, self.data_format)

    def extra_repr(self) -> str:
        main = (f"scale_factor={self.scale_factor}" if self.scale_factor is not None
                else f"size={self.size}")
        return f"{main}, data_format={self.data_format}{_name(self.name)}"


class UpsamplingNearest2D(_Upsampling2D):
    _mode = "nearest"


class UpsamplingBilinear2D(_Upsampling2D):
    _mode = "bilinear"


class _Shuffle(Layer):
    _field = "upscale_factor"
    _fn = None

    def __init__(self, factor, data_format="NCHW", name=None) -> None:
        super().__init__()
        self._factor = factor
        self._data_format = data_format
        self._name = name

    def forward(self, x):
        return type(self)._fn(x, self._factor, self._data_format)

    def extra_repr(self) -> str:
        s = f"{self._field}={self._factor}"
        if self._data_format != "NCHW":
            s += f", data_format={self._data_format}"
        return s + _name(self._name)


class PixelShuffle(_Shuffle):
    _field = "upscale_factor"
    _fn = staticmethod(F.pixel_shuffle)


class PixelUnshuffle(_Shuffle):
    _field = "downscale_factor"
    _fn = staticmethod(F.pixel_unshuffle)


class ChannelShuffle(_Shuffle):
    _field = "groups"
    _fn = staticmethod(F.channel_shuffle)


__all__ = [
    "AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool3D", "AdaptiveMaxPool1D",
    "AdaptiveMaxPool2D", "AdaptiveMaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D",
    "ChannelShuffle", "MaxPool1D", "MaxPool2D", "MaxPool3D", "MaxUnPool1D", "MaxUnPool2D",
    "MaxUnPool3D", "Pad1D", "Pad2D", "Pad3D", "PixelShuffle", "PixelUnshuffle", "Upsample",
    "UpsamplingBilinear2D", "UpsamplingNearest2D", "ZeroPad2D",
]
