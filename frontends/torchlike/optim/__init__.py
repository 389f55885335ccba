"""torch.optim: optimisers and learning-rate schedulers."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr

from . import lr_scheduler
from .optimizer import Optimizer
from .rules import SGD, Adagrad, Adam, AdamW, RMSprop

__all__ = ["SGD", "Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "lr_scheduler"]
__getattr__ = module_getattr("torchlike", "torch.optim")
