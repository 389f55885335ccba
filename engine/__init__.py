"""janusgrad, the engine (the folder engine/ installs as this package): tensors, graph,
backward scheduler and the op table.

It knows no framework's names; the frontends (torchlike, paddlelike) map
their dialects onto it.
"""
from importlib import metadata as _metadata

from . import backend, dtypes, mode
from .autograd import backward, run_backward
from .dialect import Dialect
from .ops import OPS, SPECS, load_all
from .tensor import Node, Tensor, record

load_all()

try:
    __version__ = _metadata.version("janusgrad")
except _metadata.PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0.0.0+unknown"

__all__ = ["__version__", "backend", "dtypes", "mode", "backward", "run_backward", "Dialect",
           "OPS", "SPECS", "Node", "Tensor", "record"]
