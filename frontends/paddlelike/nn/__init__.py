"""paddle.nn: Layer, the common layers, losses, initializers and gradient clipping."""
# ruff: noqa: F401  (re-exports the public paddle.nn namespace)
from janusgrad.dropin import module_getattr as _module_getattr

from . import functional, initializer
from .attention import (
    LayerNorm,
    MultiHeadAttention,
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)
from .clip import ClipGradByGlobalNorm, ClipGradByNorm
from .layer import Layer
from .layers import (
    GELU,
    Dropout,
    Flatten,
    Identity,
    LayerList,
    Linear,
    LogSoftmax,
    ReLU,
    Sequential,
    Sigmoid,
    Softmax,
    Tanh,
)
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .parameter import ParamAttr, Parameter

__getattr__ = _module_getattr("paddlelike", "paddle.nn")
