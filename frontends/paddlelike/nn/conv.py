"""paddle's convolutions: paddle.nn.functional.conv1d/2d/3d, conv1d/2d/3d_transpose, unfold,
fold and the layers Conv1D/2D/3D, Conv1D/2D/3DTranspose, Unfold, Fold (paddle's argument
forms, data_format, default initialisation and printed form; the math is janusgrad.nn.conv).
"""
from __future__ import annotations

from janusgrad.binding import facts as F
from janusgrad.nn import conv as NC
from janusgrad.nn.dims import per_dimension
from janusgrad.ops import shape as S

from ..dialect import tag
from .initializer import Normal
from .layer import Layer

_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def _channel_last(data_format: str, nd: int) -> bool:
    if data_format not in _FORMATS[nd]:
        raise ValueError(f"Attr(data_format) should be '{_FORMATS[nd][0]}' or "
                         f"'{_FORMATS[nd][1]}'. Received Attr(data_format): {data_format}.")
    return data_format == _FORMATS[nd][1]


def _pairs(padding, nd: int, channel_last: bool):
    """paddle's padding forms: 'SAME'/'VALID' (any case), an int, nd ints, 2*nd ints
    [before, after, ...], or nd+2 pairs including the batch and channel axes."""
    if isinstance(padding, str):
        p = padding.upper()
        if p not in ("SAME", "VALID"):
            raise ValueError(f"Unknown padding: '{padding}'. It can only be 'SAME' or "
                             "'VALID'.")
        return p
    if isinstance(padding, (list, tuple)):
        padding = list(padding)
        if padding and isinstance(padding[0], (list, tuple)):
            if len(padding) == nd + 2:
                padding = padding[1:-1] if channel_last else padding[2:]
            return tuple((int(a), int(b)) for a, b in padding)
        if len(padding) == 2 * nd:
            return tuple((int(padding[2 * i]), int(padding[2 * i + 1])) for i in range(nd))
        return tuple((int(p), int(p)) for p in NC.ntuple(padding, nd))
    return ((int(padding), int(padding)),) * nd


def _to_first(x, nd, channel_last):
    return S.moveaxis(x, -1, 1) if channel_last else x


def _to_last(y, nd, channel_last):
    return S.moveaxis(y, 1, -1) if channel_last else y


def _operands(op, nd, x, weight, data_format):
    """(channel last?, input shape, filter shape, input channels), the input's rank
    checked as paddle checks it for a convolution and its transpose."""
    last = _channel_last(data_format, nd)
    xs, ws = tuple(x.array.shape), tuple(weight.array.shape)
    if len(xs) != nd + 2:
        raise ValueError(f"The input of Op({op}) should be a {nd + 2}-D Tensor. But "
                         f"received: input's dimension: {len(xs)}, input's shape: "
                         f"{list(xs)}.")
    return last, xs, ws, (xs[-1] if last else xs[1])


def _node(nd: int, transpose: bool, depthwise: bool, bias) -> str | None:
    """paddle's kernel: a 1-d convolution is the 2-d one between an unsqueeze and a squeeze
    (bias added inside); a 2-d/3-d one adds its bias after the kernel (AddGradNode)."""
    if nd == 1:
        return "SqueezeGradNode"
    if bias is not None:
        return None
    kind = ("Depthwise" if depthwise else "") + f"Conv{nd}d" + ("Transpose" if transpose else "")
    return f"{kind}GradNode" + ("Final" if kind == "Conv2d" else "")


# paddle's words for janusgrad.binding.facts' convolution facts (it checks only the channels)
_WORDS = {F.ConvChannels: lambda f: ValueError(
    "The channel of input should be equal to filter's channel * groups. But received: the "
    f"channel of input is {f.got}, the shape of input is {list(f.input_shape)}, the channel "
    f"of filter is {f.weight_shape[1]}, the shape of filter is {list(f.weight_shape)}, the "
    f"groups is {f.groups}.")}


def _conv(op, nd, x, weight, bias, stride, padding, dilation, groups, data_format):
    last, xs, ws, c = _operands(op, nd, x, weight, data_format)
    F.first(F.conv_facts(xs, ws, groups, c), _WORDS)
    pads = _pairs(padding, nd, last)
    x = _to_first(x, nd, last)
    if pads == "SAME":
        pads = "same"
    elif pads == "VALID":
        pads = "valid"
    y = NC.conv(x, weight, bias, stride, pads, dilation, groups)
    depthwise = nd == 2 and c == groups != 1 and ws[0] % c == 0
    return tag(_to_last(y, nd, last), _node(nd, False, depthwise, bias), x)


def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_format="NCL", name=None):
    return _conv("conv1d", 1, x, weight, bias, stride, padding, dilation, groups, data_format)


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_format="NCHW", name=None):
    return _conv("conv2d", 2, x, weight, bias, stride, padding, dilation, groups, data_format)


def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_format="NCDHW", name=None):
    return _conv("conv3d", 3, x, weight, bias, stride, padding, dilation, groups, data_format)


def _conv_t(op, nd, x, weight, bias, stride, padding, output_padding, groups, dilation,
            output_size, data_format):
    last, xs, ws, c = _operands(op, nd, x, weight, data_format)
    if c != ws[0]:
        raise ValueError(f"The number of input channels should be equal to filter channels. "
                         f"But received: the input's channels is {c}, the shape of input is "
                         f"{list(xs)}, the filter's channels is {ws[0]}, the shape of filter "
                         f"is {list(ws)}.")
    x = _to_first(x, nd, last)
    L = x.array.shape[2:]
    K = ws[2:]
    st, dil = NC.ntuple(stride, nd), NC.ntuple(dilation, nd)
    pads = _pairs(padding, nd, last)
    if pads == "VALID":
        pads = ((0, 0),) * nd
    if pads == "SAME":  # (paddle pads as a 'same' conv of the input would)
        pads = NC.same_pads(L, K, st, dil)
    op_ = NC.ntuple(output_padding, nd)
    if output_size is not None:
        low = NC.transpose_size(L, K, st, pads, dil, (0,) * nd)
        op_ = tuple(int(o) - lo for o, lo in zip(NC.ntuple(output_size, nd), low))
    y = NC.conv_transpose(x, weight, bias, st, pads, op_, groups, dil)
    depthwise = nd == 2 and c == groups != 1 and ws[1] == 1
    return tag(_to_last(y, nd, last), _node(nd, True, depthwise, bias), x)


def conv1d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCL", name=None):
    return _conv_t("conv1d_transpose", 1, x, weight, bias, stride, padding, output_padding,
                   groups, dilation, output_size, data_format)


def conv2d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCHW", name=None):
    return _conv_t("conv2d_transpose", 2, x, weight, bias, stride, padding, output_padding,
                   groups, dilation, output_size, data_format)


def conv3d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCDHW", name=None):
    return _conv_t("conv3d_transpose", 3, x, weight, bias, stride, padding, output_padding,
                   groups, dilation, output_size, data_format)


def _fold_pads(paddings):
    """unfold/fold paddings: an int, [ph, pw], or [top, left, bottom, right]."""
    p = NC.ntuple(paddings, 2)
    if len(p) == 4:
        return ((p[0], p[2]), (p[1], p[3]))
    return ((p[0], p[0]), (p[1], p[1]))


def unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    if x.array.ndim != 4:
        raise ValueError("input should be the format of [N, C, H, W]")
    return NC.unfold_nd(x, NC.ntuple(kernel_sizes, 2), dilations, _fold_pads(paddings),
                        strides)


def fold(x, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    if x.array.ndim != 3:
        raise ValueError("input should be the format of [N, C, L]")
    return NC.fold_nd(x, NC.ntuple(output_sizes, 2), NC.ntuple(kernel_sizes, 2), dilations,
                      _fold_pads(paddings), strides)


# ---------------------------------------------------------------- layers
class _ConvNd(Layer):
    _nd = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCHW", output_padding=0) -> None:
        super().__init__()
        nd = self._nd
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError("padding_mode must be one of {'zeros', 'reflect', 'replicate', "
                             f"'circular'}}, but got padding_mode='{padding_mode}'")
        if padding_mode != "zeros" and not isinstance(padding, int):
            raise TypeError("when padding_mode in ['reflect', 'replicate', 'circular'], type "
                            "of padding must be int")
        valid = {"NHWC", "NCHW", "NDHWC", "NCDHW", "NLC", "NCL"}
        if data_format not in valid:
            raise ValueError(f"data_format must be one of {valid}, but got "
                             f"data_format='{data_format}'")
        self._param_attr = weight_attr
        self._bias_attr = bias_attr
        self._groups = groups
        self._in_channels = in_channels
        self._out_channels = out_channels
        self._data_format = data_format
        self._stride = list(NC.ntuple(stride, nd))
        self._dilation = list(NC.ntuple(dilation, nd))
        self._kernel_size = list(NC.ntuple(kernel_size, nd))
        self._padding = padding
        self._padding_mode = padding_mode
        self.output_padding = output_padding
        if self._transposed:
            shape = [in_channels, out_channels // groups] + self._kernel_size
            init = None
        else:
            if in_channels % groups != 0:
                raise ValueError("in_channels must be divisible by groups.")
            shape = [out_channels, in_channels // groups] + self._kernel_size
            n = in_channels
            for k in self._kernel_size:
                n *= k
            init = Normal(0.0, (2.0 / n) ** 0.5)
        self.weight = self.create_parameter(shape, attr=weight_attr, default_initializer=init)
        self.bias = self.create_parameter([out_channels], attr=bias_attr, is_bias=True)

    def extra_repr(self) -> str:
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * len(self._stride):
            s += f", stride={self._stride}"
        if self._padding != 0:
            s += f", padding={self._padding}"
        if self._padding_mode != "zeros":
            s += f", padding_mode={self._padding_mode}"
        if self.output_padding != 0:
            s += f", output_padding={self.output_padding}"
        if self._dilation != [1] * len(self._dilation):
            s += f", dilation={self._dilation}"
        if self._groups != 1:
            s += f", groups={self._groups}"
        return s + f", data_format={self._data_format}"


class _Conv(_ConvNd):
    _fn = staticmethod(conv2d)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format=None) -> None:
        if data_format is None:
            data_format = _FORMATS[self._nd][0]
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, padding_mode, weight_attr, bias_attr, data_format)

    def forward(self, x):
        padding = self._padding
        if self._padding_mode != "zeros":
            nd = self._nd
            last = _channel_last(self._data_format, nd)
            x = _to_first(x, nd, last)
            x = NC.pad_mode(x, ((padding, padding),) * nd, self._padding_mode)
            y = self._fn(x, self.weight, self.bias, self._stride, 0, self._dilation,
                         self._groups, _FORMATS[nd][0])
            return _to_last(y, nd, last)
        return self._fn(x, self.weight, self.bias, self._stride, padding, self._dilation,
                        self._groups, self._data_format)


Conv1D, Conv2D, Conv3D = per_dimension("Conv{}D", __name__, _Conv, _nd=(1, 2, 3),
                                       _fn=tuple(map(staticmethod, (conv1d, conv2d, conv3d))))


class _ConvTranspose(_ConvNd):
    _transposed = True
    _fn = staticmethod(conv2d_transpose)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, dilation=1, weight_attr=None, bias_attr=None,
                 data_format=None) -> None:
        if data_format is None:
            data_format = _FORMATS[self._nd][0]
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, "zeros", weight_attr, bias_attr, data_format, output_padding)

    def forward(self, x, output_size=None):
        return self._fn(x, self.weight, self.bias, self._stride, self._padding,
                        self.output_padding if output_size is None else 0, self._groups,
                        self._dilation, output_size, self._data_format)


Conv1DTranspose, Conv2DTranspose, Conv3DTranspose = per_dimension(
    "Conv{}DTranspose", __name__, _ConvTranspose, _nd=(1, 2, 3), _fn=tuple(map(staticmethod, (
        conv1d_transpose, conv2d_transpose, conv3d_transpose))))


class Unfold(Layer):
    def __init__(self, kernel_sizes, dilations=1, paddings=0, strides=1, name=None) -> None:
        super().__init__()
        self.kernel_sizes = kernel_sizes
        self.dilations = dilations
        self.paddings = paddings
        self.strides = strides
        self.name = name

    def forward(self, input):  # noqa: A002
        return unfold(input, self.kernel_sizes, self.strides, self.paddings, self.dilations)

    def extra_repr(self) -> str:
        name = f", name={self.name}" if self.name else ""
        return (f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, "
                f"padding={self.paddings}, stride={self.strides}{name}")


class Fold(Layer):
    def __init__(self, output_sizes, kernel_sizes, dilations=1, paddings=0, strides=1,
                 name=None) -> None:
        super().__init__()
        self.output_sizes = output_sizes
        self.kernel_sizes = kernel_sizes
        self.dilations = dilations
        self.paddings = paddings
        self.strides = strides
        self.name = name

    def forward(self, input):  # noqa: A002
        return fold(input, self.output_sizes, self.kernel_sizes, self.strides, self.paddings,
                    self.dilations)

    def extra_repr(self) -> str:
        name = f", name={self.name}" if self.name else ""
        return (f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, "
                f"padding={self.paddings}, stride={self.strides}{name}")
__all__ = ["Conv1D", "Conv1DTranspose", "Conv2D", "Conv2DTranspose", "Conv3D", "Conv3DTranspose",
           "Fold", "Unfold"]
