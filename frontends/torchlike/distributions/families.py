"""Normal, Uniform, Categorical, Multinomial, Bernoulli."""
from __future__ import annotations

from janusgrad import distributions as ED

from .distribution import Distribution, as_param


class Normal(Distribution):
    has_rsample = True
    _param_names = ("loc", "scale")

    def __init__(self, loc, scale, validate_args=None) -> None:
        loc, scale = ED.broadcast_all(as_param(loc), as_param(scale))
        self.loc, self.scale = loc, scale
        if validate_args is not False:
            self._check("scale", scale, scale > 0, "GreaterThan(lower_bound=0.0)")
        self._engine = ED.Normal(loc, scale)


class Uniform(Distribution):
    has_rsample = True
    _param_names = ("low", "high")

    def __init__(self, low, high, validate_args=None) -> None:
        low, high = ED.broadcast_all(as_param(low), as_param(high))
        self.low, self.high = low, high
        if validate_args is not False:
            self._check("low", low, low < high, "LessThan(upper_bound=high)")
        self._engine = ED.Uniform(low, high)

    @property
    def stddev(self):
        return self._engine.stddev


class Categorical(Distribution):
    _param_names = ("probs", "logits")

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits
        self._engine = ED.Categorical(probs, logits)

    def log_prob(self, value):
        value = as_param(value)
        n = self._engine.num_events
        if not ED.all_true((value >= 0) & (value < n)):
            shown = value.item() if value.numel() == 1 else value
            raise ValueError(
                f"Expected value argument (Tensor of shape {tuple(value.shape)}) to be within "
                f"the support (IntegerInterval(lower_bound=0, upper_bound={n - 1})) of the "
                f"distribution {self!r}, but found invalid values:\n{shown}")
        return self._engine.log_prob(value)

    @property
    def param_shape(self):
        return self._engine.probs.shape

    def __getattr__(self, name: str):
        if name in ("probs", "logits"):
            return getattr(self.__dict__["_engine"], name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


class Multinomial(Distribution):
    _param_names = ()

    def __init__(self, total_count: int = 1, probs=None, logits=None,
                 validate_args=None) -> None:
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._engine = ED.Multinomial(total_count, probs, logits)

    @property
    def probs(self):
        return self._engine.probs

    @property
    def logits(self):
        return self._engine.logits


class Bernoulli(Distribution):
    _param_names = ("probs", "logits")

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            self.probs = as_param(probs)
        else:
            self.logits = as_param(logits)
        self._engine = ED.Bernoulli(self.__dict__.get("probs"), self.__dict__.get("logits"))

    def __getattr__(self, name: str):
        if name in ("probs", "logits"):
            return getattr(self.__dict__["_engine"], name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


for _cls in (Normal, Uniform, Categorical, Multinomial, Bernoulli):
    _cls.__module__ = "torch.distributions." + _cls.__name__.lower()
