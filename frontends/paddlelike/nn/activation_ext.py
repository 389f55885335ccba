"""paddle.nn's PReLU and Bilinear (layers holding parameters) and PairwiseDistance (its repr
names what differs from the defaults); the thin activations are rows (thin.py)."""
from __future__ import annotations

from .._surface import get_default_dtype
from . import functional as F
from .initializer import Constant
from .layer import Layer


def _name(layer, first=False) -> str:
    if not layer._name:
        return ""
    return f"name={layer._name}" if first else f", name={layer._name}"


class PReLU(Layer):
    """One learnt slope per channel (``num_parameters``) kept as ``_weight``, filled with
    ``init``; the channel axis follows ``data_format``."""

    def __init__(self, num_parameters=1, init=0.25, weight_attr=None, data_format="NCHW",
                 name=None) -> None:
        super().__init__()
        self._num_parameters = num_parameters
        self._init = init
        self._weight_attr = weight_attr
        self._name = name
        self._data_format = data_format
        self._dtype = get_default_dtype()
        self._weight = self.create_parameter([num_parameters], attr=weight_attr,
                                             dtype=self._dtype, is_bias=False,
                                             default_initializer=Constant(init))

    def forward(self, x):
        return F.prelu(x, self._weight, data_format=self._data_format)

    def extra_repr(self) -> str:
        return (f"num_parameters={self._num_parameters}, data_format={self._data_format}, "
                f"init={self._init}, dtype={self._dtype}{_name(self)}")


class PairwiseDistance(Layer):
    def __init__(self, p=2.0, epsilon=1e-6, keepdim=False, name=None) -> None:
        super().__init__()
        self.p = p
        self.epsilon = epsilon
        self.keepdim = keepdim
        self.name = name

    def forward(self, x, y):
        return F.pairwise_distance(x, y, self.p, self.epsilon, self.keepdim)

    def extra_repr(self) -> str:
        s = f"p={self.p}"
        if self.epsilon != 1e-6:
            s += f", epsilon={self.epsilon}"
        if self.keepdim is not False:
            s += f", keepdim={self.keepdim}"
        if self.name is not None:
            s += f", name={self.name}"
        return s


class Bilinear(Layer):
    """out_k = x1 W_k x2 + b_k: weight [out, in1, in2], bias [1, out]."""

    def __init__(self, in1_features, in2_features, out_features, weight_attr=None,
                 bias_attr=None, name=None) -> None:
        super().__init__()
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self._name = name
        self._in1_features = in1_features
        self._in2_features = in2_features
        self._out_features = out_features
        self._dtype = get_default_dtype()
        self.weight = self.create_parameter([out_features, in1_features, in2_features],
                                            attr=weight_attr, dtype=self._dtype,
                                            is_bias=False)
        self.bias = self.create_parameter([1, out_features], attr=bias_attr,
                                          dtype=self._dtype, is_bias=True)

    def forward(self, x1, x2):
        return F.bilinear(x1, x2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self._in1_features}, in2_features={self._in2_features}, "
                f"out_features={self._out_features}, dtype={self._dtype}{_name(self)}")


PReLU.__module__ = "paddle.nn.layer.activation"
PairwiseDistance.__module__ = "paddle.nn.layer.distance"
Bilinear.__module__ = "paddle.nn.layer.common"
__all__ = ["Bilinear", "PairwiseDistance", "PReLU"]
