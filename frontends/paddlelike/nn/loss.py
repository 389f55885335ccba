"""paddle.nn's loss layers as rows (janusgrad.nn.rows): each keeps its options under paddle's
attribute names and calls the functional form (no extra repr, as paddle's); a bad
``reduction`` is refused before the layer takes a name, as paddle does."""
from __future__ import annotations

from janusgrad.nn.rows import LayerRow as R
from janusgrad.nn.rows import install_layers

from . import functional as F
from .layer import Layer


def _check(reduction, layer: str) -> None:
    if reduction not in ("sum", "mean", "none"):
        where = f" in {layer}" if layer else ""
        raise ValueError(f"The value of 'reduction'{where} should be 'sum', 'mean' or 'none', "
                         f"but received {reduction}, which is not allowed.")


def _quoted(reduction, layer: str) -> None:
    if reduction not in ("sum", "mean", "none"):
        raise ValueError(f"'reduction' in '{layer}' should be 'sum', 'mean' or 'none', but "
                         f"received {reduction}.")


def _row(name: str, fn, params: str, call: str, check: str | None = None, **kw) -> R:
    """A loss over ``(input, label)`` whose ``reduction`` is checked as ``check`` names it
    (None: not checked)."""
    checks = f"_check(reduction, {check!r})" if check is not None else ""
    return R(name, fn, params, call, checks=kw.pop("checks", checks), **kw)


_RN = "reduction='mean', name=None"
_IL = "input, label"
_TRIPLE = dict(inputs="input, positive, negative")
ROWS = [
    _row("MSELoss", F.mse_loss, "reduction='mean'", f"{_IL}, reduction",
         checks="_quoted(reduction, 'MSELoss')"),
    _row("L1Loss", F.l1_loss, _RN, f"{_IL}, reduction", "L1Loss"),
    _row("SmoothL1Loss", F.smooth_l1_loss, "reduction='mean', delta=1.0, is_huber=True, "
         "name=None", f"{_IL}, reduction, delta, is_huber"),
    _row("CrossEntropyLoss", F.cross_entropy, "weight=None, ignore_index=-100, "
         "reduction='mean', soft_label=False, axis=-1, use_softmax=True, label_smoothing=0.0, "
         "name=None", f"{_IL}, weight=weight, ignore_index=ignore_index, reduction=reduction, "
         "soft_label=soft_label, axis=axis, use_softmax=use_softmax, "
         "label_smoothing=label_smoothing"),
    _row("NLLLoss", F.nll_loss, "weight=None, ignore_index=-100, " + _RN,
         f"{_IL}, weight=weight, ignore_index=ignore_index, reduction=reduction", "nll_loss",
         attr="_{}"),
    _row("BCELoss", F.binary_cross_entropy, "weight=None, " + _RN,
         f"{_IL}, weight, reduction", "bce_loss"),
    _row("BCEWithLogitsLoss", F.binary_cross_entropy_with_logits, "weight=None, "
         "reduction='mean', pos_weight=None, name=None", "logit, label, weight, reduction, "
         "pos_weight", "BCEWithLogitsLoss", inputs="logit, label"),
    _row("SoftMarginLoss", F.soft_margin_loss, _RN, f"{_IL}, reduction"),
    _row("MultiLabelMarginLoss", F.multi_label_margin_loss, _RN, f"{_IL}, reduction"),
    _row("MarginRankingLoss", F.margin_ranking_loss, "margin=0.0, " + _RN,
         "input, other, label, margin, reduction", "MarginRankingLoss",
         inputs="input, other, label"),
    _row("CosineEmbeddingLoss", F.cosine_embedding_loss, "margin=0, " + _RN,
         "input1, input2, label, margin, reduction", "", inputs="input1, input2, label",
         checks="if margin > 1 or margin < -1:\n"
                "    raise ValueError(\"The value of 'margin' should be in the interval of \"\n"
                "                     f'[-1, 1], but received {margin:f}, which is not allowed.')\n"
                "_check(reduction, '')"),
    _row("HingeEmbeddingLoss", F.hinge_embedding_loss, "margin=1.0, " + _RN,
         f"{_IL}, margin, reduction"),
    _row("MultiMarginLoss", F.multi_margin_loss, "p=1, margin=1.0, weight=None, " + _RN,
         f"{_IL}, p, margin, weight, reduction"),
    _row("MultiLabelSoftMarginLoss", F.multi_label_soft_margin_loss, "weight=None, " + _RN,
         f"{_IL}, weight, reduction", checks="_quoted(reduction, 'MultiLabelSoftMarginloss')"),
    _row("TripletMarginLoss", F.triplet_margin_loss, "margin=1.0, p=2.0, epsilon=1e-6, "
         "swap=False, " + _RN, "input, positive, negative, margin, p, epsilon, swap, "
         "reduction", "TripletMarginLoss", **_TRIPLE),
    _row("TripletMarginWithDistanceLoss", F.triplet_margin_with_distance_loss,
         "distance_function=None, margin=1.0, swap=False, " + _RN, "input, positive, "
         "negative, distance_function, margin, swap, reduction",
         "TripletMarginWithDistanceLoss", **_TRIPLE),
    _row("GaussianNLLLoss", F.gaussian_nll_loss, "full=False, epsilon=1e-6, " + _RN,
         "input, label, variance, full, epsilon, reduction", "GaussianNLLLoss",
         inputs="input, label, variance"),
    _row("PoissonNLLLoss", F.poisson_nll_loss, "log_input=True, full=False, epsilon=1e-8, "
         + _RN, f"{_IL}, log_input, full, epsilon, reduction", checks=(
             "if epsilon <= 0:\n"
             "    raise ValueError('The value of `epsilon` in PoissonNLLLoss should be positve,"
             " but ' f'received {epsilon:f}, which is not allowed')\n"
             "_check(reduction, 'PoissonNLLLoss')")),
    _row("KLDivLoss", F.kl_div, "reduction='mean', log_target=False",
         f"{_IL}, reduction, log_target"),
]
__all__ = install_layers(ROWS, globals(), base=Layer, module="paddle.nn.layer.loss",
                         inputs=_IL, attr="{}", env={"_check": _check, "_quoted": _quoted})
