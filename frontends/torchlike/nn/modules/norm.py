"""torch.nn's BatchNorm1d/2d/3d (and the lazy form), InstanceNorm1d/2d/3d, GroupNorm and
Embedding: torch's parameters, buffers, state_dict keys, checks and extra_repr over
engine.nn.norm."""
from __future__ import annotations

import warnings

from janusgrad.nn.dims import per_dimension

from ... import _creation, _dtypes
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


def _affine_parameters(module, n: int, affine: bool, bias: bool, device, dtype) -> None:
    """``weight`` and ``bias`` of n entries (None where ``affine``/``bias`` say so)."""
    module.register_parameter("weight", Parameter(_creation.empty(
        n, dtype=dtype, device=device)) if affine else None)
    module.register_parameter("bias", Parameter(_creation.empty(
        n, dtype=dtype, device=device)) if affine and bias else None)


def _reset_affine(module) -> None:
    if module.weight is not None:
        init.ones_(module.weight)
    if module.bias is not None:
        init.zeros_(module.bias)


# ---------------------------------------------------------------- batch and instance norm
_BATCHNORM = "torch.nn.modules.batchnorm"


class _NormBase(Module):
    _version = 2

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device=None,
                 dtype=None, bias: bool = True) -> None:
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        _affine_parameters(self, num_features, affine, bias, device, dtype)
        if track_running_stats:
            self.register_buffer("running_mean", _creation.zeros(num_features, dtype=dtype,
                                                                 device=device))
            self.register_buffer("running_var", _creation.ones(num_features, dtype=dtype,
                                                               device=device))
            self.register_buffer("num_batches_tracked",
                                 _creation.tensor(0, dtype=_dtypes.int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            init.zeros_(self.running_mean)
            init.ones_(self.running_var)
            init.zeros_(self.num_batches_tracked)

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        _reset_affine(self)

    def _check_input_dim(self, input):  # noqa: A002
        raise NotImplementedError

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class _BatchNorm(_NormBase):
    def forward(self, input):  # noqa: A002
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            from janusgrad.core.params import assign_
            assign_(self.num_batches_tracked, self.num_batches_tracked.array + 1)
            if self.momentum is None:  # a cumulative moving average
                factor = 1.0 / float(self.num_batches_tracked.array)
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        track = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if track else None,
                            self.running_var if track else None, self.weight, self.bias,
                            use_batch, factor, self.eps)


def _dim_check(expected: tuple, text: str):
    def check(self, input):  # noqa: A002
        if input.dim() not in expected:
            raise ValueError(f"expected {text} input (got {input.dim()}D input)")
    return check


_BATCH_CHECKS = (_dim_check((2, 3), "2D or 3D"), _dim_check((4,), "4D"), _dim_check((5,), "5D"))
BatchNorm1d, BatchNorm2d, BatchNorm3d = per_dimension(
    "BatchNorm{}d", _BATCHNORM, _BatchNorm, _check_input_dim=_BATCH_CHECKS)


class _LazyBatchNorm(_BatchNorm):
    """num_features (and the parameters' and buffers' shapes) from the first input."""

    _full: type

    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device=None, dtype=None) -> None:
        _NormBase.__init__(self, 0, eps, momentum, affine, track_running_stats, device, dtype)
        self._lazy = (device, dtype)

    def forward(self, input):  # noqa: A002
        full = type(self)._full
        if self.num_features == 0:
            device, dtype = self._lazy
            del self._lazy
            _NormBase.__init__(self, input.shape[1], self.eps, self.momentum, self.affine,
                               self.track_running_stats, device, dtype)
            self.__class__ = full
        return full.forward(self, input)


LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d = per_dimension(
    "LazyBatchNorm{}d", _BATCHNORM, _LazyBatchNorm, _full=(BatchNorm1d, BatchNorm2d, BatchNorm3d),
    _check_input_dim=_BATCH_CHECKS)


class _InstanceNorm(_NormBase):
    _no_batch = 2

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device=None,
                 dtype=None) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype)

    def forward(self, input):  # noqa: A002
        self._check_input_dim(input)
        c = input.shape[-self._no_batch]
        if c != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={input.dim() - self._no_batch}"
                                 f" to match num_features ({self.num_features}), but got: "
                                 f"{c}.")
            warnings.warn(f"input's size at dim={input.dim() - self._no_batch} does not match "
                          "num_features. You can silence this warning by not passing in "
                          "num_features, which is not used because affine=False", stacklevel=2)
        unbatched = input.dim() == self._no_batch
        if unbatched:
            input = input.unsqueeze(0)  # noqa: A001
        out = F.instance_norm(input, self.running_mean, self.running_var, self.weight,
                              self.bias, self.training or not self.track_running_stats,
                              self.momentum if self.momentum is not None else 0.1, self.eps)
        return out.squeeze(0) if unbatched else out


InstanceNorm1d, InstanceNorm2d, InstanceNorm3d = per_dimension(
    "InstanceNorm{}d", "torch.nn.modules.instancenorm", _InstanceNorm, _no_batch=(2, 3, 4),
    _check_input_dim=(_dim_check((2, 3), "2D or 3D"), _dim_check((3, 4), "3D or 4D"),
                      _dim_check((4, 5), "4D or 5D")))


# ---------------------------------------------------------------- group and response norm
class GroupNorm(Module):
    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, device=None, dtype=None, *, bias: bool = True) -> None:
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        _affine_parameters(self, num_channels, affine, bias, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _reset_affine(self)

    def forward(self, input):  # noqa: A002
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
                f"affine={self.affine}, bias={self.bias is not None}")


# ---------------------------------------------------------------- embedding
class Embedding(Module):
    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx=None,
                 max_norm=None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight=None, _freeze: bool = False, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None:
            if padding_idx > 0:
                if padding_idx >= num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
            elif padding_idx < 0:
                if padding_idx < -num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
                padding_idx = num_embeddings + padding_idx
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if _weight is None:
            self.weight = Parameter(_creation.empty((num_embeddings, embedding_dim),
                                                    dtype=dtype, device=device),
                                    requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and "
                                     "embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)
        self.sparse = sparse

    def reset_parameters(self) -> None:
        init.normal_(self.weight)
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self) -> None:
        if self.padding_idx is not None:
            from janusgrad.core.params import assign_
            a = self.weight.array.copy()
            a[self.padding_idx] = 0
            assign_(self.weight, a)

    def forward(self, input):  # noqa: A002
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm,
                           self.norm_type, self.scale_grad_by_freq, self.sparse)

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse is not False:
            s += ", sparse=True"
        return s

    @classmethod
    def from_pretrained(cls, embeddings, freeze: bool = True, padding_idx=None,
                        max_norm=None, norm_type: float = 2.0,
                        scale_grad_by_freq: bool = False, sparse: bool = False):
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings,
                   _freeze=freeze, padding_idx=padding_idx, max_norm=max_norm,
                   norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


for _cls in (_BatchNorm, _NormBase):
    _cls.__module__ = _BATCHNORM
GroupNorm.__module__ = "torch.nn.modules.normalization"
Embedding.__module__ = "torch.nn.modules.sparse"
__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "Embedding", "GroupNorm", "InstanceNorm1d",
           "InstanceNorm2d", "InstanceNorm3d", "LazyBatchNorm1d", "LazyBatchNorm2d",
           "LazyBatchNorm3d"]
