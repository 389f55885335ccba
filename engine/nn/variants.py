"""Variants of the layer/loss/optimiser math whose formulas differ from the ones in
functional.py / optim.py: another parameter layout, another epsilon placement,
another reduction rule.  Named by what they compute; each frontend picks its own.
"""
from __future__ import annotations

import math

from ..backend import as_array, int64, xp
from ..mode import no_grad
from ..ops import elementwise as E
from ..ops import index as I
from ..ops import reduce as R
from ..ops import shape as S
from ..ops.creation import default_generator
from ..tensor import Tensor


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
    a = gen.rng.standard_normal(t.array.shape)
    bad = xp.abs(a) > bound_in_stds
    while bad.any():
        a[bad] = gen.rng.standard_normal(int(bad.sum()))
        bad = xp.abs(a) > bound_in_stds
    with no_grad():
        t.array[...] = (a * std + mean).astype(t.array.dtype)
    t.bump_version()
    return t


# ---------------------------------------------------------------- losses
def _const(like, a):
    return type(like).wrap(as_array(a))


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
    lab = label.array if isinstance(label, Tensor) else as_array(label)
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
            shape = [1] * nd
            shape[ax] = weight.array.shape[-1]
            w_gather = R.sum(E.mul(E.cast(y, weight.array.dtype), S.reshape(weight, shape)),
                             ax, True)
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
        if weight is not None:
            total = R.sum(w_gather)
            return E.div(R.sum(out), E.add(total, E.cast(E.eq(total, 0.0), total.array.dtype)))
        if ignore_index >= 0 and not soft_label:
            count = float((lab != ignore_index).sum())
            return E.div(R.sum(out), count + (count == 0.0))
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
def _f(v, like):
    """A scalar in the parameter's dtype (the kernels compute in it)."""
    return xp.asarray(v, dtype=like.dtype)


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
        v = state["velocity"] = xp.zeros_like(p)
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
    m = state.get("moment1")
    if m is None:
        m = state["moment1"] = xp.zeros_like(p)
        state["moment2"] = xp.zeros_like(p)
        state["beta1_pow"] = _f(beta1, p).reshape(1)
        state["beta2_pow"] = _f(beta2, p).reshape(1)
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
        norm = xp.sqrt((g.astype(xp.float64) ** 2).sum())
        out.append(g * _f(max_norm / norm, g) if norm > max_norm else g)
    return out


def clip_by_global_norm(grads: list, max_norm: float) -> list:
    """All gradients scaled by max_norm / max(global_norm, max_norm)."""
    if not grads:
        return grads
    total = sum(float((g.astype(xp.float32) ** 2).sum()) for g in grads)
    global_norm = math.sqrt(total)
    scale = max_norm / max(global_norm, max_norm)
    return [g * _f(scale, g) for g in grads]



def one_hot(x, num_classes: int, dtype):
    """Rows of the identity picked by the integer tensor ``x`` (a new trailing axis)."""
    a = x.array
    return type(x).wrap((a[..., None] == xp.arange(num_classes)).astype(dtype))


def add_l1_decay(p, g, coeff: float):
    """g + coeff * sign(p)."""
    return g + _f(coeff, p) * xp.sign(p)


def zeros_like_array(a):
    return xp.zeros_like(a)
