"""The public property-testing kit: strategies of both dialects and assert_gradients."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings

import paddlelike
import torchlike
from janusgrad.testing import GradientMismatch
from paddlelike import testing as ptest
from torchlike import testing as ttest


def test_engine_and_frontends_import_without_hypothesis():
    code = ("import sys; sys.modules['hypothesis'] = None\n"
            "import janusgrad, janusgrad.testing, torchlike, torchlike.testing, paddlelike, "
            "paddlelike.testing\n"
            "print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr


@settings(max_examples=30)
@given(ttest.tensors(dtypes=(torchlike.float32, torchlike.float64), low=-1.0, high=1.0))
def test_torch_strategy_draws_torchlike_tensors_in_the_domain(t):
    assert isinstance(t, torchlike.Tensor)
    assert t.dtype in (torchlike.float32, torchlike.float64)
    assert t.dim() <= 3
    a = t.detach().numpy()
    assert np.all((a >= -1.0) & (a <= 1.0))
    assert t.is_leaf


@settings(max_examples=30)
@given(ptest.tensors(dtypes=("float32",), away_from=(0.0,), margin=0.25, requires_grad=False))
def test_paddle_strategy_draws_paddlelike_tensors_away_from_points(t):
    assert isinstance(t, paddlelike.Tensor)
    assert str(t.dtype) == "paddle.float32"
    assert t.stop_gradient
    assert np.all(np.abs(t.numpy()) >= 0.25)


def test_strategies_reach_0d_and_both_requires_grad_flags():
    seen_0d, flags = set(), set()

    @settings(max_examples=60, derandomize=True)
    @given(ttest.tensors())
    def probe(t):
        seen_0d.add(t.dim() == 0)
        flags.add(t.requires_grad)

    probe()
    assert seen_0d == {True, False} and flags == {True, False}


@settings(max_examples=30)
@given(ttest.tensor_pairs(num=3, requires_grad=True))
def test_pairs_broadcast(ts):
    a, b, c = ts
    shape = np.broadcast_shapes(tuple(a.shape), tuple(b.shape), tuple(c.shape))
    assert tuple((a + b + c).shape) == shape


@settings(max_examples=20)
@given(ptest.tensor_pairs(requires_grad=True, low=0.5, high=2.0))
def test_kit_checks_a_paddle_function_of_a_broadcast_pair(pair):
    x, y = pair
    assert_gradients = ptest.assert_gradients
    assert_gradients(lambda a, b: (a / b).log() * a, x, y, order=2)


@settings(max_examples=20)
@given(ttest.tensors(dtypes=(torchlike.float32,), low=-2.0, high=2.0, requires_grad=True))
def test_kit_handles_float32_inputs(x):
    ttest.assert_gradients(lambda a: (a * a).tanh() + a.exp(), x)


def _wrong_square(torch):
    class WrongSquare(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * a * 3

    return WrongSquare.apply


def test_report_names_output_input_element_expected_and_got():
    x = torchlike.tensor([[1.0, 2.0]], dtype=torchlike.float64, requires_grad=True)
    y = torchlike.tensor([0.5, -1.0], dtype=torchlike.float64, requires_grad=True)
    with pytest.raises(GradientMismatch) as e:
        ttest.assert_gradients(lambda a, b: (a * b, _wrong_square(torchlike)(b)), x, y)
    lines = str(e.value).split("\n")
    assert lines[0] == ("first derivative mismatch: output 1 with respect to input 1 "
                        "(shape (2,)): 2 of 4 entries differ")
    assert lines[1] == "  worst: d output 1[1] / d input 1[1]"
    assert lines[2] == "    expected (finite differences): " + lines[2].split(": ")[1]
    assert abs(float(lines[2].split(": ")[1]) - -2.0) < 1e-6
    assert lines[3] == "    got (autograd):                -3.0"
    assert lines[4].startswith("    |difference| 1 > atol 1e-05 + rtol 0.001")
    assert lines[6] == "    d output 1[0] / d input 1[0]: expected 1, got 1.5"


def test_second_order_failure_is_reported_as_such():
    class OnceDifferentiable(torchlike.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a ** 3

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * (a * a).detach() * 3

    x = torchlike.tensor([0.5, 1.5], dtype=torchlike.float64, requires_grad=True)
    ttest.assert_gradients(OnceDifferentiable.apply, x, order=1)
    with pytest.raises(GradientMismatch, match=r"^second derivative mismatch: grad0 with "
                                               r"respect to input 0 \(shape \(2,\)\)"):
        ttest.assert_gradients(OnceDifferentiable.apply, x, order=2)


def test_inputs_without_grad_are_constants_and_none_is_an_error():
    x = torchlike.tensor([0.5, 1.5], dtype=torchlike.float64, requires_grad=True)
    k = torchlike.tensor([2.0, 3.0], dtype=torchlike.float64)
    ttest.assert_gradients(lambda a, b: a.sin() * b, x, k)
    with pytest.raises(ValueError, match="no input requires grad"):
        ttest.assert_gradients(lambda b: b * 2, k)
    assert x.grad is None  # the kit works on copies


def test_keyword_arguments_pass_through():
    x = torchlike.tensor([0.5, 1.5], dtype=torchlike.float64, requires_grad=True)
    ttest.assert_gradients(lambda a, power=2: a ** power, x, power=3)
