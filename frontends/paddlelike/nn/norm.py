"""paddle.nn's BatchNorm, BatchNorm1D/2D/3D, InstanceNorm1D/2D/3D, GroupNorm and Embedding:
paddle's parameter names (the running statistics are the non-trainable parameters ``_mean``
and ``_variance``), initialisers, state_dict keys and reprs over engine.nn.norm."""
from __future__ import annotations

from janusgrad.nn.dims import per_dimension

from . import functional as F
from . import initializer as I
from .layer import Layer
from .parameter import ParamAttr


def _stat(layer, n: int, value: float, dtype):
    p = layer.create_parameter([n], attr=ParamAttr(initializer=I.Constant(value),
                                                   trainable=False), dtype=dtype)
    p.stop_gradient = True
    return p


# ---------------------------------------------------------------- batch norm
class _BatchNormBase(Layer):
    _default_format = "NCHW"
    _formats: tuple = ()
    _ndims: tuple = ()

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05,
                 weight_attr=None, bias_attr=None, data_format=None, use_global_stats=None,
                 name=None) -> None:
        super().__init__()
        self._num_features = num_features
        self._momentum = momentum
        self._epsilon = epsilon
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self._use_global_stats = use_global_stats
        self._name = name
        self._data_format = data_format or self._default_format
        dtype = self._dtype
        self.weight = (None if weight_attr is False else self.create_parameter(
            [num_features], attr=weight_attr, dtype=dtype,
            default_initializer=I.Constant(1.0)))
        self.bias = (None if bias_attr is False else self.create_parameter(
            [num_features], attr=bias_attr, dtype=dtype, is_bias=True))
        self._mean = _stat(self, num_features, 0.0, dtype)
        self._variance = _stat(self, num_features, 1.0, dtype)

    def _check_input(self, x) -> None:
        nd = len(x.shape)
        if self._ndims and nd not in self._ndims:
            want = " or ".join(f"{d}D" for d in self._ndims)
            raise ValueError(f"expected {want} input (got {nd}D input)")

    def forward(self, x):
        self._check_input(x)
        return F.batch_norm(x, self._mean, self._variance, self.weight, self.bias,
                            self.training, self._momentum, self._epsilon,
                            self._data_format, self._use_global_stats)

    def extra_repr(self) -> str:
        s = (f"num_features={self._num_features}, momentum={self._momentum}, "
             f"epsilon={self._epsilon}")
        if self._data_format != "NCHW":
            s += f", data_format={self._data_format}"
        if self._name is not None:
            s += f", name={self._name}"
        return s


class BatchNorm1D(_BatchNormBase):
    _default_format = "NCL"
    _ndims = (2, 3)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCL", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class BatchNorm2D(_BatchNormBase):
    _ndims = (4,)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class BatchNorm3D(_BatchNormBase):
    _default_format = "NCDHW"
    _ndims = (5,)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCDHW", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class BatchNorm(_BatchNormBase):
    """paddle's legacy BatchNorm (``num_channels``, ``act``, ``is_test``, ``param_attr``)."""

    def __init__(self, num_channels, act=None, is_test=False, momentum=0.9, epsilon=1e-05,
                 param_attr=None, bias_attr=None, dtype="float32", data_layout="NCHW",
                 in_place=False, moving_mean_name=None, moving_variance_name=None,
                 do_model_average_for_mean_and_var=True, use_global_stats=False,
                 trainable_statistics=False):
        super().__init__(num_channels, momentum, epsilon, param_attr, bias_attr, data_layout,
                         use_global_stats or None)
        self._act = act
        self._is_test = is_test

    def forward(self, x):
        out = F.batch_norm(x, self._mean, self._variance, self.weight, self.bias,
                           self.training and not self._is_test, self._momentum,
                           self._epsilon, self._data_format, self._use_global_stats)
        if self._act is not None:
            out = getattr(F, self._act)(out)
        return out

    def extra_repr(self) -> str:
        return ""


# ---------------------------------------------------------------- instance and group norm
class _InstanceNormBase(Layer):
    _default_format = "NCHW"

    def __init__(self, num_features: int, epsilon: float = 1e-05, momentum: float = 0.9,
                 weight_attr=None, bias_attr=None, data_format=None, name=None) -> None:
        super().__init__()
        self._num_features = num_features
        self._epsilon = epsilon
        self._momentum = momentum
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self._data_format = data_format or self._default_format
        if weight_attr is not False and bias_attr is not False:
            self.scale = self.create_parameter([num_features], attr=weight_attr,
                                               dtype=self._dtype,
                                               default_initializer=I.Constant(1.0))
            self.bias = self.create_parameter([num_features], attr=bias_attr,
                                              dtype=self._dtype, is_bias=True)
        else:
            self.scale = None
            self.bias = None

    def forward(self, input):  # noqa: A002
        return F.instance_norm(input, weight=self.scale, bias=self.bias, eps=self._epsilon)

    def extra_repr(self) -> str:
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


InstanceNorm1D, InstanceNorm2D, InstanceNorm3D = per_dimension(
    "InstanceNorm{}D", "paddle.nn.layer.norm", _InstanceNormBase,
    _default_format=("NCL", "NCHW", "NCDHW"))


class GroupNorm(Layer):
    def __init__(self, num_groups: int, num_channels: int, epsilon: float = 1e-05, *,
                 affine: bool = True, device=None, dtype=None, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None) -> None:
        super().__init__()
        self._num_groups = num_groups
        self._num_channels = num_channels
        self._epsilon = epsilon
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self._data_format = data_format
        dt = dtype or self._dtype
        if not affine or weight_attr is False:
            self.weight = None
        else:
            self.weight = self.create_parameter([num_channels], attr=weight_attr, dtype=dt,
                                                default_initializer=I.Constant(1.0))
        if not affine or bias_attr is False:
            self.bias = None
        else:
            self.bias = self.create_parameter([num_channels], attr=bias_attr, dtype=dt,
                                              is_bias=True)

    def forward(self, input):  # noqa: A002
        return F.group_norm(input, self._num_groups, self._epsilon, self.weight, self.bias,
                            self._data_format)

    def extra_repr(self) -> str:
        return (f"num_groups={self._num_groups}, num_channels={self._num_channels}, "
                f"epsilon={self._epsilon}")


# ---------------------------------------------------------------- embedding
class Embedding(Layer):
    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx=None,
                 max_norm=None, norm_type: float = 2.0, *, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight=None, _freeze: bool = False, device=None,
                 dtype=None, weight_attr=None, name=None) -> None:
        super().__init__()
        if num_embeddings <= 0:
            raise ValueError("num_embeddings must be gather than 0")
        if embedding_dim <= 0:
            raise ValueError("embedding_dim must be gather than 0")
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"padding_idx must be within [-{num_embeddings}, "
                             f"{num_embeddings})")
        self._num_embeddings = num_embeddings
        self._embedding_dim = embedding_dim
        self._padding_idx = padding_idx
        self._max_norm = max_norm
        self._norm_type = norm_type
        self._scale_grad_by_freq = scale_grad_by_freq
        self._sparse = sparse
        self._weight_attr = weight_attr
        self._name = name
        self.weight = self.create_parameter([num_embeddings, embedding_dim],
                                            attr=weight_attr, dtype=dtype or self._dtype)
        if _weight is not None:
            from janusgrad.core.params import assign_
            assign_(self.weight, _weight)
        elif padding_idx is not None:
            from janusgrad.core.params import assign_
            a = self.weight.array.copy()
            a[padding_idx] = 0
            assign_(self.weight, a)
        if _freeze:
            self.weight.stop_gradient = True

    def forward(self, x):
        return F.embedding(x, self.weight, self._padding_idx, self._max_norm,
                           self._norm_type, self._sparse, self._scale_grad_by_freq)

    def extra_repr(self) -> str:
        s = f"{self._num_embeddings}, {self._embedding_dim}"
        if self._padding_idx is not None:
            s += f", padding_idx={self._padding_idx}"
        s += f", sparse={self._sparse}, scale_grad_by_freq={self._scale_grad_by_freq}"
        if self._name is not None:
            s += f", name={self._name}"
        return s


for _cls in (BatchNorm, BatchNorm1D, BatchNorm2D, BatchNorm3D, GroupNorm):
    _cls.__module__ = "paddle.nn.layer.norm"
Embedding.__module__ = "paddle.nn.layer.common"
__all__ = ["BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "Embedding", "GroupNorm",
           "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D"]
