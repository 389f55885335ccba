"""torch.nn's loss modules as rows (janusgrad.nn.rows) over two hand-written bases: _Loss
folds the legacy size_average/reduce into reduction, _WeightedLoss keeps weight as a buffer
(as torch's); no extra_repr, as torch's."""
from __future__ import annotations

from janusgrad.nn.rows import LayerRow as R
from janusgrad.nn.rows import install_layers

from .. import functional as F
from .module import Module
from .thin import PairwiseDistance


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction: str = "mean") -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = F._legacy_reduction(size_average, reduce, reduction)
        self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


_L = "size_average=None, reduce=None, reduction='mean'"
_W = dict(base=_WeightedLoss, base_args="weight, size_average, reduce, reduction")
_RED = "reduction=self.reduction"
_TRIPLE = "anchor, positive, negative"


def _plain(name: str, fn, params: str = _L, call: str = "", keep: str = "", **kw) -> R:
    kw.setdefault("base_args", "size_average, reduce, reduction")
    return R(name, fn, params, f"input, target, {call}{_RED}", keep=keep, **kw)


def _margin(name: str, fn, margin: float) -> R:
    return R(name, fn, f"margin={margin}, {_L}", f"input1, input2, target, margin=margin, {_RED}",
             keep="margin", inputs="input1, input2, target",
             base_args="size_average, reduce, reduction")


_POSITIVE = ("if margin <= 0: raise ValueError(f'{_name}: expected margin to be greater than 0, "
             "got {margin} instead')")
ROWS = [
    _plain("MSELoss", F.mse_loss), _plain("L1Loss", F.l1_loss),
    _plain("SoftMarginLoss", F.soft_margin_loss),
    _plain("MultiLabelMarginLoss", F.multilabel_margin_loss),
    _plain("SmoothL1Loss", F.smooth_l1_loss, _L + ", beta=1.0", "beta=beta, ", "beta"),
    _plain("HuberLoss", F.huber_loss, "reduction='mean', delta=1.0", "delta=delta, ", "delta",
           base_args="reduction=reduction"),
    _plain("KLDivLoss", F.kl_div, _L + ", log_target=False", "log_target=log_target, ",
           "log_target"),
    _plain("NLLLoss", F.nll_loss, "weight=None, size_average=None, ignore_index=-100, "
           "reduce=None, reduction='mean'", "weight=self.weight, ignore_index=ignore_index, ",
           "ignore_index", **_W),
    _plain("CrossEntropyLoss", F.cross_entropy, "weight=None, size_average=None, "
           "ignore_index=-100, reduce=None, reduction='mean', label_smoothing=0.0",
           "weight=self.weight, ignore_index=ignore_index, label_smoothing=label_smoothing, ",
           "ignore_index, label_smoothing", **_W),
    _plain("BCELoss", F.binary_cross_entropy, "weight=None, " + _L, "weight=self.weight, ",
           **_W),
    _plain("MultiLabelSoftMarginLoss", F.multilabel_soft_margin_loss, "weight=None, " + _L,
           "weight=self.weight, ", **_W),
    _plain("BCEWithLogitsLoss", F.binary_cross_entropy_with_logits,
           "weight=None, " + _L + ", pos_weight=None", "self.weight, pos_weight=self.pos_weight, ",
           base_args="size_average, reduce, reduction",
           setup="self.register_buffer('weight', weight)\n"
                 "self.register_buffer('pos_weight', pos_weight)"),
    _plain("MultiMarginLoss", F.multi_margin_loss, "p=1, margin=1.0, weight=None, " + _L,
           "p=p, margin=margin, weight=self.weight, ", "p, margin", **_W, setup=(
               "if p not in (1, 2): raise ValueError('only p == 1 and p == 2 supported')\n"
               "if weight is not None and weight.dim() != 1:\n"
               "    raise ValueError('MultiMarginLoss: expected weight to be None or 1D "
               "tensor, got ' f'{weight.dim()}D instead')")),
    _margin("MarginRankingLoss", F.margin_ranking_loss, 0.0),
    _margin("CosineEmbeddingLoss", F.cosine_embedding_loss, 0.0),
    _plain("HingeEmbeddingLoss", F.hinge_embedding_loss, f"margin=1.0, {_L}",
           "margin=margin, ", "margin"),
    R("TripletMarginLoss", F.triplet_margin_loss, "margin=1.0, p=2.0, eps=1e-6, swap=False, "
      + _L, f"{_TRIPLE}, margin=margin, p=p, eps=eps, swap=swap, {_RED}",
      keep="margin, p, eps, swap", inputs=_TRIPLE,
      setup=_POSITIVE.replace("{_name}", "TripletMarginLoss")),
    R("TripletMarginWithDistanceLoss", F.triplet_margin_with_distance_loss,
      "*, distance_function=None, margin=1.0, swap=False, reduction='mean'",
      f"{_TRIPLE}, distance_function=distance_function, margin=margin, swap=swap, {_RED}",
      keep="distance_function, margin, swap", inputs=_TRIPLE, base_args="None, None, reduction",
      setup=_POSITIVE.replace("{_name}", "TripletMarginWithDistanceLoss") + "\n"
      "if distance_function is None: distance_function = PairwiseDistance()"),
    R("GaussianNLLLoss", F.gaussian_nll_loss, "*, full=False, eps=1e-6, reduction='mean'",
      f"input, target, var, full=full, eps=eps, {_RED}", keep="full, eps",
      inputs="input, target, var", base_args="None, None, reduction"),
    R("PoissonNLLLoss", F.poisson_nll_loss, "log_input=True, full=False, size_average=None, "
      "eps=1e-8, reduce=None, reduction='mean'", "log_input, target, "
      f"log_input=self.log_input, full=full, eps=eps, {_RED}", keep="log_input, full, eps",
      inputs="log_input, target", base_args="size_average, reduce, reduction"),
]
__all__ = install_layers(ROWS, globals(), base=_Loss, module="torch.nn.modules.loss",
                         inputs="input, target", env={"PairwiseDistance": PairwiseDistance},
                         )
