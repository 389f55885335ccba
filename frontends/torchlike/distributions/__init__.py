"""torch.distributions: Normal, Uniform, Categorical, Multinomial, Bernoulli."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr

from . import bernoulli, categorical, multinomial, normal, uniform
from .distribution import Distribution
from .families import Bernoulli, Categorical, Multinomial, Normal, Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "Multinomial", "Normal", "Uniform",
           "bernoulli", "categorical", "multinomial", "normal", "uniform"]
__getattr__ = module_getattr("torchlike", "torch.distributions")
