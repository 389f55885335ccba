"""Tensors from data and factories; the engine's random generator.

Every factory takes ``device`` (an engine ``Device``; None is the host) and creates
its array with that device's module.  Random values are drawn on the host (one
stream for every device, so a seed gives the same numbers everywhere) and moved;
the torch-exact range values are emulated with float64 operations that round the
same in every array module, on the target device.
"""
from __future__ import annotations

import functools
import math

from janusgrad.array.backend import (
    as_array,
    bool_,
    broadcast_shapes,
    default_float,
    device_of,
    float64,
    from_host,
    host,
    int64,
    is_array,
    module_for,
    quiet,
    to_device,
    xp_of,
)
from janusgrad.core.mode import state
from janusgrad.core.tensor import Tensor, unrecorded
from janusgrad.ops import check_same_device


def ones_like_array(a):
    return xp_of(a).ones_like(a)


# Python and numpy scalar types (bools count as integers, as in numpy)
_INTEGERS = (int, host.integer)
_BOOLS = (bool, host.bool_)
_HOST_SCALAR = host.generic


def _is_int(v) -> bool:
    return isinstance(v, _INTEGERS)


def infer_array(data, dtype=None, device=None):
    """A fresh array from nested Python data, scalars or arrays, on ``device``.

    Python floats become the default float dtype (not float64), Python ints
    int64 and bools bool; arrays keep their dtype (and, without ``device``,
    their device).
    """
    if is_array(data):
        arr = xp_of(data).array(data, dtype=dtype)
        return arr if device is None else to_device(arr, device)
    xp = module_for(device)
    if dtype is not None:
        return xp.array(data, dtype=dtype)
    if isinstance(data, _HOST_SCALAR):  # a numpy scalar keeps its dtype
        return from_host(as_array(data), device)
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
        self._rng = host.random.default_rng(int(seed))

    @property
    def rng(self):
        """numpy's generator behind the stream (a trace that draws from it is invalid:
        janusgrad.transforms.trace notes that and puts the stream back as it was)."""
        if state.tracing is not None:
            state.tracing.draws(self)
        return self._rng

    @rng.setter
    def rng(self, value) -> None:
        self._rng = value

    def random(self, shape, dtype=default_float):
        return as_array(self.rng.random(shape).astype(dtype))  # (0-d: numpy gives a scalar)

    def normal(self, shape, mean=0.0, std=1.0, dtype=default_float):
        return as_array((self.rng.standard_normal(shape) * std + mean).astype(dtype))

    def uniform(self, shape, low=0.0, high=1.0, dtype=default_float):
        return as_array(self.rng.uniform(low, high, shape).astype(dtype))

    def integers(self, low, high, shape, dtype=int64):
        return as_array(self.rng.integers(low, high, shape).astype(dtype))

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


def _fma(x, y, z, xp):
    """x*y + z with (almost always) one rounding, elementwise in float64 (``xp``: the
    module of the arrays among the operands)."""
    with quiet():  # the emulation may overflow on the way
        p, e = _two_product(xp.asarray(x, float64), xp.asarray(y, float64))
        s = p + z
        bp = s - p
        t = (p - (s - bp)) + (z - bp)
        out = s + (e + t)
        finite = xp.isfinite(out)
        return out if finite.all() else xp.where(finite, out, x * y + z)


def _chunks(n, width, xp):
    """For each index, the start of its vector chunk (kernels run 2 vectors per step
    while they fit, then element by element) and its offset in the chunk."""
    i = xp.arange(n)
    vec_end = n - n % (2 * width)
    start = xp.where(i < vec_end, i - i % width, i)
    return start, i - start


def _width(dtype) -> int:
    return 32 // dtype.itemsize  # 256-bit vectors


def range_values(start, step, n, dtype, xp):
    """torch.arange's values (floating dtypes), made with module ``xp``."""
    c, j = _chunks(n, _width(dtype), xp)
    base = _fma(step, c.astype(float64), float(start), xp)
    if dtype.itemsize < 8:
        base = base.astype(dtype).astype(float64)
    return _fma(j.astype(float64), step, base, xp).astype(dtype)


def linspace_values(start, end, steps, dtype, xp):
    """torch.linspace's values (floating dtypes), made with module ``xp``: forward from
    start in the first half, backward from end in the second (element by element)."""
    if steps == 1:
        return xp.full(1, start, dtype)
    s, e = dtype.type(start), dtype.type(end)
    step = float((e - s) / dtype.type(steps - 1))
    i = xp.arange(steps, dtype=float64)
    out = xp.where(i < steps // 2, _fma(step, i, float(s), xp),
                   _fma(-step, steps - i - 1, float(e), xp))
    return out.astype(dtype)


# ---------------------------------------------------------------- factories
# Each takes the tensor class to build (a frontend's subclass) and returns a leaf.
def _shape(shape) -> tuple:
    if isinstance(shape, int):
        return (shape,)
    return tuple(int(s) for s in shape)


def _check_shape(cls, op, shape):
    shape = _shape(shape)
    for i, s in enumerate(shape):
        if s < 0:
            raise cls.dialect.invalid(op, f"negative dimension {s} in shape {list(shape)}",
                                      shape=shape, negative=i)
    return shape


def _allocating(fn):
    """A factory ``fn(cls, ...)`` whose failed allocation raises the dialect's error (with
    the bytes of the requested dtype: a draw may allocate float64 before its cast)."""
    @functools.wraps(fn)
    def made(cls, *args, **kwargs):
        try:
            return fn(cls, *args, **kwargs)
        except MemoryError as e:
            shape = getattr(e, "shape", None)
            if shape is None:
                raise
            dtype = kwargs.get("dtype") or next(
                (a for a in args if isinstance(a, host.dtype)), e.dtype)  # host-ok: a dtype
            raise cls.dialect.out_of_memory(math.prod(shape) * dtype.itemsize) from None
    return made


def fill_dtype(value):
    """The dtype torch gives a tensor filled with a Python scalar."""
    if isinstance(value, _BOOLS):
        return bool_
    if _is_int(value):
        return int64
    return default_float


@_allocating
def zeros(cls, shape, dtype=default_float, *, device=None):
    return unrecorded(cls, module_for(device).zeros(_check_shape(cls, "zeros", shape), dtype=dtype))


@_allocating
def ones(cls, shape, dtype=default_float, *, device=None):
    return unrecorded(cls, module_for(device).ones(_check_shape(cls, "ones", shape), dtype=dtype))


@_allocating
def empty(cls, shape, dtype=default_float, *, device=None):
    """Uninitialised in torch; zeros here (deterministic)."""
    return unrecorded(cls, module_for(device).zeros(_check_shape(cls, "empty", shape), dtype=dtype))


def _fill_value(value, xp):
    """A fill value ``xp.full`` takes: an array of another module gives its number."""
    if is_array(value) and xp_of(value) is not xp:
        return value.item()
    return value


@_allocating
def full(cls, shape, fill_value, dtype=None, *, device=None):
    value = fill_value.array if isinstance(fill_value, Tensor) else fill_value
    if dtype is None:
        dtype = value.dtype if is_array(value) else fill_dtype(value)
    xp = module_for(device)
    return unrecorded(cls, xp.full(_check_shape(cls, "full", shape), _fill_value(value, xp),
                                   dtype=dtype))


@_allocating
def arange(cls, start, end=None, step=1, dtype=None, *, device=None):
    """torch.arange: [start, end) by step; all-int arguments give int64, else the
    default float; length ceil((end - start) / step); values bit-exact with torch."""
    if end is None:
        start, end = 0, start
    args = (start, end, step)
    all_int = all(_is_int(v) for v in args)
    if dtype is None:
        dtype = int64 if all_int else default_float
    xp = module_for(device)
    dtype = xp.dtype(dtype)
    if step == 0:
        raise cls.dialect.invalid("arange", "step must be nonzero", start=start, end=end,
                                  step=step)
    if (end - start) * step < 0:
        raise cls.dialect.invalid("arange", "upper bound and lower bound inconsistent with "
                                  "step sign", start=start, end=end, step=step)
    if all_int:
        n = -((start - end) // step)
        out = (xp.arange(n, dtype=int64) * int(step) + int(start)).astype(dtype, copy=False)
    else:
        n = math.ceil((float(end) - float(start)) / float(step))
        if dtype.kind == "f":
            out = range_values(float(start), float(step), n, dtype, xp)
        else:
            out = (xp.arange(n, dtype=float64) * float(step) + float(start)).astype(dtype)
    return unrecorded(cls, out)


@_allocating
def linspace(cls, start, end, steps, dtype=default_float, *, device=None):
    """``steps`` evenly spaced values from start to end inclusive (bit-exact with torch)."""
    steps = int(steps)
    if steps < 0:
        raise cls.dialect.invalid("linspace", "number of steps must be non-negative",
                                  steps=steps)
    xp = module_for(device)
    dtype = xp.dtype(dtype)
    if steps == 0:
        return unrecorded(cls, xp.zeros(0, dtype=dtype))
    if dtype.kind == "f":
        return unrecorded(cls, linspace_values(start, end, steps, dtype, xp))
    step = (float(end) - float(start)) / (steps - 1) if steps > 1 else 0.0
    i = xp.arange(steps, dtype=float64)
    vals = xp.where(i < steps // 2, i * step + start, (steps - i - 1) * -step + end)
    return unrecorded(cls, vals.astype(dtype))


@_allocating
def eye(cls, n, m=None, dtype=default_float, *, device=None):
    return unrecorded(cls, module_for(device).eye(int(n), int(n) if m is None else int(m),
                                                  dtype=dtype))


def _meta(cls, device, shape, dtype):
    """A random factory's tensor on the meta device: its shape and dtype, nothing drawn."""
    if device is not None and device.kind == "meta":
        return unrecorded(cls, module_for(device).empty(shape, dtype))
    return None


def _gen(generator):
    return default_generator if generator is None else generator


@_allocating
def rand(cls, shape, dtype=default_float, generator=None, *, device=None):
    """Uniform on [0, 1)."""
    made = _meta(cls, device, _check_shape(cls, "rand", shape), dtype)
    if made is not None:
        return made
    values = _gen(generator).random(_check_shape(cls, "rand", shape), dtype)
    return unrecorded(cls, from_host(values, device))


@_allocating
def randn(cls, shape, dtype=default_float, generator=None, *, device=None):
    """Standard normal."""
    made = _meta(cls, device, _check_shape(cls, "randn", shape), dtype)
    if made is not None:
        return made
    values = _gen(generator).normal(_check_shape(cls, "randn", shape), dtype=dtype)
    return unrecorded(cls, from_host(values, device))


@_allocating
def randint(cls, low, high, shape, dtype=int64, generator=None, *, device=None):
    """Integers uniform on [low, high)."""
    if high <= low:
        raise cls.dialect.invalid("randint", f"random_ expects 'from' to be less than 'to', "
                                  f"but got from={low} >= to={high}", low=low, high=high)
    made = _meta(cls, device, _check_shape(cls, "randint", shape), dtype)
    if made is not None:
        return made
    values = _gen(generator).integers(low, high, _check_shape(cls, "randint", shape), dtype)
    return unrecorded(cls, from_host(values, device))


@_allocating
def uniform(cls, shape, low=0.0, high=1.0, dtype=default_float, generator=None, *,
            device=None):
    made = _meta(cls, device, _check_shape(cls, "uniform", shape), dtype)
    if made is not None:
        return made
    values = _gen(generator).uniform(_check_shape(cls, "uniform", shape), low, high, dtype)
    return unrecorded(cls, from_host(values, device))


@_allocating
def normal(cls, mean=0.0, std=1.0, shape=None, dtype=None, generator=None, *, device=None):
    """Normal samples; ``mean``/``std`` may be tensors (broadcast together, and with
    ``shape`` when given).  The dtype is that of a floating tensor argument, else
    ``dtype`` or the default float; the device that of a tensor argument, else ``device``."""
    m = mean.array if isinstance(mean, Tensor) else mean
    s = std.array if isinstance(std, Tensor) else std
    arrays = [a for a in (m, s) if is_array(a)]
    if dtype is None:
        floats = [a.dtype for a in arrays if a.dtype.kind == "f"]
        dtype = floats[0] if floats else default_float
    if arrays:
        check_same_device(cls, "normal", *arrays)
        if device is None:
            device = device_of(arrays[0])
    shapes = [a.shape for a in arrays] + (
        [_check_shape(cls, "normal", shape)] if shape is not None else [])
    out_shape = broadcast_shapes(*shapes)
    if bool((s < 0).any()) if is_array(s) else s < 0:
        raise cls.dialect.invalid("normal", "normal expects all elements of std >= 0.0",
                                  std=std)
    z = from_host(_gen(generator).rng.standard_normal(out_shape), device)
    try:
        out = z * s + m
    except TypeError:
        check_same_device(cls, "normal", z, *arrays)
        raise
    return unrecorded(cls, as_array(out).astype(dtype))  # a 0-d result is a numpy scalar


def _like(x, dtype):
    a = x.array
    return xp_of(a), a.shape, a.dtype if dtype is None else dtype


def zeros_like(x, dtype=None):
    xp, shape, dtype = _like(x, dtype)
    return unrecorded(type(x), xp.zeros(shape, dtype=dtype))


def ones_like(x, dtype=None):
    xp, shape, dtype = _like(x, dtype)
    return unrecorded(type(x), xp.ones(shape, dtype=dtype))


def empty_like(x, dtype=None):
    return zeros_like(x, dtype)


def full_like(x, fill_value, dtype=None):
    xp, shape, dtype = _like(x, dtype)
    return unrecorded(type(x), xp.full(shape, _fill_value(fill_value, xp), dtype=dtype))


def rand_like(x, dtype=None, generator=None):
    return rand(type(x), x.array.shape, x.array.dtype if dtype is None else dtype, generator,
                device=device_of(x.array))


def randn_like(x, dtype=None, generator=None):
    return randn(type(x), x.array.shape, x.array.dtype if dtype is None else dtype, generator,
                 device=device_of(x.array))


def seed(n: int) -> None:
    """Reseed the default generator."""
    default_generator.seed(n)
