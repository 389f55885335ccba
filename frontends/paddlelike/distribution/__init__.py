"""paddle.distribution: Normal, Uniform, Categorical, Multinomial, Bernoulli.

Arguments that are Python numbers or lists become float32 tensors; sampling
uses the engine's generator (seeded by ``paddle.seed``).  paddle's quirks are
kept: Categorical's ``probs``/``log_prob`` normalise the logits by their sum
while ``sample``/``entropy`` use their softmax; Uniform's density is zero at
both ends; Bernoulli clips probabilities to (eps, 1 - eps).
"""
from __future__ import annotations

from collections.abc import Iterable

from janusgrad.core.tensor import Tensor as _EngineTensor
from janusgrad.host.dropin import module_getattr as _module_getattr
from janusgrad.nn import variants as _V

from ..creation import to_tensor

_FLOAT32_EPS = 1.1920928955078125e-07


def _param(v):
    if isinstance(v, _EngineTensor):
        return v
    if isinstance(v, (int, float)):
        v = float(v)
    return to_tensor(v, dtype="float32")


def _shape(shape) -> tuple:
    if not isinstance(shape, Iterable):
        raise TypeError("sample shape must be Iterable object.")
    return tuple(int(s) for s in shape)


class Distribution:
    def __init__(self, batch_shape=(), event_shape=()) -> None:
        self._batch_shape = tuple(batch_shape)
        self._event_shape = tuple(event_shape)

    @property
    def batch_shape(self) -> tuple:
        return self._batch_shape

    @property
    def event_shape(self) -> tuple:
        return self._event_shape

    def prob(self, value):
        return self.probs(value)


class Normal(Distribution):
    def __init__(self, loc, scale, name=None) -> None:
        self.name = name if name is not None else "Normal"
        self.loc = _param(loc)
        self.scale = _param(scale)
        super().__init__(_V.batch_shape_of(self.loc, self.scale))

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return self.scale ** 2

    def sample(self, shape=(), seed: int = 0):
        return _V.normal_rsample(self.loc, self.scale, _shape(shape))

    def rsample(self, shape=()):
        return _V.normal_rsample(self.loc, self.scale, _shape(shape))

    def log_prob(self, value):
        return _V.normal_log_prob(self.loc, self.scale, value)

    def probs(self, value):
        return self.log_prob(value).exp()

    def entropy(self):
        return _V.normal_entropy(self.loc, self.scale)


class Uniform(Distribution):
    def __init__(self, low, high, name=None) -> None:
        self.name = name if name is not None else "Uniform"
        self.low = _param(low)
        self.high = _param(high)
        super().__init__(_V.batch_shape_of(self.low, self.high))

    @property
    def mean(self):
        return (self.low + self.high) / 2

    @property
    def variance(self):
        return (self.high - self.low) ** 2 / 12

    def sample(self, shape=(), seed: int = 0):
        return _V.uniform_rsample(self.low, self.high, _shape(shape))

    def rsample(self, shape=()):
        return _V.uniform_rsample(self.low, self.high, _shape(shape))

    def log_prob(self, value):
        return _V.uniform_open_log_prob(self.low, self.high, value)

    def probs(self, value):
        return _V.uniform_open_prob(self.low, self.high, value)

    def entropy(self):
        return _V.uniform_entropy(self.low, self.high)


class Categorical(Distribution):
    def __init__(self, logits, name=None) -> None:
        self.name = name if name is not None else "Categorical"
        self.logits = _param(logits)
        self._prob = _V.normalized_by_sum(self.logits)
        super().__init__(tuple(self.logits.array.shape[:-1]))

    def sample(self, shape=()):
        from ..nn.functional import softmax
        return _V.sample_categories(softmax(self.logits, -1), _shape(shape))

    def probs(self, value):
        return _V.take_last_axis(self._prob, value)

    def log_prob(self, value):
        return self.probs(value).log()

    def entropy(self):
        return _V.softmax_entropy(self.logits)


class Multinomial(Distribution):
    def __init__(self, total_count: int, probs) -> None:
        if not isinstance(total_count, int) or total_count < 1:
            raise ValueError("input parameter total_count must be int type and grater than "
                             "zero.")
        probs = _param(probs)
        if probs.array.ndim < 1:
            raise ValueError("probs parameter should not be none and over one dimension")
        self.probs = _V.normalized_by_sum(probs)
        self.total_count = total_count
        super().__init__(tuple(probs.array.shape[:-1]), tuple(probs.array.shape[-1:]))

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def prob(self, value):
        return self.log_prob(value).exp()

    def log_prob(self, value):
        return _V.multinomial_log_prob(self.probs, value)

    def sample(self, shape=()):
        draws = _V.sample_categories(self.probs, (self.total_count, *_shape(shape)))
        return _V.counts_of_draws(draws, self.probs.array.shape[-1], self.probs.array.dtype)

    def entropy(self):
        return _V.multinomial_entropy(self.probs, self.total_count)


class Bernoulli(Distribution):
    def __init__(self, probs, name=None) -> None:
        self.name = name or "Bernoulli"
        self.probs = _V.clip_probs_open(_param(probs), _FLOAT32_EPS)
        self.logits = (self.probs / (1 - self.probs)).log()
        super().__init__(tuple(self.probs.array.shape))

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, shape=()):
        return _V.bernoulli_sample(self.probs, _shape(shape))

    def log_prob(self, value):
        return _V.bernoulli_log_prob(self.probs, value)

    def prob(self, value):
        return self.log_prob(value).exp()

    def entropy(self):
        return _V.bernoulli_entropy_label_constant(self.probs)


for _cls, _mod in ((Distribution, "distribution"), (Normal, "normal"), (Uniform, "uniform"),
                   (Categorical, "categorical"), (Multinomial, "multinomial"),
                   (Bernoulli, "bernoulli")):
    _cls.__module__ = f"paddle.distribution.{_mod}"

__getattr__ = _module_getattr("paddlelike", "paddle.distribution")
