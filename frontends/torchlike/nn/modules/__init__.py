"""torch.nn.modules."""
from __future__ import annotations

from .container import ModuleList, Sequential
from .layers import (
    GELU,
    Dropout,
    Flatten,
    Identity,
    LazyLinear,
    LeakyReLU,
    Linear,
    LogSoftmax,
    ReLU,
    Sigmoid,
    Softmax,
    Softplus,
    Tanh,
)
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .module import Module

# isort: split
# activations and losses family
from . import activation_ext as _acts
from . import loss_ext as _losses
from .activation_ext import *  # noqa: F403
from .loss_ext import *  # noqa: F403

__all__ = [
    "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "Flatten", "GELU",
    "HuberLoss", "Identity", "L1Loss", "LazyLinear", "LeakyReLU", "Linear", "LogSoftmax",
    "MSELoss", "Module", "ModuleList", "NLLLoss", "ReLU", "Sequential", "Sigmoid",
    "SmoothL1Loss", "Softmax", "Softplus", "Tanh",
]
__all__ += [*_acts.__all__, *_losses.__all__]
