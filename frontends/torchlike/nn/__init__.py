"""torch.nn: modules, parameters, functional, init and utils."""
from __future__ import annotations

from janusgrad.dropin import module_getattr

from . import functional, init, modules, utils
from .modules import (
    GELU,
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    Dropout,
    Flatten,
    HuberLoss,
    Identity,
    L1Loss,
    LazyLinear,
    LeakyReLU,
    Linear,
    LogSoftmax,
    Module,
    ModuleList,
    MSELoss,
    NLLLoss,
    ReLU,
    Sequential,
    Sigmoid,
    SmoothL1Loss,
    Softmax,
    Softplus,
    Tanh,
)
from .parameter import Buffer, Parameter

# isort: split
# activations and losses family
from .modules import activation_ext as _acts
from .modules import loss_ext as _losses
from .modules.activation_ext import *  # noqa: F403
from .modules.loss_ext import *  # noqa: F403

__all__ = [
    "BCELoss", "BCEWithLogitsLoss", "Buffer", "CrossEntropyLoss", "Dropout", "Flatten", "GELU",
    "HuberLoss", "Identity", "L1Loss", "LazyLinear", "LeakyReLU", "Linear", "LogSoftmax",
    "MSELoss", "Module", "ModuleList", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid",
    "SmoothL1Loss", "Softmax", "Softplus", "Tanh", "functional", "init", "modules", "utils",
]
__all__ += [*_acts.__all__, *_losses.__all__]
__getattr__ = module_getattr("torchlike", "torch.nn")
