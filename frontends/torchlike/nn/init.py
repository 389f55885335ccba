"""torch.nn.init: in-place initialisers over engine.nn.init (torch's [out, in, ...] layout)."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr
from janusgrad.nn import init as NI

calculate_gain = NI.calculate_gain


def _fans(tensor):
    return NI.fan_in_and_fan_out(tensor.array.shape, 1, 0)


def _calculate_fan_in_and_fan_out(tensor):
    return _fans(tensor)


def uniform_(tensor, a: float = 0.0, b: float = 1.0, generator=None):
    return NI.uniform_(tensor, a, b, generator)


def normal_(tensor, mean: float = 0.0, std: float = 1.0, generator=None):
    return NI.normal_(tensor, mean, std, generator)


def trunc_normal_(tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0,
                  b: float = 2.0, generator=None):
    return NI.trunc_normal_(tensor, mean, std, a, b, generator)


def constant_(tensor, val: float):
    return NI.constant_(tensor, val)


def zeros_(tensor):
    return NI.zeros_(tensor)


def ones_(tensor):
    return NI.ones_(tensor)


def eye_(tensor):
    if tensor.array.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return NI.eye_(tensor)


def xavier_uniform_(tensor, gain: float = 1.0, generator=None):
    return NI.xavier_uniform_(tensor, gain, generator)


def xavier_normal_(tensor, gain: float = 1.0, generator=None):
    return NI.xavier_normal_(tensor, gain, generator)


def kaiming_uniform_(tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator=None):
    return NI.kaiming_uniform_(tensor, a, mode, nonlinearity, generator)


def kaiming_normal_(tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator=None):
    return NI.kaiming_normal_(tensor, a, mode, nonlinearity, generator)


__all__ = ["calculate_gain", "constant_", "eye_", "kaiming_normal_", "kaiming_uniform_",
           "normal_", "ones_", "trunc_normal_", "uniform_", "xavier_normal_",
           "xavier_uniform_", "zeros_"]
__getattr__ = module_getattr("torchlike", "torch.nn.init")
