"""paddle.nn's Linear and containers (the thin layers are rows: thin.py)."""
from __future__ import annotations

from collections import OrderedDict

from janusgrad.nn.module import ChildList

from . import functional as F
from .layer import Layer
from .parameter import ParamAttr


class Linear(Layer):
    """y = x @ weight + bias, weight ``[in_features, out_features]`` (XavierUniform),
    bias ``[out_features]`` (zeros); ``bias_attr=False`` leaves it out."""

    def __init__(self, in_features: int, out_features: int, weight_attr=None, bias_attr=None,
                 name=None) -> None:
        super().__init__()
        self._dtype = "float32"
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self.weight = self.create_parameter([in_features, out_features], attr=weight_attr,
                                            dtype=self._dtype, is_bias=False)
        self.bias = self.create_parameter([out_features], attr=bias_attr, dtype=self._dtype,
                                          is_bias=True)
        self.name = name

    @property
    def weight_attr(self):
        return ParamAttr._to_attr(self._weight_attr)

    def forward(self, input):  # noqa: A002
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        name = f", name={self.name}" if self.name else ""
        return (f"in_features={self.weight.array.shape[0]}, "
                f"out_features={self.weight.array.shape[1]}, dtype={self._dtype}{name}")


class Sequential(ChildList, Layer):
    """Layers applied in order; ``Sequential(a, b)`` or ``Sequential(('name', a), ...)``."""

    _add_child = Layer.add_sublayer

    def __init__(self, *layers) -> None:
        super().__init__()
        if len(layers) > 0 and isinstance(layers[0], (list, tuple)):
            for name, layer in layers:
                self.add_sublayer(name, layer)
        elif len(layers) == 1 and isinstance(layers[0], (dict, OrderedDict)):
            for name, layer in layers[0].items():
                self.add_sublayer(name, layer)
        else:
            for idx, layer in enumerate(layers):
                self.add_sublayer(str(idx), layer)

    def _slice(self, idx: slice):
        return self.__class__(*list(self)[idx])

    # paddle's Sequential also takes names, and keeps the others' names on edits
    def __getitem__(self, name):
        if isinstance(name, str):
            return self._sub_layers[name]
        return super().__getitem__(name)

    def __setitem__(self, name, layer) -> None:
        if not isinstance(name, str):
            name = list(self._sub_layers.keys())[name]
        self._sub_layers[name] = layer

    def __delitem__(self, name) -> None:
        if not isinstance(name, str):
            name = list(self._sub_layers.keys())[name]
        del self._sub_layers[name]

    def forward(self, input):  # noqa: A002
        return self._run_in_order(input)


class LayerList(ChildList, Layer):
    """A list of sub-layers (registered, indexable, no forward)."""

    _add_child = Layer.add_sublayer

    def __init__(self, sublayers=None) -> None:
        super().__init__()
        if sublayers is not None:
            self.extend(sublayers)

    def _range_error(self, idx: int, n: int) -> Exception:
        return IndexError(f"index {idx} is out of range, should be an integer in range "
                          f"[{-n}, {n})")


Linear.__module__ = "paddle.nn.layer.common"
for _cls in (Sequential, LayerList):
    _cls.__module__ = "paddle.nn.layer.container"
__all__ = ["LayerList", "Linear", "Sequential"]
