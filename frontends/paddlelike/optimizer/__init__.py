"""paddle.optimizer: the optimizers and ``lr`` (learning-rate schedulers)."""
# ruff: noqa: F401  (re-exports the public paddle.optimizer namespace)
from janusgrad.host.dropin import module_getattr as _module_getattr

from . import lr
from .optimizer import SGD, Adagrad, Adam, AdamW, Momentum, Optimizer, RMSProp

__getattr__ = _module_getattr("paddlelike", "paddle.optimizer")
