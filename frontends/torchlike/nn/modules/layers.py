"""Linear and LazyLinear (parameters with torch's initialisation)."""
from __future__ import annotations

import math

from ... import _creation
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


class Linear(Module):
    """y = x W^T + b with W [out_features, in_features], torch's default initialisation."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(_creation.empty((out_features, in_features), dtype=dtype,
                                                device=device))
        if bias:
            self.bias = Parameter(_creation.empty(out_features, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_features
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):  # noqa: A002
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class LazyLinear(Linear):
    """Linear whose in_features is taken from the first input."""

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        Module.__init__(self)
        self.in_features = 0
        self.out_features = out_features
        self._lazy_bias = bias
        self._lazy_dtype = dtype
        self.register_parameter("weight", None)
        self.register_parameter("bias", None)

    def forward(self, input):  # noqa: A002
        if self.weight is None:
            Linear.__init__(self, input.array.shape[-1], self.out_features, self._lazy_bias,
                            dtype=self._lazy_dtype)
            self.__class__ = Linear
        return F.linear(input, self.weight, self.bias)


for _cls in (Linear, LazyLinear):
    _cls.__module__ = "torch.nn.modules.linear"
__all__ = ["LazyLinear", "Linear"]
