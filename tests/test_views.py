"""In-place changes through views (torch's CopySlices): the gradients through the base, the
changed view and another view made before the change, judged by central finite differences
in float64 on random shapes, views and in-place ops."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import torchlike as torch

VIEWS = {
    "row": lambda x: x[0],
    "columns": lambda x: x[:, 1:],
    "T": lambda x: x.T,
    "flat slice": lambda x: x.reshape(-1)[1:],
    "step": lambda x: x[:, ::2],
    "unsqueeze": lambda x: x.unsqueeze(0)[0],
    "view of a view": lambda x: x.T[1:],
}
OPS = {
    "mul_": lambda v, b: v.mul_(b),
    "add_": lambda v, b: v.add_(b, alpha=0.5),
    "exp_": lambda v, b: v.exp_(),
    "copy_": lambda v, b: v.copy_(b * b),
    "setitem": lambda v, b: v.__setitem__(Ellipsis, b * 3),
    "sub_ twice": lambda v, b: v.sub_(b).sub_(b),
}


def _loss(a, b_values, view, op, w, w_view, grad, other):
    """(x * w).sum() + (v * w_view).sum() + (o * w_view).sum() after op changed the view v
    of x = a * 1.5 (o: another view of x, made before the change)."""
    at = torch.tensor(a, requires_grad=grad)
    x = at * 1.5
    o = VIEWS[other](x)
    v = VIEWS[view](x)
    b = torch.tensor(b_values(v.shape), requires_grad=grad)
    OPS[op](v, b)
    loss = (x * torch.tensor(w)).sum() + (v * torch.tensor(w_view(v.shape))).sum() + (
        o * torch.tensor(w_view(o.shape))).sum()
    return loss, at, b


def _numeric(f, values, h=1e-6):
    g = np.zeros_like(values)
    for i in np.ndindex(values.shape):
        up, down = values.copy(), values.copy()
        up[i] += h
        down[i] -= h
        g[i] = (f(up) - f(down)) / (2 * h)
    return g


@settings(max_examples=120)  # 42 pairs of view and op
@given(rows=st.integers(2, 4), cols=st.integers(2, 4), view=st.sampled_from(sorted(VIEWS)),
       op=st.sampled_from(sorted(OPS)), other=st.sampled_from(sorted(VIEWS)),
       seed=st.integers(0, 2**16))
def test_inplace_through_a_view_differentiates_like_finite_differences(rows, cols, view, op,
                                                                        other, seed):
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (rows, cols))
    w = rng.uniform(-1, 1, (rows, cols))
    b0 = rng.uniform(-1, 1, rows * cols)
    wv0 = rng.uniform(-1, 1, rows * cols)

    def b_values(shape):
        return b0[:int(np.prod(shape))].reshape(shape)

    def w_view(shape):
        return wv0[:int(np.prod(shape))].reshape(shape)

    loss, at, b = _loss(a, b_values, view, op, w, w_view, True, other)
    loss.backward()
    shape = b.shape

    def at_a(values):
        with torch.no_grad():
            return _loss(values, b_values, view, op, w, w_view, False, other)[0].item()

    def at_b(values):
        with torch.no_grad():
            return _loss(a, lambda s: values, view, op, w, w_view, False, other)[0].item()

    np.testing.assert_allclose(at.grad.numpy(), _numeric(at_a, a), rtol=1e-5, atol=1e-7)
    got_b = np.zeros(tuple(shape)) if b.grad is None else b.grad.numpy()
    np.testing.assert_allclose(got_b, _numeric(at_b, b_values(tuple(shape))), rtol=1e-5,
                               atol=1e-7)


def test_a_view_shares_its_base_version_counter_and_memory():
    x = torch.ones(2, 3)
    v = x.T[1:]
    v.add_(1)
    assert x[0, 1].item() == 2.0
    w = x.view(6)
    y = torch.ones(6, requires_grad=True) * w  # saves w: a change through x must show
    x[0, 0] = 5.0
    try:
        y.sum().backward()
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e)
    else:
        raise AssertionError("a change of the base did not reach the view's saved version")


def test_views_of_a_device_array_type_behave_as_on_the_host():
    """The same in-place changes through views on the fake device (cupy's view semantics:
    ``base`` is the array viewed): values and gradients as on the host."""
    from tests.fake_gpu import installed

    def run(device):
        a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True,
                         device=device)
        w = torch.tensor([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]], device=device)
        x = a * 1.5
        u = x.T[1:]  # a view made before the changes: it must follow them
        x[0].mul_(3.0)
        x[:, 1:].add_(w[:, 1:])
        ((x * w).sum() + (u * 2).sum()).backward()
        return a.grad.cpu().tolist(), x.cpu().tolist()

    host = run("cpu")
    with installed():
        device = run("cuda")
    assert device == host
    assert host[0] != [[1.5, -3.0, 0.75], [4.5, 0.375, -1.5]]  # the changes counted
