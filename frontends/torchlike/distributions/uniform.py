"""torch.distributions.uniform."""
from __future__ import annotations

from .families import Uniform

__all__ = ["Uniform"]
