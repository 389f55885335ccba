"""torch.distributions base: torch's names, shapes (torch.Size), repr and argument checks
over engine.distributions."""
from __future__ import annotations

from janusgrad import distributions as ED
from janusgrad.core.tensor import Tensor as EngineTensor

from .._size import Size


def as_param(value, like=None):
    """Numbers become float32 tensors (torch's default dtype); tensors pass through."""
    if isinstance(value, EngineTensor):
        return value
    from .._creation import tensor
    from .._dtypes import float32
    return tensor(float(value), dtype=float32)


class Distribution:
    has_rsample = False
    _param_names: tuple = ()
    _engine: ED.Distribution

    @property
    def batch_shape(self) -> Size:
        return Size(self._engine.batch_shape)

    @property
    def event_shape(self) -> Size:
        return Size(self._engine.event_shape)

    @property
    def mean(self):
        return self._engine.mean

    @property
    def variance(self):
        return self._engine.variance

    @property
    def stddev(self):
        from .._table import FUNCTIONS
        return FUNCTIONS["sqrt"](self.variance)

    def sample(self, sample_shape=Size()):
        return self._engine.sample(tuple(sample_shape))

    def rsample(self, sample_shape=Size()):
        if not self.has_rsample:
            raise NotImplementedError
        return self._engine.rsample(tuple(sample_shape))

    def sample_n(self, n: int):
        return self.sample((n,))

    def log_prob(self, value):
        return self._engine.log_prob(as_param(value))

    def entropy(self):
        return self._engine.entropy()

    def _check(self, name: str, value, ok, constraint: str) -> None:
        if not ED.all_true(ok):
            shown = value.item() if value.numel() == 1 else value
            raise ValueError(
                f"Expected parameter {name} (Tensor of shape {tuple(value.shape)}) of "
                f"distribution {self!r} to satisfy the constraint {constraint}, but found "
                f"invalid values:\n{shown}")

    def __repr__(self) -> str:
        parts = []
        for p in self._param_names:
            v = self.__dict__.get(p)
            if v is None:
                continue
            parts.append(f"{p}: {v if v.numel() == 1 else v.size()}")
        return type(self).__name__ + "(" + ", ".join(parts) + ")"


Distribution.__module__ = "torch.distributions.distribution"
