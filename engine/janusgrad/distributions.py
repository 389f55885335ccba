"""Probability distributions: sampling, differentiable log-densities and entropies.

Parameters are engine tensors (already broadcast by the caller or here); samples
are drawn from the engine generator outside the graph (``rsample`` keeps the
reparameterised path for Normal and Uniform).  Shapes: ``batch_shape`` is the
parameters' shape without the event dims; ``sample(shape)`` returns
``shape + batch_shape + event_shape``.
"""
from __future__ import annotations

import math

from janusgrad.array.backend import (
    as_array,
    broadcast_shapes,
    float64,
    int64,
    ndarray,
    onto_device_of,
    xp_of,
)
from janusgrad.core.mode import no_grad
from janusgrad.nn import functional as NF
from janusgrad.nn.functional import lgamma_array
from janusgrad.ops import elementwise as E
from janusgrad.ops import index as I
from janusgrad.ops import reduce as R
from janusgrad.ops import shape as S
from janusgrad.ops.creation import default_generator

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def _gen(generator):
    return default_generator if generator is None else generator


def broadcast_all(*tensors):
    """The tensors broadcast to one shape (differentiably)."""
    shape = broadcast_shapes(*(t.array.shape for t in tensors))
    return tuple(t if t.array.shape == shape else S.broadcast_to(t, shape) for t in tensors)


def lgamma_const(t):
    """log Gamma of a tensor's values, as a constant (used on count data only)."""
    a = t.array
    return type(t).wrap(as_array(lgamma_array(a), a.dtype))


def _wrap(like, a):
    """Array ``a`` (host draws, or data on ``like``'s device) as an untracked tensor of
    ``like``'s dtype and device."""
    arr = like.array
    if type(a) is ndarray and type(arr) is not ndarray:
        a = onto_device_of(a.astype(arr.dtype), arr)
    return type(like).wrap(as_array(a, arr.dtype))


class Distribution:
    batch_shape: tuple = ()
    event_shape: tuple = ()

    def _extended(self, sample_shape) -> tuple:
        return tuple(sample_shape) + tuple(self.batch_shape) + tuple(self.event_shape)

    def sample(self, sample_shape=(), generator=None):
        with no_grad():
            return self.rsample(sample_shape, generator)

    def rsample(self, sample_shape=(), generator=None):
        raise NotImplementedError


class Normal(Distribution):
    def __init__(self, loc, scale) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        self.batch_shape = self.loc.array.shape

    @property
    def mean(self):
        return self.loc

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return E.square(self.scale)

    def rsample(self, sample_shape=(), generator=None):
        shape = self._extended(sample_shape)
        eps = _wrap(self.loc, _gen(generator).rng.standard_normal(shape))
        return E.add(self.loc, E.mul(eps, self.scale))

    def log_prob(self, value):
        var = E.square(self.scale)
        return E.sub(E.sub(E.neg(E.div(E.square(E.sub(value, self.loc)), E.mul(var, 2.0))),
                           E.log(self.scale)), _LOG_SQRT_2PI)

    def entropy(self):
        return E.add(E.log(self.scale), 0.5 + _LOG_SQRT_2PI)


class Uniform(Distribution):
    def __init__(self, low, high) -> None:
        self.low, self.high = broadcast_all(low, high)
        self.batch_shape = self.low.array.shape

    @property
    def mean(self):
        return E.div(E.add(self.high, self.low), 2.0)

    @property
    def stddev(self):
        return E.div(E.sub(self.high, self.low), 12 ** 0.5)

    @property
    def variance(self):
        return E.div(E.square(E.sub(self.high, self.low)), 12.0)

    def rsample(self, sample_shape=(), generator=None):
        u = _wrap(self.low, _gen(generator).rng.random(self._extended(sample_shape)))
        return E.add(self.low, E.mul(u, E.sub(self.high, self.low)))

    def log_prob(self, value):
        inside = E.logical_and(E.le(self.low, value), E.gt(self.high, value))
        return E.sub(E.log(E.cast(inside, self.low.array.dtype)),
                     E.log(E.sub(self.high, self.low)))

    def entropy(self):
        return E.log(E.sub(self.high, self.low))


class Categorical(Distribution):
    """Over the last axis of ``probs`` (normalised to sum 1) or ``logits`` (normalised by
    logsumexp)."""

    def __init__(self, probs=None, logits=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            self.probs = E.div(probs, R.sum(probs, -1, keepdims=True))
            self.logits = E.log(E.clamp(self.probs, min=_eps(probs), max=1 - _eps(probs)))
        else:
            self.logits = E.sub(logits, R.logsumexp(logits, -1, keepdims=True))
            self.probs = R.softmax(logits, -1)
        self.num_events = self.probs.array.shape[-1]
        self.batch_shape = self.probs.array.shape[:-1]

    @property
    def mean(self):
        a = self.probs.array
        return _wrap(self.probs, xp_of(a).full(self.batch_shape, math.nan, dtype=a.dtype))

    def sample(self, sample_shape=(), generator=None):
        shape = tuple(sample_shape) + tuple(self.batch_shape)
        p = self.probs.array.reshape(-1, self.num_events).astype(float64)
        xp = xp_of(p)
        cdf = xp.cumsum(p, axis=-1)
        cdf /= cdf[:, -1:]
        n = math.prod(tuple(sample_shape)) if sample_shape else 1
        u = onto_device_of(_gen(generator).rng.random((n, p.shape[0])), p)
        idx = (u[..., None] >= cdf[None, :, :]).sum(-1)
        idx = xp.minimum(idx, self.num_events - 1).astype(int64)
        return type(self.probs).wrap(idx.reshape(shape))

    def log_prob(self, value):
        v = value.array.astype(int64)
        shape = broadcast_shapes(v.shape, self.batch_shape)
        lg = S.broadcast_to(self.logits, shape + (self.num_events,))
        idx = type(value).wrap(xp_of(v).broadcast_to(v, shape)[..., None].copy())
        return S.squeeze(I.take_along_axis(lg, idx, -1), -1)

    def entropy(self):
        lo = float(_finfo(self.logits).min)
        return E.neg(R.sum(E.mul(E.clamp(self.logits, min=lo), self.probs), -1))


class Multinomial(Distribution):
    def __init__(self, total_count: int = 1, probs=None, logits=None) -> None:
        self.total_count = int(total_count)
        self._categorical = Categorical(probs, logits)
        self.probs = self._categorical.probs
        self.logits = self._categorical.logits
        self.batch_shape = self._categorical.batch_shape
        self.event_shape = (self._categorical.num_events,)

    @property
    def mean(self):
        return E.mul(self.probs, float(self.total_count))

    @property
    def variance(self):
        return E.mul(E.mul(self.probs, E.sub(1.0, self.probs)), float(self.total_count))

    def sample(self, sample_shape=(), generator=None):
        n, k = self.total_count, self._categorical.num_events
        draws = self._categorical.sample((n,) + tuple(sample_shape), generator).array
        counts = (draws[..., None] == xp_of(draws).arange(k)).sum(0)
        return type(self.probs).wrap(counts.astype(self.probs.array.dtype))

    def log_prob(self, value):
        logits = self.logits
        xp = xp_of(logits.array)
        spread = xp.broadcast_to(logits.array, value.array.shape)
        zero_inf = (value.array == 0) & xp.isinf(spread) & (spread < 0)
        if zero_inf.any():
            logits = E.where_(type(value).wrap(~zero_inf), logits, 0.0)
        log_n = lgamma_const(E.add(R.sum(value, -1), 1.0))
        log_xs = R.sum(lgamma_const(E.add(value, 1.0)), -1)
        return E.add(E.sub(log_n, log_xs), R.sum(E.mul(logits, value), -1))

    def entropy(self):
        """n H(categorical) - log n! + E[sum_i log x_i!] (the binomial marginals), as torch."""
        n = self.total_count
        k = xp_of(self.probs.array).arange(n + 1, dtype=float64)
        shape = (n + 1,) + (1,) * self.probs.array.ndim
        lgamma_k1 = lgamma_array(k + 1)
        const = (math.lgamma(n + 1) - lgamma_k1 - lgamma_array(n - k + 1)).reshape(shape)
        support = _wrap(self.probs, k.reshape(shape))
        p = E.clamp(self.probs, min=_eps(self.probs), max=1 - _eps(self.probs))
        log_binom = E.add(E.add(_wrap(self.probs, const), E.mul(support, E.log(p))),
                          E.mul(E.sub(float(n), support), E.log1p(E.neg(p))))
        weights = _wrap(self.probs, lgamma_k1.reshape(shape))
        expected = R.sum(R.sum(E.mul(weights, E.exp(log_binom)), 0), -1)
        return E.add(E.sub(E.mul(self._categorical.entropy(), float(n)), math.lgamma(n + 1)),
                     expected)


class Bernoulli(Distribution):
    def __init__(self, probs=None, logits=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            self.probs = probs
            p = E.clamp(probs, min=_eps(probs), max=1 - _eps(probs))
            self.logits = E.sub(E.log(p), E.log1p(E.neg(p)))
        else:
            self.logits = logits
            self.probs = E.sigmoid(logits)
        self.batch_shape = self.probs.array.shape

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return E.mul(self.probs, E.sub(1.0, self.probs))

    def sample(self, sample_shape=(), generator=None):
        shape = self._extended(sample_shape)
        a = self.probs.array
        u = onto_device_of(_gen(generator).rng.random(shape), a)
        p = xp_of(a).broadcast_to(a, shape)
        return _wrap(self.probs, (u < p).astype(a.dtype))

    def log_prob(self, value):
        logits, value = broadcast_all(self.logits, value)
        return E.neg(NF.binary_cross_entropy_with_logits(logits, value, reduction="none"))

    def entropy(self):
        return NF.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")


def _finfo(t):
    return xp_of(t.array).finfo(t.array.dtype)


def _eps(t) -> float:
    return float(_finfo(t).eps)


def all_true(mask) -> bool:
    """Whether every element of a boolean tensor is true (argument checks)."""
    return bool(mask.array.all())
