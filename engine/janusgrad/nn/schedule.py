"""Learning-rate schedules.

Closed forms (``*_closed``) give the rate at a step from the base rate; the
chained forms give the next rate from the current one, as torch's schedulers
compute it (so the float rounding agrees with torch step by step).
"""
from __future__ import annotations

import math


def step_lr(base: float, step: int, step_size: int, gamma: float) -> float:
    return base * gamma ** (step // step_size)


def step_lr_chained(lr: float, step: int, step_size: int, gamma: float) -> float:
    """The rate at ``step`` given the rate at ``step - 1``."""
    if step == 0 or step % step_size != 0:
        return lr
    return lr * gamma


def exponential_lr(base: float, step: int, gamma: float) -> float:
    return base * gamma ** step


def exponential_lr_chained(lr: float, step: int, gamma: float) -> float:
    return lr if step == 0 else lr * gamma


def cosine_annealing(base: float, step: int, t_max: int, eta_min: float = 0.0) -> float:
    return eta_min + (base - eta_min) * (1 + math.cos(math.pi * step / t_max)) / 2


def cosine_annealing_chained(lr: float, base: float, step: int, t_max: int,
                             eta_min: float = 0.0) -> float:
    """torch.optim.lr_scheduler.CosineAnnealingLR.get_lr (recursive form)."""
    if step == 0:
        return lr
    if (step - 1 - t_max) % (2 * t_max) == 0:
        return lr + (base - eta_min) * (1 - math.cos(math.pi / t_max)) / 2
    return ((1 + math.cos(math.pi * step / t_max))
            / (1 + math.cos(math.pi * (step - 1) / t_max)) * (lr - eta_min) + eta_min)
