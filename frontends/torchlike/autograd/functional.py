"""torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp on the engine."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr
from janusgrad.transforms import functional as _f


class TorchWords(_f.Words):
    """torch's wording: sizes print as ``torch.Size([...])``."""

    strict_vectorize_prefix = "torch.autograd.functional.jacobian"

    def size(self, shape) -> str:
        return f"torch.Size({list(shape)})"

    def no_rows(self) -> Exception:
        return RuntimeError("stack expects a non-empty TensorList")


WORDS = TorchWords()


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    return _f.vjp(func, inputs, v, create_graph, strict, WORDS)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    return _f.jvp(func, inputs, v, create_graph, strict, WORDS)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    return _f.jacobian(func, inputs, create_graph, strict, vectorize, strategy, WORDS)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    return _f.hessian(func, inputs, create_graph, strict, vectorize, outer_jacobian_strategy,
                      WORDS)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    return _f.hvp(func, inputs, v, create_graph, strict, WORDS)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    return _f.vhp(func, inputs, v, create_graph, strict, WORDS)


__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]
__getattr__ = module_getattr("torchlike", "torch.autograd.functional")
