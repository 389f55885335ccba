"""paddle.regularizer: L1Decay / L2Decay (penalties folded into the gradient)."""
from __future__ import annotations


class WeightDecayRegularizer:
    def __init__(self, coeff: float = 0.0) -> None:
        self._coeff = float(coeff)
        self._regularization_coeff = self._coeff


class L2Decay(WeightDecayRegularizer):
    def __str__(self) -> str:
        return f"L2Decay, coeff={self._coeff:f}"


class L1Decay(WeightDecayRegularizer):
    def __str__(self) -> str:
        return f"L1Decay, coeff={self._coeff:f}"


for _cls in (WeightDecayRegularizer, L2Decay, L1Decay):
    _cls.__module__ = "paddle.regularizer"
