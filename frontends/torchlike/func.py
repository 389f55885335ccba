"""torch.func: grad, grad_and_value, vjp, jacrev, hessian for functions of tensors."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr
from janusgrad.transforms import functional as _f

from .autograd.functional import WORDS


def grad(func, argnums=0, has_aux=False):
    return _f.grad(func, argnums, has_aux, WORDS)


def grad_and_value(func, argnums=0, has_aux=False):
    return _f.grad_and_value(func, argnums, has_aux, WORDS)


def vjp(func, *primals, has_aux=False):
    return _f.vjp_fn(func, *primals, has_aux=has_aux, words=WORDS)


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    return _f.jacrev(func, argnums, has_aux, chunk_size, WORDS)


def hessian(func, argnums=0):
    return _f.hessian_fn(func, argnums, WORDS)


__all__ = ["grad", "grad_and_value", "vjp", "jacrev", "hessian"]
__getattr__ = module_getattr("torchlike", "torch.func")
