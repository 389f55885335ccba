"""janusgrad, the engine (the folder engine/ installs as this package): tensors, graph,
backward scheduler and the op table.

It knows no framework's names; the frontends (torchlike, paddlelike) map
their dialects onto it.
"""
from importlib import metadata as _metadata

from janusgrad.array import backend, dtypes
from janusgrad.binding.dialect import Dialect
from janusgrad.core import mode
from janusgrad.core.autograd import backward, run_backward
from janusgrad.core.tensor import Node, Tensor, record
from janusgrad.ops import OPS, SPECS, load_all

load_all()

try:
    __version__ = _metadata.version("janusgrad")
except _metadata.PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0.0.0+unknown"

__all__ = ["__version__", "backend", "dtypes", "mode", "backward", "run_backward", "Dialect",
           "OPS", "SPECS", "Node", "Tensor", "record"]
