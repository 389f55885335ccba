"""torch.nn: modules, parameters, functional, init and utils."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr

from . import functional, init, modules, utils
from .modules import *  # noqa: F403  (every module class; modules.__all__ lists them)
from .parameter import Buffer, Parameter

__all__ = ["Buffer", "Parameter", "functional", "init", "modules", "utils",
           *modules.__all__]
__getattr__ = module_getattr("torchlike", "torch.nn")
