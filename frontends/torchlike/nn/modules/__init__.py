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
from .activation_ext import (
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
from .loss_ext import (
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
    "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "Flatten", "GELU",
    "HuberLoss", "Identity", "L1Loss", "LazyLinear", "LeakyReLU", "Linear", "LogSoftmax",
    "MSELoss", "Module", "ModuleList", "NLLLoss", "ReLU", "Sequential", "Sigmoid",
    "SmoothL1Loss", "Softmax", "Softplus", "Tanh",
]
__all__ += [
    "Bilinear", "CELU", "CosineEmbeddingLoss", "CosineSimilarity", "ELU", "GLU",
    "GaussianNLLLoss", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "HingeEmbeddingLoss",
    "KLDivLoss", "LogSigmoid", "MarginRankingLoss", "Mish", "MultiLabelMarginLoss",
    "MultiLabelSoftMarginLoss", "MultiMarginLoss", "PReLU", "PairwiseDistance", "PoissonNLLLoss",
    "RReLU", "ReLU6", "SELU", "SiLU", "SoftMarginLoss", "Softmin", "Softshrink", "Softsign",
    "Tanhshrink", "Threshold", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
]
