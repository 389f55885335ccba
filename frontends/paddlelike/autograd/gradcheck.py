"""paddlelike.autograd.gradcheck / gradgradcheck: the engine's finite-difference checker.

Paddle has no public gradcheck; janusgrad offers the same checker as torchlike with
the same arguments.  Inputs to check have ``stop_gradient=False`` and are best float64;
failure messages print paddle tensors.
"""
from __future__ import annotations

import sys

from engine import gradcheck as _gc


class GradcheckError(_gc.GradcheckError):
    """Raised when a gradient check fails (a RuntimeError)."""


def gradcheck(func, inputs, *, eps=1e-06, atol=1e-05, rtol=0.001, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False,
              check_forward_ad=False, check_backward_ad=True, fast_mode=False,
              masked=None) -> bool:
    return _gc.gradcheck(
        func, inputs, eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception,
        nondet_tol=nondet_tol, check_undefined_grad=check_undefined_grad,
        check_grad_dtypes=check_grad_dtypes, check_batched_grad=check_batched_grad,
        check_batched_forward_grad=check_batched_forward_grad,
        check_forward_ad=check_forward_ad, check_backward_ad=check_backward_ad,
        fast_mode=fast_mode, masked=masked, error_cls=GradcheckError)


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-06, atol=1e-05, rtol=0.001,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False,
                  masked=False) -> bool:
    return _gc.gradgradcheck(
        func, inputs, grad_outputs, eps=eps, atol=atol, rtol=rtol,
        gen_non_contig_grad_outputs=gen_non_contig_grad_outputs,
        raise_exception=raise_exception, nondet_tol=nondet_tol,
        check_undefined_grad=check_undefined_grad, check_grad_dtypes=check_grad_dtypes,
        check_batched_grad=check_batched_grad, check_fwd_over_rev=check_fwd_over_rev,
        check_rev_over_rev=check_rev_over_rev, fast_mode=fast_mode, masked=masked,
        error_cls=GradcheckError)


__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class _CallableModule(type(_gc)):
    """This module is also callable as ``gradcheck``: the package attribute is the function,
    but a drop-in import of the submodule under the framework's name rebinds that attribute
    to the module, and scripts still call it."""

    def __call__(self, *args, **kwargs):
        return gradcheck(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
