"""The margin, embedding and likelihood loss layers of paddle.nn (activations and losses
family): each stores its options and calls the functional form (no extra repr, as paddle's)."""
from __future__ import annotations

from . import functional as F
from .layer import Layer


def _check(reduction, layer: str) -> None:
    if reduction not in ("sum", "mean", "none"):
        where = f" in {layer}" if layer else ""
        raise ValueError(f"The value of 'reduction'{where} should be 'sum', 'mean' or 'none', "
                         f"but received {reduction}, which is not allowed.")


class _Loss(Layer):
    def __init__(self, reduction="mean", name=None) -> None:
        super().__init__()
        self.reduction = reduction
        self.name = name


class SoftMarginLoss(_Loss):
    def forward(self, input, label):  # noqa: A002
        return F.soft_margin_loss(input, label, self.reduction)


class MultiLabelMarginLoss(_Loss):
    def forward(self, input, label):  # noqa: A002
        return F.multi_label_margin_loss(input, label, self.reduction)


class MarginRankingLoss(_Loss):
    def __init__(self, margin=0.0, reduction="mean", name=None) -> None:
        _check(reduction, "MarginRankingLoss")
        super().__init__(reduction, name)
        self.margin = margin

    def forward(self, input, other, label):  # noqa: A002
        return F.margin_ranking_loss(input, other, label, self.margin, self.reduction)


class CosineEmbeddingLoss(_Loss):
    def __init__(self, margin=0, reduction="mean", name=None) -> None:
        if margin > 1 or margin < -1:
            raise ValueError("The value of 'margin' should be in the interval of [-1, 1], but "
                             f"received {margin}, which is not allowed.")
        _check(reduction, "")
        super().__init__(reduction, name)
        self.margin = margin

    def forward(self, input1, input2, label):
        return F.cosine_embedding_loss(input1, input2, label, self.margin, self.reduction)


class HingeEmbeddingLoss(_Loss):
    def __init__(self, margin=1.0, reduction="mean", name=None) -> None:
        super().__init__(reduction, name)
        self.margin = margin

    def forward(self, input, label):  # noqa: A002
        return F.hinge_embedding_loss(input, label, self.margin, self.reduction)


class MultiMarginLoss(_Loss):
    def __init__(self, p=1, margin=1.0, weight=None, reduction="mean", name=None) -> None:
        super().__init__(reduction, name)
        self.p = p
        self.margin = margin
        self.weight = weight

    def forward(self, input, label):  # noqa: A002
        return F.multi_margin_loss(input, label, self.p, self.margin, self.weight,
                                   self.reduction)


class MultiLabelSoftMarginLoss(_Loss):
    def __init__(self, weight=None, reduction="mean", name=None) -> None:
        if reduction not in ("sum", "mean", "none"):
            raise ValueError("'reduction' in 'MultiLabelSoftMarginloss' should be 'sum', "
                             f"'mean' or 'none', but received {reduction}.")
        super().__init__(reduction, name)
        self.weight = weight

    def forward(self, input, label):  # noqa: A002
        return F.multi_label_soft_margin_loss(input, label, self.weight, self.reduction)


class TripletMarginLoss(_Loss):
    def __init__(self, margin=1.0, p=2.0, epsilon=1e-6, swap=False, reduction="mean",
                 name=None) -> None:
        _check(reduction, "TripletMarginLoss")
        super().__init__(reduction, name)
        self.margin = margin
        self.p = p
        self.epsilon = epsilon
        self.swap = swap

    def forward(self, input, positive, negative):  # noqa: A002
        return F.triplet_margin_loss(input, positive, negative, self.margin, self.p,
                                     self.epsilon, self.swap, self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    def __init__(self, distance_function=None, margin=1.0, swap=False, reduction="mean",
                 name=None) -> None:
        _check(reduction, "TripletMarginWithDistanceLoss")
        super().__init__(reduction, name)
        self.distance_function = distance_function
        self.margin = margin
        self.swap = swap

    def forward(self, input, positive, negative):  # noqa: A002
        return F.triplet_margin_with_distance_loss(input, positive, negative,
                                                   self.distance_function, self.margin,
                                                   self.swap, self.reduction)


class GaussianNLLLoss(_Loss):
    def __init__(self, full=False, epsilon=1e-6, reduction="mean", name=None) -> None:
        _check(reduction, "GaussianNLLLoss")
        super().__init__(reduction, name)
        self.full = full
        self.epsilon = epsilon

    def forward(self, input, label, variance):  # noqa: A002
        return F.gaussian_nll_loss(input, label, variance, self.full, self.epsilon,
                                   self.reduction)


class PoissonNLLLoss(_Loss):
    def __init__(self, log_input=True, full=False, epsilon=1e-8, reduction="mean",
                 name=None) -> None:
        if epsilon <= 0:
            raise ValueError("The value of `epsilon` in PoissonNLLLoss should be positve, but "
                             f"received {epsilon:f}, which is not allowed")
        _check(reduction, "PoissonNLLLoss")
        super().__init__(reduction, name)
        self.log_input = log_input
        self.full = full
        self.epsilon = epsilon

    def forward(self, input, label):  # noqa: A002
        return F.poisson_nll_loss(input, label, self.log_input, self.full, self.epsilon,
                                  self.reduction)


class KLDivLoss(Layer):
    def __init__(self, reduction="mean", log_target=False) -> None:
        super().__init__()
        self.reduction = reduction
        self.log_target = log_target

    def forward(self, input, label):  # noqa: A002
        return F.kl_div(input, label, self.reduction, self.log_target)


for _cls in (SoftMarginLoss, MultiLabelMarginLoss, MarginRankingLoss, CosineEmbeddingLoss,
             HingeEmbeddingLoss, MultiMarginLoss, MultiLabelSoftMarginLoss, TripletMarginLoss,
             TripletMarginWithDistanceLoss, GaussianNLLLoss, PoissonNLLLoss, KLDivLoss):
    _cls.__module__ = "paddle.nn.layer.loss"

__all__ = [
    "CosineEmbeddingLoss", "GaussianNLLLoss", "HingeEmbeddingLoss", "KLDivLoss",
    "MarginRankingLoss", "MultiLabelMarginLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss",
    "PoissonNLLLoss", "SoftMarginLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
]
