"""Tensors from data and factories; the engine's random generator."""
from __future__ import annotations

from ..backend import bool_, default_float, int64, xp


def ones_like_array(a):
    return xp.ones_like(a)


def infer_array(data, dtype=None):
    """A fresh ndarray from nested Python data, scalars or arrays.

    Python floats become the default float dtype (not float64), Python ints
    int64 and bools bool; numpy arrays keep their dtype.
    """
    if dtype is not None:
        return xp.array(data, dtype=dtype)
    if isinstance(data, xp.ndarray) or isinstance(data, xp.generic):
        return xp.array(data)
    arr = xp.array(data)
    kind = arr.dtype.kind
    if kind == "f":
        arr = arr.astype(default_float)
    elif kind in "iu":
        arr = arr.astype(int64)
    elif kind == "b":
        arr = arr.astype(bool_)
    elif kind == "O":
        raise TypeError("could not infer dtype of object data")
    return arr


class Generator:
    """The engine's random stream (numpy's PCG64)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed(seed)

    def seed(self, seed: int) -> None:
        self.initial_seed = int(seed)
        self.rng = xp.random.default_rng(int(seed))

    def random(self, shape, dtype=default_float):
        return self.rng.random(shape).astype(dtype)

    def normal(self, shape, mean=0.0, std=1.0, dtype=default_float):
        return (self.rng.standard_normal(shape) * std + mean).astype(dtype)

    def uniform(self, shape, low=0.0, high=1.0, dtype=default_float):
        return self.rng.uniform(low, high, shape).astype(dtype)

    def integers(self, low, high, shape, dtype=int64):
        return self.rng.integers(low, high, shape).astype(dtype)

    def permutation(self, n):
        return self.rng.permutation(n)


default_generator = Generator(0)
