"""Compiled functions (janusgrad.transforms.trace) beyond the op table: guard keys, graph
breaks and their warnings, fullgraph errors, modules and training loops, the graph node's
bookkeeping (retain_graph, in-place changes after the call, several outputs, create_graph)."""
from __future__ import annotations

import numpy as np
import pytest

import torchlike as torch
from janusgrad.binding.dialect import Dialect
from janusgrad.transforms import trace

F32 = np.float32


def _x(*shape, grad=True, seed=0):
    a = np.random.default_rng(seed).standard_normal(shape).astype(F32)
    return torch.tensor(a, requires_grad=grad)


def _grads(fn, *arrays, seed=None):
    """(output arrays, input gradient arrays) of fn on fresh leaves of ``arrays``."""
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    out = fn(*ts)
    outs = out if isinstance(out, tuple) else (out,)
    torch.autograd.backward(list(outs), [torch.ones_like(o) for o in outs])
    return [o.detach().numpy() for o in outs], [t.grad.numpy() for t in ts]


def _same_results(f, *arrays):
    c = trace.compiled(f)
    for k in range(3):
        arrs = [a * (1 + k) for a in arrays]
        got, want = _grads(c, *arrs), _grads(f, *arrs)
        for g, w in zip(got[0] + got[1], want[0] + want[1]):
            np.testing.assert_array_equal(g, w)
    return c


def test_replays_after_one_trace_and_matches_eager():
    c = _same_results(lambda x, y: (torch.tanh(x @ y) * 2.0).sum(),
                      np.ones((3, 4), F32), np.full((4, 2), 0.5, F32))
    assert c.stats["traces"] == 1 and c.stats["replays"] == 2 and not c.stats["breaks"]


def test_new_shapes_and_flags_trace_again_and_the_cache_has_a_limit():
    c = trace.compiled(lambda x: (x * x).sum(), cache_limit=2)
    c(_x(3))
    c(_x(3, seed=1))
    assert c.stats["traces"] == 1
    c(_x(4))
    assert c.stats["traces"] == 2
    with pytest.warns(UserWarning, match="limit"):
        out = c(_x(3, grad=False))  # a third key: eager
    assert c.stats["eager"] == 1 and out.requires_grad is False
    with torch.no_grad():
        c.reset()
        c(_x(3))
    assert c.stats["traces"] == 1


def test_a_value_read_breaks_once_with_a_warning_and_runs_eagerly():
    def f(x):
        if x.sum().item() > 0:  # a Python branch on a value
            return x * 2.0
        return x * 3.0

    c = trace.compiled(f)
    with pytest.warns(UserWarning, match="graph break.*item"):
        a = c(_x(3))
    b = c(_x(3))  # no second warning
    np.testing.assert_array_equal(a.detach().numpy(), f(_x(3)).detach().numpy())
    np.testing.assert_array_equal(b.detach().numpy(), f(_x(3)).detach().numpy())
    assert c.stats["breaks"] == ["a tensor's value was read (item)"]
    assert c.stats["eager"] == 1


def test_fullgraph_raises_the_dialects_error():
    class Strict(Dialect):
        def compile_unsupported(self, where, cause):
            return NotImplementedError(f"{where}: {cause}")

    c = trace.compiled(lambda x: x * float(x.sum()), dialect=Strict(), fullgraph=True)
    with pytest.raises(NotImplementedError, match="value was read"):
        c(_x(3))


@pytest.mark.parametrize("body,cause", [
    (lambda x: x.mul_(2.0) if not x.requires_grad else x.detach().mul_(2.0) * x,
     "in-place change"),
    (lambda x: x.register_hook(lambda g: g * 2) and x * 1.0, "hook"),
    (lambda x: torch.nn.functional.dropout(x, 0.5, training=True), "random"),
    (lambda x: x.reshape(-1), "view"),
    (lambda x: trace.disabled(lambda y: y * 2.0)(x), "excluded from compiling"),
])
def test_what_a_trace_cannot_capture_runs_eagerly(body, cause):
    torch.manual_seed(0)
    want = body(_x(2, 3)).detach().numpy()
    c = trace.compiled(body)
    torch.manual_seed(0)
    with pytest.warns(UserWarning, match="graph break"):
        got = c(_x(2, 3)).detach().numpy()
    assert any(cause in b for b in c.stats["breaks"]), c.stats["breaks"]
    # the eager run after the break draws the same random numbers as a plain eager run
    np.testing.assert_array_equal(got, want)


def test_a_custom_function_breaks():
    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2.0

        @staticmethod
        def backward(ctx, g):
            return g * 2.0

    c = trace.compiled(lambda x: Double.apply(x).sum())
    with pytest.warns(UserWarning, match="custom autograd function"):
        c(_x(3)).backward()


def test_a_backward_inside_the_function_breaks_and_leaves_grads_as_eager():
    w = _x(3)

    def step(x):
        loss = (x * w).sum()
        loss.backward()
        return loss

    c = trace.compiled(step)
    x = _x(3, grad=False, seed=1)
    with pytest.warns(UserWarning, match="a backward inside the function"):
        for _ in range(3):
            c(x)
    np.testing.assert_array_equal(w.grad.numpy(), 3 * x.numpy())  # the trace added nothing


def test_hooks_on_an_input_break():
    x = _x(3)
    x.register_hook(lambda g: g * 10.0)
    c = trace.compiled(lambda t: (t * t).sum())
    with pytest.warns(UserWarning, match="hooks"):
        c(x).backward()
    np.testing.assert_array_equal(x.grad.numpy(), 20.0 * x.detach().numpy())


def test_a_module_training_loop_is_eager_bit_for_bit():
    def make():
        torch.manual_seed(0)
        return torch.nn.Sequential(torch.nn.Linear(6, 5), torch.nn.ReLU(),
                                   torch.nn.Linear(5, 3))

    eager, comp = make(), make()
    step = trace.compiled(comp.__call__, modules=(comp,))
    opt_e = torch.optim.SGD(eager.parameters(), lr=0.1)
    opt_c = torch.optim.SGD(comp.parameters(), lr=0.1)
    rng = np.random.default_rng(0)
    for _ in range(4):
        x = torch.tensor(rng.standard_normal((8, 6)).astype(F32))
        y = torch.tensor(rng.integers(0, 3, 8))
        for opt, run in ((opt_e, eager), (opt_c, step)):
            opt.zero_grad()
            torch.nn.functional.cross_entropy(run(x), y).backward()
            opt.step()
    for p, q in zip(eager.parameters(), comp.parameters()):
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())
    assert step.stats["traces"] == 1 and step.stats["replays"] == 3
    comp.eval()  # a training flag is in the key
    step(x)
    assert step.stats["traces"] == 2


def test_a_parameter_read_through_the_closure_gets_its_gradient():
    w = _x(3, 2)

    def f(x):
        return (x @ w).sum()

    c = trace.compiled(f)
    for _ in range(2):
        w.grad = None
        c(_x(4, 3, grad=False)).backward()
    want = _x(4, 3, grad=False).sum(0).detach().numpy()[:, None].repeat(2, 1)
    np.testing.assert_allclose(w.grad.numpy(), want, rtol=1e-6)
    assert c.stats["replays"] == 1


def test_retain_graph_and_released_graph_as_eagerly():
    c = trace.compiled(lambda x: (x.exp() * x).sum())
    x = _x(3)
    out = c(x)
    out.backward(retain_graph=True)
    out.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * (np.exp(x.detach().numpy()) *
                                                     (1 + x.detach().numpy())), rtol=1e-6)
    with pytest.raises(RuntimeError, match="second time|released"):
        out.backward()


def test_changing_an_output_in_place_before_backward_is_caught():
    c = trace.compiled(lambda x: x.exp())
    y = c(_x(3))
    y.mul_(2.0)
    with pytest.raises(RuntimeError, match="inplace|in-place"):
        y.sum().backward()


def test_several_outputs_and_only_some_used():
    def f(x):
        return x.sin(), (x * x).sum(), x.cos() * 2.0

    c = trace.compiled(f)
    x1, x2 = _x(3), _x(3)
    a, b, _ = c(x1)
    (a.sum() + b).backward()
    a, b, _ = f(x2)
    (a.sum() + b).backward()
    np.testing.assert_array_equal(x1.grad.numpy(), x2.grad.numpy())


def test_create_graph_through_a_compiled_function_is_right_and_then_eager():
    def f(x):
        return (x * x * x).sum()

    c = trace.compiled(f)
    x = _x(3)
    with pytest.warns(UserWarning, match="create_graph"):
        (g,) = torch.autograd.grad(c(x), [x], create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), [x])
    np.testing.assert_allclose(gg.numpy(), 6 * x.detach().numpy(), rtol=1e-6)
    c(x)
    assert c.stats["eager"] == 1


def test_a_deep_chain_compiles_without_recursion():
    def f(x):
        for _ in range(3000):
            x = x * 1.0001
        return x.sum()

    c = trace.compiled(f)
    x1, x2 = _x(2), _x(2)
    c(x1).backward()
    c(x1)
    f(x2).backward()
    np.testing.assert_array_equal(x1.grad.numpy(), x2.grad.numpy())


def test_switched_off_runs_eagerly():
    c = trace.compiled(lambda x: x * 2.0)
    trace.set_enabled(False)
    try:
        c(_x(2))
    finally:
        trace.set_enabled(True)
    assert c.stats["traces"] == 0
    assert not trace.is_tracing()


def test_a_branch_the_engine_takes_on_values_is_guarded():
    """prod's backward branches on whether the input has zeros: traced without, a replay
    with a zero fails its guard and that gradient is computed eagerly (eager's bits); after
    a few failures the key runs eagerly for good, with a warning."""
    c = trace.compiled(lambda x: x.prod())
    no_zero = np.array([1.5, -2.0, 3.0], F32)
    with_zero = np.array([1.5, 0.0, 3.0], F32)
    for a in (no_zero, with_zero, no_zero * 2, with_zero * 2):
        got, want = _grads(c, a), _grads(lambda x: x.prod(), a)
        for g, w in zip(got[0] + got[1], want[0] + want[1]):
            np.testing.assert_array_equal(g, w)
    assert c.stats["traces"] == 1 and c.stats["replays"] == 3 and not c.stats["breaks"]
    with pytest.warns(UserWarning, match="assumed changed"):
        for _ in range(8):
            _grads(c, with_zero)
    assert c.stats["breaks"] and c.stats["eager"] >= 1


def test_max_pooling_replays():
    pool = torch.nn.MaxPool2d(2, padding=1)
    c = trace.compiled(lambda x: pool(x).sum())
    a = np.random.default_rng(0).standard_normal((1, 2, 5, 5)).astype(F32)
    for k in range(3):
        got, want = _grads(c, a + k), _grads(lambda x: pool(x).sum(), a + k)
        for g, w in zip(got[0] + got[1], want[0] + want[1]):
            np.testing.assert_array_equal(g, w)
    assert c.stats["replays"] == 2 and not c.stats["breaks"]


def test_a_tensor_passed_twice():
    def f(a, b):
        return (a * b + a).sum()

    c = trace.compiled(f)
    x, y = _x(3), _x(3, seed=1)
    for args in ((x, x), (x, y), (y, y)):
        got, want = c(*args), f(*args)
        np.testing.assert_array_equal(got.detach().numpy(), want.detach().numpy())
    assert type(x.array) is np.ndarray and type(y.array) is np.ndarray
    assert c.stats["traces"] == 2


def test_a_trace_in_one_thread_is_not_disturbed_by_another():
    """The active trace is per thread: another thread drawing random numbers (a break, in
    the traced thread) while a trace records leaves that trace valid."""
    import threading

    inside, drawn = threading.Event(), threading.Event()

    def f(x):
        inside.set()
        drawn.wait(10)
        return (x * 2.0).sum()

    c = trace.compiled(f)
    t = threading.Thread(target=lambda: c(_x(3)))
    t.start()
    inside.wait(10)
    torch.rand(3)  # this thread's draw: not the traced thread's
    drawn.set()
    t.join(10)
    assert c.stats["traces"] == 1 and c.stats["breaks"] == []


def test_a_compiled_training_loop_keeps_memory_flat():
    import gc

    net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    step = torch.compile(net)
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    x = torch.tensor(np.ones((5, 4), F32))

    def run(n):
        for _ in range(n):
            opt.zero_grad()
            step(x).sum().backward()
            opt.step()
        gc.collect()
        return len(gc.get_objects())

    run(20)
    before = run(10)
    after = run(200)
    assert after - before < 50, (before, after)


def test_versions_after_a_break_are_eagers():
    def f(x, buf):
        buf.add_(1.0)  # a buffer: replayed
        x.detach().mul_(2.0)  # an input that requires grad: a break
        return x * 1.0

    x1, x2 = _x(3), _x(3)
    b1, b2 = _x(3, grad=False), _x(3, grad=False)
    c = trace.compiled(f)
    with pytest.warns(UserWarning, match="in-place change"):
        c(x1, b1)
    f(x2, b2)
    assert (x1.version, b1.version) == (x2.version, b2.version)
    np.testing.assert_array_equal(b1.numpy(), b2.numpy())


def test_a_constant_result_is_a_fresh_tensor_at_every_replay():
    """A tensor the function makes from nothing it reads is a new tensor at each call, as
    eagerly: a caller changing one result in place leaves the next call's alone."""
    import paddlelike as paddle

    def torch_fn(x):
        return x * 2, torch.zeros(2)

    def paddle_fn(x):
        return x * 2, paddle.zeros([2])

    for c, x in ((torch.compile(torch_fn), torch.ones(2)),
                 (paddle.jit.to_static(paddle_fn), paddle.ones([2]))):
        seen = []
        for _ in range(3):
            out = c(x)[1]
            np.testing.assert_array_equal(out.numpy(), np.zeros(2, F32))
            assert all(out is not s for s in seen)
            seen.append(out)
            out[0] = 7.0
        assert c.stats["replays"] == 2 and not c.stats["breaks"], c.stats
