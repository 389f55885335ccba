"""torch.nn.utils: gradient clipping."""
from __future__ import annotations

from janusgrad.core.tensor import Tensor as EngineTensor
from janusgrad.nn import optim as NO


def _params(parameters) -> list:
    if isinstance(parameters, EngineTensor):
        return [parameters]
    return list(parameters)


def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach=None):
    """Scale the gradients in place so their joint norm is at most max_norm; returns the
    total norm before clipping."""
    from ..._tensor import Tensor
    params = _params(parameters)
    norm = NO.clip_grad_norm(params, max_norm, float(norm_type), error_if_nonfinite)
    return Tensor.wrap(norm.array)


def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    for p in _params(parameters):
        if p.grad is not None:
            p.grad.clamp_(-clip_value, clip_value)


clip_grad_norm = clip_grad_norm_

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_"]
