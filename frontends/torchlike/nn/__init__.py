"""torch.nn: modules, parameters, functional, init and utils."""
from __future__ import annotations

from janusgrad.dropin import module_getattr

from . import functional, init, modules, utils
from .modules import (  # the norm part
    GELU,
    AlphaDropout,
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    Dropout,
    Dropout1d,
    Dropout2d,
    Dropout3d,
    Embedding,
    FeatureAlphaDropout,
    Flatten,
    GroupNorm,
    HuberLoss,
    Identity,
    InstanceNorm1d,
    InstanceNorm2d,
    InstanceNorm3d,
    L1Loss,
    LazyBatchNorm1d,
    LazyBatchNorm2d,
    LazyBatchNorm3d,
    LazyLinear,
    LeakyReLU,
    Linear,
    LocalResponseNorm,
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
    Unflatten,
)
from .parameter import Buffer, Parameter

__all__ = [
    "BCELoss", "BCEWithLogitsLoss", "Buffer", "CrossEntropyLoss", "Dropout", "Flatten", "GELU",
    "HuberLoss", "Identity", "L1Loss", "LazyLinear", "LeakyReLU", "Linear", "LogSoftmax",
    "MSELoss", "Module", "ModuleList", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid",
    "SmoothL1Loss", "Softmax", "Softplus", "Tanh", "functional", "init", "modules", "utils",
]
__all__ += [  # the norm part
    "AlphaDropout", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "Dropout1d", "Dropout2d",
    "Dropout3d", "Embedding", "FeatureAlphaDropout", "GroupNorm", "InstanceNorm1d",
    "InstanceNorm2d", "InstanceNorm3d", "LazyBatchNorm1d", "LazyBatchNorm2d",
    "LazyBatchNorm3d", "LocalResponseNorm", "Unflatten",
]
__getattr__ = module_getattr("torchlike", "torch.nn")
