"""torch.nn.modules."""
from __future__ import annotations

from .container import ModuleList, Sequential
from .conv import (  # (conv part)
    Conv1d,
    Conv2d,
    Conv3d,
    ConvTranspose1d,
    ConvTranspose2d,
    ConvTranspose3d,
    Fold,
    LazyConv1d,
    LazyConv2d,
    LazyConv3d,
    Unfold,
)
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

__all__ = [
    "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "Flatten", "GELU",
    "HuberLoss", "Identity", "L1Loss", "LazyLinear", "LeakyReLU", "Linear", "LogSoftmax",
    "MSELoss", "Module", "ModuleList", "NLLLoss", "ReLU", "Sequential", "Sigmoid",
    "SmoothL1Loss", "Softmax", "Softplus", "Tanh",
]
__all__ += ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
            "ConvTranspose3d", "Fold", "LazyConv1d", "LazyConv2d", "LazyConv3d", "Unfold"]
