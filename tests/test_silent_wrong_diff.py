"""Calls that gave a silent wrong answer (or another exception) where real torch 2.13 / paddle
3.3.1 raise or compute something else (issue 22, section 3), each run on both sides."""
from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture(scope="module")
def torches():
    torch = pytest.importorskip("torch")
    import torchlike
    return torch, torchlike


@pytest.fixture(scope="module")
def paddles():
    paddle = pytest.importorskip("paddle")
    import paddlelike
    return paddle, paddlelike


def _np(v):
    if hasattr(v, "detach"):
        v = v.detach()
    return np.asarray(v.numpy() if hasattr(v, "numpy") else v)


def outcome(fn, mod):
    """(exception type name, message) or ("ok", value as numpy)."""
    try:
        r = fn(mod)
    except Exception as e:  # noqa: BLE001 - the exception is the result compared
        return type(e).__name__, str(e)
    return "ok", r


def same(fn, pair, message=True, values=True):
    """``fn`` on the real framework and on ours: the same exception (type, and message when
    ``message``) or the same values (tolerance scaled to them)."""
    real, ours = (outcome(fn, m) for m in pair)
    assert real[0] == ours[0], (real, ours)
    if real[0] != "ok":
        if message:
            assert real[1] == ours[1]
        return real[1], ours[1]
    if values:
        for a, b in zip(*(r if isinstance(r, tuple) else (r,) for r in (real[1], ours[1]))):
            a, b = _np(a), _np(b)
            assert a.shape == b.shape and a.dtype == b.dtype, (a, b)
            np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-6)
    return real[1], ours[1]


# ---------------------------------------------------------------- integer division by zero
INT_DIVISIONS = {
    "floordiv": lambda t, a, b: a // b,
    "mod": lambda t, a, b: a % b,
    "floordiv_number": lambda t, a, b: a // 0,
    "mod_number": lambda t, a, b: a % 0,
    "rfloordiv": lambda t, a, b: 5 // b,
    "rmod": lambda t, a, b: 5 % b,
    "floor_divide": lambda t, a, b: t.floor_divide(a, b),
    "remainder": lambda t, a, b: t.remainder(a, b),
    "inplace_floordiv": lambda t, a, b: a.clone().__ifloordiv__(b),
    "inplace_mod": lambda t, a, b: a.clone().__imod__(b),
}
TORCH_DIVISIONS = {
    "div_floor": lambda t, a, b: t.div(a, b, rounding_mode="floor"),
    "div_trunc": lambda t, a, b: t.div(a, b, rounding_mode="trunc"),
    "fmod": lambda t, a, b: t.fmod(a, b),
    "fmod_number": lambda t, a, b: t.fmod(a, 0),
    "uint8": lambda t, a, b: a.to(t.uint8) // b.to(t.uint8),
    "zero_dim": lambda t, a, b: a[0] // b[0],
}
PADDLE_DIVISIONS = {
    "mod": lambda t, a, b: t.mod(a, b),
    "floor_mod": lambda t, a, b: t.floor_mod(a, b),
    "divide_trunc": lambda t, a, b: t.divide(a, b, rounding_mode="trunc"),
    "int32": lambda t, a, b: a.astype("int32") // b.astype("int32"),
}


@pytest.mark.parametrize("case", sorted({**INT_DIVISIONS, **TORCH_DIVISIONS}))
def test_torch_integer_division_by_zero_raises(torches, case):
    fn = {**INT_DIVISIONS, **TORCH_DIVISIONS}[case]
    real, ours = same(lambda t: fn(t, t.tensor([5, 7]), t.tensor([0, 2])), torches)
    assert ours == "ZeroDivisionError"
    # float division by zero stays inf / nan, and a nonzero integer divisor divides
    same(lambda t: fn(t, t.tensor([5.0, -7.0]), t.tensor([0.0, 2.0])), torches)
    same(lambda t: fn(t, t.tensor([5, -7]), t.tensor([3, 2])), torches)


@pytest.mark.parametrize("case", sorted({**INT_DIVISIONS, **PADDLE_DIVISIONS}))
def test_paddle_integer_division_by_zero_raises(paddles, case):
    fn = {**INT_DIVISIONS, **PADDLE_DIVISIONS}[case]
    if case.startswith("inplace"):
        fn = {"inplace_floordiv": lambda t, a, b: a.clone().floor_divide_(b),
              "inplace_mod": lambda t, a, b: a.clone().remainder_(b)}[case]
    same(lambda t: fn(t, t.to_tensor([5, 7]), t.to_tensor([0, 2])), paddles)
    same(lambda t: fn(t, t.to_tensor([5, -7]), t.to_tensor([3, 2])), paddles)
