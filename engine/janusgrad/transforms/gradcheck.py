"""Gradient checking: analytical Jacobians (reverse mode) against central differences.

``gradcheck(func, inputs, ...)`` perturbs every element of every input that
requires grad by ``+-eps`` and compares ``(f(x+eps) - f(x-eps)) / 2eps`` with the
Jacobian the engine computes row by row.  Jacobians are laid out as
``(input.numel(), output.numel())`` and printed with the inputs' own tensor
class, so each frontend's failure message shows its own tensor printing.
``fast_mode`` compares the single number ``v^T J u`` for random unit vectors.
``gradgradcheck`` runs ``gradcheck`` on the function's vjp (second order).
"""
from __future__ import annotations

import functools
import sys
import warnings
from collections.abc import Callable

from janusgrad.array.backend import device_of, float64, from_host, host, to_host
from janusgrad.core.mode import enable_grad
from janusgrad.core.tensor import Tensor
from janusgrad.transforms.functional import grads_of

# The Jacobians are host (numpy) arrays; the function runs on its inputs' device:
# perturbed inputs and seeds are moved there, outputs and gradients come back with to_host.


class GradcheckError(RuntimeError):
    """The analytical and numerical derivatives disagree."""


FAST_FAIL_SLOW_OK_MSG = """
Fast gradcheck failed but element-wise differences are small. This means that the
test might've passed in slow_mode!

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck:

If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `fast_mode=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_fast_mode=False`
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_fast_mode=False`
""".strip()


def _as_tuple(x) -> tuple:
    if isinstance(x, Tensor):
        return (x,)
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return (x,)


def _check_inputs(inputs) -> list[int]:
    """Positions of the inputs that require grad (warning on low precision)."""
    idx = []
    for i, t in enumerate(inputs):
        if isinstance(t, Tensor) and t.requires_grad:
            if t.array.dtype != float64 and t.array.dtype.kind != "c":
                warnings.warn(
                    f"Input #{i} requires gradient and is not a double precision floating point "
                    "or complex. This check will likely fail if all the inputs are not of double "
                    "precision floating point or complex. ", UserWarning, stacklevel=4)
            idx.append(i)
    if not idx:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of them have requires_grad=True.")
    return idx


def _out_arrays(func, inputs) -> list:
    # in the caller's grad mode: the function may itself differentiate (a vjp, a jacobian)
    outs = _as_tuple(func(*inputs))
    return [_host_copy(o.array) if isinstance(o, Tensor) else None for o in outs]


def _host_copy(a):
    """A numpy copy of ``a`` (one copy whatever its device)."""
    h = to_host(a)
    return h.copy() if h is a else h


def _numerical(func, inputs, i: int, out_refs, eps: float, direction=None):
    """Central differences w.r.t. input i: per output a (numel_in, numel_out) array, or with
    ``direction`` (a flat vector) the directional derivative J u per output (flat)."""
    t = inputs[i]
    orig = t.array
    device = device_of(orig)
    flat = _host_copy(orig).reshape(-1)

    def at(delta_flat):
        t.array = from_host((flat + delta_flat).reshape(orig.shape).astype(orig.dtype), device)
        try:
            return _out_arrays(func, inputs)
        finally:
            t.array = orig

    def diff(plus, minus):
        res = []
        for p, m, ref in zip(plus, minus, out_refs):
            if ref is None:
                res.append(None)
                continue
            d = (p.reshape(-1) - m.reshape(-1)) / (2 * eps)
            res.append(d.astype(ref.dtype) if ref.dtype.kind == "f" else d)
        return res

    if direction is not None:
        return diff(at(eps * direction), at(-eps * direction))
    cols = [host.zeros((flat.size, 0 if r is None else r.size),
                       dtype=(r.dtype if r is not None and r.dtype.kind == "f" else float64))
            for r in out_refs]
    for k in range(flat.size):
        e = host.zeros(flat.size, dtype=flat.dtype)
        e[k] = 1
        for o, d in enumerate(diff(at(eps * e), at(-eps * e))):
            if d is not None:
                cols[o][k] = d
    return cols


def _analytical(inputs, diff_idx, out: Tensor):
    """Per differentiable input, the (numel_in, numel_out) Jacobian of ``out``."""
    diff = [inputs[i] for i in diff_idx]
    jac = [host.zeros((t.array.size, out.array.size), dtype=t.array.dtype) for t in diff]
    device = device_of(out.array)
    for j in range(out.array.size):
        one_hot = host.zeros(out.array.shape, dtype=out.array.dtype)
        one_hot.reshape(-1)[j] = 1
        seed = type(out).wrap(from_host(one_hot, device))
        grads = grads_of((out,), diff, (seed,), retain_graph=True)
        for k, g in enumerate(grads):
            if g is not None:
                jac[k][:, j] = to_host(g.array).reshape(-1)
    return jac


def _allclose(a, n, rtol: float, atol: float) -> bool:
    return bool(host.all(host.abs(a - n) <= atol + rtol * host.abs(n)))


def _show(cls, arr, device=None) -> str:
    """The printing of a Jacobian as a tensor on the inputs' device (as the reference
    allocates it there)."""
    return repr(cls.wrap(from_host(arr, device)))


def _mismatch(cls, a, n, out_idx: int, in_idx: int, device=None) -> str:
    return (f"Jacobian mismatch for output {out_idx:d} with respect to input {in_idx:d},\n"
            f"numerical:{_show(cls, n, device) if not isinstance(n, float) else n}\n"
            f"analytical:{_show(cls, a, device) if not isinstance(a, float) else a}\n")


def _differentiable(func_out):
    return [o for o in _as_tuple(func_out) if isinstance(o, Tensor) and o.requires_grad]


def _run(func, inputs, eps, atol, rtol, check_grad_dtypes, fast_mode, error_cls):
    inputs = _as_tuple(inputs)
    diff_idx = _check_inputs(inputs)
    func_out = _as_tuple(func(*inputs))
    outputs = _differentiable(func_out)
    out_refs = [_host_copy(o.array) if isinstance(o, Tensor) else None for o in func_out]
    cls = type(inputs[diff_idx[0]])
    device = device_of(inputs[diff_idx[0]].array)
    if not outputs:
        for i in diff_idx:
            for n in _numerical(func, inputs, i, out_refs, eps):
                if n is not None and host.any(n != 0):
                    raise error_cls("Numerical gradient for function expected to be zero")
        return True
    keep = [k for k, o in enumerate(func_out) if isinstance(o, Tensor) and o.requires_grad]
    if fast_mode:
        return _fast(func, inputs, diff_idx, outputs, out_refs, keep, eps, atol, rtol, cls,
                     error_cls, device)
    numerical = [[n for k, n in enumerate(_numerical(func, inputs, i, out_refs, eps)) if k in keep]
                 for i in diff_idx]
    for o_idx, out in enumerate(outputs):
        analytical = _analytical(inputs, diff_idx, out)
        for j, i in enumerate(diff_idx):
            a, n = analytical[j], numerical[j][o_idx]
            if check_grad_dtypes and a.dtype != inputs[i].array.dtype:
                raise error_cls("Gradient has dtype mismatch")
            if not _allclose(a, n, rtol, atol):
                raise error_cls(_mismatch(cls, a, n, o_idx, j, device))
    return True


def _unit(rng, n: int, dtype):
    v = rng.random(n)
    norm = host.sqrt((v * v).sum())
    return (v / norm if norm > 0 else v).astype(dtype)


def _fast(func, inputs, diff_idx, outputs, out_refs, keep, eps, atol, rtol, cls, error_cls,
          device):
    rng = host.random.default_rng(0)
    us = [_unit(rng, inputs[i].array.size, inputs[i].array.dtype) for i in diff_idx]
    vs = [_unit(rng, o.array.size, o.array.dtype) for o in outputs]
    for j, i in enumerate(diff_idx):
        ju = _numerical(func, inputs, i, out_refs, eps, direction=us[j].astype(float64))
        ju = [ju[k] for k in keep]
        for o_idx, out in enumerate(outputs):
            n = float((vs[o_idx] * ju[o_idx]).sum())
            seed = type(out).wrap(from_host(vs[o_idx].reshape(out.array.shape),
                                            device_of(out.array)))
            g = grads_of((out,), [inputs[i]], (seed,), retain_graph=True)[0]
            a = 0.0 if g is None else float((to_host(g.array).reshape(-1) * us[j]).sum())
            tol = atol * float(us[j].sum()) * float(vs[o_idx].sum())
            if not _allclose(host.asarray(a), host.asarray(n), rtol, tol):
                slow_n = _numerical(func, inputs, i, out_refs, eps)[keep[o_idx]]
                slow_a = _analytical(inputs, [i], out)[0]
                diff = float(host.abs(slow_n - slow_a).max()) if slow_n.size else 0.0
                msg = _mismatch(cls, a, n, o_idx, j, device) + (
                    "\nThe above quantities relating the numerical and analytical jacobians "
                    "are computed \nin fast mode. See: https://github.com/pytorch/pytorch/"
                    "issues/53876 for more background \nabout fast mode. Below, we recompute "
                    "numerical and analytical jacobians in slow mode:\n\n"
                    f"Numerical:\n {_show(cls, slow_n, device)}\n"
                    f"Analytical:\n{_show(cls, slow_a, device)}\n\n"
                    f"The max per-element difference (slow mode) is: {diff}.\n")
                if _allclose(slow_a, slow_n, rtol, atol):
                    msg += FAST_FAIL_SLOW_OK_MSG
                raise error_cls(msg)
    return True


def gradcheck(func: Callable, inputs, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_batched_forward_grad: bool = False,
              check_forward_ad: bool = False, check_backward_ad: bool = True,
              fast_mode: bool = False, masked=None, error_cls=GradcheckError) -> bool:
    """True when every analytical Jacobian matches central differences (allclose).

    The engine is deterministic, so ``nondet_tol`` has nothing to tolerate; forward-mode
    checks reuse the reverse-mode Jacobian (the values are the same by construction);
    undefined output gradients are zeros in this engine, so that check always holds.
    """
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError(
            "Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_backward_ad to be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError(
            "Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    try:
        return _run(func, inputs, eps, atol, rtol, check_grad_dtypes, fast_mode, error_cls)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def gradgradcheck(func: Callable, inputs, grad_outputs=None, *, eps: float = 1e-6,
                  atol: float = 1e-5, rtol: float = 1e-3,
                  gen_non_contig_grad_outputs: bool = False, raise_exception: bool = True,
                  nondet_tol: float = 0.0, check_undefined_grad: bool = True,
                  check_grad_dtypes: bool = False, check_batched_grad: bool = False,
                  check_fwd_over_rev: bool = False, check_rev_over_rev: bool = True,
                  fast_mode: bool = False, masked: bool = False,
                  error_cls=GradcheckError, seed: int = 0) -> bool:
    """gradcheck of ``(inputs, grad_outputs) -> vjp(func)(inputs, grad_outputs)``.

    Without ``grad_outputs`` they are drawn uniformly from [-1, 1) (seeded by ``seed``).
    """
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError(
            "Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_rev_over_rev to be True")
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        rng = host.random.default_rng(seed)
        outs = _differentiable(func(*inputs))
        grad_outputs = []
        for o in outs:
            dtype = o.array.dtype if o.array.dtype.kind in "fc" else float64
            g = type(o).wrap(from_host(rng.uniform(-1, 1, o.array.shape).astype(dtype),
                                       device_of(o.array)))
            g.set_requires_grad(True)
            grad_outputs.append(g)
        grad_outputs = tuple(grad_outputs)
    else:
        grad_outputs = _as_tuple(grad_outputs)
    n_out = len(grad_outputs)
    diff_in = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]

    def vjp_of(*args):
        ins = args[:-n_out] if n_out else args
        seeds = args[-n_out:] if n_out else ()
        with enable_grad():
            outs = _differentiable(func(*ins))
            grads = grads_of(tuple(outs), [ins[i] for i in diff_in], tuple(seeds),
                             create_graph=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(vjp_of, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes, check_batched_grad=check_batched_grad,
                     fast_mode=fast_mode, check_forward_ad=check_fwd_over_rev,
                     check_backward_ad=check_rev_over_rev, masked=masked, error_cls=error_cls)


def bind(error_cls: type, module_name: str):
    """A frontend's gradcheck and gradgradcheck raising ``error_cls``; the frontend module
    named ``module_name`` also becomes callable as gradcheck (a drop-in import of the
    submodule under the framework's name rebinds the package attribute to the module, and
    scripts still call it)."""

    check = functools.update_wrapper(functools.partial(gradcheck, error_cls=error_cls), gradcheck)
    check2 = functools.update_wrapper(functools.partial(gradgradcheck, error_cls=error_cls),
                                      gradgradcheck)

    class _CallableModule(type(sys)):
        def __call__(self, *args, **kwargs):
            return check(*args, **kwargs)

    sys.modules[module_name].__class__ = _CallableModule
    return check, check2
