"""torch.distributions.normal."""
from __future__ import annotations

from .families import Normal

__all__ = ["Normal"]
