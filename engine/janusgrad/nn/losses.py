"""Distances and the margin, embedding and likelihood losses, as composites of engine ops
(so differentiable to any order); the dialects' checks and defaults are the frontends'.

Where torch and paddle compute a loss by different formulas (cosine similarity's clamp,
cosine_embedding_loss's epsilon, hinge_embedding_loss's labels), a parameter picks the
formula; the defaults are torch's.
"""
from __future__ import annotations

import math

from janusgrad.array.backend import as_array, host, int64, onto_device_of, to_host, xp_of
from janusgrad.nn.functional import _const, reduce_loss
from janusgrad.ops import elementwise as E
from janusgrad.ops import index as I
from janusgrad.ops import reduce as R
from janusgrad.ops import shape as S
from janusgrad.ops import spec
from janusgrad.ops.activation import logsigmoid
from janusgrad.ops.manip import einsum
from janusgrad.ops.special import xlogy
from janusgrad.ops.testing import array, small_shape

_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


def _mask(like, a):
    """Host/device bool array ``a`` as an untracked tensor of ``like``'s float dtype."""
    if type(a) is not type(like.array):
        a = onto_device_of(as_array(a), like.array)
    return _const(like, a.astype(like.array.dtype))


def _detached_offset(x, value):
    """``x`` shifted to the array ``value`` with x's own gradient (torch's clamp under
    no_grad on a clone: the value changes, the gradient does not see it)."""
    return E.add(x, _const(x, value - x.array))


# ---------------------------------------------------------------- distances
def normalize(x, p=2.0, axis=1, eps=1e-12):
    """x / max(||x||_p over ``axis``, eps)."""
    n = R.norm(x, p, axis, True)
    return E.div(x, E.clamp(n, min=eps))


def cosine_similarity(x1, x2, axis=1, eps=1e-8, clamp_product=False):
    """x1 . x2 / (max(|x1|, eps) max(|x2|, eps)) over ``axis`` (torch's);
    ``clamp_product``: x1 . x2 / sqrt(max(|x1|^2 |x2|^2, eps^2)) (paddle's)."""
    if clamp_product:
        w12 = R.sum(E.mul(x1, x2), axis)
        w1 = R.sum(E.mul(x1, x1), axis)
        w2 = R.sum(E.mul(x2, x2), axis)
        return E.div(w12, E.sqrt(E.clamp(E.mul(w1, w2), min=eps * eps)))
    n1 = E.clamp(R.norm(x1, 2, axis, True), min=eps)
    n2 = E.clamp(R.norm(x2, 2, axis, True), min=eps)
    return R.sum(E.mul(E.div(x1, n1), E.div(x2, n2)), axis)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdims=False, axis=-1):
    """||x1 - x2 + eps||_p over the last axis."""
    d = E.sub(x1, x2)
    if eps:
        d = E.add(d, eps)
    return R.norm(d, p, axis, keepdims)


def pdist(x, p=2.0):
    """The p-norm distances between the rows i < j of a 2-d ``x``, row-major."""
    n = x.array.shape[0]
    i, j = (type(x).wrap(onto_device_of(k.astype(int64), x.array))
            for k in host.triu_indices(n, 1))  # host-ok: index data, then moved
    rows_i = I.index_select(x, 0, i)
    rows_j = I.index_select(x, 0, j)
    return R.norm(E.sub(rows_i, rows_j), p, -1, False)


def bilinear(x1, x2, weight, bias=None):
    """y_k = x1 W_k x2 (+ b_k): weight [out, in1, in2]."""
    y = einsum("...i,kij,...j->...k", [x1, weight, x2])
    return y if bias is None else E.add(y, bias)


# ---------------------------------------------------------------- margin losses
def soft_margin_loss(x, y, reduction="mean"):
    """log(1 + exp(-y x))."""
    return reduce_loss(E.log1p(E.exp(E.neg(E.mul(y, x)))), reduction)


def margin_ranking_loss(x1, x2, y, margin=0.0, reduction="mean"):
    """max(0, -y (x1 - x2) + margin)."""
    v = E.add(E.neg(E.mul(y, E.sub(x1, x2))), margin)
    return reduce_loss(E.clamp(v, min=0.0), reduction)


def hinge_embedding_loss(x, y, margin=1.0, reduction="mean", exact_labels=False):
    """x where y is 1, max(0, margin - x) where y is -1; torch takes every label but 1 as
    -1's and every label but -1 as 1's (both terms for other values), ``exact_labels``
    counts only 1 and -1 (paddle's)."""
    ya = y.array
    if exact_labels:
        pos, neg = ya == 1, ya == -1
    else:
        pos, neg = ya != -1, ya != 1
    hinge = E.clamp(E.sub(margin, x), min=0.0)
    loss = E.add(E.where_(_const(x, neg), hinge, 0.0), E.where_(_const(x, pos), x, 0.0))
    return reduce_loss(loss, reduction)


def multi_margin_loss(x, target, p=1, margin=1.0, weight=None, reduction="mean"):
    """sum over classes j != y of max(0, margin - x[y] + x[j])^p (w[y]) / C per sample."""
    one = x.array.ndim <= 1
    if one:
        x = S.reshape(x, (1, -1))
    t = target.array if hasattr(target, "array") else as_array(target)
    t = onto_device_of(t, x.array).astype(int64).reshape(-1)
    xp = xp_of(t)
    c = x.array.shape[1]
    picked = I.take_along_axis(x, _const(x, t.reshape(-1, 1)), 1)
    z = E.clamp(E.add(E.sub(x, picked), margin), min=0.0)
    if p == 2:
        z = E.square(z)
    others = xp.arange(c).reshape(1, -1) != t.reshape(-1, 1)
    z = E.mul(z, _mask(x, others))
    if weight is not None:
        z = E.mul(z, S.reshape(I.index_select(weight, 0, type(x).wrap(t)), (-1, 1)))
    loss = E.div(R.sum(z, 1), float(c))
    if one:
        loss = S.reshape(loss, ())
    return reduce_loss(loss, reduction)


def multilabel_margin_loss(x, target, reduction="mean"):
    """sum over the target classes j (the row up to its first -1) and the other classes k
    of max(0, 1 - (x[j] - x[k])) / C per sample."""
    one = x.array.ndim <= 1
    if one:
        x = S.reshape(x, (1, -1))
    t = target.array if hasattr(target, "array") else as_array(target)
    t = to_host(t).reshape(x.array.shape)  # the target lists are read on the host
    n, c = x.array.shape
    count = host.zeros((n, c))  # host-ok: counts of the host target lists
    for r in range(n):
        for v in t[r]:
            if v < 0:
                break
            count[r, v] += 1
    is_target = count > 0
    pair = count[:, :, None] * (~is_target)[:, None, :]  # [n, j, k]
    xj = S.reshape(x, (n, c, 1))
    xk = S.reshape(x, (n, 1, c))
    z = E.clamp(E.add(E.sub(xk, xj), 1.0), min=0.0)
    loss = E.div(R.sum(E.mul(z, _mask(x, pair)), (1, 2)), float(c))
    if one:
        loss = S.reshape(loss, ())
    return reduce_loss(loss, reduction)


def multilabel_soft_margin_loss(x, y, weight=None, reduction="mean"):
    """-(y logsigmoid(x) + (1 - y) logsigmoid(-x)), (weighted,) averaged over classes."""
    loss = E.neg(E.add(E.mul(y, logsigmoid(x)), E.mul(E.sub(1.0, y), logsigmoid(E.neg(x)))))
    if weight is not None:
        loss = E.mul(loss, weight)
    c = x.array.shape[-1] if x.array.ndim else 1
    loss = E.div(R.sum(loss, -1), float(c)) if x.array.ndim else loss
    return reduce_loss(loss, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-6, swap=False,
                        reduction="mean", distance=None):
    """max(0, margin + d(a, p) - d(a, n)); ``swap``: d(a, n) is min(d(a, n), d(p, n));
    ``distance`` defaults to the pairwise p-distance."""
    if distance is None:
        def distance(u, v):
            return pairwise_distance(u, v, p, eps)
    d_pos = distance(anchor, positive)
    d_neg = distance(anchor, negative)
    if swap:
        d_neg = E.minimum(d_neg, distance(positive, negative))
    return reduce_loss(E.clamp(E.add(E.sub(d_pos, d_neg), margin), min=0.0), reduction)


def cosine_embedding_loss(x1, x2, y, margin=0.0, reduction="mean", eps=1e-12, axis=-1):
    """1 - cos where y is 1, max(0, cos - margin) where y is -1; cos over ``axis`` with
    ``eps`` added to each squared magnitude."""
    prod = R.sum(E.mul(x1, x2), axis)
    m1 = E.add(R.sum(E.mul(x1, x1), axis), eps)
    m2 = E.add(R.sum(E.mul(x2, x2), axis), eps)
    cos = E.div(prod, E.sqrt(E.mul(m1, m2)))
    ya = y.array
    pos = E.where_(_const(cos, ya == 1), E.sub(1.0, cos), 0.0)
    neg = E.where_(_const(cos, ya == -1), E.clamp(E.sub(cos, margin), min=0.0), 0.0)
    return reduce_loss(E.add(pos, neg), reduction)


# ---------------------------------------------------------------- likelihood losses
def gaussian_nll_loss(x, y, var, full=False, eps=1e-6, reduction="mean"):
    """0.5 (log var + (x - y)^2 / var) (+ log(2 pi) / 2), var's values clamped at eps
    without that clamp in its gradient (the frameworks clamp under no_grad)."""
    a = var.array
    var = _detached_offset(var, xp_of(a).maximum(a, eps).astype(a.dtype))
    loss = E.mul(E.add(E.log(var), E.div(E.square(E.sub(x, y)), var)), 0.5)
    if full:
        loss = E.add(loss, _HALF_LOG_2PI)
    return reduce_loss(loss, reduction)


def poisson_nll_loss(x, y, log_input=True, full=False, eps=1e-8, reduction="mean"):
    """exp(x) - y x (log_input), else x - y log(x + eps); ``full`` adds Stirling's term
    y log y - y + log(2 pi y) / 2 where y > 1."""
    if log_input:
        loss = E.sub(E.exp(x), E.mul(y, x))
    else:
        loss = E.sub(x, E.mul(y, E.log(E.add(x, eps))))
    if full:
        big = E.gt(y, 1.0)
        ys = E.where_(big, y, 2.0)  # (a y where the term is dropped: no log of 0)
        stirling = E.add(E.sub(E.mul(ys, E.log(ys)), ys),
                         E.mul(E.log(E.mul(ys, 2.0 * math.pi)), 0.5))
        loss = E.add(loss, E.where_(big, stirling, 0.0))
    return reduce_loss(loss, reduction)


def kl_div(x, y, reduction="mean", log_target=False):
    """y (log y - x) pointwise (exp(y) (y - x) for ``log_target``); "batchmean" divides
    the sum by the batch size (the first axis)."""
    if log_target:
        loss = E.mul(E.exp(y), E.sub(y, x))
    else:
        loss = E.sub(xlogy(y, y), E.mul(y, x))
    if reduction == "batchmean":
        total = R.sum(loss)
        return E.div(total, float(x.array.shape[0])) if x.array.ndim else total
    return reduce_loss(loss, reduction)


# ---------------------------------------------------------------- specs
def _make_two(lo=-2.0, hi=2.0, lo2=None, hi2=None, min_dims=2, max_dims=3):
    def make(draw, st, hnp):
        shape = small_shape(draw, hnp, min_dims, max_dims)
        return [array(draw, st, hnp, shape, lo, hi),
                array(draw, st, hnp, shape, lo if lo2 is None else lo2,
                      hi if hi2 is None else hi2)], {}
    return make


def _make_three(draw, st, hnp):
    shape = small_shape(draw, hnp, 2, 2)
    return [array(draw, st, hnp, shape, lo, lo + 0.5) for lo in (0.0, 1.0, 2.0)], {}


def _make_signs(shape):
    return host.where(host.arange(int(host.prod(shape))).reshape(shape) % 3 == 0, -1.0, 1.0)


def _cos_ref(a, b, axis=1):
    return (a * b).sum(axis) / (host.sqrt((a * a).sum(axis)) * host.sqrt((b * b).sum(axis)))


spec("nn.normalize", normalize, lambda draw, st, hnp: (
    [array(draw, st, hnp, small_shape(draw, hnp, 2, 3), 0.5, 2.0)], {}),
    ref=lambda a: a / host.sqrt((a * a).sum(1, keepdims=True)))
spec("nn.cosine_similarity", cosine_similarity, _make_two(0.5, 2.0), ref=_cos_ref)
spec("nn.cosine_similarity_product", lambda a, b: cosine_similarity(a, b, clamp_product=True),
     _make_two(0.5, 2.0), ref=_cos_ref)
spec("nn.pairwise_distance", pairwise_distance, _make_two(0.0, 1.0, 1.5, 2.5),
     ref=lambda a, b: host.sqrt(((a - b + 1e-6) ** 2).sum(-1)))


def _make_pdist(draw, st, hnp):
    n, m = draw(st.integers(2, 4)), draw(st.integers(1, 3))
    base = host.arange(n, dtype=float).reshape(-1, 1) * 1.5
    return [base + array(draw, st, hnp, (n, m), 0.0, 0.5)], {}


def _pdist_ref(a):
    i, j = host.triu_indices(a.shape[0], 1)
    return host.sqrt(((a[i] - a[j]) ** 2).sum(-1))


spec("nn.pdist", pdist, _make_pdist, ref=_pdist_ref)
spec("nn.bilinear", bilinear, lambda draw, st, hnp: (
    [array(draw, st, hnp, (2, 3)), array(draw, st, hnp, (2, 4)),
     array(draw, st, hnp, (5, 3, 4)), array(draw, st, hnp, (5,))], {}),
    ref=lambda a, b, w, bias: host.einsum("ni,kij,nj->nk", a, w, b) + bias)
spec("nn.soft_margin_loss", lambda x: soft_margin_loss(x, _make_signs_like(x)),
     lambda draw, st, hnp: ([array(draw, st, hnp, small_shape(draw, hnp, 1, 3))], {}),
    ref=lambda a: host.log1p(host.exp(-_make_signs(a.shape) * a)).mean())


def _make_signs_like(x):
    return _const(x, onto_device_of(_make_signs(x.array.shape).astype(x.array.dtype), x.array))


spec("nn.margin_ranking_loss", lambda a, b: margin_ranking_loss(a, b, _make_signs_like(a), 0.1),
     _make_two(0.0, 1.0, 1.2, 2.0), ref=lambda a, b: host.maximum(
        -_make_signs(a.shape) * (a - b) + 0.1, 0).mean())
spec("nn.hinge_embedding_loss", lambda a: hinge_embedding_loss(a, _make_signs_like(a), 2.5),
     lambda draw, st, hnp: ([array(draw, st, hnp, small_shape(draw, hnp, 1, 3))], {}),
     ref=lambda a: host.where(_make_signs(a.shape) > 0, a, host.maximum(2.5 - a, 0)).mean())


def _make_mm(draw, st, hnp):
    n, c = draw(st.integers(1, 3)), draw(st.integers(2, 4))
    t = draw(st.lists(st.integers(0, c - 1), min_size=n, max_size=n))
    # apart so that no margin term sits on its kink
    x = host.arange(n * c, dtype=float).reshape(n, c) * 0.37 % 1.9 + array(
        draw, st, hnp, (n, c), 0.0, 0.01)
    return [x], {"target": host.asarray(t)}


def _mm_ref(a, target, p=1):
    n, c = a.shape
    picked = a[host.arange(n), target][:, None]
    z = host.maximum(1.0 - picked + a, 0) ** p
    z[host.arange(n), target] = 0
    return (z.sum(1) / c).mean()


spec("nn.multi_margin_loss", lambda x, target: multi_margin_loss(x, as_array(target)),
     _make_mm, ref=_mm_ref, second_order=False)
spec("nn.multi_margin_loss_p2", lambda x, target: multi_margin_loss(x, as_array(target), 2),
     _make_mm, ref=lambda a, target: _mm_ref(a, target, 2))


def _make_mlm(draw, st, hnp):
    x, kw = _make_mm(draw, st, hnp)
    t = host.full(x[0].shape, -1)
    t[:, 0] = kw["target"]
    return x, {"target": t}


def _mlm_ref(a, target):
    n, c = a.shape
    out = []
    for r in range(n):
        tg = [v for v in target[r] if v >= 0]
        s = sum(max(0.0, 1 - (a[r, j] - a[r, k])) for j in tg for k in range(c) if k not in tg)
        out.append(s / c)
    return host.mean(out)


spec("nn.multilabel_margin_loss", lambda x, target: multilabel_margin_loss(x, target),
     _make_mlm, ref=_mlm_ref, second_order=False)
spec("nn.multilabel_soft_margin_loss", multilabel_soft_margin_loss, _make_two(-2.0, 2.0, 0.0, 1.0),
     ref=lambda a, b: (-(b * host.log(1 / (1 + host.exp(-a))) + (1 - b) * host.log(
         1 / (1 + host.exp(a))))).mean(-1).mean(), grad_args=(0,))
spec("nn.triplet_margin_loss", lambda a, p, n: triplet_margin_loss(a, p, n, margin=3.0),
     _make_three, ref=lambda a, p, n: host.maximum(
        3.0 + host.sqrt(((a - p + 1e-6) ** 2).sum(-1)) - host.sqrt(((a - n + 1e-6) ** 2).sum(-1)),
        0).mean())
spec("nn.cosine_embedding_loss", lambda a, b: cosine_embedding_loss(
    a, b, _const(a, onto_device_of(_make_signs(a.array.shape[:1]), a.array)), -2.0),
    _make_two(0.5, 2.0, max_dims=2), ref=lambda a, b: host.where(
        _make_signs(a.shape[:1]) > 0, 1 - _cos_ref(a, b, -1), _cos_ref(a, b, -1) + 2.0).mean())
spec("nn.gaussian_nll_loss", gaussian_nll_loss, lambda draw, st, hnp: (
    [array(draw, st, hnp, (2, 3)), array(draw, st, hnp, (2, 3)),
     array(draw, st, hnp, (2, 3), 0.5, 2.0)], {}),
    ref=lambda a, b, v: (0.5 * (host.log(v) + (a - b) ** 2 / v)).mean())
def _stirling_ref(b):
    c = host.where(b > 1, b, 2.0)
    return host.where(b > 1, c * host.log(c) - c + 0.5 * host.log(2 * host.pi * c), 0)


spec("nn.poisson_nll_loss", lambda a, b: poisson_nll_loss(a, b, full=True), _make_two(
    -1.0, 1.0, 0.0, 3.0), ref=lambda a, b: (host.exp(a) - b * a + _stirling_ref(b)).mean(),
    grad_args=(0,))
spec("nn.poisson_nll_loss_linear", lambda a, b: poisson_nll_loss(a, b, log_input=False),
     _make_two(0.5, 2.0, 0.0, 3.0), ref=lambda a, b: (a - b * host.log(a + 1e-8)).mean())
spec("nn.kl_div", lambda a, b: kl_div(a, b, "batchmean"), _make_two(-2.0, 0.0, 0.1, 1.0),
     ref=lambda a, b: (b * (host.log(b) - a)).sum() / a.shape[0])
spec("nn.kl_div_log_target", lambda a, b: kl_div(a, b, "sum", True), _make_two(-2.0, 0.0),
     ref=lambda a, b: (host.exp(b) * (b - a)).sum())
