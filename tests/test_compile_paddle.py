"""paddle.jit.to_static's surface in paddlelike (issue 17), held against real paddle 3.3.1:
the signature, decorator forms, argument checks, a Layer converted in place,
not_to_static, enable_to_static, InputSpec; and converted results against dygraph ones.

Our converted results must be dygraph's bit for bit (same kernels, same order); real
paddle's only to tolerances.  Tests that need the tracer to trace skip while the engine's
skeleton runs every call eagerly, and run as soon as it traces.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import paddlelike

from .compile_cases import check_training_steps, check_two_tensor_fn, params, two_tensor_fn

paddle = pytest.importorskip("paddle")


@pytest.fixture(autouse=True)
def _switch_restored():
    yield
    paddlelike.jit.enable_to_static(True)
    paddle.jit.enable_to_static(True)


@pytest.fixture
def tracer_live():
    """Skip while janusgrad.transforms.trace is the skeleton that runs every call eagerly."""
    probe = paddlelike.jit.to_static(lambda x: x * 2)
    probe(paddlelike.ones([2]))
    if probe.stats["traces"] == 0:
        pytest.skip("janusgrad.transforms.trace does not trace yet (skeleton)")


# ---------------------------------------------------------------- signatures and forms
@pytest.mark.parametrize("path", ["jit.to_static", "jit.not_to_static",
                                  "jit.enable_to_static", "static.InputSpec"])
def test_signatures_are_paddles(path):
    ours, theirs = paddlelike, paddle
    for part in path.split("."):
        ours, theirs = getattr(ours, part), getattr(theirs, part)
    assert params(ours) == params(theirs)


_f = two_tensor_fn


def _xy(mod, seed=0):
    rng = np.random.default_rng(seed)
    return [mod.to_tensor(rng.standard_normal((3, 4))) for _ in range(2)]


@pytest.mark.parametrize("form", ["call", "bare decorator", "decorator with arguments",
                                  "full_graph"])
def test_decorator_forms_give_dygraph_results_and_paddles(form):
    def build(mod):
        if form == "call":
            return mod.jit.to_static(_f)
        if form == "bare decorator":
            return mod.jit.to_static()(_f)
        if form == "full_graph":
            return mod.jit.to_static(_f, full_graph=True)
        spec = [mod.static.InputSpec([None, 4], "float64")] * 2
        with pytest.warns(UserWarning, match="full_graph=False don't support input_spec"):
            return mod.jit.to_static(input_spec=spec, backend=None)(_f)

    ours, theirs = build(paddlelike), build(paddle)
    check_two_tensor_fn(ours, theirs, lambda a: paddlelike.to_tensor(a, stop_gradient=False),
                        lambda a: paddle.to_tensor(a, stop_gradient=False))
    assert ours.__name__ == "two_tensor_fn"
    assert set(ours.stats) >= {"traces", "replays", "eager", "breaks"}
    assert ours.stats["traces"] + ours.stats["replays"] + ours.stats["eager"] == 3


@pytest.mark.parametrize("args, kwargs", [
    ((lambda x: x,), {"backend": "XLA"}),
    ((lambda x: x,), {"build_strategy": 3}),
    ((3,), {}),
])
def test_argument_errors_are_paddles(args, kwargs):
    with pytest.raises(Exception) as want:
        paddle.jit.to_static(*args, **kwargs)
    with pytest.raises(Exception) as got:
        paddlelike.jit.to_static(*args, **kwargs)
    assert type(got.value) is type(want.value)
    assert str(got.value) == str(want.value)


def test_input_spec_is_paddles():
    for args in (([None, 784], "float32"), ([3],), ([2, None, -5], "float64", "x", True),
                 ((2, 3), "int64")):
        assert repr(paddlelike.static.InputSpec(*args)) == repr(paddle.static.InputSpec(*args))
    for mod in (paddle, paddlelike):
        with pytest.raises(TypeError, match=r"Type of `shape` in InputSpec should be one of "
                                            r"\(tuple, list\), but received int."):
            mod.static.InputSpec(3)
        with pytest.raises(ValueError, match=r"shape\[1\] should be an `int`, but received "
                                             r"`float`:2.0."):
            mod.static.InputSpec([1, 2.0])


# ---------------------------------------------------------------- a Layer
def _pair(seed=0):
    """Our MLP and real paddle's with the same weights."""
    def build(mod):
        mod.seed(seed)
        return mod.nn.Sequential(mod.nn.Linear(4, 8), mod.nn.ReLU(), mod.nn.Linear(8, 2))
    ours, theirs = build(paddlelike), build(paddle)
    for p, q in zip(ours.parameters(), theirs.parameters()):
        q.set_value(p.numpy())
    return ours, theirs


def test_a_layer_is_converted_in_place_like_paddles():
    m, tm = _pair()
    keys, text = list(m.state_dict()), repr(m)
    assert paddlelike.jit.to_static(m) is m and paddle.jit.to_static(tm) is tm
    assert type(m) is paddlelike.nn.Sequential
    assert repr(m) == text == repr(tm)
    assert list(m.state_dict()) == keys == list(tm.state_dict())
    assert [n for n, _ in m.named_parameters()] == [n for n, _ in tm.named_parameters()]
    for mode in ("eval", "train"):
        getattr(m, mode)()
        getattr(tm, mode)()
        assert m.training == m[0].training == tm.training
    assert paddlelike.jit.to_static(m) is m  # converting again replaces the conversion
    assert not isinstance(m.forward.fn, type(m.forward))


def test_layer_training_steps_match_dygraph_and_paddle():
    m, tm = _pair(1)
    e, _ = _pair(1)  # a dygraph twin of ours
    paddlelike.jit.to_static(m)
    paddle.jit.to_static(tm)
    check_training_steps(m, e, tm, paddlelike.to_tensor, paddle.to_tensor)
    s = m.forward.stats
    assert s["traces"] + s["replays"] + s["eager"] == 4


def test_a_decorated_forward_is_converted_per_instance():
    class Net(paddlelike.nn.Layer):
        def __init__(self, scale):
            super().__init__()
            self.lin = paddlelike.nn.Linear(3, 3)
            self.scale = scale

        @paddlelike.jit.to_static
        def forward(self, x):
            return self.lin(x).tanh() * self.scale

    a, b = Net(2.0), Net(3.0)
    x = paddlelike.randn([2, 3])
    for net in (a, b, a):
        assert np.array_equal(net(x).numpy(), (net.lin(x).tanh() * net.scale).numpy())


# ---------------------------------------------------------------- switches and marks
def test_not_to_static_returns_the_function_like_paddle():
    def g(x):
        return x - 1
    assert paddlelike.jit.not_to_static(g) is g is paddle.jit.not_to_static(g)
    assert paddlelike.jit.not_to_static()(g) is g


def test_enable_to_static_false_runs_dygraph():
    c = paddlelike.jit.to_static(_f)
    paddlelike.jit.enable_to_static(False)
    x, y = _xy(paddlelike)
    assert np.array_equal(c(x, y).numpy(), _f(x, y).numpy())
    assert c.stats["traces"] == 0
    paddlelike.jit.enable_to_static(True)
    assert np.array_equal(c(x, y).numpy(), _f(x, y).numpy())


def test_the_dialect_words_to_statics_failures():
    from paddlelike.dialect import DIALECT
    e = DIALECT.compile_unsupported("f", "a Python branch on a tensor's value")
    assert isinstance(e, NotImplementedError)
    assert "full_graph=True" in str(e) and "a Python branch on a tensor's value" in str(e)
    msg, cls = DIALECT.compile_break("f", "x")
    assert "Fallback to dygraph" in msg and issubclass(cls, UserWarning)
    msg, cls = DIALECT.compile_limit("f", 20)
    assert "Exceed max cache size (20)" in msg and issubclass(cls, UserWarning)


# ---------------------------------------------------------------- with the tracer
def _branchy(x):
    if x.sum() > 0:
        return x * 2
    return x * 3


def test_full_graph_break_says_what_is_unsupported(tracer_live):
    c = paddlelike.jit.to_static(_branchy, full_graph=True)
    with pytest.raises(NotImplementedError, match="full_graph=True"):
        c(paddlelike.ones([3]))


def test_a_break_falls_back_to_dygraph_with_one_warning(tracer_live):
    c = paddlelike.jit.to_static(_branchy)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        for sign in (1, 1, -1):
            x = paddlelike.ones([3]) * sign
            assert np.array_equal(c(x).numpy(), _branchy(x).numpy())
    falls = [str(i.message) for i in w if "Fallback to dygraph" in str(i.message)]
    assert len(falls) == 1 and "_branchy" in falls[0]


def test_not_to_static_inside_is_traced_not_broken(tracer_live):
    inner = paddlelike.jit.not_to_static(lambda x: x * 5)
    c = paddlelike.jit.to_static(lambda x: inner(x) + 1)
    x = paddlelike.ones([2])
    for _ in range(2):
        assert np.array_equal(c(x).numpy(), (x * 5 + 1).numpy())
    assert c.stats["breaks"] == [] and c.stats["traces"] == 1


def test_enable_to_static_false_stops_tracing(tracer_live):
    c = paddlelike.jit.to_static(_f)
    paddlelike.jit.enable_to_static(False)
    x, y = _xy(paddlelike)
    c(x, y)
    assert c.stats["traces"] == 0 and c.stats["eager"] == 1
    paddlelike.jit.enable_to_static(True)
    c(x, y)
    assert c.stats["traces"] == 1
