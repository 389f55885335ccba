"""torch.autograd: backward now; grad and the rest come with the next issue."""
from __future__ import annotations

from engine import autograd as _engine
from engine.dropin import module_getattr
from engine.tensor import Tensor as _EngineTensor

from .._grad_mode import enable_grad, no_grad, set_grad_enabled


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
    _engine.backward(tensors, grads, retain_graph, create_graph, _seq(inputs))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    raise NotImplementedError("torchlike does not implement torch.autograd.grad")


__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled"]
__getattr__ = module_getattr("torchlike", "torch.autograd")

# functional transforms and gradient checks (as in torch, the gradcheck function shadows
# its submodule's name on this package; `from torch.autograd.gradcheck import ...` still works)
from . import functional  # noqa: E402
from .gradcheck import gradcheck, gradgradcheck  # noqa: E402
