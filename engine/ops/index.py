"""Indexing with gradients: basic and advanced getitem and its scatter-add adjoint."""
from __future__ import annotations
