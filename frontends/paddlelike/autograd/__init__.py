"""paddle.autograd: backward over several roots and the grad-mode switches."""
from __future__ import annotations

from janusgrad.core import autograd as _autograd
from janusgrad.core.mode import enable_grad as _enable_grad
from janusgrad.core.mode import is_grad_enabled
from janusgrad.core.mode import no_grad as _no_grad
from janusgrad.core.mode import set_grad_enabled as _set_grad_enabled
from janusgrad.host.dropin import module_getattr as _module_getattr

from ..tensor import _check_seed


class no_grad(_no_grad):  # noqa: N801 (paddle's spelling)
    """``with paddle.no_grad():`` and ``@paddle.no_grad()``."""


class enable_grad(_enable_grad):  # noqa: N801
    """``with paddle.enable_grad():`` and ``@paddle.enable_grad()``."""


class set_grad_enabled(_set_grad_enabled):  # noqa: N801
    """Sets grad mode when made (so a plain call works); restores it on leaving a ``with``."""


def backward(tensors, grad_tensors=None, retain_graph: bool = False) -> None:
    """paddle.autograd.backward: one tensor or a list, seeds default to ones."""
    from janusgrad.core.tensor import Tensor
    if isinstance(tensors, Tensor):
        tensors = [tensors]
        if grad_tensors is not None and (isinstance(grad_tensors, Tensor)):
            grad_tensors = [grad_tensors]
    tensors = list(tensors)
    if grad_tensors is not None:
        grad_tensors = list(grad_tensors)
        for t, g in zip(tensors, grad_tensors):
            if g is not None:
                _check_seed(t, g)
    _autograd.backward(tensors, grad_tensors, retain_graph=bool(retain_graph))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph: bool = False,
         only_inputs: bool = True, allow_unused: bool = False, no_grad_vars=None,
         *, dump_backward_graph_path=None) -> list:
    """paddle.grad: the gradients of ``outputs`` w.r.t. ``inputs`` as a list; non-scalar
    outputs are seeded with ones; ``no_grad_vars`` are tensors the gradient does not pass."""
    from janusgrad.core.tensor import Tensor
    outputs = [outputs] if isinstance(outputs, Tensor) else list(outputs)
    inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    if grad_outputs is not None:
        grad_outputs = [grad_outputs] if isinstance(grad_outputs, Tensor) else list(grad_outputs)
        if len(grad_outputs) != len(outputs):
            raise AssertionError("The length of grad_outputs must be equal to outputs")
        grad_outputs = [_fit(o, g) for o, g in zip(outputs, grad_outputs)]
    if not only_inputs:
        raise AssertionError("only_inputs=False is not supported yet")
    if no_grad_vars is not None:
        no_grad_vars = [no_grad_vars] if isinstance(no_grad_vars, Tensor) else list(no_grad_vars)
    seen: set = set()
    for t in inputs:
        if id(t) in seen:  # (a reshape to its own shape is its input: one tensor twice)
            from ..dialect import tensor_name
            raise RuntimeError(
                f"(AlreadyExists) inputs contain duplicate tensor {tensor_name(t)}, please "
                "check inputs carefully.\n  [Hint: Expected "
                "visited_ins.count(auto_grad_meta) == 0, "
                "but received visited_ins.count(auto_grad_meta):1 != 0:0.] (at "
                "/paddle/paddle/fluid/eager/backward.cc:220)\n")
        seen.add(id(t))
    # paddle's partial grad never frees the graph, whatever retain_graph says
    grads = _autograd.grad(outputs, inputs, grad_outputs, True, create_graph,
                           allow_unused, False, no_grad_vars)
    if create_graph:  # paddle flags every gradient of a create_graph call as differentiable
        for g in grads:
            if g is not None and not g.requires_grad:
                g.requires_grad = True
    return grads


def _fit(out, g):
    """paddle reads a grad_output of another shape as the output's first elements."""
    if g is None or g.array.shape == out.array.shape or g.array.size < out.array.size:
        return g
    return type(g).wrap(g.array.reshape(-1)[:out.array.size].reshape(out.array.shape))


__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled"]

__getattr__ = _module_getattr("paddlelike", "paddle.autograd")
# lazily evaluated jacobian/hessian (paddle.autograd.autograd) and the gradient checker
from . import autograd  # noqa: E402,F401
from .autograd import hessian, jacobian  # noqa: E402,F401
from .gradcheck import gradcheck, gradgradcheck  # noqa: E402,F401
from .py_layer import Function, PyLayer, PyLayerContext  # noqa: E402,F401
