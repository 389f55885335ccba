"""Normalisation layers, embeddings and the structured dropouts, in engine ops.

Every function here is a composition of recorded engine ops (so derivatives of any order come
free), except the embedding lookup, one primitive whose rule is a masked scatter-add (the rows
of ``padding_idx`` get no gradient).  Running statistics are updated in place, outside the
graph, with either convention: torch's (``new = (1-m)*old + m*batch``, unbiased variance) or
paddle's (``history_weight``: ``new = m*old + (1-m)*batch``, biased variance).
"""
from __future__ import annotations

import math

from janusgrad.array.backend import as_array, host, int64, onto_device_of, xp_of
from janusgrad.core.mode import no_grad
from janusgrad.core.params import assign_
from janusgrad.core.tensor import Tensor, record
from janusgrad.ops import defop, spec
from janusgrad.ops import elementwise as E
from janusgrad.ops import reduce as R
from janusgrad.ops import shape as S
from janusgrad.ops.creation import default_generator
from janusgrad.ops.testing import array


def _const(like, a):
    return type(like).wrap(a)


def _along(t, ndim: int, axis: int):
    """A per-channel vector ``t`` shaped to broadcast along ``axis`` of an ndim array."""
    shape = [1] * ndim
    shape[axis] = t.array.shape[0]
    return S.reshape(t, tuple(shape))


def affine(y, weight, bias, axis: int = 1):
    """y * weight + bias, per channel along ``axis`` (either may be None)."""
    nd = y.array.ndim
    if weight is not None:
        y = E.mul(y, _along(weight, nd, axis))
    if bias is not None:
        y = E.add(y, _along(bias, nd, axis))
    return y


def _update(stat, batch, momentum: float, history_weight: bool) -> None:
    """stat <- (1-m) stat + m batch (torch); m stat + (1-m) batch (``history_weight``)."""
    keep = momentum if history_weight else 1.0 - momentum
    old = stat.array
    b = batch.astype(old.dtype, copy=False)
    assign_(stat, old * keep + b * (1.0 - keep))


def normalize(x, axes, eps: float):
    """(x - mean) / sqrt(var + eps) over ``axes`` (biased variance); also the mean and the
    inverse standard deviation (kept dims)."""
    mean = R.mean(x, axes, keepdims=True)
    xc = E.sub(x, mean)
    var = R.mean(E.square(xc), axes, keepdims=True)
    inv = E.rsqrt(E.add(var, eps))
    return E.mul(xc, inv), mean, var, inv


def batch_norm_stats(x, running_mean=None, running_var=None, weight=None, bias=None,
                     training: bool = False, momentum: float = 0.1, eps: float = 1e-5,
                     axis: int = 1, history_weight: bool = False,
                     unbiased_running: bool = True):
    """Batch normalisation along channel ``axis``: (output, mean, inverse std).

    ``training``: normalise by the batch's statistics (biased variance) and update the
    running ones in place when given; else normalise by the running statistics (the mean
    and inverse std returned are then None)."""
    nd = x.array.ndim
    axis = axis % nd if nd else 0
    axes = tuple(d for d in range(nd) if d != axis)
    if training:
        y, mean, var, inv = normalize(x, axes, eps)
        if running_mean is not None or running_var is not None:
            n = x.array.size // max(x.array.shape[axis] if nd else 1, 1)
            with no_grad():
                if running_mean is not None:
                    _update(running_mean, mean.array.reshape(-1), momentum, history_weight)
                if running_var is not None:
                    v = var.array.reshape(-1)
                    if unbiased_running:
                        v = v * (n / (n - 1)) if n > 1 else v * math.inf
                    _update(running_var, v, momentum, history_weight)
        return affine(y, weight, bias, axis), mean, inv
    rm = _along(running_mean, nd, axis)
    rv = _along(running_var, nd, axis)
    y = E.mul(E.sub(x, rm), E.rsqrt(E.add(rv, eps)))
    return affine(y, weight, bias, axis), None, None


def batch_norm(x, running_mean=None, running_var=None, weight=None, bias=None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5,
               axis: int = 1, history_weight: bool = False, unbiased_running: bool = True):
    """Batch normalisation's output (see batch_norm_stats)."""
    return batch_norm_stats(x, running_mean, running_var, weight, bias, training, momentum,
                            eps, axis, history_weight, unbiased_running)[0]


def group_norm_stats(x, num_groups: int, weight=None, bias=None, eps: float = 1e-5,
                     axis: int = 1):
    """Group normalisation over channel groups of axis 1 (channels first) or the last axis
    (``axis=-1``): (output, mean [N, G], inverse std [N, G])."""
    shape = x.array.shape
    nd = len(shape)
    axis = axis % nd
    if axis != 1:
        x = S.moveaxis(x, axis, 1)
    n = x.array.shape[0]
    per_group = x.array.size // max(n * num_groups, 1)  # (an empty batch too)
    grouped = S.reshape(x, (n, num_groups, per_group))
    y, mean, _, inv = normalize(grouped, (2,), eps)
    y = S.reshape(y, x.array.shape)
    y = affine(y, weight, bias, 1)
    if axis != 1:
        y = S.moveaxis(y, 1, axis)
    return y, S.reshape(mean, (n, num_groups)), S.reshape(inv, (n, num_groups))


def group_norm(x, num_groups: int, weight=None, bias=None, eps: float = 1e-5, axis: int = 1):
    return group_norm_stats(x, num_groups, weight, bias, eps, axis)[0]


def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats: bool = True, momentum: float = 0.1, eps: float = 1e-5,
                  axis: int = 1, history_weight: bool = False):
    """Each sample's channels normalised over their spatial positions; running statistics
    (when given and ``use_input_stats``) move toward the batch average of the per-instance
    ones (unbiased variance), as torch's; without ``use_input_stats`` the running
    statistics normalise."""
    nd = x.array.ndim
    axis = axis % nd
    if not use_input_stats:
        return batch_norm(x, running_mean, running_var, weight, bias, False, momentum, eps,
                          axis)
    axes = tuple(d for d in range(nd) if d not in (0, axis))
    y, mean, var, _ = normalize(x, axes, eps)
    if running_mean is not None or running_var is not None:
        n = 1
        for d in axes:
            n *= x.array.shape[d]
        with no_grad():
            if running_mean is not None:
                m = mean.array.reshape(x.array.shape[0], -1).mean(axis=0)
                _update(running_mean, m, momentum, history_weight)
            if running_var is not None:
                v = var.array.reshape(x.array.shape[0], -1) * (n / (n - 1) if n > 1
                                                               else math.inf)
                _update(running_var, v.mean(axis=0), momentum, history_weight)
    return affine(y, weight, bias, axis)


def local_response_norm(x, size: int, alpha: float = 1e-4, beta: float = 0.75,
                        k: float = 1.0, axis: int = 1):
    """x / (k + alpha/size * sum of x^2 over a window of ``size`` channels)^beta, the
    window [c - size//2, c + (size-1)//2] zero-padded at the ends."""
    nd = x.array.ndim
    axis = axis % nd
    c = x.array.shape[axis]
    sq = E.square(x)
    padded_shape = list(sq.array.shape)
    padded_shape[axis] = c + size - 1
    padded = S.unnarrow(sq, tuple(padded_shape), axis, size // 2)
    total = None
    for o in range(size):
        piece = S.narrow(padded, axis, o, c)
        total = piece if total is None else E.add(total, piece)
    div = E.pow(E.add(E.mul(total, alpha / size), k), beta)
    return E.div(x, div)


# ---------------------------------------------------------------- embedding
def _embedding_rule(np, g, shape, attrs):
    ids, keep = attrs
    if keep is not None:
        g = np.where(keep, g, 0.0)
    return np.index_add(g, shape, (ids,))


_embedding = defop("embedding", rule=_embedding_rule, uses=("shape", "attrs"))


def embedding_ids(weight, ids):
    """``ids`` (a tensor, array or list) as an integer array on weight's device."""
    a = ids.array if isinstance(ids, Tensor) else as_array(ids)
    if type(a) is not type(weight.array):
        a = onto_device_of(a, weight.array)
    return a


def renorm_rows_(weight, ids, max_norm: float, norm_type: float = 2.0) -> None:
    """Rescale, in place, the rows of ``weight`` that ``ids`` pick whose p-norm exceeds
    ``max_norm`` to norm max_norm/(norm + 1e-7) * norm (torch's embedding_renorm_)."""
    w = weight.array
    xp = xp_of(w)
    rows = xp.unique(ids.reshape(-1))
    picked = w[rows]
    if norm_type == math.inf:
        norms = xp.abs(picked).max(axis=1)
    elif norm_type == 1:
        norms = xp.abs(picked).sum(axis=1)
    else:
        norms = (xp.abs(picked) ** norm_type).sum(axis=1) ** (1.0 / norm_type)
    over = norms > max_norm
    if bool(over.any()):
        scale = xp.where(over, max_norm / (norms + 1e-7), 1.0).astype(w.dtype)
        new = w.copy()
        new[rows] = picked * scale[:, None]
        assign_(weight, new)


def embedding(weight, ids, padding_idx=None, max_norm=None, norm_type: float = 2.0,
              zero_padding_output: bool = False):
    """Rows of ``weight`` picked by integer ``ids`` (output shape ids.shape + [dim]).

    ``padding_idx``: that row gets no gradient (and reads as zeros with
    ``zero_padding_output``, paddle's behaviour); ``max_norm``: the picked rows are first
    renormalised in place (see renorm_rows_)."""
    idx = embedding_ids(weight, ids)
    if max_norm is not None:
        with no_grad():
            renorm_rows_(weight, idx, max_norm, norm_type)
    w = weight.array
    out = w[idx]
    keep = None
    if padding_idx is not None:
        n = w.shape[0]
        pad = padding_idx + n if padding_idx < 0 else padding_idx
        keep = (idx != pad)[..., None]
        if zero_padding_output:
            out = out * keep.astype(out.dtype)
    return record(_embedding, out, (weight,), attrs=(idx, keep))


# ---------------------------------------------------------------- structured dropout
# alpha dropout keeps SELU's mean and variance: dropped units take SELU's negative saturation
# value -alpha*scale, then an affine map a*y + b restores the moments
SELU_ALPHA_SCALE = 1.6732632423543772848170429916717 * 1.0507009873554804934193349852946


def feature_mask_shape(shape: tuple, batched: bool = True) -> tuple:
    """The shape of a mask that drops whole channels: (N, C, 1, ...) (or (C, 1, ...))."""
    lead = 2 if batched else 1
    return tuple(shape[:lead]) + (1,) * (len(shape) - lead)


def masked_dropout(x, p: float, training: bool, mask_shape=None, alpha: bool = False,
                   generator=None):
    """Dropout with one draw per element of ``mask_shape`` (broadcast over x; default x's
    shape): survivors scaled by 1/(1-p), or with ``alpha`` the alpha-dropout affine map
    a*(x*keep - alpha'*(1-keep)) + b."""
    if not training or p == 0.0 or x.array.size == 0:
        return x
    if p == 1.0:
        return E.mul(x, 0.0)
    gen = default_generator if generator is None else generator
    shape = x.array.shape if mask_shape is None else tuple(mask_shape)
    keep = gen.rng.random(shape) >= p
    dt = x.array.dtype
    if not alpha:
        mask = (keep / (1.0 - p)).astype(dt)
        return E.mul(x, _const(x, onto_device_of(mask, x.array)))
    a = 1.0 / math.sqrt((SELU_ALPHA_SCALE ** 2 * p + 1.0) * (1.0 - p))
    mul = (keep * a).astype(dt)
    add = ((keep - 1.0) * SELU_ALPHA_SCALE * a + SELU_ALPHA_SCALE * a * p).astype(dt)
    y = E.mul(x, _const(x, onto_device_of(mul, x.array)))
    return E.add(y, _const(x, onto_device_of(add, x.array)))


# ---------------------------------------------------------------- specs
def _bn_ref(a, w, b, eps=1e-5):
    axes = (0,) + tuple(range(2, a.ndim))
    m = a.mean(axis=axes, keepdims=True)
    v = a.var(axis=axes, keepdims=True)
    shape = [1] * a.ndim
    shape[1] = -1
    return (a - m) / host.sqrt(v + eps) * w.reshape(shape) + b.reshape(shape)


def _bn_case(draw, st, hnp):
    n = draw(st.integers(2, 3))
    c = draw(st.integers(1, 3))
    rest = draw(st.lists(st.integers(1, 3), min_size=0, max_size=2))
    shape = (n, c, *rest)
    return [array(draw, st, hnp, shape), array(draw, st, hnp, (c,)),
            array(draw, st, hnp, (c,))], {}


def _gn_case(draw, st, hnp):
    n = draw(st.integers(1, 2))
    g = draw(st.integers(1, 2))
    c = g * draw(st.integers(1, 2))
    rest = draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))
    if c * rest[0] // g < 2:
        rest[0] = 2
    shape = (n, c, *rest)
    return [array(draw, st, hnp, shape), array(draw, st, hnp, (c,)),
            array(draw, st, hnp, (c,))], {"num_groups": g}


def _gn_ref(a, w, b, num_groups):
    n, c = a.shape[:2]
    r = a.reshape(n, num_groups, -1)
    y = ((r - r.mean(axis=2, keepdims=True)) / host.sqrt(r.var(axis=2, keepdims=True) + 1e-5))
    shape = [1] * a.ndim
    shape[1] = -1
    return y.reshape(a.shape) * w.reshape(shape) + b.reshape(shape)


def _in_case(draw, st, hnp):
    n = draw(st.integers(1, 2))
    c = draw(st.integers(1, 3))
    rest = draw(st.lists(st.integers(2, 3), min_size=1, max_size=2))
    return [array(draw, st, hnp, (n, c, *rest)), array(draw, st, hnp, (c,)),
            array(draw, st, hnp, (c,))], {}


def _in_ref(a, w, b):
    axes = tuple(range(2, a.ndim))
    y = (a - a.mean(axis=axes, keepdims=True)) / host.sqrt(a.var(axis=axes, keepdims=True)
                                                           + 1e-5)
    shape = [1] * a.ndim
    shape[1] = -1
    return y * w.reshape(shape) + b.reshape(shape)


def _lrn_case(draw, st, hnp):
    n = draw(st.integers(1, 2))
    c = draw(st.integers(1, 4))
    rest = draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))
    return [array(draw, st, hnp, (n, c, *rest))], {"size": draw(st.integers(1, 4))}


def _lrn_ref(a, size):
    c = a.shape[1]
    out = host.empty_like(a)
    for i in range(c):
        lo, hi = max(0, i - size // 2), min(c, i + (size - 1) // 2 + 1)
        s = (a[:, lo:hi] ** 2).sum(axis=1)
        out[:, i] = a[:, i] / (1.0 + 0.5 / size * s) ** 0.75
    return out


def _emb_case(draw, st, hnp):
    n = draw(st.integers(2, 5))
    d = draw(st.integers(1, 3))
    ids_shape = draw(st.lists(st.integers(1, 3), min_size=0, max_size=2))
    ids = draw(hnp.arrays(int64, tuple(ids_shape), elements=st.integers(0, n - 1)))
    pad = draw(st.one_of(st.none(), st.integers(0, n - 1)))
    return [array(draw, st, hnp, (n, d))], {"ids": ids, "padding_idx": pad}


def _emb_ref(w, ids, padding_idx):
    out = w[ids]
    if padding_idx is not None:
        out = out * (ids != padding_idx)[..., None]
    return out


spec("nn.batch_norm", lambda x, w, b: batch_norm(x, None, None, w, b, True), _bn_case,
     ref=_bn_ref)
spec("nn.group_norm", lambda x, w, b, num_groups: group_norm(x, num_groups, w, b), _gn_case,
     ref=_gn_ref)
spec("nn.instance_norm", lambda x, w, b: instance_norm(x, None, None, w, b), _in_case,
     ref=_in_ref)
spec("nn.local_response_norm", lambda x, size: local_response_norm(x, size, 0.5),
     _lrn_case, ref=_lrn_ref)
# (the padding rows read as zeros here, paddle's way, so that their zero gradient is the
# derivative; torch's reading of the stored row is a differential test's)
spec("nn.embedding", lambda w, ids, padding_idx: embedding(w, ids, padding_idx,
                                                           zero_padding_output=True),
     _emb_case, ref=_emb_ref)
