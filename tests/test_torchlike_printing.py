"""torchlike's repr against real torch 2.13, byte for byte."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import torchlike

torch = pytest.importorskip("torch")

FIXED = [
    [0.5, 1.0, 2.0, 4.125], [0.0, 4.0, 8.0, 12.0], [-1.0, 2.5, -3.25], 3.0, 3.5, [3.5],
    [1e-5, 1.0], [1e8, 1.0], [0.001, 1.0, 1000.0], [0.01, 1000.5], [123456789.0, 1.0],
    [1e-10, 2e-10], [math.nan, math.inf, -math.inf, 1.5], [[1.5, -20.25], [300.0, 4.0]],
    [[0.1234567, -1.7654321, 0.5], [2.25, 0.0001234, -0.333333]], [], [[]], [-0.0, 0.0],
    [math.nan], [math.inf, 1.0], [0.0, 0.0], -0.0, math.nan, [1e-4, 1.0], [1e3, 1.0],
    [12345.678, 0.5], [1e8, 1e8], [1.0e9], [True, False, True], True, 5, [-1, 100, 2000],
    [[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [1, 2, 3], [1.0] * 30, [0.1 * i for i in range(40)],
]


def same_repr(array):
    ours = repr(torchlike.tensor(array))
    theirs = repr(torch.tensor(array))
    assert ours == theirs


@pytest.mark.parametrize("data", FIXED, ids=range(len(FIXED)))
def test_fixed_table(data):
    same_repr(data)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "int32", "int8",
                                   "uint8", "int16", "bool"])
def test_dtype_suffix_and_empty(dtype):
    for shape in [(3,), (0,), (2, 0), ()]:
        a = (np.arange(int(np.prod(shape))) % 3).astype(dtype).reshape(shape)
        assert repr(torchlike.from_numpy(a.copy())) == repr(torch.from_numpy(a.copy()))


@pytest.mark.parametrize("shape", [(2000,), (40, 30), (1001,), (11, 10, 10), (3, 400),
                                   (400, 3), (2, 2, 300)])
def test_summarised(shape):
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    for arr in (a, a.astype(np.int64), a / 7, a - 500):
        assert repr(torchlike.from_numpy(arr.copy())) == repr(torch.from_numpy(arr.copy()))


def _magnitudes():
    return st.sampled_from([1e-12, 1e-6, 1e-3, 0.1, 1.0, 10.0, 1e3, 1e5, 1e9])


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_random_float_arrays(data):
    dtype = data.draw(st.sampled_from([np.float32, np.float64, np.float16]))
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=12))
    scale = data.draw(_magnitudes())
    elements = st.floats(-1000, 1000, allow_nan=False, width=16) | st.sampled_from(
        [0.0, -0.0, 1.0, -2.0, 0.5, math.nan, math.inf, -math.inf])
    a = data.draw(hnp.arrays(np.float64, shape, elements=elements))
    with np.errstate(all="ignore"):
        a = np.asarray(a * scale).astype(dtype)
    if data.draw(st.booleans()):
        a = np.asarray(np.round(a))
    grad = data.draw(st.sampled_from([None, "leaf", "node"]))
    ours, theirs = torchlike.from_numpy(a.copy()), torch.from_numpy(a.copy())
    if grad is not None and dtype is not np.float16:
        ours.requires_grad_(), theirs.requires_grad_()
        if grad == "node":
            ours, theirs = ours * 1, theirs * 1
    assert repr(ours) == repr(theirs)


@settings(max_examples=80, deadline=None)
@given(a=hnp.arrays(st.sampled_from([np.int64, np.int32, np.uint8, np.bool_]),
                    hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=9)))
def test_random_int_bool_arrays(a):
    assert repr(torchlike.from_numpy(a.copy())) == repr(torch.from_numpy(a.copy()))


def _pair(fn):
    return fn(torchlike), fn(torch)


@pytest.mark.parametrize("probe", [
    lambda t: t.tensor([0.0, 1, 2, 3]).requires_grad_(),
    lambda t: 2 * t.dot(t.tensor([0.0, 1, 2, 3]).requires_grad_(),
                        t.tensor([0.0, 1, 2, 3]).requires_grad_()),
    lambda t: (t.tensor([0.0, 1, 2, 3], requires_grad=True) ** 2).sum(),
    lambda t: t.tensor([0.0, 1, 2, 3], requires_grad=True) * 3,
    lambda t: (t.tensor([0.0, 1, 2, 3], requires_grad=True) * 3).detach(),
    lambda t: t.tensor([1.5, 2.0], dtype=t.float64, requires_grad=True),
    lambda t: t.tensor([1.5, 2.0], dtype=t.float64, requires_grad=True) * 2,
    lambda t: t.tensor([[0.123456] * 9] * 2, requires_grad=True).exp(),
    lambda t: t.tensor([[0.123456] * 8] * 2, dtype=t.float64, requires_grad=True) * 1,
    lambda t: t.tensor([1.0e-5] * 7, dtype=t.float64, requires_grad=True) * 1,
    lambda t: t.tensor([[1.0, 2.0]], requires_grad=True).t(),
    lambda t: t.tensor(3.0, requires_grad=True) - 1,
    lambda t: 1 - t.tensor(3.0, requires_grad=True),
    lambda t: t.tensor([3.0], requires_grad=True) ** t.tensor([2.0]),
    lambda t: 2 ** t.tensor([3.0], requires_grad=True),
    lambda t: t.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).mean(0),
    lambda t: t.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).sum(dim=1),
    lambda t: t.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True) @ t.tensor([1.0, 1.0]),
    lambda t: t.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)[0],
    lambda t: t.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)[:, 1:],
    lambda t: t.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).reshape(4),
    lambda t: t.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).T,
    lambda t: t.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).transpose(0, 1),
    lambda t: t.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).unsqueeze(0),
    lambda t: t.tensor([1.0, 2.0], requires_grad=True).double(),
    lambda t: t.tensor([1.0, 2.0], requires_grad=True).relu(),
    lambda t: t.tensor([1.0, 2.0], requires_grad=True).clamp(0, 1),
])
def test_graph_suffixes(probe):
    ours, theirs = _pair(probe)
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)
