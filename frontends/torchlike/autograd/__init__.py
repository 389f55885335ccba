"""torch.autograd: backward, grad, grad modes, anomaly detection, graph hooks."""
from __future__ import annotations

import warnings

from janusgrad.core import autograd as _engine
from janusgrad.core.tensor import Tensor as _EngineTensor
from janusgrad.host.dropin import module_getattr

from .. import _grad_mode as grad_mode  # torch.autograd.grad_mode
from .._grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from . import graph
from .anomaly_mode import detect_anomaly, is_anomaly_enabled, set_detect_anomaly

ONLY_INPUTS = ("only_inputs argument is deprecated and is ignored now (defaults to True). To "
               "accumulate gradient for other parts of the graph, please use "
               "torch.autograd.backward.")


def _seq(x):
    if x is None:
        return None
    return (x,) if isinstance(x, _EngineTensor) else tuple(x)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph: bool = False,
             grad_variables=None, inputs=None) -> None:
    if grad_tensors is None:
        grad_tensors = grad_variables
    tensors = _seq(tensors)
    grads = _seq(grad_tensors)
    if grads is not None and len(grads) < len(tensors):
        grads = grads + (None,) * (len(tensors) - len(grads))
    if inputs is not None:
        from .._tensor import backward_inputs
        inputs = backward_inputs(inputs)
    _engine.backward(tensors, grads, retain_graph, create_graph, inputs)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph: bool = False,
         only_inputs: bool = True, allow_unused=None, is_grads_batched: bool = False,
         materialize_grads: bool = False) -> tuple:
    """The gradients of ``outputs`` with respect to ``inputs``, as a tuple."""
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    if not only_inputs:
        warnings.warn(ONLY_INPUTS, FutureWarning, stacklevel=2)
    if isinstance(inputs, dict):  # torch 2.13: named inputs give named gradients
        names = list(inputs)
        got = grad(outputs, [inputs[k] for k in names], grad_outputs, retain_graph,
                   create_graph, only_inputs, allow_unused, is_grads_batched,
                   materialize_grads)
        return dict(zip(names, got))
    outputs = _seq(outputs)
    inputs = _seq(inputs)
    grads = _seq(grad_outputs)
    if grads is not None and len(grads) < len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    if is_grads_batched:
        return _batched(outputs, inputs, grads, retain_graph, create_graph, allow_unused,
                        materialize_grads)
    return tuple(_engine.grad(outputs, inputs, grads, retain_graph, create_graph,
                              allow_unused, materialize_grads))


def _batched(outputs, inputs, grads, retain_graph, create_graph, allow_unused, materialize):
    """grad() once per slice along the first axis of every grad_output, stacked."""
    from janusgrad.ops.shape import stack
    n = grads[0].shape[0]
    rows = []
    for b in range(n):
        keep = True if b < n - 1 else retain_graph
        rows.append(_engine.grad(outputs, inputs, [g[b] for g in grads], keep, create_graph,
                                 allow_unused, materialize))
    return tuple(None if col[0] is None else stack(list(col), 0) for col in zip(*rows))


__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "graph", "grad_mode"]
__getattr__ = module_getattr("torchlike", "torch.autograd")
# functional transforms and gradient checks (as in torch, the gradcheck function shadows
# its submodule's name on this package; `from torch.autograd.gradcheck import ...` still works)
from . import functional  # noqa: E402
from .function import Function, once_differentiable  # noqa: E402,F401  (custom functions)
from .gradcheck import gradcheck, gradgradcheck  # noqa: E402

__all__ += ["Function", "once_differentiable", "functional", "gradcheck", "gradgradcheck"]
