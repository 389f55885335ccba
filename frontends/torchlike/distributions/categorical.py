"""torch.distributions.categorical."""
from __future__ import annotations

from .families import Categorical

__all__ = ["Categorical"]
