"""Per-parameter update rules, written in place into the parameter's array.

Each rule takes the parameter ``p`` (an engine Tensor), its gradient array
source ``g`` (a Tensor), the parameter's ``state`` (a plain dict of engine
Tensors, which a frontend can expose as its optimiser state) and the
hyper-parameters.  The order of floating operations follows torch's
single-tensor CPU implementations, so results agree to float32 rounding.
Writes bypass the graph (as under no_grad) and bump the version counter.
"""
from __future__ import annotations

import math

from janusgrad.array.backend import as_array, float32, float64, xp_of
from janusgrad.core.tensor import Tensor

# The step counter lives on the host whatever the parameter's device (as torch keeps it
# unless asked for a capturable optimiser); the other state is made on the parameter's.


def _wrap(p, a):
    return type(p).wrap(a)


def _write(p, a) -> None:
    p.array[...] = a
    p.bump_version()


def _tick(p, state) -> float:
    """Advance the step counter (a float32 0-d tensor, as torch keeps it); the new step."""
    step = state.get("step")
    value = (0.0 if step is None else float(step.array)) + 1.0
    state["step"] = _wrap(p, as_array(value, float32))
    return value


def _grad(p, g, weight_decay: float, maximize: bool):
    a = g.array
    if maximize:
        a = -a
    if weight_decay != 0:
        a = a + weight_decay * p.array
    return a


def sgd(p, g, state: dict, lr: float, momentum: float = 0.0, dampening: float = 0.0,
        nesterov: bool = False, weight_decay: float = 0.0, maximize: bool = False) -> None:
    d = _grad(p, g, weight_decay, maximize)
    if momentum != 0:
        buf = state.get("momentum_buffer")
        if buf is None:
            b = d.copy()
        else:
            b = buf.array * momentum + (1 - dampening) * d
        state["momentum_buffer"] = _wrap(p, b)
        d = d + momentum * b if nesterov else b
    _write(p, p.array - lr * d)


def _lerp(start, end, weight: float):
    """torch.lerp's two-sided formula (exact at both ends)."""
    if weight < 0.5:
        return start + weight * (end - start)
    return end - (end - start) * (1 - weight)


def adam(p, g, state: dict, lr: float, betas=(0.9, 0.999), eps: float = 1e-8,
         weight_decay: float = 0.0, amsgrad: bool = False,
         decoupled_weight_decay: bool = False, maximize: bool = False) -> None:
    """Adam; ``decoupled_weight_decay`` makes it AdamW (decay applied to the weights)."""
    beta1, beta2 = betas
    a = g.array
    if maximize:
        a = -a
    if decoupled_weight_decay:
        if weight_decay != 0:
            _write(p, p.array * (1 - lr * weight_decay))
    elif weight_decay != 0:
        a = a + weight_decay * p.array
    xp = xp_of(p.array)
    if "exp_avg" not in state:
        state["step"] = _wrap(p, as_array(0.0, float32))
        state["exp_avg"] = _wrap(p, xp.zeros_like(p.array))
        state["exp_avg_sq"] = _wrap(p, xp.zeros_like(p.array))
        if amsgrad:
            state["max_exp_avg_sq"] = _wrap(p, xp.zeros_like(p.array))
    step = _tick(p, state)
    m = _lerp(state["exp_avg"].array, a, 1 - beta1)
    v = state["exp_avg_sq"].array * beta2 + (1 - beta2) * (a * a)
    state["exp_avg"] = _wrap(p, m)
    state["exp_avg_sq"] = _wrap(p, v)
    bias_correction1 = 1 - beta1 ** step
    bias_correction2 = 1 - beta2 ** step
    step_size = lr / bias_correction1
    bc2_sqrt = math.sqrt(bias_correction2)
    if amsgrad:
        vmax = xp.maximum(state["max_exp_avg_sq"].array, v)
        state["max_exp_avg_sq"] = _wrap(p, vmax)
        denom = xp.sqrt(vmax) / bc2_sqrt + eps
    else:
        denom = xp.sqrt(v) / bc2_sqrt + eps
    _write(p, p.array + (-step_size) * (m / denom))


def rmsprop(p, g, state: dict, lr: float, alpha: float = 0.99, eps: float = 1e-8,
            weight_decay: float = 0.0, momentum: float = 0.0, centered: bool = False,
            maximize: bool = False) -> None:
    xp = xp_of(p.array)
    if "square_avg" not in state:
        state["step"] = _wrap(p, as_array(0.0, float32))
        state["square_avg"] = _wrap(p, xp.zeros_like(p.array))
        if momentum > 0:
            state["momentum_buffer"] = _wrap(p, xp.zeros_like(p.array))
        if centered:
            state["grad_avg"] = _wrap(p, xp.zeros_like(p.array))
    _tick(p, state)
    d = _grad(p, g, weight_decay, maximize)
    sq = state["square_avg"].array * alpha + (1 - alpha) * (d * d)
    state["square_avg"] = _wrap(p, sq)
    if centered:
        ga = _lerp(state["grad_avg"].array, d, 1 - alpha)
        state["grad_avg"] = _wrap(p, ga)
        avg = xp.sqrt(sq + (-1) * (ga * ga)) + eps
    else:
        avg = xp.sqrt(sq) + eps
    if momentum > 0:
        buf = state["momentum_buffer"].array * momentum + d / avg
        state["momentum_buffer"] = _wrap(p, buf)
        _write(p, p.array + (-lr) * buf)
    else:
        _write(p, p.array + (-lr) * (d / avg))


def adagrad_init(p, state: dict, initial_accumulator_value: float = 0.0) -> None:
    """Adagrad's state is made with the optimiser (torch) rather than at the first step."""
    state["step"] = _wrap(p, as_array(0.0, float32))
    state["sum"] = _wrap(p, xp_of(p.array).full_like(p.array, initial_accumulator_value))


def adagrad(p, g, state: dict, lr: float, lr_decay: float = 0.0, weight_decay: float = 0.0,
            initial_accumulator_value: float = 0.0, eps: float = 1e-10,
            maximize: bool = False) -> None:
    if "sum" not in state:
        adagrad_init(p, state, initial_accumulator_value)
    step = _tick(p, state)
    d = _grad(p, g, weight_decay, maximize)
    clr = lr / (1 + (step - 1) * lr_decay)
    s = state["sum"].array + d * d
    state["sum"] = _wrap(p, s)
    _write(p, p.array + (-clr) * (d / (xp_of(s).sqrt(s) + eps)))


def grad_norm(grads, norm_type: float = 2.0):
    """The norm of all gradient arrays taken together (float32 like the grads)."""
    if not grads:
        return as_array(0.0, float32)
    dtype = grads[0].dtype
    xp = xp_of(grads[0])
    if norm_type == math.inf:
        norms = xp.stack([xp.abs(a).max() for a in grads])
        return as_array(norms.max(), dtype)
    norms = xp.stack([(xp.abs(a.astype(float64)) ** norm_type).sum() ** (1.0 / norm_type)
                      for a in grads]).astype(dtype)
    return as_array((xp.abs(norms) ** norm_type).sum() ** (1.0 / norm_type), dtype)


def clip_grad_norm(params, max_norm: float, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False):
    """Scale the gradients of ``params`` in place so their joint norm is at most
    ``max_norm``; returns the norm before clipping (a 0-d tensor), as torch does."""
    params = [p for p in params if p.grad is not None]
    grads = [p.grad.array for p in params]
    total = grad_norm(grads, float(norm_type))
    if error_if_nonfinite and not xp_of(total).isfinite(total):
        raise RuntimeError(
            f"The total norm of order {float(norm_type)} for gradients from `parameters` is "
            "non-finite, so it cannot be clipped. To disable this error and scale the "
            "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`")
    # rounded to the norm's dtype, then a Python float: it meets the gradients as a number
    # of their dtype (NEP 50), on any device
    coef = as_array(min(float(max_norm) / (float(total) + 1e-6), 1.0), total.dtype).item()
    for p in params:
        p.grad.array[...] = p.grad.array * coef
        p.grad.bump_version()
    cls = type(params[0]) if params else None
    if cls is None:
        cls = Tensor
    return cls.wrap(total)
