"""paddle.nn: Layer, the common layers, losses, initializers and gradient clipping."""
# ruff: noqa: F401  (re-exports the public paddle.nn namespace)
from janusgrad.dropin import module_getattr as _module_getattr

from . import functional, initializer
from .clip import ClipGradByGlobalNorm, ClipGradByNorm
from .conv import (  # (conv part)
    Conv1D,
    Conv1DTranspose,
    Conv2D,
    Conv2DTranspose,
    Conv3D,
    Conv3DTranspose,
    Fold,
    Unfold,
)
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
from .norm import (  # the norm part
    AlphaDropout,
    BatchNorm,
    BatchNorm1D,
    BatchNorm2D,
    BatchNorm3D,
    Dropout2D,
    Dropout3D,
    Embedding,
    FeatureAlphaDropout,
    GroupNorm,
    InstanceNorm1D,
    InstanceNorm2D,
    InstanceNorm3D,
    LocalResponseNorm,
    Unflatten,
)
from .parameter import ParamAttr, Parameter
from .recurrent import (  # recurrent layers
    GRU,
    LSTM,
    RNN,
    BiRNN,
    GRUCell,
    LSTMCell,
    RNNCellBase,
    SimpleRNN,
    SimpleRNNCell,
)

__getattr__ = _module_getattr("paddlelike", "paddle.nn")
