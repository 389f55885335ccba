"""gradcheck / gradgradcheck: pass/fail, arguments, and torch's failure messages."""
from __future__ import annotations

import warnings

import pytest

import paddlelike
import torchlike
from torchlike.autograd.gradcheck import GradcheckError


def _bad_square(torch):
    """a**2 whose backward claims 3a (wrong by half)."""

    class BadSquare(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a ** 2

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * a * 3

    return BadSquare.apply


def _bad_cube(torch):
    """a**3 with a correct first derivative that is not itself differentiable."""

    class BadCube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a ** 3

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * (a * a).detach() * 3

    return BadCube.apply


def _x(t, requires_grad=True):
    return t.tensor([1.0, 2.0, 3.0], dtype=t.float64, requires_grad=requires_grad)


def _y(t):
    return t.tensor([0.5, 1.5], dtype=t.float64, requires_grad=True)


CASES = {
    "pass": lambda t, gc, ggc: gc(lambda a: a ** 2, (_x(t),)),
    "pass_bare_tensor": lambda t, gc, ggc: gc(lambda a: a ** 2, _x(t)),
    "pass_two_outputs": lambda t, gc, ggc: gc(lambda a: (a * 3, a ** 2), _x(t)),
    "pass_two_inputs": lambda t, gc, ggc: gc(lambda a, b: (a.sum() * b).sin(), (_x(t), _y(t))),
    "pass_0d": lambda t, gc, ggc: gc(lambda a: a.exp(), (t.tensor(0.5, dtype=t.float64,
                                                                 requires_grad=True),)),
    "pass_non_tensor_arg": lambda t, gc, ggc: gc(lambda a, k: a * k, (_x(t), 3)),
    "no_input_requires_grad": lambda t, gc, ggc: gc(lambda a: a ** 2, (_x(t, False),)),
    "detached_output": lambda t, gc, ggc: gc(lambda a: a.detach() ** 2, (_x(t),)),
    "detached_constant_output": lambda t, gc, ggc: gc(lambda a: a.detach() * 0, (_x(t),)),
    "wrong": lambda t, gc, ggc: gc(_bad_square(t), (_x(t),)),
    "wrong_no_raise": lambda t, gc, ggc: gc(_bad_square(t), (_x(t),), raise_exception=False),
    "wrong_second_output": lambda t, gc, ggc: gc(
        lambda a, b: (b * a.sum(), _bad_square(t)(b)), (_x(t), _y(t))),
    "wrong_matrix": lambda t, gc, ggc: gc(_bad_square(t), (
        t.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=t.float64, requires_grad=True),)),
    "wrong_0d": lambda t, gc, ggc: gc(_bad_square(t), (
        t.tensor(3.0, dtype=t.float64, requires_grad=True),)),
    "wrong_fast": lambda t, gc, ggc: _without_random_lines(
        lambda: gc(_bad_square(t), (_x(t),), fast_mode=True)),
    "pass_fast": lambda t, gc, ggc: gc(lambda a: a.sin() * a, (_x(t),), fast_mode=True),
    "no_mode": lambda t, gc, ggc: gc(lambda a: a, (_x(t),), check_backward_ad=False),
    "gg_pass": lambda t, gc, ggc: ggc(lambda a: a ** 3, (_x(t),)),
    "gg_pass_two": lambda t, gc, ggc: ggc(lambda a, b: (a.sum() * b).sin(), (_x(t), _y(t))),
    "gg_pass_fast": lambda t, gc, ggc: ggc(lambda a: a ** 3, (_x(t),), fast_mode=True),
    "gg_no_raise": lambda t, gc, ggc: ggc(_bad_cube(t), (_x(t),), raise_exception=False),
    "gg_given_grad_outputs_wrong": lambda t, gc, ggc: _first_line(lambda: ggc(
        _bad_cube(t), (_x(t),), (t.tensor([1.0, -1.0, 0.5], dtype=t.float64,
                                          requires_grad=True),))),
    "gg_bad_flags": lambda t, gc, ggc: ggc(lambda a: a, (_x(t),), check_rev_over_rev=False),
}


def _without_random_lines(fn):
    """Fast mode's v^T J u numbers depend on the random u, v: compare the rest."""
    try:
        return fn()
    except RuntimeError as e:
        lines = str(e).split("\n")
        assert lines[1].startswith("numerical:") and lines[2].startswith("analytical:")
        return (type(e).__name__, "\n".join(lines[:1] + lines[3:]))


def _first_line(fn):
    try:
        return fn()
    except GradcheckError as e:  # both error classes are RuntimeErrors named GradcheckError
        return ("GradcheckError", str(e).split("\n")[0])
    except RuntimeError as e:
        if type(e).__name__ != "GradcheckError":
            raise
        return ("GradcheckError", str(e).split("\n")[0])


def _run(case, t, gc, ggc):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = case(t, gc, ggc)
        except Exception as e:
            r = (type(e).__name__, str(e))
    return r, [str(x.message) for x in w if issubclass(x.category, UserWarning)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    torch = pytest.importorskip("torch")
    from torch.autograd import gradcheck as tgc
    from torch.autograd import gradgradcheck as tggc

    from torchlike.autograd import gradcheck as jgc
    from torchlike.autograd import gradgradcheck as jggc
    real = _run(CASES[name], torch, tgc, tggc)
    mine = _run(CASES[name], torchlike, jgc, jggc)
    assert mine == real


def test_float32_input_warns_like_torch():
    torch = pytest.importorskip("torch")
    for t in (torch, torchlike):
        x = t.tensor([1.0, 2.0], requires_grad=True)
        with pytest.warns(UserWarning) as rec:
            t.autograd.gradcheck(lambda a: a * 2, (x,), raise_exception=False)
        assert str(rec[0].message) == (
            "Input #0 requires gradient and is not a double precision floating point or "
            "complex. This check will likely fail if all the inputs are not of double "
            "precision floating point or complex. ")


def test_gradcheck_error_is_a_runtime_error_and_module_names_resolve():
    import torchlike.autograd as A
    assert issubclass(GradcheckError, RuntimeError)
    assert GradcheckError.__name__ == "GradcheckError"
    assert callable(A.gradcheck) and callable(A.gradgradcheck)
    with pytest.raises(GradcheckError, match="^Jacobian mismatch for output 0 with respect"):
        A.gradcheck(_bad_square(torchlike), (_x(torchlike),))


def test_gradgradcheck_catches_a_non_differentiable_backward():
    with pytest.raises(GradcheckError, match="^Jacobian mismatch for output 0 with respect "
                                             "to input 0,\nnumerical:tensor"):
        torchlike.autograd.gradgradcheck(_bad_cube(torchlike), (_x(torchlike),))


def test_mismatch_message_prints_both_jacobians():
    with pytest.raises(GradcheckError) as e:
        torchlike.autograd.gradcheck(_bad_square(torchlike), (_x(torchlike),))
    assert str(e.value) == (
        "Jacobian mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[2.0000, 0.0000, 0.0000],\n"
        "        [0.0000, 4.0000, 0.0000],\n"
        "        [0.0000, 0.0000, 6.0000]], dtype=torch.float64)\n"
        "analytical:tensor([[3., 0., 0.],\n"
        "        [0., 6., 0.],\n"
        "        [0., 0., 9.]], dtype=torch.float64)\n")


# ---------------------------------------------------------------- paddle spelling
def _p64(values):
    return paddlelike.to_tensor(values, dtype="float64", stop_gradient=False)


def test_paddlelike_gradcheck_passes_and_fails_with_paddle_printing():
    from paddlelike.autograd import gradcheck, gradgradcheck
    x, y = _p64([0.3, -1.2, 2.0]), _p64([[0.5], [1.5]])
    assert gradcheck(lambda a, b: (a * b).tanh(), (x, y))
    assert gradgradcheck(lambda a, b: (a * b).tanh(), (x, y))

    class Wrong(paddlelike.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensor()
            return g * a

    assert gradcheck(Wrong.apply, (x,), raise_exception=False) is False
    with pytest.raises(RuntimeError) as e:
        gradcheck(Wrong.apply, (x,))
    msg = str(e.value)
    assert msg.startswith("Jacobian mismatch for output 0 with respect to input 0,\n"
                          "numerical:Tensor(shape=[3, 3], dtype=float64")
    assert "\nanalytical:Tensor(shape=[3, 3], dtype=float64" in msg


def test_paddlelike_gradcheck_needs_a_tensor_with_stop_gradient_false():
    from paddlelike.autograd import gradcheck
    with pytest.raises(ValueError, match="gradcheck expects at least one input tensor"):
        gradcheck(lambda a: a * 2, (paddlelike.to_tensor([1.0], dtype="float64"),))
