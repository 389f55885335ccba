"""janusgrad's engine: tensors, graph, backward scheduler and the op table.

It knows no framework's names; the frontends (torchlike, paddlelike) map
their dialects onto it.
"""
from . import backend, dtypes, mode
from .autograd import backward, run_backward
from .dialect import Dialect
from .ops import OPS, SPECS, load_all
from .tensor import Node, Tensor, record

load_all()

__all__ = ["backend", "dtypes", "mode", "backward", "run_backward", "Dialect", "OPS",
           "SPECS", "Node", "Tensor", "record"]
