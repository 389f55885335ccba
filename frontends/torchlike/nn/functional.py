"""torch.nn.functional: the activations the autograd lessons use."""
from __future__ import annotations

from engine.dropin import module_getattr

from .._functions import FUNCTIONS, log_softmax, softmax

relu = FUNCTIONS["relu"]
sigmoid = FUNCTIONS["sigmoid"]
tanh = FUNCTIONS["tanh"]

__all__ = ["relu", "sigmoid", "tanh", "softmax", "log_softmax"]
__getattr__ = module_getattr("torchlike", "torch.nn.functional")
