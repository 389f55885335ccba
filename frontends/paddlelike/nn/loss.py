"""paddle.nn's loss layers: each stores its options and calls the functional form."""
from __future__ import annotations

from . import functional as F
from .layer import Layer


class MSELoss(Layer):
    def __init__(self, reduction: str = "mean") -> None:
        if reduction not in ("sum", "mean", "none"):
            raise ValueError("'reduction' in 'MSELoss' should be 'sum', 'mean' or 'none', but "
                             f"received {reduction}.")
        super().__init__()
        self.reduction = reduction

    def forward(self, input, label):  # noqa: A002
        return F.mse_loss(input, label, self.reduction)


class L1Loss(Layer):
    def __init__(self, reduction: str = "mean", name=None) -> None:
        if reduction not in ("sum", "mean", "none"):
            raise ValueError("The value of 'reduction' in L1Loss should be 'sum', 'mean' or "
                             f"'none', but received {reduction}, which is not allowed.")
        super().__init__()
        self.reduction = reduction
        self.name = name

    def forward(self, input, label):  # noqa: A002
        return F.l1_loss(input, label, self.reduction)


class SmoothL1Loss(Layer):
    def __init__(self, reduction: str = "mean", delta: float = 1.0, is_huber: bool = True,
                 name=None) -> None:
        super().__init__()
        self.reduction = reduction
        self.delta = delta
        self.is_huber = is_huber
        self.name = name

    def forward(self, input, label):  # noqa: A002
        return F.smooth_l1_loss(input, label, self.reduction, self.delta, self.is_huber)


class CrossEntropyLoss(Layer):
    def __init__(self, weight=None, ignore_index: int = -100, reduction: str = "mean",
                 soft_label: bool = False, axis: int = -1, use_softmax: bool = True,
                 label_smoothing: float = 0.0, name=None) -> None:
        super().__init__()
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.soft_label = soft_label
        self.axis = axis
        self.use_softmax = use_softmax
        self.label_smoothing = label_smoothing
        self.name = name

    def forward(self, input, label):  # noqa: A002
        return F.cross_entropy(input, label, weight=self.weight,
                               ignore_index=self.ignore_index, reduction=self.reduction,
                               soft_label=self.soft_label, axis=self.axis,
                               use_softmax=self.use_softmax,
                               label_smoothing=self.label_smoothing)


class NLLLoss(Layer):
    def __init__(self, weight=None, ignore_index: int = -100, reduction: str = "mean",
                 name=None) -> None:
        if reduction not in ("sum", "mean", "none"):
            raise ValueError("The value of 'reduction' in nll_loss should be 'sum', 'mean' or "
                             f"'none', but received {reduction}, which is not allowed.")
        super().__init__()
        self._weight = weight
        self._ignore_index = ignore_index
        self._reduction = reduction
        self._name = name

    def forward(self, input, label):  # noqa: A002
        return F.nll_loss(input, label, weight=self._weight, ignore_index=self._ignore_index,
                          reduction=self._reduction)


class BCELoss(Layer):
    def __init__(self, weight=None, reduction: str = "mean", name=None) -> None:
        if reduction not in ("sum", "mean", "none"):
            raise ValueError("The value of 'reduction' in bce_loss should be 'sum', 'mean' or "
                             f"'none', but received {reduction}, which is not allowed.")
        super().__init__()
        self.weight = weight
        self.reduction = reduction
        self.name = name

    def forward(self, input, label):  # noqa: A002
        return F.binary_cross_entropy(input, label, self.weight, self.reduction)


class BCEWithLogitsLoss(Layer):
    def __init__(self, weight=None, reduction: str = "mean", pos_weight=None,
                 name=None) -> None:
        if reduction not in ("sum", "mean", "none"):
            raise ValueError("The value of 'reduction' in BCEWithLogitsLoss should be 'sum', "
                             f"'mean' or 'none', but received {reduction}, which is not "
                             "allowed.")
        super().__init__()
        self.weight = weight
        self.reduction = reduction
        self.pos_weight = pos_weight
        self.name = name

    def forward(self, logit, label):
        return F.binary_cross_entropy_with_logits(logit, label, self.weight, self.reduction,
                                                  self.pos_weight)


for _cls in (MSELoss, L1Loss, SmoothL1Loss, CrossEntropyLoss, NLLLoss, BCELoss,
             BCEWithLogitsLoss):
    _cls.__module__ = "paddle.nn.layer.loss"
__all__ = ["BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "L1Loss", "MSELoss", "NLLLoss",
           "SmoothL1Loss"]
