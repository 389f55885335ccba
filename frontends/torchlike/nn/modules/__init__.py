"""torch.nn.modules."""
from __future__ import annotations

from janusgrad.host.dropin import publish as _publish

from .attention import (
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
from .norm import (  # the norm part
    AlphaDropout,
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    Dropout1d,
    Dropout2d,
    Dropout3d,
    Embedding,
    FeatureAlphaDropout,
    GroupNorm,
    InstanceNorm1d,
    InstanceNorm2d,
    InstanceNorm3d,
    LazyBatchNorm1d,
    LazyBatchNorm2d,
    LazyBatchNorm3d,
    LocalResponseNorm,
    Unflatten,
)

# isort: split
# the parts re-exported through their own __all__
from . import activation_ext as _acts
from . import loss_ext as _losses
from . import pool as _pool
from . import recurrent as _recurrent
from .activation_ext import *  # noqa: F403
from .loss_ext import *  # noqa: F403
from .pool import *  # noqa: F403
from .recurrent import *  # noqa: F403

__all__ = [
    "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "Flatten", "GELU",
    "HuberLoss", "Identity", "L1Loss", "LazyLinear", "LeakyReLU", "Linear", "LogSoftmax",
    "MSELoss", "Module", "ModuleList", "NLLLoss", "ReLU", "Sequential", "Sigmoid",
    "SmoothL1Loss", "Softmax", "Softplus", "Tanh",
]
__all__ += [  # the norm part
    "AlphaDropout", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "Dropout1d", "Dropout2d",
    "Dropout3d", "Embedding", "FeatureAlphaDropout", "GroupNorm", "InstanceNorm1d",
    "InstanceNorm2d", "InstanceNorm3d", "LazyBatchNorm1d", "LazyBatchNorm2d",
    "LazyBatchNorm3d", "LocalResponseNorm", "Unflatten",
]
__all__ += ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
            "ConvTranspose3d", "Fold", "LazyConv1d", "LazyConv2d", "LazyConv3d", "Unfold"]
__all__ += [*_acts.__all__, *_losses.__all__, *_pool.__all__, *_recurrent.__all__]
__all__ += [
    "LayerNorm", "MultiheadAttention", "NonDynamicallyQuantizableLinear", "RMSNorm",
    "Transformer", "TransformerDecoder", "TransformerDecoderLayer", "TransformerEncoder",
    "TransformerEncoderLayer",
]

# pickle finds a layer class by its __module__ (torch.nn.modules.linear ...): serve each
# from torchlike's module of that name (under the runner, `torch.` imports reach it)
_publish([globals()[_name] for _name in __all__], "torch", "torchlike")
