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
from .modules.attention import (
    LayerNorm,
    MultiheadAttention,
    NonDynamicallyQuantizableLinear,
    RMSNorm,
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)
from .parameter import Buffer, Parameter

__all__ = [
    "BCELoss", "BCEWithLogitsLoss", "Buffer", "CrossEntropyLoss", "Dropout", "Flatten", "GELU",
    "HuberLoss", "Identity", "L1Loss", "LazyLinear", "LeakyReLU", "Linear", "LogSoftmax",
    "MSELoss", "Module", "ModuleList", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid",
    "SmoothL1Loss", "Softmax", "Softplus", "Tanh", "functional", "init", "modules", "utils",
]
__all__ += [
    "LayerNorm", "MultiheadAttention", "NonDynamicallyQuantizableLinear", "RMSNorm",
    "Transformer", "TransformerDecoder", "TransformerDecoderLayer", "TransformerEncoder",
    "TransformerEncoderLayer",
]
__getattr__ = module_getattr("torchlike", "torch.nn")
