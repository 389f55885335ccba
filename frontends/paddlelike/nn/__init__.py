"""paddle.nn: Layer, the common layers, losses, initializers and gradient clipping."""
# ruff: noqa: F401  (re-exports the public paddle.nn namespace)
from janusgrad.host.dropin import module_getattr as _module_getattr

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
from .pool import (  # (part pool)
    AdaptiveAvgPool1D,
    AdaptiveAvgPool2D,
    AdaptiveAvgPool3D,
    AdaptiveMaxPool1D,
    AdaptiveMaxPool2D,
    AdaptiveMaxPool3D,
    AvgPool1D,
    AvgPool2D,
    AvgPool3D,
    ChannelShuffle,
    MaxPool1D,
    MaxPool2D,
    MaxPool3D,
    MaxUnPool1D,
    MaxUnPool2D,
    MaxUnPool3D,
    Pad1D,
    Pad2D,
    Pad3D,
    PixelShuffle,
    PixelUnshuffle,
    Upsample,
    UpsamplingBilinear2D,
    UpsamplingNearest2D,
    ZeroPad2D,
)
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

# isort: split
# activations and losses family
from .activation_ext import *  # noqa: F403
from .loss_ext import *  # noqa: F403

__getattr__ = _module_getattr("paddlelike", "paddle.nn")
