"""Parameter initialisers: fill a tensor in place from the engine's generator.

Writes go straight into the array (no graph is recorded, as under no_grad) and
bump the version counter.  ``in_axis``/``out_axis`` say where the fan-in and
fan-out dimensions are: torch weights are [out, in, ...] (in_axis=1, out_axis=0),
paddle's Linear weight is [in, out] (in_axis=0, out_axis=1).
"""
from __future__ import annotations

import math

from janusgrad.array.backend import device_of, from_host, is_meta, ndarray, xp_of
from janusgrad.ops.creation import default_generator

_LINEAR_FNS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
               "conv_transpose2d", "conv_transpose3d", "sigmoid")


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The recommended gain for a nonlinearity (torch.nn.init.calculate_gain's table)."""
    if nonlinearity in _LINEAR_FNS:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def fan_in_and_fan_out(shape, in_axis: int = 1, out_axis: int = 0) -> tuple[int, int]:
    """(fan_in, fan_out): the in/out sizes times the receptive field (the other dims)."""
    shape = tuple(shape)
    if len(shape) < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than "
                         "2 dimensions")
    receptive = 1
    for d, n in enumerate(shape):
        if d not in (in_axis % len(shape), out_axis % len(shape)):
            receptive *= n
    return shape[in_axis] * receptive, shape[out_axis] * receptive


def _gen(generator):
    return default_generator if generator is None else generator


def _fill(t, values):
    """Write ``values`` (a number, a host array or an array on ``t``'s device) into ``t``."""
    a = t.array
    if type(a) is not ndarray and type(values) is ndarray:  # host draws onto the device
        values = from_host(values.astype(a.dtype), device_of(a))
    a[...] = values
    t.bump_version()
    return t


def uniform_(t, a: float = 0.0, b: float = 1.0, generator=None):
    if is_meta(t.array):  # no data to draw (nor a draw taken from the stream)
        return t
    return _fill(t, _gen(generator).rng.uniform(a, b, t.array.shape))


def normal_(t, mean: float = 0.0, std: float = 1.0, generator=None):
    if is_meta(t.array):
        return t
    return _fill(t, _gen(generator).rng.standard_normal(t.array.shape) * std + mean)


def constant_(t, value: float):
    return _fill(t, value)


def zeros_(t):
    return _fill(t, 0)


def ones_(t):
    return _fill(t, 1)


def eye_(t):
    return _fill(t, xp_of(t.array).eye(*t.array.shape, dtype=t.array.dtype))


def xavier_uniform_(t, gain: float = 1.0, generator=None, in_axis: int = 1, out_axis: int = 0):
    fan_in, fan_out = fan_in_and_fan_out(t.array.shape, in_axis, out_axis)
    a = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(t, -a, a, generator)


def xavier_normal_(t, gain: float = 1.0, generator=None, in_axis: int = 1, out_axis: int = 0):
    fan_in, fan_out = fan_in_and_fan_out(t.array.shape, in_axis, out_axis)
    return normal_(t, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def _kaiming_std(t, a, mode, nonlinearity, in_axis, out_axis) -> float:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = fan_in_and_fan_out(t.array.shape, in_axis, out_axis)
    fan = fan_in if mode == "fan_in" else fan_out
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(t, a: float = 0.0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator=None, in_axis: int = 1,
                     out_axis: int = 0):
    bound = math.sqrt(3.0) * _kaiming_std(t, a, mode, nonlinearity, in_axis, out_axis)
    return uniform_(t, -bound, bound, generator)


def kaiming_normal_(t, a: float = 0.0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                    generator=None, in_axis: int = 1, out_axis: int = 0):
    return normal_(t, 0.0, _kaiming_std(t, a, mode, nonlinearity, in_axis, out_axis), generator)


def trunc_normal_(t, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0,
                  generator=None):
    """Normal(mean, std) restricted to [a, b], by redrawing the samples outside."""
    rng = _gen(generator).rng
    out = rng.standard_normal(t.array.shape) * std + mean
    bad = (out < a) | (out > b)
    while bad.any():
        out[bad] = rng.standard_normal(int(bad.sum())) * std + mean
        bad = (out < a) | (out > b)
    return _fill(t, out)
