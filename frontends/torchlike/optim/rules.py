"""SGD, Adam, AdamW, RMSprop, Adagrad: torch's constructors over engine.nn.optim."""
from __future__ import annotations

from janusgrad.nn import optim as NO

from .optimizer import Optimizer


def _check(name: str, value, ok: bool) -> None:
    if not ok:
        raise ValueError(f"Invalid {name}: {value}")


class SGD(Optimizer):
    def __init__(self, params, lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False,
                 foreach=None, differentiable: bool = False, fused=None) -> None:
        _check("learning rate", lr, lr >= 0.0)
        _check("momentum value", momentum, momentum >= 0.0)
        _check("weight_decay value", weight_decay, weight_decay >= 0.0)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov,
                                      maximize=maximize, foreach=foreach,
                                      differentiable=differentiable, fused=fused))

    def _update(self, p, state, g) -> None:
        NO.sgd(p, p.grad, state, g["lr"], g["momentum"], g["dampening"], g["nesterov"],
               g["weight_decay"], g["maximize"])


class Adam(Optimizer):
    _decoupled = False

    def __init__(self, params, lr: float = 1e-3, betas=(0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *, foreach=None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False, fused=None,
                 decoupled_weight_decay: bool | None = None) -> None:
        _check("learning rate", lr, lr >= 0.0)
        _check("epsilon value", eps, eps >= 0.0)
        _check("beta parameter at index 0", betas[0], 0.0 <= betas[0] < 1.0)
        _check("beta parameter at index 1", betas[1], 0.0 <= betas[1] < 1.0)
        _check("weight_decay value", weight_decay, weight_decay >= 0.0)
        if decoupled_weight_decay is None:
            decoupled_weight_decay = self._decoupled
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize, foreach=foreach,
                                      capturable=capturable, differentiable=differentiable,
                                      fused=fused,
                                      decoupled_weight_decay=decoupled_weight_decay))

    def _update(self, p, state, g) -> None:
        NO.adam(p, p.grad, state, g["lr"], g["betas"], g["eps"], g["weight_decay"],
                g["amsgrad"], g["decoupled_weight_decay"], g["maximize"])


class AdamW(Adam):
    _decoupled = True

    def __init__(self, params, lr: float = 1e-3, betas=(0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False,
                 foreach=None, capturable: bool = False, differentiable: bool = False,
                 fused=None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)


class RMSprop(Optimizer):
    def __init__(self, params, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False,
                 capturable: bool = False, foreach=None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        _check("learning rate", lr, lr >= 0.0)
        _check("epsilon value", eps, eps >= 0.0)
        _check("momentum value", momentum, momentum >= 0.0)
        _check("weight_decay value", weight_decay, weight_decay >= 0.0)
        _check("alpha value", alpha, alpha >= 0.0)
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps,
                                      centered=centered, weight_decay=weight_decay,
                                      capturable=capturable, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable))

    def _update(self, p, state, g) -> None:
        NO.rmsprop(p, p.grad, state, g["lr"], g["alpha"], g["eps"], g["weight_decay"],
                   g["momentum"], g["centered"], g["maximize"])


class Adagrad(Optimizer):
    def __init__(self, params, lr: float = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, foreach=None, *,
                 maximize: bool = False, differentiable: bool = False, fused=None) -> None:
        _check("learning rate", lr, lr >= 0.0)
        _check("lr_decay value", lr_decay, lr_decay >= 0.0)
        _check("weight_decay value", weight_decay, weight_decay >= 0.0)
        _check("initial_accumulator_value value", initial_accumulator_value,
               initial_accumulator_value >= 0.0)
        _check("epsilon value", eps, eps >= 0.0)
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps,
                                      weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value,
                                      foreach=foreach, maximize=maximize,
                                      differentiable=differentiable, fused=fused))
        # torch fills the state when the optimiser is made
        for group in self.param_groups:
            for p in group["params"]:
                NO.adagrad_init(p, self.state[p], group["initial_accumulator_value"])

    def _update(self, p, state, g) -> None:
        NO.adagrad(p, p.grad, state, g["lr"], g["lr_decay"], g["weight_decay"],
                   g["initial_accumulator_value"], g["eps"], g["maximize"])


for _cls in (SGD, Adam, AdamW, RMSprop, Adagrad):
    _cls.__module__ = "torch.optim." + _cls.__name__.lower()
