"""paddle.nn.initializer: objects that fill a parameter when called on it.

Making one (``Normal(std=0.01)``, or the chapters' ``Normal(m.weight, std=0.01)``
which only binds ``mean`` to the weight) changes nothing; ``init(param)`` fills
``param`` in place without recording a graph.  Fans follow paddle's layouts:
a 2-D weight is ``[in, out]``, a kernel ``[out, in, *k]``.
"""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr as _module_getattr
from janusgrad.nn import init as _init
from janusgrad.nn import variants as _V


class Initializer:
    def __call__(self, param, block=None):
        return self.forward(param, block)

    def forward(self, param, block=None):
        raise NotImplementedError

    def _compute_fans(self, var) -> tuple:
        return _V.fans_in_first(tuple(var.array.shape))


class Constant(Initializer):
    def __init__(self, value: float = 0.0, force_cpu: bool = False) -> None:
        self._value = value

    def forward(self, param, block=None):
        _init.constant_(param, self._value)
        return param


class Normal(Initializer):
    def __init__(self, mean: float = 0.0, std: float = 1.0, name=None) -> None:
        self._mean = mean
        self._std_dev = std

    def forward(self, param, block=None):
        _init.normal_(param, self._mean, self._std_dev)
        return param


class Uniform(Initializer):
    def __init__(self, low: float = -1.0, high: float = 1.0, name=None) -> None:
        self._low = low
        self._high = high

    def forward(self, param, block=None):
        _init.uniform_(param, self._low, self._high)
        return param


class TruncatedNormal(Normal):
    def forward(self, param, block=None):
        _V.truncated_normal_(param, self._mean, self._std_dev, 2.0)
        return param


class _Xavier(Initializer):
    uniform = True

    def __init__(self, fan_in=None, fan_out=None, gain: float = 1.0, name=None) -> None:
        self._fan_in = fan_in
        self._fan_out = fan_out
        self._gain = gain

    def forward(self, param, block=None):
        f_in, f_out = self._compute_fans(param)
        fan_in = f_in if self._fan_in is None else self._fan_in
        fan_out = f_out if self._fan_out is None else self._fan_out
        if self.uniform:
            limit = _V.xavier_uniform_limit(fan_in, fan_out, self._gain)
            _init.uniform_(param, -limit, limit)
        else:
            _init.normal_(param, 0.0, _V.xavier_normal_std(fan_in, fan_out, self._gain))
        return param


class XavierUniform(_Xavier):
    uniform = True


class XavierNormal(_Xavier):
    uniform = False


class _Kaiming(Initializer):
    uniform = True

    def __init__(self, fan_in=None, negative_slope: float = 0.0, nonlinearity: str = "relu",
                 mode: str = "fan_in") -> None:
        self._fan_in = fan_in
        self._negative_slope = negative_slope
        self._nonlinearity = nonlinearity
        self._mode = mode

    def forward(self, param, block=None):
        f_in, f_out = self._compute_fans(param)
        if self._mode == "fan_out":
            fan = f_out
        else:
            fan = f_in if self._fan_in is None else self._fan_in
        gain = calculate_gain(self._nonlinearity, self._negative_slope)
        if self.uniform:
            limit = _V.kaiming_uniform_limit(fan, gain)
            _init.uniform_(param, -limit, limit)
        else:
            _init.normal_(param, 0.0, _V.kaiming_normal_std(fan, gain))
        return param


class KaimingUniform(_Kaiming):
    uniform = True


class KaimingNormal(_Kaiming):
    uniform = False


def calculate_gain(nonlinearity: str, param=None) -> float:
    """paddle's gains; the leaky_relu slope defaults to 0.01."""
    return _init.calculate_gain(nonlinearity, 0.01 if param is None else float(param))


for _cls in (Initializer, Constant, Normal, Uniform, TruncatedNormal, XavierUniform,
             XavierNormal, KaimingUniform, KaimingNormal):
    _cls.__module__ = "paddle.nn.initializer." + {
        "Constant": "constant", "Normal": "normal", "TruncatedNormal": "normal",
        "Uniform": "uniform", "XavierUniform": "xavier", "XavierNormal": "xavier",
        "KaimingUniform": "kaiming", "KaimingNormal": "kaiming"}.get(_cls.__name__,
                                                                     "initializer")

__getattr__ = _module_getattr("paddlelike", "paddle.nn.initializer")
