"""torch.compile's surface in torchlike (issue 17), held against real torch 2.13: the
signature, decorator forms, argument checks, OptimizedModule, torch.compiler and
torch._dynamo; and compiled results against eager ones.

Our compiled results must be eager's bit for bit (same kernels, same order); real torch's
(backend="eager": no code generation) only to tolerances.  Tests that need the tracer to
trace (graph breaks, the recompile limit, the replay's grad_fn) skip while the engine's
skeleton runs every call eagerly, and run as soon as it traces.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import torchlike

from .compile_cases import check_training_steps, check_two_tensor_fn, params, two_tensor_fn

torch = pytest.importorskip("torch")


@pytest.fixture(autouse=True)
def _fresh():
    # torch's first compile switches distributions' argument validation off for the whole
    # process (torch._dynamo.eval_frame's patch): restored for the tests that follow
    validate = torch.distributions.Distribution._validate_args
    torch._dynamo.reset()
    torchlike.compiler.reset()
    yield
    torch._dynamo.reset()
    torch.distributions.Distribution.set_default_validate_args(validate)


@pytest.fixture
def tracer_live():
    """Skip while janusgrad.transforms.trace is the skeleton that runs every call eagerly."""
    probe = torchlike.compile(lambda x: x * 2)
    probe(torchlike.ones(2))
    if probe.stats["traces"] == 0:
        pytest.skip("janusgrad.transforms.trace does not trace yet (skeleton)")


def _np(t):
    return t.detach().numpy()


# ---------------------------------------------------------------- signatures and forms
@pytest.mark.parametrize("path", ["compile", "compiler.disable", "compiler.reset",
                                  "compiler.is_compiling", "_dynamo.reset",
                                  "_dynamo.list_backends"])
def test_signatures_are_torchs(path):
    ours, theirs = torchlike, torch
    for part in path.split("."):
        ours, theirs = getattr(ours, part), getattr(theirs, part)
    assert params(ours) == params(theirs)


@pytest.mark.parametrize("form", ["call", "bare decorator", "decorator with arguments",
                                  "compiler.compile"])
def test_decorator_forms_give_eager_results_and_torchs(form):
    _f = two_tensor_fn

    def build(mod, **kw):
        if form == "call":
            return mod.compile(_f, **kw)
        if form == "bare decorator":
            return mod.compile(_f) if not kw else mod.compile(**kw)(_f)
        if form == "compiler.compile":
            return mod.compiler.compile(_f, **kw)
        return mod.compile(fullgraph=True, **kw)(_f)

    ours, theirs = build(torchlike), build(torch, backend="eager")
    check_two_tensor_fn(ours, theirs, lambda a: torchlike.tensor(a, requires_grad=True),
                        lambda a: torch.tensor(a, requires_grad=True))
    assert ours.__name__ == "two_tensor_fn" and ours.__wrapped__ is _f
    assert set(ours.stats) >= {"traces", "replays", "eager", "breaks"}
    assert ours.stats["traces"] + ours.stats["replays"] + ours.stats["eager"] == 3


def test_disable_returns_the_model_itself():
    def f(x):
        return x
    assert torchlike.compile(f, disable=True) is f is torch.compile(f, disable=True)
    m = torchlike.nn.Linear(2, 3)
    assert torchlike.compile(m, disable=True) is m
    assert torchlike.compile(disable=True)(f) is f


@pytest.mark.parametrize("args, kwargs", [
    ((lambda x: x,), {"backend": "nope"}),
    ((lambda x: x,), {"backend": "nope", "disable": True}),
    ((lambda x: x,), {"mode": "max-autotune", "options": {"a": 1}}),
    ((lambda x: x,), {"mode": "bogus"}),
    ((lambda x: x,), {"mode": "bogus", "disable": True}),
    ((3,), {}),
    ((3,), {"disable": True}),
])
def test_argument_errors_are_torchs(args, kwargs):
    with pytest.raises(Exception) as want:
        torch.compile(*args, **kwargs)
    with pytest.raises(Exception) as got:
        torchlike.compile(*args, **kwargs)
    assert type(got.value).__name__ == type(want.value).__name__
    assert str(got.value) == str(want.value)


def test_decorator_on_none_and_accepted_options():
    for mod in (torch, torchlike):
        with pytest.raises(RuntimeError, match="Model can't be None"):
            mod.compile()(None)
    # a debug backend, a mode, a callable backend and dynamic: accepted, same results
    x = torchlike.randn(4)
    for kw in ({"backend": "aot_eager"}, {"mode": "reduce-overhead"},
               {"backend": lambda gm, example_inputs: gm}, {"dynamic": True}):
        assert np.array_equal(_np(torchlike.compile(torchlike.sin, **kw)(x)), _np(x.sin()))
    assert torchlike._dynamo.list_backends() == torch._dynamo.list_backends()
    # torch's registry also holds backends that fail on purpose, for its own tests
    assert torchlike._dynamo.list_backends(None) == [
        b for b in torch._dynamo.list_backends(None) if not b.endswith("_TESTING_ONLY")]


# ---------------------------------------------------------------- OptimizedModule
def _pair(seed=0):
    """Our MLP and real torch's with the same weights."""
    def build(mod):
        mod.manual_seed(seed)
        return mod.nn.Sequential(mod.nn.Linear(4, 8), mod.nn.ReLU(), mod.nn.Linear(8, 2))
    ours, theirs = build(torchlike), build(torch)
    with torch.no_grad():
        for p, q in zip(ours.parameters(), theirs.parameters()):
            q.copy_(torch.from_numpy(_np(p).copy()))
    return ours, theirs


def test_optimized_module_surface_is_torchs():
    m, tm = _pair()
    om, tom = torchlike.compile(m), torch.compile(tm, backend="eager")
    assert repr(om) == repr(tom)
    assert type(om).__name__ == type(tom).__name__ == "OptimizedModule"
    assert isinstance(om, torchlike.nn.Module)
    assert isinstance(om, torchlike._dynamo.eval_frame.OptimizedModule)
    assert om._orig_mod is m
    assert list(om.state_dict()) == list(tom.state_dict())
    assert [n for n, _ in om.named_parameters()] == [n for n, _ in tom.named_parameters()]
    assert all(p is q for p, q in zip(om.parameters(), m.parameters()))
    # attributes and len reach _orig_mod; item access does not (a dunder), as in torch
    assert getattr(om, "0") is m[0] and getattr(tom, "0") is tm[0]
    assert len(om) == len(tom) == 3
    for mod in (om, tom):
        with pytest.raises(TypeError, match="'OptimizedModule' object is not subscriptable"):
            mod[0]
    om.extra = 5  # written on the original module, as torch does
    assert m.extra == 5 and "extra" not in om.__dict__
    for mode in ("eval", "train"):
        getattr(om, mode)()
        getattr(tom, mode)()
        assert om.training == m.training == m[0].training == tom.training
    m.eval()
    assert not om.training
    om.load_state_dict(om.state_dict())
    with pytest.raises(RuntimeError) as want:
        tom.load_state_dict(tm.state_dict())
    with pytest.raises(RuntimeError) as got:
        om.load_state_dict(m.state_dict())
    assert str(got.value) == str(want.value)


def test_optimized_module_training_steps_match_eager_and_torch():
    m, tm = _pair(1)
    e, _ = _pair(1)  # an eager twin of ours
    om, tom = torchlike.compile(m), torch.compile(tm, backend="eager")
    check_training_steps(om, e, tom, torchlike.tensor, torch.tensor)
    assert om.forward.stats["traces"] + om.forward.stats["replays"] + \
        om.forward.stats["eager"] == 4


def test_a_compiled_method_is_compiled_per_instance():
    class Net(torchlike.nn.Module):
        def __init__(self, scale):
            super().__init__()
            self.lin = torchlike.nn.Linear(3, 3)
            self.scale = scale

        @torchlike.compile
        def forward(self, x):
            return self.lin(x).tanh() * self.scale

    a, b = Net(2.0), Net(3.0)
    x = torchlike.randn(2, 3)
    for net in (a, b, a):
        want = net.lin(x).tanh() * net.scale
        assert np.array_equal(_np(net(x)), _np(want))


# ---------------------------------------------------------------- compiler and _dynamo
def test_compiler_disable_is_torchs_wrapper():
    def f(x):
        return x + 1
    for mod in (torch, torchlike):
        d = mod.compiler.disable(f)
        assert d is not f and d.__wrapped__ is f and d.__name__ == "f"
        assert mod.compiler.disable(recursive=False)(f).__wrapped__ is f
    x = torchlike.ones(2)
    assert np.array_equal(_np(torchlike.compiler.disable(f)(x)), _np(f(x)))


def test_config_limits_are_one_setting():
    cfg = torchlike._dynamo.config
    assert cfg.recompile_limit == cfg.cache_size_limit == torch._dynamo.config.recompile_limit
    try:
        cfg.cache_size_limit = 3
        assert cfg.recompile_limit == 3
        assert torchlike.compile(lambda x: x).cache_limit == 3
        assert torchlike.compile(lambda x: x, recompile_limit=5).cache_limit == 5
        assert torchlike.compile(torchlike.nn.Linear(1, 1)).forward.cache_limit == 3
    finally:
        cfg.recompile_limit = 8


def test_unsupported_is_torchs_exception_type():
    from torchlike._dialect import TORCH
    e = TORCH.compile_unsupported("f", "a Python branch on a tensor's value")
    ours = [c.__name__ for c in type(e).__mro__]
    theirs = [c.__name__ for c in torch._dynamo.exc.Unsupported.__mro__]
    assert ours == theirs
    assert isinstance(e, torchlike._dynamo.exc.Unsupported)
    assert "f" in str(e) and "a Python branch on a tensor's value" in str(e)
    msg, cls = TORCH.compile_limit("f", 8)
    assert msg.startswith("torch._dynamo hit config.recompile_limit (8)\n   function: 'f'")
    assert issubclass(cls, UserWarning)


def test_the_compiled_node_is_named_as_torchs_compiled_function():
    from torchlike._grad_fn import node_name

    class Op:
        name = "compiled"

    class FakeNode:
        op = Op()

    f = torch.compile(lambda a, b: (a * b).sin(), backend="aot_eager")
    out = f(torch.randn(3, requires_grad=True), torch.randn(3))
    assert node_name(FakeNode()) == out.grad_fn.name() == "CompiledFunctionBackward"


def test_is_compiling_and_reset_outside_a_trace():
    assert torchlike.compiler.is_compiling() is torch.compiler.is_compiling() is False
    assert torchlike._dynamo.is_compiling() is False
    c = torchlike.compile(lambda x: x + 1)
    c(torchlike.ones(1))
    assert torchlike._dynamo.reset() is None and torchlike.compiler.reset() is None


# ---------------------------------------------------------------- with the tracer
def _branchy(x):
    if x.sum() > 0:
        return x * 2
    return x * 3


def test_fullgraph_break_raises_unsupported(tracer_live):
    c = torchlike.compile(_branchy, fullgraph=True)
    with pytest.raises(torchlike._dynamo.exc.Unsupported, match="Graph break in"):
        c(torchlike.ones(3))
    with pytest.raises(torch._dynamo.exc.Unsupported):
        torch.compile(_branchy, backend="eager", fullgraph=True)(torch.ones(3))


def test_a_graph_break_warns_once_and_runs_eagerly(tracer_live):
    c = torchlike.compile(_branchy)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        for sign in (1, 1, -1):
            x = torchlike.ones(3) * sign
            assert np.array_equal(_np(c(x)), _np(_branchy(x)))
    breaks = [str(i.message) for i in w if "Graph break" in str(i.message)]
    assert len(breaks) == 1 and "_branchy" in breaks[0]
    assert c.stats["breaks"]


def test_a_disabled_call_inside_is_a_break(tracer_live):
    inner = torchlike.compiler.disable(lambda x: x * 5)
    c = torchlike.compile(lambda x: inner(x) + 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = torchlike.ones(2)
        assert np.array_equal(_np(c(x)), _np(x * 5 + 1))
    assert c.stats["breaks"]


def test_the_recompile_limit_warns_in_torchs_words(tracer_live):
    torchlike._dynamo.config.recompile_limit = 2
    try:
        c = torchlike.compile(lambda x: x * 2)
    finally:
        torchlike._dynamo.config.recompile_limit = 8
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        for n in range(1, 6):
            x = torchlike.randn(n)
            assert np.array_equal(_np(c(x)), _np(x * 2))
    hits = [str(i.message) for i in w if "recompile_limit" in str(i.message)]
    assert len(hits) == 1
    assert hits[0].startswith("torch._dynamo hit config.recompile_limit (2)")


def test_replayed_outputs_have_torchs_grad_fn_and_is_compiling_is_true_in_the_trace(
        tracer_live):
    seen = []

    def f(a, b):
        seen.append(torchlike.compiler.is_compiling())
        return (a * b).sin()

    c = torchlike.compile(f)
    a = torchlike.randn(3, requires_grad=True)
    c(a, torchlike.randn(3))
    out = c(a, torchlike.randn(3))
    assert seen[0] is True
    assert c.stats["replays"] >= 1
    assert type(out.grad_fn).__name__ == "CompiledFunctionBackward"
    assert out.grad_fn.name() == "CompiledFunctionBackward"


def test_reset_makes_the_next_call_trace_again(tracer_live):
    c = torchlike.compile(lambda x: x.exp())
    x = torchlike.ones(2)
    c(x)
    c(x)
    torchlike.compiler.reset()
    before = c.stats["traces"]
    c(x)
    assert c.stats["traces"] == before + 1
