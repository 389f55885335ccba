"""The activation, distance and Bilinear layers of paddle.nn (activations and losses family):
paddle's constructors and reprs over paddlelike.nn.functional."""
from __future__ import annotations

from .._surface import get_default_dtype
from . import functional as F
from .initializer import Constant
from .layer import Layer
from .layers import _Activation


class _Plain(_Activation):
    """An activation without options: ``name=...`` alone in its repr."""

    _fn = None

    def forward(self, x):
        return self._fn(x)


def _plain(name: str, fn) -> type:
    return type(name, (_Plain,), {"_fn": staticmethod(fn), "__qualname__": name})


Hardswish = _plain("Hardswish", F.hardswish)
ReLU6 = _plain("ReLU6", F.relu6)
Swish = _plain("Swish", F.swish)
Mish = _plain("Mish", F.mish)
Softsign = _plain("Softsign", F.softsign)
Tanhshrink = _plain("Tanhshrink", F.tanhshrink)
LogSigmoid = _plain("LogSigmoid", F.log_sigmoid)


class Hardsigmoid(_Activation):
    def __init__(self, name=None) -> None:
        super().__init__(name)
        self.name = name

    def forward(self, x):
        return F.hardsigmoid(x)


def _name(layer, first=False) -> str:
    if not layer._name:
        return ""
    return f"name={layer._name}" if first else f", name={layer._name}"


class Silu(Layer):
    def __init__(self, inplace=False, name=None) -> None:
        super().__init__()
        self._inplace = inplace
        self._name = name

    def forward(self, x):
        return F.silu(x, self._inplace)

    def extra_repr(self) -> str:
        return f"inplace={self._inplace}{_name(self)}"


class ELU(Layer):
    _fn = F.elu

    def __init__(self, alpha=1.0, name=None) -> None:
        super().__init__()
        self._alpha = alpha
        self._name = name

    def forward(self, x):
        return type(self)._fn(x, self._alpha)

    def extra_repr(self) -> str:
        return f"alpha={self._alpha}{_name(self)}"


class CELU(ELU):
    _fn = F.celu


class SELU(Layer):
    def __init__(self, scale=1.0507009873554804934193349852946,
                 alpha=1.6732632423543772848170429916717, name=None) -> None:
        super().__init__()
        self._scale = scale
        self._alpha = alpha
        self._name = name

    def forward(self, x):
        return F.selu(x, self._scale, self._alpha)

    def extra_repr(self) -> str:
        return f"scale={self._scale:.16f}, alpha={self._alpha:.16f}{_name(self)}"


class GLU(Layer):
    def __init__(self, axis=-1, name=None) -> None:
        super().__init__()
        self._axis = axis
        self._name = name

    def forward(self, x):
        return F.glu(x, self._axis)

    def extra_repr(self) -> str:
        return f"axis={self._axis}{_name(self)}"


class Hardtanh(Layer):
    def __init__(self, min=-1.0, max=1.0, name=None) -> None:  # noqa: A002
        super().__init__()
        self._min = min
        self._max = max
        self._name = name

    def forward(self, x):
        return F.hardtanh(x, self._min, self._max)

    def extra_repr(self) -> str:
        return f"min={self._min}, max={self._max}{_name(self)}"


class Hardshrink(Layer):
    _fn = F.hardshrink

    def __init__(self, threshold=0.5, name=None) -> None:
        super().__init__()
        self._threshold = threshold
        self._name = name

    def forward(self, x):
        return type(self)._fn(x, self._threshold)

    def extra_repr(self) -> str:
        return f"threshold={self._threshold}{_name(self)}"


class Softshrink(Hardshrink):
    _fn = F.softshrink


class ThresholdedReLU(Layer):
    def __init__(self, threshold=1.0, value=0.0, name=None) -> None:
        super().__init__()
        self._threshold = threshold
        self._value = value
        self._name = name

    def forward(self, x):
        return F.thresholded_relu(x, self._threshold, self._value)

    def extra_repr(self) -> str:
        return f"threshold={self._threshold}, value={self._value}{_name(self)}"


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


class RReLU(Layer):
    def __init__(self, lower=1.0 / 8.0, upper=1.0 / 3.0, name=None) -> None:
        super().__init__()
        self._lower = lower
        self._upper = upper
        self._name = name
        self._dtype = get_default_dtype()

    def forward(self, x):
        return F.rrelu(x, self._lower, self._upper, self.training)

    def extra_repr(self) -> str:
        return (f"lower={self._lower}, upper={self._upper}, training={self.training}, "
                f"dtype={self._dtype}{_name(self)}")


class CosineSimilarity(Layer):
    def __init__(self, axis=1, eps=1e-8) -> None:
        super().__init__()
        self._axis = axis
        self._eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self._axis, self._eps)

    def extra_repr(self) -> str:
        return f"axis={self._axis}, eps={self._eps}"


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


for _cls in (Hardswish, ReLU6, Swish, Mish, Softsign, Tanhshrink, LogSigmoid, Hardsigmoid,
             Silu, ELU, CELU, SELU, GLU, Hardtanh, Hardshrink, Softshrink, ThresholdedReLU,
             PReLU, RReLU):
    _cls.__module__ = "paddle.nn.layer.activation"
CosineSimilarity.__module__ = "paddle.nn.layer.common"
PairwiseDistance.__module__ = "paddle.nn.layer.distance"
Bilinear.__module__ = "paddle.nn.layer.common"

__all__ = [
    "CELU", "ELU", "GLU", "SELU", "Bilinear", "CosineSimilarity", "Hardshrink", "Hardsigmoid",
    "Hardswish", "Hardtanh", "LogSigmoid", "Mish", "PairwiseDistance", "PReLU", "ReLU6",
    "RReLU", "Silu", "Softshrink", "Softsign", "Swish", "Tanhshrink", "ThresholdedReLU",
]
