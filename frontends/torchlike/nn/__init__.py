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
from .modules.pool import (  # (part pool)
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AdaptiveAvgPool3d,
    AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    AdaptiveMaxPool3d,
    AvgPool1d,
    AvgPool2d,
    AvgPool3d,
    ChannelShuffle,
    CircularPad1d,
    CircularPad2d,
    CircularPad3d,
    ConstantPad1d,
    ConstantPad2d,
    ConstantPad3d,
    MaxPool1d,
    MaxPool2d,
    MaxPool3d,
    MaxUnpool1d,
    MaxUnpool2d,
    MaxUnpool3d,
    PixelShuffle,
    PixelUnshuffle,
    ReflectionPad1d,
    ReflectionPad2d,
    ReflectionPad3d,
    ReplicationPad1d,
    ReplicationPad2d,
    ReplicationPad3d,
    Upsample,
    UpsamplingBilinear2d,
    UpsamplingNearest2d,
    ZeroPad1d,
    ZeroPad2d,
    ZeroPad3d,
)
from .parameter import Buffer, Parameter

__all__ = [
    "BCELoss", "BCEWithLogitsLoss", "Buffer", "CrossEntropyLoss", "Dropout", "Flatten", "GELU",
    "HuberLoss", "Identity", "L1Loss", "LazyLinear", "LeakyReLU", "Linear", "LogSoftmax",
    "MSELoss", "Module", "ModuleList", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid",
    "SmoothL1Loss", "Softmax", "Softplus", "Tanh", "functional", "init", "modules", "utils",
]
__all__ += [  # (part pool)
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
    "ChannelShuffle", "CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d",
    "ConstantPad2d", "ConstantPad3d", "MaxPool1d", "MaxPool2d", "MaxPool3d", "MaxUnpool1d",
    "MaxUnpool2d", "MaxUnpool3d", "PixelShuffle", "PixelUnshuffle", "ReflectionPad1d",
    "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
    "ReplicationPad3d", "Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d",
    "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
]
__getattr__ = module_getattr("torchlike", "torch.nn")
