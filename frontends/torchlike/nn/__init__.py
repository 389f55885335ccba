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
from .modules.activation_ext import (
    CELU,
    ELU,
    GLU,
    SELU,
    Bilinear,
    CosineSimilarity,
    Hardshrink,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LogSigmoid,
    Mish,
    PairwiseDistance,
    PReLU,
    ReLU6,
    RReLU,
    SiLU,
    Softmin,
    Softshrink,
    Softsign,
    Tanhshrink,
    Threshold,
)
from .modules.loss_ext import (
    CosineEmbeddingLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    KLDivLoss,
    MarginRankingLoss,
    MultiLabelMarginLoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    PoissonNLLLoss,
    SoftMarginLoss,
    TripletMarginLoss,
    TripletMarginWithDistanceLoss,
)

__all__ = [
    "BCELoss", "BCEWithLogitsLoss", "Buffer", "CrossEntropyLoss", "Dropout", "Flatten", "GELU",
    "HuberLoss", "Identity", "L1Loss", "LazyLinear", "LeakyReLU", "Linear", "LogSoftmax",
    "MSELoss", "Module", "ModuleList", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid",
    "SmoothL1Loss", "Softmax", "Softplus", "Tanh", "functional", "init", "modules", "utils",
]
__all__ += [
    "Bilinear", "CELU", "CosineEmbeddingLoss", "CosineSimilarity", "ELU", "GLU",
    "GaussianNLLLoss", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "HingeEmbeddingLoss",
    "KLDivLoss", "LogSigmoid", "MarginRankingLoss", "Mish", "MultiLabelMarginLoss",
    "MultiLabelSoftMarginLoss", "MultiMarginLoss", "PReLU", "PairwiseDistance", "PoissonNLLLoss",
    "RReLU", "ReLU6", "SELU", "SiLU", "SoftMarginLoss", "Softmin", "Softshrink", "Softsign",
    "Tanhshrink", "Threshold", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
]
__getattr__ = module_getattr("torchlike", "torch.nn")
