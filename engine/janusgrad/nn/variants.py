"""Variants of the layer/loss/optimiser math whose formulas differ from the ones in
functional.py / optim.py: another parameter layout, another epsilon placement,
another reduction rule.  Named by what they compute; each frontend picks its own.
"""
from __future__ import annotations

import math

from janusgrad.array.backend import (
    as_array,
    broadcast_shapes,
    constant,
    float32,
    float64,
    int64,
    onto_device_of,
    xp_of,
)
from janusgrad.core.mode import no_grad
from janusgrad.core.tensor import Tensor
from janusgrad.nn.functional import (
    _same_device,
    binary_cross_entropy_with_logits,
    lgamma_array,
    nll_loss,
)
from janusgrad.ops import elementwise as E
from janusgrad.ops import index as I
from janusgrad.ops import reduce as R
from janusgrad.ops import shape as S
from janusgrad.ops.creation import default_generator


# ---------------------------------------------------------------- initialiser fans
def fans_in_first(shape: tuple) -> tuple:
    """(fan_in, fan_out) for matrices stored ``[in, out]`` and kernels ``[out, in, *k]``."""
    if not shape:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    field = 1
    for d in shape[2:]:
        field *= d
    return shape[1] * field, shape[0] * field


def xavier_uniform_limit(fan_in: float, fan_out: float, gain: float = 1.0) -> float:
    total = float(fan_in + fan_out)
    return 0.0 if total == 0 else gain * math.sqrt(6.0 / total)


def xavier_normal_std(fan_in: float, fan_out: float, gain: float = 1.0) -> float:
    total = float(fan_in + fan_out)
    return 0.0 if total == 0 else gain * math.sqrt(2.0 / total)


def kaiming_uniform_limit(fan: float, gain: float) -> float:
    return gain * math.sqrt(3.0 / float(fan))


def kaiming_normal_std(fan: float, gain: float) -> float:
    return gain / math.sqrt(float(fan))


def truncated_normal_(t, mean: float, std: float, bound_in_stds: float = 2.0, generator=None):
    """Fill ``t`` with normal draws, redrawing those beyond ``bound_in_stds`` deviations."""
    gen = default_generator if generator is None else generator
    a = gen.rng.standard_normal(t.array.shape)  # host draws
    bad = abs(a) > bound_in_stds
    while bad.any():
        a[bad] = gen.rng.standard_normal(int(bad.sum()))
        bad = abs(a) > bound_in_stds
    with no_grad():
        t.array[...] = onto_device_of((a * std + mean).astype(t.array.dtype), t.array)
    t.bump_version()
    return t


# ---------------------------------------------------------------- losses
def _const(like, a):
    return type(like).wrap(as_array(a))


def _labels(labels, like):
    """The array of ``labels`` (a tensor, or host data put on the device of array ``like``)."""
    if isinstance(labels, Tensor):
        return labels.array
    return onto_device_of(as_array(labels), like)


def _reduce(loss, reduction: str):
    if reduction == "mean":
        return R.mean(loss)
    if reduction == "sum":
        return R.sum(loss)
    return loss


def first_bad_label(labels, n_classes: int, ignore_index: int):
    """The first class index outside [0, n_classes) that is not ``ignore_index``, or None."""
    t = labels.array if isinstance(labels, Tensor) else as_array(labels)
    bad = ((t < 0) | (t >= n_classes)) & (t != ignore_index)
    if not bad.any():
        return None
    return int(t[bad].reshape(-1)[0])


def keepdim_cross_entropy(x, label, weight=None, ignore_index: int = -100,
                          reduction: str = "mean", soft_label: bool = False, axis: int = -1,
                          use_softmax: bool = True, label_smoothing: float = 0.0):
    """Cross-entropy whose per-sample loss keeps the class axis (size 1).

    ``label`` holds class indices (shape of ``x`` without, or with a size-1,
    class axis) or, with ``soft_label``, a distribution over the classes.
    Label smoothing turns index labels into one-hot rows over the LAST axis
    mixed with the uniform distribution.  ``use_softmax=False`` takes ``x`` as
    probabilities.  "mean": weighted sum / summed weights when weights are
    given, else the sum over non-ignored samples divided by their count when
    ``ignore_index >= 0``, else the plain mean (ignored samples count as 0).
    "none": the keepdim loss, squeezed on the class axis when the labels came
    without one and were not smoothed.
    """
    nd = x.array.ndim
    ax = axis % nd
    R.refuse_integers(x, "cross_entropy")  # (with or without its softmax)
    lab = _labels(label, x.array)
    _same_device("cross_entropy", x, lab, None if weight is None else weight.array)
    xp = xp_of(lab)
    squeeze_out = lab.ndim == nd - 1
    if squeeze_out:
        lab = xp.expand_dims(lab, ax)
    label_t = label if isinstance(label, Tensor) and not squeeze_out else None
    if label_smoothing > 0.0:
        soft_label = True
        if squeeze_out:
            n = x.array.shape[-1]
            onehot = (xp.squeeze(lab, ax)[..., None] == xp.arange(n)).astype(x.array.dtype)
            lab = onehot
            label_t = None
        c = lab.shape[-1]
        if label_t is not None:
            label_t = E.add(E.mul(E.cast(label_t, x.array.dtype), 1.0 - label_smoothing),
                            label_smoothing / c)
        else:
            lab = ((1.0 - label_smoothing) * lab + label_smoothing / c).astype(x.array.dtype)
        squeeze_out = False
    logp = R.log_softmax(x, ax) if use_softmax else E.log(x)
    if soft_label:
        y = label_t if label_t is not None else _const(x, lab.astype(x.array.dtype))
        out = E.neg(R.sum(E.mul(logp, y), ax, True))
        w_gather = None
        if weight is not None:
            # the class weights meet the labels along the LAST axis, whatever ``axis`` is
            w_gather = R.sum(E.mul(E.cast(y, weight.array.dtype), weight), -1)
            w_gather = S.reshape(w_gather, out.array.shape)
            out = E.mul(out, w_gather)
    else:
        idx = lab.astype(int64)
        valid = idx != ignore_index
        safe = xp.where(valid, idx, 0)
        picked = I.take_along_axis(logp, _const(x, safe), ax)
        mask = valid.astype(x.array.dtype)
        out = E.neg(E.mul(picked, _const(x, mask)))
        w_gather = None
        if weight is not None:
            w_gather = _const(x, (weight.array[safe] * mask).astype(weight.array.dtype))
            out = E.mul(out, w_gather)
    if reduction == "sum":
        return R.sum(out)
    if reduction == "mean":
        if ignore_index >= 0:
            # the mask compares the final labels (smoothed or soft ones included) with
            # ignore_index element by element
            final = (label_t.array if soft_label and label_t is not None else lab)
            mask = (final != ignore_index).astype(x.array.dtype)
            if weight is None:
                count = float(mask.sum())
            else:
                count = float((mask * w_gather.array).sum())
            return E.div(R.sum(out), count + (count == 0.0))
        if weight is not None:
            total = R.sum(w_gather)
            return E.div(R.sum(out), E.add(total, E.cast(E.eq(total, 0.0), total.array.dtype)))
        return R.mean(out)
    return S.squeeze(out, ax) if squeeze_out else out


def huber_or_smooth_l1(x, y, reduction: str = "mean", delta: float = 1.0,
                       is_huber: bool = True):
    """|d| < delta: 0.5 d^2 (huber) or 0.5 d^2 / delta (smooth L1); beyond it
    delta (|d| - delta/2) or |d| - delta/2."""
    d = E.abs(E.sub(x, y))
    small = E.lt(d, delta)
    if is_huber:
        loss = E.where_(small, E.mul(E.square(d), 0.5), E.mul(E.sub(d, 0.5 * delta), delta))
    else:
        loss = E.where_(small, E.div(E.mul(E.square(d), 0.5), delta), E.sub(d, 0.5 * delta))
    return _reduce(loss, reduction)


# ---------------------------------------------------------------- optimiser updates
# Each works on arrays in place: ``p`` the parameter array, ``g`` its gradient
# (already regularised/clipped), ``state`` a dict of accumulator arrays.
def _f(v: float, like):
    """A hyper-parameter as a 0-d array of the parameter's dtype on its device (the kernels
    compute in that dtype; cached, so it is made once per value)."""
    return constant(xp_of(like), v, like.dtype)


def _scalar(v, like):
    """A computed scale (a number or a 0-d array) as a 0-d array of ``like``'s dtype and
    device, made afresh."""
    return xp_of(like).asarray(v, dtype=like.dtype)


def add_l2_decay(p, g, coeff: float):
    """g + coeff * p (an L2 penalty folded into the gradient)."""
    return g + _f(coeff, p) * p


def sgd_plain(p, g, lr: float) -> None:
    p -= _f(lr, p) * g


def momentum_lr_outside(p, g, state: dict, lr: float, momentum: float,
                        nesterov: bool) -> None:
    """v = mu v + g; p -= lr (g + mu v) with nesterov, else lr v (velocity without lr)."""
    v = state.get("velocity")
    if v is None:
        v = state["velocity"] = xp_of(p).zeros_like(p)
    mu = _f(momentum, p)
    v *= mu
    v += g
    if nesterov:
        p -= _f(lr, p) * (g + mu * v)
    else:
        p -= _f(lr, p) * v


def adam_scaled_eps(p, g, state: dict, lr: float, beta1: float, beta2: float, eps: float,
                    amsgrad: bool = False, decay_first: float = 0.0) -> None:
    """Adam with the bias corrections folded into the step and epsilon scaled by
    sqrt(1 - beta2^t):  p -= lr sqrt(1-b2^t)/(1-b1^t) * m / (sqrt(v) + eps sqrt(1-b2^t)).

    ``decay_first`` > 0 first shrinks p by (1 - lr * decay_first) (decoupled decay).
    The running powers b1^t, b2^t are kept in the state (``beta1_pow``, ``beta2_pow``:
    the values for the step being taken).
    """
    xp = xp_of(p)
    m = state.get("moment1")
    if m is None:
        m = state["moment1"] = xp.zeros_like(p)
        state["moment2"] = xp.zeros_like(p)
        state["beta1_pow"] = xp.full((1,), beta1, dtype=p.dtype)  # updated in place below
        state["beta2_pow"] = xp.full((1,), beta2, dtype=p.dtype)
        if amsgrad:
            state["moment2_max"] = xp.zeros_like(p)
    v = state["moment2"]
    b1p, b2p = state["beta1_pow"], state["beta2_pow"]
    if decay_first:
        p *= _f(1.0 - lr * decay_first, p)
    b1, b2 = _f(beta1, p), _f(beta2, p)
    m *= b1
    m += (1 - b1) * g
    v *= b2
    v += (1 - b2) * g * g
    denom_v = v
    if amsgrad:
        vmax = state.setdefault("moment2_max", xp.zeros_like(p))
        xp.maximum(vmax, v, out=vmax)
        denom_v = vmax
    one = _f(1.0, p)
    corr2 = xp.sqrt(one - b2p)
    lr_t = _f(lr, p) * corr2 / (one - b1p)
    p -= lr_t * (m / (xp.sqrt(denom_v) + _f(eps, p) * corr2))
    b1p *= b1
    b2p *= b2


def rmsprop_eps_inside(p, g, state: dict, lr: float, rho: float, eps: float,
                       momentum: float, centered: bool) -> None:
    """ms = rho ms + (1-rho) g^2; mom = mu mom + lr g / sqrt(ms [- mg^2] + eps); p -= mom."""
    xp = xp_of(p)
    ms = state.get("mean_square")
    if ms is None:
        ms = state["mean_square"] = xp.zeros_like(p)
        state["momentum"] = xp.zeros_like(p)
        if centered:
            state["mean_grad"] = xp.zeros_like(p)
    mom = state["momentum"]
    r = _f(rho, p)
    ms *= r
    ms += (1 - r) * g * g
    if centered:
        mg = state["mean_grad"]
        mg *= r
        mg += (1 - r) * g
        denom = xp.sqrt(ms - mg * mg + _f(eps, p))
    else:
        denom = xp.sqrt(ms + _f(eps, p))
    mom *= _f(momentum, p)
    mom += _f(lr, p) * g / denom
    p -= mom


def adagrad_eps_outside(p, g, state: dict, lr: float, eps: float,
                        initial_accumulator_value: float = 0.0) -> None:
    """acc += g^2; p -= lr g / (sqrt(acc) + eps)."""
    xp = xp_of(p)
    acc = state.get("moment")
    if acc is None:
        acc = state["moment"] = xp.full_like(p, initial_accumulator_value)
    acc += g * g
    p -= _f(lr, p) * g / (xp.sqrt(acc) + _f(eps, p))


# ---------------------------------------------------------------- gradient clipping
def clip_each_by_norm(grads: list, max_norm: float) -> list:
    """Each gradient scaled to L2 norm <= max_norm on its own."""
    out = []
    for g in grads:
        norm = xp_of(g).sqrt((g.astype(float64) ** 2).sum())
        out.append(g * _scalar(max_norm / norm, g) if norm > max_norm else g)
    return out


def clip_by_global_norm(grads: list, max_norm: float) -> list:
    """All gradients scaled by max_norm / max(global_norm, max_norm)."""
    if not grads:
        return grads
    total = sum(float((g.astype(float32) ** 2).sum()) for g in grads)
    global_norm = math.sqrt(total)
    scale = max_norm / max(global_norm, max_norm)
    return [g * _scalar(scale, g) for g in grads]



def one_hot(x, num_classes: int, dtype):
    """Rows of the identity picked by the integer tensor ``x`` (a new trailing axis)."""
    a = x.array
    return type(x).wrap((a[..., None] == xp_of(a).arange(num_classes)).astype(dtype))


def add_l1_decay(p, g, coeff: float):
    """g + coeff * sign(p)."""
    return g + _f(coeff, p) * xp_of(p).sign(p)


def zeros_like_array(a):
    return xp_of(a).zeros_like(a)


# ---------------------------------------------------------------- distributions
# Written with engine ops so log_prob/entropy/rsample are differentiable in the
# distribution's parameters.  ``gen`` is an engine Generator (None: the default).
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def lgamma_const(t):
    """log Gamma of the data of ``t`` (no gradient: used on counts only)."""
    return type(t).wrap(as_array(lgamma_array(t.array), t.array.dtype))


def _drawn(like, a):
    """Host draws ``a`` in ``like``'s dtype on its device, as an untracked tensor."""
    arr = like.array
    return type(like).wrap(onto_device_of(a.astype(arr.dtype), arr))


def _generator(gen):
    return default_generator if gen is None else gen


def normal_rsample(loc, scale, shape: tuple, gen=None):
    """loc + scale * eps with eps ~ N(0, 1) of ``shape + broadcast(loc, scale)``."""
    batch = broadcast_shapes(loc.array.shape, scale.array.shape)
    eps = _generator(gen).rng.standard_normal(tuple(shape) + batch)
    return E.add(loc, E.mul(scale, _drawn(loc, eps)))


def normal_log_prob(loc, scale, value):
    var = E.square(scale)
    return E.sub(E.sub(E.neg(E.div(E.square(E.sub(value, loc)), E.mul(var, 2.0))),
                       E.log(scale)), _LOG_SQRT_2PI)


def normal_entropy(loc, scale):
    """0.5 + log(sqrt(2 pi)) + log(scale), broadcast to loc's shape (no gradient to loc)."""
    shape = broadcast_shapes(loc.array.shape, scale.array.shape)
    return S.broadcast_to(E.add(E.log(scale), 0.5 + _LOG_SQRT_2PI), shape)


def uniform_rsample(low, high, shape: tuple, gen=None):
    batch = broadcast_shapes(low.array.shape, high.array.shape)
    u = _generator(gen).rng.random(tuple(shape) + batch)
    return E.add(low, E.mul(E.sub(high, low), _drawn(low, u)))


def uniform_open_log_prob(low, high, value):
    """log(1/(high-low)) strictly inside (low, high), -inf elsewhere (ends included)."""
    inside = E.logical_and(E.lt(low, value), E.lt(value, high)).array
    # log of the indicator: 0 inside, -inf outside (a constant: no gradient flows there)
    log_mask = xp_of(inside).where(inside, 0.0, -math.inf).astype(value.array.dtype)
    return E.sub(_const(value, log_mask), E.log(E.sub(high, low)))


def uniform_open_prob(low, high, value):
    inside = E.logical_and(E.lt(low, value), E.lt(value, high))
    return E.div(E.cast(inside, value.array.dtype), E.sub(high, low))


def uniform_entropy(low, high):
    return E.log(E.sub(high, low))


def normalized_by_sum(w):
    """w / sum(w) over the last axis (weights taken as unnormalised probabilities)."""
    return E.div(w, R.sum(w, -1, True))


def softmax_entropy(logits):
    """Entropy of softmax(logits) over the last axis."""
    shifted = E.sub(logits, R.amax(logits, -1, True))
    e = E.exp(shifted)
    z = R.sum(e, -1, True)
    p = E.div(e, z)
    return E.neg(R.sum(E.mul(p, E.sub(shifted, E.log(z))), -1))


def sample_categories(probs, shape: tuple, gen=None):
    """Class indices drawn from rows of ``probs`` (last axis): shape ``shape + batch``."""
    p = probs.array.astype(float64)
    p = p / p.sum(-1, keepdims=True)
    batch = p.shape[:-1]
    flat = p.reshape(-1, p.shape[-1])
    n = math.prod(shape) if len(shape) else 1
    rng = _generator(gen).rng
    cdf = xp_of(flat).cumsum(flat, -1)
    u = onto_device_of(rng.random((n, flat.shape[0], 1)), flat)
    idx = (u > cdf[None]).sum(-1).clip(0, flat.shape[-1] - 1)
    return type(probs).wrap(idx.reshape(tuple(shape) + batch).astype(int64))


def take_last_axis(t, index):
    """Entries of ``t`` along its last axis at ``index``.  For a 1-D ``t`` the result has
    index's shape; otherwise a 1-D index is applied to every row (result batch + [k])
    and a higher-rank index is used as is (take-along-axis)."""
    idx = index.array.astype(int64)
    if t.array.ndim == 1:
        return S.reshape(I.take_along_axis(t, _const(t, idx.reshape(-1)), 0), idx.shape)
    if idx.ndim == 1:
        idx = idx.reshape((1,) * (t.array.ndim - 1) + (-1,))
    xp = xp_of(idx)
    full = xp.broadcast_to(idx, t.array.shape[:-1] + idx.shape[-1:])
    return I.take_along_axis(t, _const(t, xp.ascontiguousarray(full)), -1)


def multinomial_log_prob(probs, value):
    """log n!/prod(k!) + sum k log p (0 log 0 = 0)."""
    v = value if value.array.dtype.kind == "f" else E.cast(value, probs.array.dtype)
    logp = E.log(probs)
    zero_inf = (v.array == 0) & xp_of(logp.array).isinf(logp.array)
    logp = E.where_(_const(logp, zero_inf), E.mul(logp, 0.0), logp) if zero_inf.any() else logp
    total = lgamma_const(E.add(R.sum(v, -1), 1.0))
    parts = R.sum(lgamma_const(E.add(v, 1.0)), -1)
    return E.add(E.sub(total, parts), R.sum(E.mul(v, logp), -1))


def counts_of_draws(draws, n_classes: int, dtype):
    """Per-class counts of category draws along the first axis."""
    a = draws.array
    onehot = (a[..., None] == xp_of(a).arange(n_classes)).astype(dtype)
    return type(draws).wrap(onehot.sum(0))


def multinomial_entropy(probs, total_count: int):
    """n H(p) - lgamma(n+1) + sum_k sum_{j=1..n} Binom(j; n, p_k) lgamma(j+1)."""
    dt = probs.array.dtype
    n = float(total_count)
    logits = E.log(normalized_by_sum(probs))
    cat_entropy = softmax_entropy(logits)
    xp = xp_of(probs.array)
    support = xp.arange(1, total_count + 1, dtype=dt).reshape((-1,) + (1,) * probs.array.ndim)
    s = _const(probs, support)
    lgamma_k1 = lgamma_array(support + 1)
    log_binom = (math.lgamma(n + 1) - lgamma_k1 - lgamma_array(n - support + 1)).astype(dt)
    log_pmf = E.add(E.add(_const(probs, log_binom), E.mul(s, E.log(probs))),
                    E.mul(E.sub(n, s), E.log1p(E.neg(probs))))
    tail = R.sum(E.mul(E.exp(log_pmf), _const(probs, lgamma_k1.astype(dt))),
                 (0, probs.array.ndim))
    return E.add(E.sub(E.mul(cat_entropy, n), math.lgamma(n + 1)), tail)


def clip_probs_open(probs, eps: float):
    return E.clamp(probs, eps, 1.0 - eps)


def bernoulli_log_prob(probs_clipped, value):
    """value log p + (1 - value) log(1 - p), computed from the logits stably."""
    logits = E.sub(E.log(probs_clipped), E.log1p(E.neg(probs_clipped)))
    shape = broadcast_shapes(logits.array.shape, value.array.shape)
    return E.neg(binary_cross_entropy_with_logits(S.broadcast_to(logits, shape),
                                                  S.broadcast_to(value, shape),
                                                  reduction="none"))


def bernoulli_entropy_label_constant(probs_clipped):
    """BCE-with-logits of the logits against the probabilities, the latter taken as a
    constant label (so the gradient flows through the logits only, and is ~0)."""
    logits = E.sub(E.log(probs_clipped), E.log1p(E.neg(probs_clipped)))
    return binary_cross_entropy_with_logits(logits, _const(probs_clipped, probs_clipped.array),
                                            reduction="none")


def bernoulli_sample(probs, shape: tuple, gen=None):
    u = _generator(gen).rng.random(tuple(shape) + probs.array.shape)
    u = onto_device_of(u, probs.array)
    return type(probs).wrap((u < probs.array).astype(probs.array.dtype))


def batch_shape_of(*params) -> tuple:
    return broadcast_shapes(*(p.array.shape for p in params))


def dropout_shared_mask(x, p: float, axes, scale: bool = True, gen=None):
    """Dropout whose mask varies only along ``axes`` (broadcast over the other axes);
    the kept values are scaled by 1/(1-p) when ``scale``."""
    nd = x.array.ndim
    keep_axes = {a % nd for a in axes}
    shape = tuple(d if i in keep_axes else 1 for i, d in enumerate(x.array.shape))
    keep = _generator(gen).rng.random(shape) >= p
    mask = keep / (1.0 - p) if scale and p < 1.0 else keep
    return E.mul(x, _drawn(x, mask))


def nll_mean_zero_when_all_ignored(logp, target, weight=None, ignore_index: int = -100,
                                   axis: int = 1):
    """Weighted-mean NLL whose value is 0 (not nan) when no label counts."""
    total_loss = nll_loss(logp, target, weight, ignore_index, "sum", axis)
    t = _labels(target, logp.array)
    keep = t != ignore_index
    if weight is None:
        total = float(keep.sum())
    else:
        total = float((weight.array[xp_of(t).where(keep, t, 0)] * keep).sum())
    return E.div(total_loss, total + (total == 0.0))
