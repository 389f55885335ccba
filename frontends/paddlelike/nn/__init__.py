"""paddle.nn: Layer, the common layers, losses, initializers and gradient clipping."""
# ruff: noqa: F401, F403  (re-exports the public paddle.nn namespace, each part's __all__)
from janusgrad.host.dropin import module_getattr as _module_getattr

from . import functional, initializer
from .activation_ext import *
from .attention import *
from .clip import *
from .conv import *
from .layer import Layer
from .layers import *
from .loss import *
from .norm import *
from .parameter import ParamAttr, Parameter
from .recurrent import *
from .thin import *

__getattr__ = _module_getattr("paddlelike", "paddle.nn")
