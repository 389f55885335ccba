"""SimpleRNN, GRU, LSTM, their cells and the RNN / BiRNN wrappers: paddle's names, layouts,
defaults, state conventions and printed form over janusgrad.nn.recurrent (the math is there)."""
from __future__ import annotations

import math

from janusgrad.nn import recurrent as NR
from janusgrad.ops import shape as S

from ..dialect import tag
from . import initializer as I
from .layer import Layer
from .layers import LayerList

_BIDIRECT = ("bidirectional", "bidirect")


def _time_major(x, time_major: bool):
    return x if time_major else S.swapaxes(x, 0, 1)


# ---------------------------------------------------------------- cells
class RNNCellBase(Layer):
    _gates = 1

    def __init__(self, input_size: int, hidden_size: int, weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None) -> None:
        super().__init__()
        if hidden_size <= 0:
            raise ValueError(f"hidden_size of {type(self).__name__} must be greater than 0, "
                             f"but now equals to {hidden_size}")
        std = 1.0 / math.sqrt(hidden_size)
        k = self._gates * hidden_size

        def make(shape, attr, is_bias):
            if attr is False:
                return None
            return self.create_parameter(shape, attr, is_bias=is_bias,
                                         default_initializer=I.Uniform(-std, std))
        self.weight_ih = make([k, input_size], weight_ih_attr, False)
        self.weight_hh = make([k, hidden_size], weight_hh_attr, False)
        self.bias_ih = make([k], bias_ih_attr, True)
        self.bias_hh = make([k], bias_hh_attr, True)
        self.input_size = input_size
        self.hidden_size = hidden_size

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def _zeros(self, x):
        return NR._zeros_state(x, x.array.shape[0], self.hidden_size)

    def _weights(self):
        return self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh

    def extra_repr(self) -> str:
        return "{input_size}, {hidden_size}".format(**self.__dict__)


class SimpleRNNCell(RNNCellBase):
    def __init__(self, input_size: int, hidden_size: int, activation: str = "tanh",
                 weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None,
                 bias_hh_attr=None, name=None) -> None:
        super().__init__(input_size, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr,
                         bias_hh_attr)
        if activation not in ("tanh", "relu"):
            raise ValueError("activation for SimpleRNNCell should be tanh or relu, but get "
                             f"{activation}")
        self.activation = activation

    def forward(self, inputs, states=None):
        h = self._zeros(inputs) if states is None else states
        out = NR.rnn_cell(inputs, h, *self._weights(), nonlinearity=self.activation)
        return out, out

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.activation != "tanh":
            s += ", activation={activation}"
        return s.format(**self.__dict__)


class GRUCell(RNNCellBase):
    _gates = 3

    def forward(self, inputs, states=None):
        h = self._zeros(inputs) if states is None else states
        out = NR.gru_cell(inputs, h, *self._weights())
        return out, out


class LSTMCell(RNNCellBase):
    _gates = 4

    def __init__(self, input_size: int, hidden_size: int, weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, proj_size=0,
                 name=None) -> None:
        super().__init__(input_size, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr,
                         bias_hh_attr)
        self.proj_size = proj_size

    @property
    def state_shape(self):
        return ((self.hidden_size,), (self.hidden_size,))

    def forward(self, inputs, states=None):
        if states is None:
            states = (self._zeros(inputs), self._zeros(inputs))
        h, c = NR.lstm_cell(inputs, states[0], states[1], *self._weights())
        return h, (h, c)


# ---------------------------------------------------------------- wrappers
def _mode_of(cell):
    if isinstance(cell, LSTMCell):
        return "lstm"
    if isinstance(cell, GRUCell):
        return "gru"
    return "rnn_relu" if getattr(cell, "activation", "tanh") == "relu" else "rnn_tanh"


class RNN(Layer):
    def __init__(self, cell, is_reverse: bool = False, time_major: bool = False) -> None:
        super().__init__()
        self.cell = cell
        self.is_reverse = is_reverse
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        x = _time_major(inputs, self.time_major)
        mode = _mode_of(self.cell)
        h0 = c0 = None
        if initial_states is not None:
            h0, c0 = initial_states if mode == "lstm" else (initial_states, None)
        mask = None if sequence_length is None else NR.length_mask(x, sequence_length)
        out, hn, cn = NR.run_direction(mode, x, h0, c0, self.cell._weights() + (None,),
                                       self.is_reverse, mask)
        final = (hn, cn) if mode == "lstm" else hn
        return _time_major(out, self.time_major), final


class BiRNN(Layer):
    def __init__(self, cell_fw, cell_bw, time_major: bool = False) -> None:
        super().__init__()
        self.cell_fw = cell_fw
        self.cell_bw = cell_bw
        if cell_fw.input_size != cell_bw.input_size:
            raise ValueError(f"input size of forward cell({cell_fw.input_size}) does not "
                             f"equals that of backward cell({cell_bw.input_size})")
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        if initial_states is None:
            initial_states = (None, None)
        outs, finals = [], []
        for cell, states, rev in ((self.cell_fw, initial_states[0], False),
                                  (self.cell_bw, initial_states[1], True)):
            out, final = RNN(cell, rev, self.time_major).forward(inputs, states,
                                                                 sequence_length)
            outs.append(out)
            finals.append(final)
        return S.concatenate(outs, -1), tuple(finals)


# ---------------------------------------------------------------- multi-layer networks
class RNNBase(LayerList):
    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 direction: str = "forward", time_major: bool = False, dropout: float = 0.0,
                 weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None,
                 bias_hh_attr=None, proj_size: int = 0) -> None:
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.dropout = dropout
        self.num_directions = 2 if direction in _BIDIRECT else 1
        self.time_major = time_major
        self.num_layers = num_layers
        self.state_components = 2 if mode == "LSTM" else 1
        self.proj_size = proj_size
        kwargs = {"weight_ih_attr": weight_ih_attr, "weight_hh_attr": weight_hh_attr,
                  "bias_ih_attr": bias_ih_attr, "bias_hh_attr": bias_hh_attr}
        if mode == "LSTM":
            cls = LSTMCell
        elif mode == "GRU":
            cls = GRUCell
        else:
            cls = SimpleRNNCell
            kwargs["activation"] = "relu" if mode == "RNN_RELU" else "tanh"
        if direction == "forward":
            for layer in range(num_layers):
                self.append(RNN(cls(input_size if layer == 0 else hidden_size, hidden_size,
                                    **kwargs), False, time_major))
        elif direction in _BIDIRECT:
            for layer in range(num_layers):
                size = input_size if layer == 0 else 2 * hidden_size
                self.append(BiRNN(cls(size, hidden_size, **kwargs),
                                  cls(size, hidden_size, **kwargs), time_major))
        else:
            raise ValueError("direction should be forward or bidirect (or bidirectional), "
                             f"received direction = {direction}")
        # paddle's flag for its fused kernel (all four weights per cell): paddle.summary
        # gives such a network a row though it is a LayerList
        self.could_use_cudnn = len(self.parameters()) == num_layers * 4 * self.num_directions
        names = []
        for layer in range(num_layers):
            for d in range(self.num_directions):
                suffix = "_reverse" if d == 1 else ""
                names += [f"weight_ih_l{layer}{suffix}", f"weight_hh_l{layer}{suffix}"]
                if bias_ih_attr is not False:
                    names.append(f"bias_ih_l{layer}{suffix}")
                if bias_hh_attr is not False:
                    names.append(f"bias_hh_l{layer}{suffix}")
        for name, param in zip(names, self.parameters()):
            setattr(self, name, param)

    def flatten_parameters(self) -> None:
        """A no-op (paddle packs cuDNN's weight buffer here)."""

    def _cells(self) -> list:
        out = []
        for layer in self:
            out += [layer.cell] if isinstance(layer, RNN) else [layer.cell_fw, layer.cell_bw]
        return out

    def forward(self, inputs, initial_states=None, sequence_length=None):
        x = _time_major(inputs, self.time_major)
        h0 = c0 = None
        if initial_states is not None:
            if self.state_components == 2:
                h0, c0 = initial_states
            else:
                h0 = initial_states[0] if isinstance(initial_states, (list, tuple)) \
                    else initial_states
        mode = {"LSTM": "lstm", "GRU": "gru", "RNN_RELU": "rnn_relu"}.get(self.mode,
                                                                          "rnn_tanh")
        weights = [c._weights() + (None,) for c in self._cells()]
        out, hn, cn = NR.rnn(mode, x, h0, c0, weights, self.num_layers,
                             self.num_directions == 2, self.dropout, self.training,
                             lengths=sequence_length)
        if self.could_use_cudnn:  # paddle's fused rnn kernel makes all three
            out, hn, cn = (tag(t, "RnnGradNode", inputs) for t in (out, hn, cn))
        return _time_major(out, self.time_major), ((hn, cn) if mode == "lstm" else hn)

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.time_major is not False:
            s += ", time_major={time_major}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        return s.format(**self.__dict__)


class SimpleRNN(RNNBase):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 direction: str = "forward", time_major: bool = False, dropout: float = 0.0,
                 activation: str = "tanh", weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None) -> None:
        if activation == "tanh":
            mode = "RNN_TANH"
        elif activation == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown activation '{activation}'")
        self.activation = activation
        super().__init__(mode, input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)


class GRU(RNNBase):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 direction: str = "forward", time_major: bool = False, dropout: float = 0.0,
                 weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None,
                 bias_hh_attr=None, name=None) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)


class LSTM(RNNBase):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 direction: str = "forward", time_major: bool = False, dropout: float = 0.0,
                 weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None,
                 bias_hh_attr=None, proj_size: int = 0, name=None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr,
                         proj_size)


__all__ = ["RNNCellBase", "SimpleRNNCell", "GRUCell", "LSTMCell", "RNN", "BiRNN", "SimpleRNN",
           "GRU", "LSTM"]
