"""Tensors from data and factories; the engine's random generator."""
from __future__ import annotations

import math

from ..backend import bool_, default_float, int64, xp
from ..tensor import Tensor


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


# ---------------------------------------------------------------- torch-exact ranges
# torch's CPU kernels compute range values with fused multiply-adds, in vector
# chunks that share one base: the emulation below reproduces their bits.
_SPLIT = 134217729.0  # 2**27 + 1, Veltkamp's splitter for float64


def _two_product(x, y):
    p = x * y
    cx = _SPLIT * x
    hx = cx - (cx - x)
    lx = x - hx
    cy = _SPLIT * y
    hy = cy - (cy - y)
    ly = y - hy
    return p, ((hx * hy - p) + hx * ly + lx * hy) + lx * ly


def _fma(x, y, z):
    """x*y + z with (almost always) one rounding, elementwise in float64."""
    with xp.errstate(all="ignore"):
        p, e = _two_product(xp.asarray(x, xp.float64), xp.asarray(y, xp.float64))
        s = p + z
        bp = s - p
        t = (p - (s - bp)) + (z - bp)
        out = s + (e + t)
    finite = xp.isfinite(out)
    return out if finite.all() else xp.where(finite, out, x * y + z)


def _chunks(n, width):
    """For each index, the start of its vector chunk (kernels run 2 vectors per step
    while they fit, then element by element) and its offset in the chunk."""
    i = xp.arange(n)
    vec_end = n - n % (2 * width)
    start = xp.where(i < vec_end, i - i % width, i)
    return start, i - start


def _width(dtype) -> int:
    return 32 // dtype.itemsize  # 256-bit vectors


def range_values(start, step, n, dtype):
    """torch.arange's values (floating dtypes)."""
    c, j = _chunks(n, _width(dtype))
    base = _fma(step, c.astype(xp.float64), float(start))
    if dtype.itemsize < 8:
        base = base.astype(dtype).astype(xp.float64)
    return _fma(j.astype(xp.float64), step, base).astype(dtype)


def linspace_values(start, end, steps, dtype):
    """torch.linspace's values (floating dtypes): forward from start in the first
    half, backward from end in the second (element by element, no chunks)."""
    if steps == 1:
        return xp.full(1, start, dtype)
    s, e = dtype.type(start), dtype.type(end)
    step = float((e - s) / dtype.type(steps - 1))
    i = xp.arange(steps, dtype=xp.float64)
    out = xp.where(i < steps // 2, _fma(step, i, float(s)), _fma(-step, steps - i - 1, float(e)))
    return out.astype(dtype)


# ---------------------------------------------------------------- factories
# Each takes the tensor class to build (a frontend's subclass) and returns a leaf.
def _shape(shape) -> tuple:
    if isinstance(shape, int):
        return (shape,)
    return tuple(int(s) for s in shape)


def _check_shape(cls, op, shape):
    shape = _shape(shape)
    for s in shape:
        if s < 0:
            raise cls.dialect.invalid(op, f"negative dimension {s} in shape {list(shape)}",
                                      shape=shape)
    return shape


def fill_dtype(value):
    """The dtype torch gives a tensor filled with a Python scalar."""
    if isinstance(value, bool) or isinstance(value, xp.bool_):
        return bool_
    if isinstance(value, (int, xp.integer)):
        return int64
    return default_float


def zeros(cls, shape, dtype=default_float):
    return cls.wrap(xp.zeros(_check_shape(cls, "zeros", shape), dtype=dtype))


def ones(cls, shape, dtype=default_float):
    return cls.wrap(xp.ones(_check_shape(cls, "ones", shape), dtype=dtype))


def empty(cls, shape, dtype=default_float):
    """Uninitialised in torch; zeros here (deterministic)."""
    return cls.wrap(xp.zeros(_check_shape(cls, "empty", shape), dtype=dtype))


def full(cls, shape, fill_value, dtype=None):
    value = fill_value.array if isinstance(fill_value, Tensor) else fill_value
    if dtype is None:
        dtype = value.dtype if isinstance(value, xp.ndarray) else fill_dtype(value)
    return cls.wrap(xp.full(_check_shape(cls, "full", shape), value, dtype=dtype))


def arange(cls, start, end=None, step=1, dtype=None):
    """torch.arange: [start, end) by step; all-int arguments give int64, else the
    default float; length ceil((end - start) / step); values bit-exact with torch."""
    if end is None:
        start, end = 0, start
    args = (start, end, step)
    if dtype is None:
        dtype = int64 if all(isinstance(v, (int, xp.integer)) for v in args) else default_float
    dtype = xp.dtype(dtype)
    if step == 0:
        raise cls.dialect.invalid("arange", "step must be nonzero", start=start, end=end,
                                  step=step)
    if (end - start) * step < 0:
        raise cls.dialect.invalid("arange", "upper bound and lower bound inconsistent with "
                                  "step sign", start=start, end=end, step=step)
    if all(isinstance(v, (int, xp.integer)) for v in args):
        n = -((start - end) // step)
        out = (start + xp.arange(n, dtype=xp.int64) * step).astype(dtype)
    else:
        n = math.ceil((float(end) - float(start)) / float(step))
        if dtype.kind == "f":
            out = range_values(float(start), float(step), n, dtype)
        else:
            out = (float(start) + xp.arange(n) * float(step)).astype(dtype)
    return cls.wrap(out)


def linspace(cls, start, end, steps, dtype=default_float):
    """``steps`` evenly spaced values from start to end inclusive (bit-exact with torch)."""
    steps = int(steps)
    if steps < 0:
        raise cls.dialect.invalid("linspace", "number of steps must be non-negative",
                                  steps=steps)
    dtype = xp.dtype(dtype)
    if steps == 0:
        return cls.wrap(xp.zeros(0, dtype=dtype))
    if dtype.kind == "f":
        return cls.wrap(linspace_values(start, end, steps, dtype))
    step = (float(end) - float(start)) / (steps - 1) if steps > 1 else 0.0
    i = xp.arange(steps, dtype=xp.float64)
    vals = xp.where(i < steps // 2, start + step * i, end - step * (steps - i - 1))
    return cls.wrap(vals.astype(dtype))


def eye(cls, n, m=None, dtype=default_float):
    return cls.wrap(xp.eye(int(n), int(n) if m is None else int(m), dtype=dtype))


def _gen(generator):
    return default_generator if generator is None else generator


def rand(cls, shape, dtype=default_float, generator=None):
    """Uniform on [0, 1)."""
    return cls.wrap(_gen(generator).random(_check_shape(cls, "rand", shape), dtype))


def randn(cls, shape, dtype=default_float, generator=None):
    """Standard normal."""
    return cls.wrap(_gen(generator).normal(_check_shape(cls, "randn", shape), dtype=dtype))


def randint(cls, low, high, shape, dtype=int64, generator=None):
    """Integers uniform on [low, high)."""
    if high <= low:
        raise cls.dialect.invalid("randint", f"random_ expects 'from' to be less than 'to', "
                                  f"but got from={low} >= to={high}", low=low, high=high)
    return cls.wrap(_gen(generator).integers(low, high, _check_shape(cls, "randint", shape),
                                             dtype))


def uniform(cls, shape, low=0.0, high=1.0, dtype=default_float, generator=None):
    return cls.wrap(_gen(generator).uniform(_check_shape(cls, "uniform", shape), low, high,
                                            dtype))


def normal(cls, mean=0.0, std=1.0, shape=None, dtype=None, generator=None):
    """Normal samples; ``mean``/``std`` may be tensors (broadcast together, and with
    ``shape`` when given).  The dtype is that of a floating tensor argument, else
    ``dtype`` or the default float."""
    m = mean.array if isinstance(mean, Tensor) else mean
    s = std.array if isinstance(std, Tensor) else std
    arrays = [a for a in (m, s) if isinstance(a, xp.ndarray)]
    if dtype is None:
        floats = [a.dtype for a in arrays if a.dtype.kind == "f"]
        dtype = floats[0] if floats else default_float
    shapes = [a.shape for a in arrays] + ([_shape(shape)] if shape is not None else [])
    out_shape = xp.broadcast_shapes(*shapes) if shapes else ()
    if isinstance(s, xp.ndarray) and (s < 0).any() or not isinstance(s, xp.ndarray) and s < 0:
        raise cls.dialect.invalid("normal", "normal expects all elements of std >= 0.0",
                                  std=std)
    z = _gen(generator).rng.standard_normal(out_shape)
    return cls.wrap(xp.asarray(z * s + m).astype(dtype))


def zeros_like(x, dtype=None):
    return type(x).wrap(xp.zeros(x.array.shape, dtype=x.array.dtype if dtype is None else dtype))


def ones_like(x, dtype=None):
    return type(x).wrap(xp.ones(x.array.shape, dtype=x.array.dtype if dtype is None else dtype))


def empty_like(x, dtype=None):
    return zeros_like(x, dtype)


def full_like(x, fill_value, dtype=None):
    return type(x).wrap(xp.full(x.array.shape, fill_value,
                                dtype=x.array.dtype if dtype is None else dtype))


def rand_like(x, dtype=None, generator=None):
    return rand(type(x), x.array.shape, x.array.dtype if dtype is None else dtype, generator)


def randn_like(x, dtype=None, generator=None):
    return randn(type(x), x.array.shape, x.array.dtype if dtype is None else dtype, generator)


def seed(n: int) -> None:
    """Reseed the default generator."""
    default_generator.seed(n)
