"""RNN, GRU, LSTM and their cells: torch's names, layouts, defaults, checks and printed form
over janusgrad.nn.recurrent (all the math is there)."""
from __future__ import annotations

import math
import numbers
import warnings

from janusgrad.nn import recurrent as NR

from ... import _creation
from .. import init
from ..parameter import Parameter
from .module import Module

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}
_ENGINE = {"LSTM": "lstm", "GRU": "gru", "RNN_TANH": "rnn_tanh", "RNN_RELU": "rnn_relu"}


def _check_types(dropout, num_layers, bias, batch_first, input_size, hidden_size,
                 proj_size) -> None:
    if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or \
            isinstance(dropout, bool):
        raise ValueError("dropout should be a number in range [0, 1] representing the "
                         "probability of an element being zeroed")
    if dropout > 0 and num_layers == 1:
        warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                      "non-zero dropout expects num_layers greater than 1, but got "
                      f"dropout={dropout} and num_layers={num_layers}", stacklevel=3)
    for name, v, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                          ("input_size", input_size, int), ("hidden_size", hidden_size, int)):
        if not isinstance(v, kind):
            raise TypeError(f"{name} should be of type {kind.__name__}, got: "
                            f"{type(v).__name__}")
    if input_size <= 0:
        raise ValueError("input_size must be greater than zero")
    if hidden_size <= 0:
        raise ValueError("hidden_size must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable "
                         "projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")


class RNNBase(Module):
    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__()
        _check_types(dropout, num_layers, bias, batch_first, input_size, hidden_size,
                     proj_size)
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        dirs = 2 if bidirectional else 1
        gate_size = _GATES[mode] * hidden_size
        real_hidden = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names = []
        self._all_weights = []

        def make(*shape):
            return Parameter(_creation.empty(shape, dtype=dtype, device=device))
        for layer in range(num_layers):
            for d in range(dirs):
                layer_in = input_size if layer == 0 else real_hidden * dirs
                params = [make(gate_size, layer_in), make(gate_size, real_hidden)]
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    params += [make(gate_size), make(gate_size)]
                    names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if proj_size > 0:
                    params.append(make(proj_size, hidden_size))
                    names.append("weight_hr_l{}{}")
                names = [n.format(layer, "_reverse" if d else "") for n in names]
                for n, p in zip(names, params):
                    setattr(self, n, p)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def flatten_parameters(self) -> None:
        """A no-op (torch packs cuDNN's weight buffer here)."""

    @property
    def _flat_weights(self) -> list:
        return [getattr(self, n, None) for n in self._flat_weights_names]

    # torch keeps the weights' list as an attribute, pickles it and rebuilds from it
    def __getstate__(self) -> dict:
        state = super().__getstate__()
        state["_flat_weights"] = self._flat_weights
        return state

    def __setstate__(self, state: dict) -> None:
        super().__setstate__({k: v for k, v in state.items()
                              if k not in ("_flat_weights", "_flat_weight_refs")})

    @property
    def all_weights(self) -> list:
        return [[getattr(self, n) for n in names] for names in self._all_weights]

    def _weights(self) -> list:
        out = []
        for names in self._all_weights:
            get = {n.split("_l")[0]: getattr(self, n) for n in names}
            out.append((get["weight_ih"], get["weight_hh"], get.get("bias_ih"),
                        get.get("bias_hh"), get.get("weight_hr")))
        return out

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    # -- checks, as torch words them
    def _check_input(self, input) -> None:  # noqa: A002
        w = self._flat_weights[0]
        if input.dtype != w.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype "
                             f"({w.dtype}). Convert input: input.to({w.dtype}), or convert "
                             f"model: model.to({input.dtype})")
        if input.dim() != 3:
            raise RuntimeError(f"input must have 3 dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError("input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.size(-1)}")

    def _expected_hidden(self, input, size) -> tuple:  # noqa: A002
        batch = input.size(0) if self.batch_first else input.size(1)
        return (self.num_layers * (2 if self.bidirectional else 1), batch, size)

    @staticmethod
    def _check_hidden(hx, expected, msg: str = "Expected hidden size {}, got {}") -> None:
        if tuple(hx.size()) != tuple(expected):
            raise RuntimeError(msg.format(tuple(expected), list(hx.size())))

    def _run(self, input, h0, c0):  # noqa: A002
        x = input.transpose(0, 1) if self.batch_first else input
        out, hn, cn = NR.rnn(_ENGINE[self.mode], x, h0, c0, self._weights(), self.num_layers,
                             self.bidirectional, self.dropout, self.training)
        if self.batch_first:
            out = out.transpose(0, 1)
        return out, hn, cn

    def _batched(self, input, hx, name: str):  # noqa: A002
        if input.dim() not in (2, 3):
            tail = "tensor instead" if name == "RNN" else "instead"
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D {tail}")
        batched = input.dim() == 3
        if hx is not None and not isinstance(hx, tuple):
            if batched and hx.dim() != 3:
                raise RuntimeError("For batched 3-D input, hx should also be 3-D but got "
                                   f"{hx.dim()}-D tensor")
            if not batched and hx.dim() != 2:
                raise RuntimeError("For unbatched 2-D input, hx should also be 2-D but got "
                                   f"{hx.dim()}-D tensor")
        return batched

    def forward(self, input, hx=None):  # noqa: A002
        name = "RNN" if self.mode.startswith("RNN") else self.mode
        batched = self._batched(input, hx, name)
        if not batched:
            input = input.unsqueeze(0 if self.batch_first else 1)  # noqa: A001
            if hx is not None:
                hx = hx.unsqueeze(1)
        self._check_input(input)
        if hx is not None:
            self._check_hidden(hx, self._expected_hidden(input, self.hidden_size))
        out, hn, _ = self._run(input, hx, None)
        if not batched:
            out, hn = out.squeeze(0 if self.batch_first else 1), hn.squeeze(1)
        return out, hn


class RNN(RNNBase):
    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' "
                             "or 'relu'.")
        super().__init__(mode, *args, **kwargs)


class GRU(RNNBase):
    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)


class LSTM(RNNBase):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input, hx=None):  # noqa: A002
        if input.dim() not in (2, 3):
            raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
        batched = input.dim() == 3
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        if not batched:
            input = input.unsqueeze(0 if self.batch_first else 1)  # noqa: A001
        h0 = c0 = None
        if hx is not None:
            h0, c0 = hx
            if batched and (h0.dim() != 3 or c0.dim() != 3):
                raise RuntimeError("For batched 3-D input, hx and cx should also be 3-D but "
                                   f"got ({h0.dim()}-D, {c0.dim()}-D) tensors")
            if not batched:
                if h0.dim() != 2 or c0.dim() != 2:
                    raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D "
                                       f"but got ({h0.dim()}-D, {c0.dim()}-D) tensors")
                h0, c0 = h0.unsqueeze(1), c0.unsqueeze(1)
        self._check_input(input)
        if hx is not None:
            self._check_hidden(h0, self._expected_hidden(input, real_hidden),
                               "Expected hidden[0] size {}, got {}")
            self._check_hidden(c0, self._expected_hidden(input, self.hidden_size),
                               "Expected hidden[1] size {}, got {}")
        out, hn, cn = self._run(input, h0, c0)
        if not batched:
            out = out.squeeze(0 if self.batch_first else 1)
            hn, cn = hn.squeeze(1), cn.squeeze(1)
        return out, (hn, cn)


# ---------------------------------------------------------------- cells
class RNNCellBase(Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(_creation.empty((num_chunks * hidden_size, input_size),
                                                   dtype=dtype, device=device))
        self.weight_hh = Parameter(_creation.empty((num_chunks * hidden_size, hidden_size),
                                                   dtype=dtype, device=device))
        if bias:
            self.bias_ih = Parameter(_creation.empty(num_chunks * hidden_size, dtype=dtype,
                                                     device=device))
            self.bias_hh = Parameter(_creation.empty(num_chunks * hidden_size, dtype=dtype,
                                                     device=device))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _prepare(self, name: str, input, states):  # noqa: A002
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D "
                             "instead")
        for i, s in enumerate(states):
            if s is not None and s.dim() not in (1, 2):
                what = "hidden" if len(states) == 1 else f"hx[{i}]"
                raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got {s.dim()}D "
                                 "instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)  # noqa: A001
        out = []
        for s in states:
            if s is None:
                s = _creation.zeros((input.size(0), self.hidden_size), dtype=input.dtype,
                                    device=input.device)
            elif not batched:
                s = s.unsqueeze(0)
            out.append(s)
        if input.size(1) != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} "
                               f"expected {self.input_size}")
        return batched, input, out

    def _args(self):
        return self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh


class RNNCell(RNNCellBase):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):  # noqa: A002
        batched, x, (h,) = self._prepare("RNNCell", input, [hx])
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        out = NR.rnn_cell(x, h, *self._args(), nonlinearity=self.nonlinearity)
        return out if batched else out.squeeze(0)


class GRUCell(RNNCellBase):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input, hx=None):  # noqa: A002
        batched, x, (h,) = self._prepare("GRUCell", input, [hx])
        out = NR.gru_cell(x, h, *self._args())
        return out if batched else out.squeeze(0)


class LSTMCell(RNNCellBase):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input, hx=None):  # noqa: A002
        states = [None, None] if hx is None else list(hx)
        batched, x, (h, c) = self._prepare("LSTMCell", input, states)
        h2, c2 = NR.lstm_cell(x, h, c, *self._args())
        return (h2, c2) if batched else (h2.squeeze(0), c2.squeeze(0))


__all__ = ["RNNBase", "RNN", "GRU", "LSTM", "RNNCellBase", "RNNCell", "GRUCell", "LSTMCell"]

for _name in __all__:  # the module torch defines them in (where its pickles name them)
    globals()[_name].__module__ = "torch.nn.modules.rnn"
