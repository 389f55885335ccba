"""torch.distributions.bernoulli."""
from __future__ import annotations

from .families import Bernoulli

__all__ = ["Bernoulli"]
