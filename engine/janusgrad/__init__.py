"""janusgrad, the engine (the folder engine/ installs as this package): tensors, graph,
backward scheduler and the op table.

It knows no framework's names; the frontends (torchlike, paddlelike) map
their dialects onto it.
"""
from importlib import import_module as _import_module
from importlib import metadata as _metadata

from janusgrad.array import backend, dtypes
from janusgrad.binding.dialect import Dialect
from janusgrad.core import mode
from janusgrad.core.autograd import backward, run_backward
from janusgrad.core.tensor import Node, Tensor, record
from janusgrad.ops import OPS, SPECS

# Every op family, so that OPS and SPECS (and the rules' namespaces) are complete: the
# families import the table, never the other way round.
_FAMILIES = (
    "core.inplace",  # (in-place setitem is an op)
    "nn.attention",  # (layer norm, attention)
    "nn.functional",  # (layer and loss specs)
    "nn.losses",  # (distances, margin and likelihood losses)
    "nn.norm",  # (normalisation, embedding, structured dropout)
    "nn.pool",  # (pooling, padding, resampling)
    "nn.recurrent",  # (the fused recurrent sequence op)
    "ops.activation",  # (elementwise activations)
    "ops.composite",  # (composites)
    "ops.conv",  # (convolution, transposed convolution, unfold/fold)
    "ops.creation", "ops.elementwise", "ops.index", "ops.linalg",
    "ops.linalg_factor",  # (inverse, det, solve, cholesky, eigh, norms)
    "ops.linalg_lu",  # (triangular and Cholesky solves, LU, matrix_exp, Householder)
    "ops.manip",  # (manipulation, indexing, scatter)
    "ops.masked",  # (torch.masked: reductions and normalisations under a mask)
    "ops.math", "ops.placement", "ops.reduce",
    "ops.scatters",  # (view scatters, strided windows, scatter/index reduce, put)
    "ops.shape",
    "ops.sorting",  # (sorting, searching, counting)
    "ops.special",
    "ops.stats",  # (statistics, differences, histograms, polynomials, windows)
)
for _family in _FAMILIES:
    _import_module(f"janusgrad.{_family}")

try:
    __version__ = _metadata.version("janusgrad")
except _metadata.PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0.0.0+unknown"

__all__ = ["__version__", "backend", "dtypes", "mode", "backward", "run_backward", "Dialect",
           "OPS", "SPECS", "Node", "Tensor", "record"]
