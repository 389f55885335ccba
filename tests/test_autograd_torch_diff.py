"""torch.autograd surface (issue 3 §1 §2 §4 §5) against real torch 2.13: values,
gradients, printed forms, warnings and error texts of the same scripts."""
import re
import warnings

import pytest

import torchlike

torch = pytest.importorskip("torch")

_ADDR = re.compile(r" at 0x[0-9a-f]+")


def outcome(fn, mod):
    """(result or exception, warnings) of ``fn(mod)``, addresses and file names blanked."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            r = ("ok", _ADDR.sub("", repr(fn(mod))))
        except Exception as e:  # noqa: BLE001 - the exception is the result compared
            r = (type(e).__name__, str(e))
    shown = [(w.category.__name__, str(w.message)) for w in caught
             if not issubclass(w.category, (DeprecationWarning, RuntimeWarning))]
    return r, shown


def _x(t, values=(1.0, 2.0, 3.0, 4.0)):
    return t.tensor(list(values), requires_grad=True)


# ------------------------------------------------------------------ §1 grad as values
def grad_basic(t):
    x = _x(t)
    return t.autograd.grad((x * x).sum(), x)


def grad_list_inputs(t):
    x, y = _x(t), _x(t, (5.0, 6.0, 7.0, 8.0))
    return t.autograd.grad((x * y).sum(), [x, y])


def grad_unused(t):
    x, y = _x(t), _x(t)
    return t.autograd.grad((x * x).sum(), [x, y])


def grad_allow_unused(t):
    x, y = _x(t), _x(t)
    return t.autograd.grad((x * x).sum(), [x, y], allow_unused=True)


def grad_materialize(t):
    x, y = _x(t), _x(t)
    return t.autograd.grad((x * x).sum(), [x, y], materialize_grads=True)


def grad_materialize_refused(t):
    x = _x(t)
    return t.autograd.grad((x * x).sum(), [x], allow_unused=False, materialize_grads=True)


def grad_output_no_grad(t):
    x = _x(t)
    return t.autograd.grad(t.ones(2).sum(), [x])


def grad_input_no_grad(t):
    x = _x(t)
    return t.autograd.grad((x * x).sum(), [t.ones(4)])


def grad_outputs_wrong_shape(t):
    x = _x(t)
    return t.autograd.grad(x * x, [x], grad_outputs=t.ones(3))


def grad_outputs_weighted(t):
    x = _x(t)
    return t.autograd.grad(x * x, x, grad_outputs=t.tensor([1.0, 0.0, 2.0, 0.5]))


def grad_nonscalar_implicit(t):
    x = _x(t)
    return t.autograd.grad(x * x, x)


def grad_create_graph(t):
    x = _x(t)
    (g,) = t.autograd.grad((x ** 3).sum(), x, create_graph=True)
    (h,) = t.autograd.grad(g.sum(), x)
    return g, h


def grad_frees_graph(t):
    x = _x(t)
    z = (x * x).sum()
    t.autograd.grad(z, x)
    return t.autograd.grad(z, x)


def grad_leaves_grad_alone(t):
    x = _x(t)
    t.autograd.grad((x * x).sum(), x)
    return x.grad


def grad_nonleaf_inputs(t):
    x = _x(t)
    w = x * 1
    return t.autograd.grad((w * w).sum(), [w, x])


def grad_only_inputs_false(t):
    x = _x(t)
    return t.autograd.grad((x * x).sum(), [x], only_inputs=False)


def grad_batched(t):
    x = _x(t, (1.0, 2.0))
    return t.autograd.grad(x * x, [x], grad_outputs=t.eye(2), is_grads_batched=True)


def grad_inside_no_grad(t):
    x = _x(t)
    y = (x * x * x).sum()
    with t.no_grad():
        (g,) = t.autograd.grad(y, x, create_graph=True)
    return g


def backward_inside_no_grad(t):
    x = _x(t)
    y = (x * x).sum()
    with t.no_grad():
        y.backward()
    return x.grad


def backward_inputs(t):
    x, y = _x(t), _x(t, (5.0, 6.0, 7.0, 8.0))
    (x * y).sum().backward(inputs=[x])
    return x.grad, y.grad


def fourth_derivative(t):
    x = t.tensor([0.3, -0.7, 1.1], dtype=t.float64, requires_grad=True)
    f = (t.sin(x) * t.exp(x)).sum()
    out = []
    for _ in range(4):
        (f,) = t.autograd.grad(f, x, create_graph=True)
        out.append([round(v, 10) for v in f.tolist()])
        f = f.sum()
    return out


def third_derivative_tanh_matmul(t):
    x = t.tensor([[0.1, 0.2], [0.3, -0.4]], dtype=t.float64, requires_grad=True)
    w = t.tensor([[0.5, -1.0], [0.25, 0.75]], dtype=t.float64)
    f = t.tanh(x @ w).sum()
    for _ in range(3):
        (f,) = t.autograd.grad(f, x, create_graph=True)
        f = f.sum()
    return round(f.item(), 10)


def hessian_vector_product(t):
    x = t.tensor([0.5, 1.5, -1.0], dtype=t.float64, requires_grad=True)
    v = t.tensor([1.0, 0.0, 2.0], dtype=t.float64)
    (g,) = t.autograd.grad((x ** 3).sum() + (x[0] * x[1] * x[2]), x, create_graph=True)
    (hv,) = t.autograd.grad(g, x, grad_outputs=v)
    return hv


def gradient_penalty(t):
    w = t.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=t.float64, requires_grad=True)
    x = t.tensor([[0.5, -0.5]], dtype=t.float64, requires_grad=True)
    out = t.tanh(x @ w).sum()
    (gx,) = t.autograd.grad(out, x, create_graph=True)
    penalty = ((gx.norm() - 1) ** 2)
    penalty.backward()
    return [round(v, 9) for v in w.grad.flatten().tolist()]


# ------------------------------------------------------------------ §2 hooks
def hook_leaf_sum_once(t):
    seen = []
    x = _x(t, (1.0, 2.0))
    h = x.register_hook(lambda g: seen.append(g.tolist()))
    (x * x + x * 3).sum().backward()
    h.remove()
    h.remove()
    (x * 1).sum().backward()
    return seen, x.grad, type(h).__name__, type(h).__module__


def hook_replaces(t):
    x = _x(t, (1.0, 2.0))
    seen = []
    x.register_hook(lambda g: g * 10)
    x.register_hook(lambda g: seen.append(g.tolist()))
    (x * x).sum().backward()
    return x.grad, seen


def hook_wrong_shape_leaf(t):
    x = _x(t, (1.0, 2.0))
    x.register_hook(lambda g: t.ones(3))
    (x * x).sum().backward()


def hook_wrong_shape_named(t):
    def myhook(g):
        return t.ones(3)
    x = _x(t, (1.0, 2.0))
    y = x * 2
    y.register_hook(myhook)
    (y * y).sum().backward()


def hook_wrong_dtype(t):
    x = _x(t, (1.0, 2.0))
    y = x * 2
    y.register_hook(lambda g: t.ones(2, dtype=t.float64))
    (y * y).sum().backward()


def hook_not_a_tensor(t):
    x = _x(t, (1.0, 2.0))
    y = x * 2
    y.register_hook(lambda g: 5)
    (y * y).sum().backward()


def retain_after_hooks(t):
    x = _x(t, (1.0, 2.0))
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: g * 100)
    (y * y).sum().backward()
    return y.grad, x.grad, y.retains_grad, x.retains_grad


def retain_accumulates(t):
    x = _x(t, (1.0, 2.0))
    y = x * 2
    y.retain_grad()
    (y * y).sum().backward(retain_graph=True)
    (y * y).sum().backward()
    return y.grad


def retain_leaf_noop(t):
    x = _x(t, (1.0, 2.0))
    x.retain_grad()
    return x.retains_grad


def retain_no_grad(t):
    t.ones(2).retain_grad()


def hook_no_grad(t):
    t.ones(2).register_hook(print)


def post_accumulate(t):
    x = _x(t, (1.0, 2.0))
    seen = []
    x.register_post_accumulate_grad_hook(lambda p: seen.append((p is x, p.grad.tolist())))
    (x * x).sum().backward()
    return seen


def post_accumulate_nonleaf(t):
    (_x(t) * 2).register_post_accumulate_grad_hook(print)


def hooks_in_grad(t):
    x = _x(t, (1.0, 2.0))
    seen = []
    x.register_hook(lambda g: seen.append(g.tolist()) or g * 2)
    x.register_post_accumulate_grad_hook(lambda p: seen.append("post"))
    (gx,) = t.autograd.grad((x * x).sum(), x)
    y = x * 2
    y.register_hook(lambda g: g * 7)
    y.retain_grad()
    (gx2,) = t.autograd.grad((y * y).sum(), x)
    (gy,) = t.autograd.grad((y * y).sum(), y)
    return gx, gx2, gy, y.grad, seen


def nonleaf_hook_summed(t):
    x = _x(t, (1.0, 2.0))
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append(g.tolist()))
    (y * y + y * 3).sum().backward()
    return seen


def nonleaf_grad_warning(t):
    x = _x(t, (1.0, 2.0))
    y = x * 2
    (y * y).sum().backward()
    return y.grad


# ------------------------------------------------------------------ §4 versions, in place
def saved_input_modified(t):
    x = _x(t)
    a = x * 2
    b = a * a
    a.add_(1)
    b.sum().backward()


def saved_output_modified(t):
    x = _x(t)
    a = x.exp()
    a.add_(1)
    a.sum().backward()


def saved_output_setitem(t):
    x = t.ones(2, 3, requires_grad=True)
    a = x.exp()
    a[0, 0] = 5
    a.sum().backward()


def saved_output_of_other(t):
    x = _x(t)
    b = x.sin().exp()
    b.mul_(3)
    b.sum().backward()


def saved_double(t):
    x = t.tensor([1.0, 2.0], dtype=t.float64, requires_grad=True)
    a = x.exp()
    a.add_(1)
    a.sum().backward()


def unsaved_input_modified(t):
    x = t.tensor([1.0, 2.0, 3.0, 4.0], dtype=t.float64, requires_grad=True)
    a = x * 2
    b = a.exp()
    a.mul_(2)
    b.sum().backward()
    return x.grad


def saved_leaf_modified_detach(t):
    x = _x(t)
    b = x * x
    x.detach().add_(1)
    b.sum().backward()


def saved_leaf_modified_data(t):
    x = _x(t)
    b = x * x
    x.data.add_(1)
    b.sum().backward()
    return x.grad


def inplace_chain_grads(t):
    x = _x(t)
    y = x * 1
    y.mul_(2)
    y.add_(x)
    y.sub_(1)
    y.div_(2)
    y.pow_(2)
    y.clamp_(0, 20)
    y.exp_()
    y.sqrt_()
    y.relu_()
    y.sum().backward()
    return [round(v, 4) for v in x.grad.tolist()], y.grad_fn.name()


def inplace_chain_accepted(t):
    x = t.tensor([1.0, 2.0, 3.0, 4.0], dtype=t.float64, requires_grad=True)
    y = x * 1
    y.mul_(2)
    y.add_(x)
    y.sub_(1, alpha=2)
    y.div_(2)
    y.pow_(2)
    y.clamp_(0, 20)
    y.neg_()
    y.exp_()
    y.sum().backward()
    return [round(v, 8) for v in x.grad.tolist()], y.grad_fn.name()


def inplace_self_operand(t):
    x = _x(t)
    y = x * 1
    y.mul_(y)
    y.add_(1)
    y.sum().backward()


def inplace_setitem_grads(t):
    x = _x(t)
    v = t.tensor([10.0], requires_grad=True)
    y = x * 2
    y[1:2] = v * 3
    y += x
    (y * y).sum().backward()
    return x.grad, v.grad, y.grad_fn.name()


def inplace_copy_fill_zero(t):
    x = _x(t)
    s = t.tensor([1.0, 1.0, 2.0, 2.0], requires_grad=True)
    y = x * 2
    y.copy_(s * 3)
    z = x * 1
    z.zero_()
    w = x * 1
    w.fill_(2.0)
    (y * x).sum().backward()
    (z + w).sum().backward()
    return x.grad, s.grad


def leaf_inplace_error(t):
    _x(t).add_(1)


def leaf_setitem_error(t):
    x = _x(t)
    x[0] = 5.0


def version_after_inplace(t):
    x = t.ones(3)
    d = x.detach()
    d.add_(1)
    x.data.add_(1)
    return x


def no_grad_inplace_on_leaf(t):
    x = _x(t)
    with t.no_grad():
        x -= 0.5
    return x, x.is_leaf, x.requires_grad


# ------------------------------------------------------------------ §5 modes
def inference_basics(t):
    x = _x(t, (0.0, 1.0))
    with t.inference_mode():
        b = x * 2
        flags = (b.is_inference(), b.requires_grad, t.is_inference_mode_enabled(),
                 t.is_grad_enabled())
        b.add_(1)
    return flags, x.is_inference(), t.is_inference_mode_enabled(), t.is_inference(b), b


def inference_inplace_outside(t):
    with t.inference_mode():
        b = t.ones(2) * 2
    b.add_(1)


def inference_saved(t):
    x = _x(t, (0.0, 1.0))
    with t.inference_mode():
        b = x * 2
    b.mul(x)


def inference_unsaved_ok(t):
    x = _x(t, (0.0, 1.0))
    with t.inference_mode():
        b = x * 2
    return b + x, b.exp(), b.clone().is_inference()


def inference_requires_grad(t):
    with t.inference_mode():
        b = t.ones(2) * 2
    b.requires_grad_()


def inference_decorators(t):
    @t.inference_mode()
    def f():
        return t.is_grad_enabled(), t.is_inference_mode_enabled()

    @t.inference_mode
    def g():
        return t.is_grad_enabled()

    with t.no_grad():
        with t.inference_mode(False):
            nested = t.is_grad_enabled()
    return f(), g(), nested, t.is_grad_enabled()


def inference_enable_grad_inside(t):
    x = _x(t, (0.0, 1.0))
    with t.inference_mode():
        with t.enable_grad():
            y = x * 2
            return t.is_grad_enabled(), y.requires_grad, y.is_inference()


def inference_enable_grad_inside_no_grad_inputs(t):
    # results are inference tensors in inference mode whatever the grad mode says, also
    # when no input requires grad (views of normal tensors are not: left out here)
    x = t.tensor([0.5, 1.0])
    w = t.tensor([[1.0], [2.0]])
    with t.inference_mode():
        with t.enable_grad():
            ys = (x * 2, 2.0 + x, x * x, t.sin(x), x.sum(), x.mean(), x @ w, t.relu(x),
                  t.cat([x, x]), x.exp())
            return [(y.is_inference(), y.requires_grad) for y in ys]


def inference_factories(t):
    # every tensor a factory makes in inference mode is an inference tensor
    import numpy as np
    like = t.ones(2, 3)
    with t.inference_mode():
        made = [t.ones(2), t.zeros(2), t.tensor([1.0]), t.arange(3), t.rand(2),
                t.full((2,), 1.0), t.empty(2), t.eye(2), t.linspace(0, 1, 3),
                t.zeros_like(like), t.ones_like(like), t.full_like(like, 2.0),
                t.randn_like(like), t.from_numpy(np.ones(2)), t.as_tensor(np.ones(2))]
    return [m.is_inference() for m in made]


def inference_views_of_normal_tensors(t):
    # views of a normal tensor made in inference mode stay normal tensors (and can be
    # changed in place outside it); copies and views of inference tensors are inference
    x = t.ones(2, 3)
    with t.inference_mode():
        views = [x[0], x.view(3, 2), x.reshape(6), x.T, x.transpose(0, 1), x.unsqueeze(0),
                 x[0:1].expand(2, 3), x.flatten(), x.t(), x.detach(), x[:, 1]]
        copies = [x.clone(), x[x > 0], x[[0, 1]], x.to(t.float64), x.T.reshape(6)]
        inner = t.ones(2, 3)
        inner_views = [inner[0], inner.view(6), inner.T]
    flags = [[v.is_inference() for v in group] for group in (views, copies, inner_views)]
    views[0].add_(1)
    views[3].mul_(2)
    return flags, x


def grad_mode_arguments(t):
    out = []
    for make in (lambda: t.no_grad(None), lambda: t.no_grad(orig_func=None),
                 lambda: t.enable_grad(None)):
        try:
            with make():
                out.append(t.is_grad_enabled())
        except TypeError as e:
            out.append(str(e))
    return out


def set_grad_enabled_decorator(t):
    @t.autograd.set_grad_enabled(False)
    def f():
        return t.is_grad_enabled()
    return f(), t.is_grad_enabled()


def anomaly_nan(t):
    def inner(x):
        return x / x
    x = _x(t, (0.0, 1.0))
    with t.autograd.detect_anomaly():
        y = inner(x)
        y.sum().backward()


def anomaly_graph_made_outside(t):
    x = _x(t, (0.0, 1.0))
    y = x / x
    with t.autograd.detect_anomaly():
        y.sum().backward()


def anomaly_version_error(t):
    x = _x(t, (1.0, 2.0))
    with t.autograd.detect_anomaly():
        a = x.exp()
        a.add_(1)
        a.sum().backward()


def anomaly_set_mode(t):
    t.autograd.set_detect_anomaly(True)
    try:
        on = t.is_anomaly_enabled()
        y = t.tensor([0.0, 1.0], requires_grad=True).sqrt()  # inf, not nan
        y.sum().backward()
    finally:
        t.autograd.set_detect_anomaly(False)
    return on, t.is_anomaly_enabled()


def anomaly_check_nan_off(t):
    x = _x(t, (0.0, 1.0))
    with t.autograd.detect_anomaly(check_nan=False):
        (x / x).sum().backward()
    return x.grad


def backward_nonleaf_inputs(t):
    x = _x(t, (1.0, 2.0))
    y = x * 2
    z = (y * y).sum()
    z.backward(inputs=[y], retain_graph=True)
    first = (y.grad, x.grad, y.retains_grad)
    t.autograd.backward(z, inputs=[y, x])
    return first, y.grad, x.grad


def backward_inputs_empty(t):
    (_x(t) * 2).sum().backward(inputs=[])


def backward_inputs_no_grad(t):
    (_x(t) * 2).sum().backward(inputs=[t.ones(2)])


def grad_named_inputs(t):
    x, y = _x(t, (1.0, 2.0)), _x(t, (3.0, 4.0))
    return t.autograd.grad((x * y).sum(), {"a": x, "b": y})


# ------------------------------------------------------------------ §6 views and in place
_VIEWS = [lambda x: x[0], lambda x: x[:, 1:], lambda x: x.T, lambda x: x.view(3, 2),
          lambda x: x.reshape(6)[1:4], lambda x: x.unsqueeze(0)[0, 1], lambda x: x[1, ::2],
          lambda x: x.transpose(0, 1)[1:],
          lambda x: x.view(3, 2)[1:].T]


def _plane(t):
    a = t.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    w = t.tensor([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]])
    return a, w


def view_inplace_rebases_base(t):
    # an in-place change of a view of a graph tensor is part of the base's history
    out = []
    for make in _VIEWS:
        a, w = _plane(t)
        x = a * 1.5
        make(x).mul_(3.0)
        (x * w).sum().backward()
        out.append((x.tolist(), a.grad.tolist(), x.grad_fn.name()))
    return out


def views_follow_a_changed_base(t):
    # views made before an in-place change of their base (or of another view of it) see
    # the base's new history
    a, w = _plane(t)
    x = a * 1
    v, u = x[0], x.T[1:]
    x.mul_(2)
    ((v * 2).sum() + (u * w[:, 1:].T).sum()).backward()
    first = (a.grad, v.grad_fn.name(), u.grad_fn.name())
    a, w = _plane(t)
    x = a * 1
    v1, v2 = x[:, :2], x[:, 1:]
    v1.mul_(3)
    (v2 * w[:, 1:]).sum().backward()
    return first, (a.grad, v1.grad_fn.name(), v2.grad_fn.name(), x.grad_fn.name())


def view_inplace_with_grad_operand(t):
    # the view's new values depend on b: the base now requires grad through them
    a, w = _plane(t)
    b = t.tensor([7.0, 8.0], requires_grad=True)
    x = a.detach() * 2
    x[1, :2].copy_(b * b)
    y = a * 1
    y[:, 0].add_(b)
    ((x + y) * w).sum().backward()
    return x.requires_grad, b.grad, a.grad


def view_augmented_item_assignment(t):
    a, w = _plane(t)
    x = a * 1
    x[0] += a[1] * 2  # x.__getitem__, iadd on the view, then x.__setitem__
    x[:, 2] *= 3
    (x * w).sum().backward()
    return x, a.grad


def view_inplace_saved_base(t):
    a, _ = _plane(t)
    x = a * 1
    y = x.sin()
    x[0:1].mul_(2)
    y.sum().backward()


def view_inplace_no_grad_counts_the_version(t):
    a, _ = _plane(t)
    x = a * 1
    y = x.sin()
    with t.no_grad():
        x.T[0].mul_(2)
    y.sum().backward()


def view_from_no_grad_inplace(t):
    a, _ = _plane(t)
    x = a * 1
    with t.no_grad():
        v = x[0]
        inside = x[1]
        inside.mul_(2)
    v.mul_(2)  # nothing to record: allowed, as in torch
    out = [x.tolist()]
    try:
        v.add_(t.ones(3, requires_grad=True))
    except RuntimeError as e:
        out.append(str(e))
    return out


def multi_output_view_inplace(t):
    out = []
    x = t.ones(4)
    x.split(2)[0].add_(1)  # nothing recorded: allowed
    out.append(x.tolist())
    y = t.ones(4, requires_grad=True) * 1
    for part in (lambda: y.split(2)[1], lambda: y.chunk(2)[0], lambda: y.split([1, 3])[1]):
        try:
            part().add_(1)
        except RuntimeError as e:
            out.append(str(e))
    with t.no_grad():
        y.split(2)[0].add_(1)
    out.append(y.tolist())
    return out


def view_of_leaf_inplace(t):
    a, _ = _plane(t)
    a[0:1].mul_(2)


def expanded_inplace(t):
    e = t.ones(1, 2).expand(2, 2)
    e.add_(1)


def flip_and_contiguous_copy(t):
    x = t.tensor([[1.0, 2.0], [3.0, 4.0]])
    x.flip(0).add_(10)
    c = x.T.contiguous()
    c.add_(100)
    same = x.contiguous()
    return x, c, same is x, x.T.is_contiguous(), c.is_contiguous()


CASES = [f for name, f in list(globals().items())
         if callable(f) and f.__module__ == __name__ and not name.startswith(("_", "outcome"))
         and name not in ("re", "warnings", "pytest", "torchlike")]


def _strip_paths(shown):
    """Warnings carry file names and line numbers of each side's own script; the anomaly
    warning's stack is compared on its innermost frames (the outer ones are pytest's)."""
    out = []
    for c, m in shown:
        m = re.sub(r'File "[^"]+", line \d+', "File", m)
        if m.startswith("Error detected in"):
            lines = m.split("\n")
            m = "\n".join(lines[:1] + lines[-5:])
        out.append((c, m))
    return out


@pytest.mark.parametrize("case", CASES, ids=[f.__name__ for f in CASES])
def test_same_as_torch(case):
    got, got_warn = outcome(case, torchlike)
    want, want_warn = outcome(case, torch)
    assert got == want
    assert _strip_paths(got_warn) == _strip_paths(want_warn)


INPLACE_UNARY = ["exp_", "sqrt_", "relu_", "neg_", "abs_", "log_", "sigmoid_", "tanh_", "floor_",
                 "ceil_", "round_", "reciprocal_", "sin_", "cos_", "square_", "rsqrt_", "log1p_",
                 "expm1_", "sign_", "log2_", "log10_", "tan_", "atan_", "asin_", "acos_",
                 "sinh_", "cosh_"]
INPLACE_BINARY = [("clamp_min_", (0.3,)), ("clamp_max_", (0.4,)), ("multiply_", (3.0,)),
                  ("divide_", (4.0,)), ("subtract_", (1.0,)), ("remainder_", (0.25,)),
                  ("lerp_", ("T", 0.25)), ("addcmul_", ("T", "T")),
                  ("addcdiv_", ("T", "T")), ("masked_fill_", ("M", 2.0)), ("pow_", (3,)),
                  ("pow_", ("T",)), ("copy_", ("T",))]


def _inplace_case(t, name, args):
    x = t.tensor([0.1, 0.35, 0.6, 0.85], dtype=t.float64, requires_grad=True)
    other = t.tensor([0.5, 0.2, 0.9, 0.4], dtype=t.float64, requires_grad=True)
    mask = t.tensor([True, False, True, False])
    y = x * 1
    real = [other if a == "T" else mask if a == "M" else a for a in args]
    r = getattr(y, name)(*real)
    (y * t.arange(1, 5)).sum().backward()
    g = other.grad
    return (r is y, _r(y), _r(x.grad), None if g is None else _r(g))


def _r(t):
    return [round(v, 8) + 0.0 for v in t.tolist()]  # + 0.0: -0.0 and 0.0 alike


@pytest.mark.parametrize("name", INPLACE_UNARY)
def test_inplace_unary_gradients(name):
    assert outcome(lambda t: _inplace_case(t, name, ()), torchlike) == \
        outcome(lambda t: _inplace_case(t, name, ()), torch)


@pytest.mark.parametrize("name,args", INPLACE_BINARY, ids=[f"{n}{a}" for n, a in INPLACE_BINARY])
def test_inplace_binary_gradients(name, args):
    assert outcome(lambda t: _inplace_case(t, name, args), torchlike) == \
        outcome(lambda t: _inplace_case(t, name, args), torch)


def test_retained_grad_follows_an_inplace_change():
    def case(t):
        x = _x(t, (1.0, 2.0))
        y = x * 2
        seen = []
        y.retain_grad()
        y.register_hook(lambda g: seen.append(("old", g.tolist())))
        y.mul_(3)
        y.register_hook(lambda g: seen.append(("new", g.tolist())))
        (y * y).sum().backward()
        return seen, y.grad, x.grad
    assert outcome(case, torchlike) == outcome(case, torch)

