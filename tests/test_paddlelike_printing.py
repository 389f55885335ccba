"""paddlelike's repr/str against real paddle 3.3.1, byte for byte."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import paddlelike

paddle = pytest.importorskip("paddle")


def both(array, stop_gradient=True):
    ours = paddlelike.to_tensor(array, stop_gradient=stop_gradient)
    theirs = paddle.to_tensor(array, stop_gradient=stop_gradient)
    return ours, theirs


def assert_same_repr(array, stop_gradient=True):
    ours, theirs = both(array, stop_gradient)
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)


TABLE = [
    np.arange(12),
    np.arange(12.0, dtype=np.float32).reshape(3, 4),
    np.array([0.5, 1.0, 2.0, 4.125], np.float32),
    np.array([-1.0, 2.5, -3.25], np.float32),
    np.array(3.0, np.float32),
    np.array(3.5 / 3, np.float32),
    np.array(5),
    np.array(True),
    np.array([3.5], np.float32),
    np.array([True, False, True]),
    np.arange(6).reshape(2, 3) > 2,
    np.array([1.5, 2.0]),
    np.array(2.0),
    np.array([1, 2, 3], np.int32),
    np.array([-1, 100, 2000]),
    np.array([1e-5, 1.0], np.float32),
    np.array([1e8, 1.0], np.float32),
    np.array([0.001, 1.0, 1000.0], np.float32),
    np.array([0.01, 1000.5], np.float32),
    np.array([123456789.0, 1.0], np.float32),
    np.array([1e-10, 2e-10], np.float32),
    np.array([np.nan, np.inf, -np.inf, 1.5], np.float32),
    np.array([[1.5, -20.25], [300.0, 4.0]], np.float32),
    np.array([[0.1234567, -1.7654321, 0.5], [2.25, 0.0001234, -0.333333]], np.float32),
    np.arange(2000.0, dtype=np.float32),
    np.arange(1200.0, dtype=np.float32).reshape(40, 30),
    np.arange(1001),
    np.array([], np.float32),
    np.zeros((2, 0), np.float32),
    np.zeros((0, 3), np.float32),
    np.arange(24).reshape(2, 3, 4),
    np.array([1.0, 1, 1, 1000.5, 1, 1, 1, 1], np.float32),  # width from edge items only
    np.array([-0.0, 1.5], np.float32),
    np.array([1, 2, 3], np.float16),
    np.array([1, 2, 3], np.uint8),
    np.array([-3, 4], np.int8),
    np.arange(40.0, dtype=np.float32) / 7,
    np.arange(4000, dtype=np.float64).reshape(10, 20, 20) / 3 - 600,
]


@pytest.mark.parametrize("array", TABLE, ids=lambda a: f"{a.dtype}{list(a.shape)}")
def test_table(array):
    assert_same_repr(array)


def test_grad_flags_in_header():
    assert_same_repr(np.arange(4.0, dtype=np.float32), stop_gradient=False)
    x = paddlelike.to_tensor([0.0, 1, 2, 3], stop_gradient=False)
    px = paddle.to_tensor([0.0, 1, 2, 3], stop_gradient=False)
    assert repr(2 * paddlelike.dot(x, x)) == repr(2 * paddle.dot(px, px))
    assert repr((x * x).sum()) == repr((px * px).sum())
    assert repr((x * x).detach()) == repr((px * px).detach())
    (2 * paddlelike.dot(x, x)).backward()
    (2 * paddle.dot(px, px)).backward()
    assert repr(x.grad) == repr(px.grad)
    assert repr(x.grad == 4 * x) == repr(px.grad == 4 * px)


def test_tuple_display():
    def make(m):
        a, b = m.to_tensor(3.0), m.to_tensor(2.0)
        return repr((a + b, a * b, a / b, a ** b))
    assert make(paddlelike) == make(paddle)


_DTYPES = [np.float32, np.float64, np.int64, np.int32, np.bool_, np.float16]


@st.composite
def arrays(draw):
    dtype = draw(st.sampled_from(_DTYPES))
    big = draw(st.integers(0, 9)) == 0
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0,
                                  max_side=40 if big else 6))
    if dtype is np.bool_:
        elements = st.booleans()
    elif np.dtype(dtype).kind == "i":
        mag = draw(st.sampled_from([9, 1000, 10**6]))
        elements = st.integers(-mag, mag)
    else:
        mag = draw(st.sampled_from([1e-6, 1e-2, 1.0, 100.0, 1e5, 1e9]))
        elements = st.one_of(
            st.floats(-mag, mag),
            st.integers(-9, 9).map(float),
            st.sampled_from([float("nan"), float("inf"), -float("inf"), -0.0]))
        values = draw(hnp.arrays(np.float64, shape, elements=elements))
        with np.errstate(over="ignore"):
            return values.astype(dtype)
    return draw(hnp.arrays(dtype, shape, elements=elements))


@given(arrays(), st.booleans())
def test_generated(array, grad):
    assert_same_repr(array, stop_gradient=not (grad and array.dtype.kind == "f"))


def test_format_and_size_objects():
    for m in (paddlelike, paddle):
        t = m.to_tensor(2.5)
        assert (f"{t}", f"{t:.3f}", f"{t:f}") == ("2.5", "2.500", "2.500000")
    ours, theirs = both(np.ones((10, 10), np.float32))
    assert repr(ours.shape) == repr(theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype) and repr(ours.dtype) == repr(theirs.dtype)
    assert repr(ours.place) == repr(theirs.place)
    assert f"{ours}" == f"{theirs}"
    for name in ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
                 "float64"):
        assert repr(getattr(paddlelike, name)) == repr(getattr(paddle, name))
        assert str(getattr(paddlelike, name)) == str(getattr(paddle, name))
