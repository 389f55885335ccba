"""torch.distributions.multinomial."""
from __future__ import annotations

from .families import Multinomial

__all__ = ["Multinomial"]
