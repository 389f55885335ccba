"""torch.nn.modules: every part's classes, re-exported through the parts' own __all__."""
# ruff: noqa: F403
from __future__ import annotations

from janusgrad.host.dropin import publish as _publish

from . import (
    activation_ext,
    attention,
    container,
    conv,
    layers,
    loss,
    norm,
    pool,
    recurrent,
    thin,
)
from .activation_ext import *
from .attention import *
from .container import *
from .conv import *
from .layers import *
from .loss import *
from .module import Module
from .norm import *
from .pool import *
from .recurrent import *
from .thin import *

_PARTS = (activation_ext, attention, container, conv, layers, loss, norm, pool, recurrent, thin)
__all__ = ["Module"] + [name for part in _PARTS for name in part.__all__]

# pickle finds a layer class by its __module__ (torch.nn.modules.linear ...): serve each
# from torchlike's module of that name (under the runner, `torch.` imports reach it)
_publish([globals()[_name] for _name in __all__], "torch", "torchlike")
