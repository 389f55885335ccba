"""The PaddlePaddle 3.3.1 dialect of janusgrad: ``import paddlelike as paddle``."""
# ruff: noqa: F401  (this module re-exports the public paddle namespace)
from __future__ import annotations

import os as _os

from janusgrad.core.anomaly import own_folder as _own_folder
from janusgrad.core.mode import is_grad_enabled
from janusgrad.host.dropin import module_getattr as _module_getattr

from . import autograd, device, nn
from .autograd import enable_grad, no_grad, set_grad_enabled
from .creation import *  # noqa: F403  (paddle's factories: creation.__all__)
from .device import get_device, is_compiled_with_cuda, is_compiled_with_xpu, set_device
from .meta import DATATYPES, CPUPlace, CUDAPinnedPlace, CUDAPlace, DataType, Place, Size
from .printing import set_printoptions
from .tensor import FUNCTIONS as _FUNCTIONS
from .tensor import Tensor

globals().update(_FUNCTIONS)  # paddle.add, paddle.sum ...: the table in _table.py
from . import ops  # noqa: E402

bool = DATATYPES["bool"]  # noqa: A001
uint8 = DATATYPES["uint8"]
int8 = DATATYPES["int8"]
int16 = DATATYPES["int16"]
int32 = DATATYPES["int32"]
int64 = DATATYPES["int64"]
float16 = DATATYPES["float16"]
float32 = DATATYPES["float32"]
float64 = DATATYPES["float64"]
dtype = DataType

grad_mode_names = ("no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled")


def in_dynamic_mode() -> bool:
    return True


__getattr__ = _module_getattr("paddlelike", "paddle")

__all__ = [n for n in dir() if not n.startswith("_")] + ["is_grad_enabled"]

# ---- issue 4 (helper G2): nn, optimizer, io, distribution, save/load
from . import distribution, io, optimizer, regularizer  # noqa: E402
from .framework_io import load, save  # noqa: E402
from .nn.parameter import ParamAttr, create_parameter  # noqa: E402

__all__ = [n for n in dir() if not n.startswith("_")] + ["is_grad_enabled"]

from .autograd import grad  # noqa: E402 - paddle.grad (issue 3)

__all__ += ["grad"]

# module-level surface (issue 15 item 4); janusgrad's own version: paddle.version.janusgrad
from . import _surface, utils, version  # noqa: E402
from ._surface import *  # noqa: E402,F403  (version, default dtype, finfo, DLPack)

_surface.install(Tensor)  # __dlpack__, and missing attributes named (issue 15 item 8)
__all__ += [*_surface.__all__[1:], "utils", "version"]

# paddle.summary (issue 16)
from .hapi import summary  # noqa: E402

__all__ += ["summary"]

# paddle.jit.to_static (issue 17); paddle.static holds InputSpec
from . import jit, static  # noqa: E402

__all__ += ["jit", "static"]

_own_folder(_os.path.dirname(__file__))  # our frames are not the user's in anomaly reports
