"""Conv1d/2d/3d, ConvTranspose1d/2d/3d, LazyConv1d/2d/3d, Unfold, Fold: torch's attributes,
default initialisation, printed form and checks (the math is janusgrad.nn.conv)."""
from __future__ import annotations

import math

from janusgrad.nn import conv as NC
from janusgrad.nn.dims import per_dimension

from ... import _conv as CV
from ... import _creation
from .. import init
from ..parameter import Parameter
from .module import Module

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


class _ConvNd(Module):
    _nd = 2
    _transposed = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None, output_padding=0) -> None:
        super().__init__()
        nd = self._nd
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        kernel_size, stride = NC.ntuple(kernel_size, nd), NC.ntuple(stride, nd)
        dilation = NC.ntuple(dilation, nd)
        if isinstance(padding, str):
            if padding not in ("valid", "same"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 "{'valid', 'same'}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        else:
            padding = NC.ntuple(padding, nd)
        if padding_mode not in _PADDING_MODES:
            raise ValueError("padding_mode must be one of {'circular', 'replicate', 'reflect', "
                             f"'zeros'}}, but got padding_mode='{padding_mode}'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = self._transposed
        self.output_padding = NC.ntuple(output_padding, nd)
        self.groups = groups
        self.padding_mode = padding_mode
        if isinstance(padding, str):
            pairs = NC.same_pads(kernel_size, kernel_size, (1,) * nd, dilation) \
                if padding == "same" else ((0, 0),) * nd
        else:
            pairs = tuple((p, p) for p in padding)
        self._reversed_padding_repeated_twice = [v for lo, hi in reversed(pairs)
                                                 for v in (lo, hi)]
        if padding == "same":  # torch's split: the odd unit after
            self._reversed_padding_repeated_twice = []
            for d, k in zip(reversed(dilation), reversed(kernel_size)):
                total = d * (k - 1)
                self._reversed_padding_repeated_twice += [total // 2, total - total // 2]
        shape = ((in_channels, out_channels // groups) if self._transposed else
                 (out_channels, in_channels // groups)) + kernel_size
        self.weight = Parameter(_creation.empty(shape, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(_creation.empty(out_channels, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        nd = self._nd
        if self.padding != (0,) * nd:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * nd:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * nd:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class _Conv(_ConvNd):
    _fn = "conv2d"

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, device, dtype)

    def _conv_forward(self, input, weight, bias):  # noqa: A002
        fn = getattr(CV, self._fn)
        if self.padding_mode != "zeros":
            r = self._reversed_padding_repeated_twice
            pairs = [(r[i], r[i + 1]) for i in range(len(r) - 2, -1, -2)]
            nd = self._nd
            if input.array.ndim not in (nd + 1, nd + 2):  # (torch's message, from the conv)
                return fn(input, weight, bias, self.stride, 0, self.dilation, self.groups)
            x = NC.pad_mode(input, pairs, self.padding_mode)
            return fn(x, weight, bias, self.stride, 0, self.dilation, self.groups)
        return fn(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):  # noqa: A002
        return self._conv_forward(input, self.weight, self.bias)


Conv1d, Conv2d, Conv3d = per_dimension("Conv{}d", __name__, _Conv, _nd=(1, 2, 3),
                                       _fn=("conv1d", "conv2d", "conv3d"))


class _ConvTransposeNd(_ConvNd):
    _transposed = True
    _fn = "conv_transpose2d"

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 output_padding=0, groups: int = 1, bias: bool = True, dilation=1,
                 padding_mode: str = "zeros", device=None, dtype=None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for '
                             f"{type(self).__name__}")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, device, dtype, output_padding)

    def _output_padding(self, input, output_size) -> tuple:  # noqa: A002
        if output_size is None:
            return self.output_padding
        nd = self._nd
        output_size = list(output_size)
        if len(output_size) == nd + 2 or (len(output_size) == nd + 1 and
                                          input.array.ndim == nd + 1):
            output_size = output_size[-nd:]
        if len(output_size) != nd:
            raise ValueError(f"ConvTranspose{nd}D: for {input.array.ndim}D input, output_size "
                             f"must have {nd} or {nd + 2} elements (got {len(output_size)})")
        L = input.array.shape[-nd:]
        pads = tuple((p, p) for p in self.padding)
        low = NC.transpose_size(L, self.kernel_size, self.stride, pads, self.dilation,
                                (0,) * nd)
        out = []
        for size, lo, s in zip(output_size, low, self.stride):
            hi = lo + s - 1
            if size < lo or size > hi:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes "
                                 f"range from {list(low)} to "
                                 f"{[a + s - 1 for a, s in zip(low, self.stride)]} (for an "
                                 f"input of {list(L)})")
            out.append(size - lo)
        return tuple(out)

    def forward(self, input, output_size=None):  # noqa: A002
        op = self._output_padding(input, output_size)
        return getattr(CV, self._fn)(input, self.weight, self.bias, self.stride, self.padding,
                                     op, self.groups, self.dilation)


ConvTranspose1d, ConvTranspose2d, ConvTranspose3d = per_dimension(
    "ConvTranspose{}d", __name__, _ConvTransposeNd, _nd=(1, 2, 3),
    _fn=("conv_transpose1d", "conv_transpose2d", "conv_transpose3d"))


class _LazyConv:
    """in_channels taken from the first input; the module then becomes its eager class."""

    _eager: type

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None,
                 dtype=None) -> None:
        eager = self._eager
        eager.__init__(self, groups, out_channels, kernel_size, stride, padding, dilation,
                       groups, bias, padding_mode, device, dtype)
        self._lazy_args = (bias, device, dtype)
        self.in_channels = 0
        self.register_parameter("weight", None)
        self.register_parameter("bias", None)

    # the parameters read as torch's placeholders until the first call
    @property
    def weight(self):
        w = self._parameters.get("weight")
        if w is None:
            if "weight" not in self._parameters:
                raise AttributeError("weight")
            return _UNINIT
        return w

    @property
    def bias(self):
        b = self._parameters.get("bias")
        if b is None:
            if "bias" not in self._parameters:
                raise AttributeError("bias")
            return _UNINIT if self.__dict__.get("_lazy_args", (False,))[0] else None
        return b

    def reset_parameters(self) -> None:
        if self._parameters.get("weight") is not None:
            self._eager.reset_parameters(self)

    def forward(self, input):  # noqa: A002
        eager = self._eager
        if self._parameters["weight"] is None:
            bias, device, dtype = self._lazy_args
            nd = self._nd
            c = input.array.shape[0 if input.array.ndim == nd + 1 else 1]
            eager.__init__(self, c, self.out_channels, self.kernel_size, self.stride,
                                 self.padding, self.dilation, self.groups, bias,
                                 self.padding_mode, device, dtype)
            del self._lazy_args
            self.__class__ = eager
        return eager.forward(self, input)


class UninitializedParameter:
    """torch's placeholder for a lazy module's parameter (no shape or data yet)."""

    requires_grad = True

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    def __setattr__(self, name, value):
        raise ValueError("Can't set attributes of an UninitializedParameter")


_UNINIT = UninitializedParameter()


_EAGER = (Conv1d, Conv2d, Conv3d)
LazyConv1d, LazyConv2d, LazyConv3d = per_dimension("LazyConv{}d", __name__, _LazyConv, _EAGER,
                                                   _eager=_EAGER)


class Unfold(Module):
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):  # noqa: A002
        return CV.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Fold(Module):
    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):  # noqa: A002
        return CV.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                       self.stride)

    def extra_repr(self) -> str:
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
                f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}")


# the modules torch defines them in (where its pickles name them)
for _cls in (Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d,
             LazyConv1d, LazyConv2d, LazyConv3d):
    _cls.__module__ = "torch.nn.modules.conv"
Fold.__module__ = Unfold.__module__ = "torch.nn.modules.fold"
__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
           "Fold", "LazyConv1d", "LazyConv2d", "LazyConv3d", "Unfold"]
