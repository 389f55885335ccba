"""dtype promotion (janusgrad.array.dtypes) and the dtypes of op results.

The explicit rules come from the issue; the differential test checks the whole
grid of dtypes, ranks and Python scalars against real torch when it is installed.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from janusgrad import Dialect, Tensor
from janusgrad.array.backend import DTYPES
from janusgrad.array.dtypes import DIM, SCALAR, ZERO_DIM, PromotionError, result_type
from janusgrad.ops.elementwise import add, div, mul

D = DTYPES
f16, f32, f64 = D["float16"], D["float32"], D["float64"]
i8, i16, i32, i64, u8, b = D["int8"], D["int16"], D["int32"], D["int64"], D["uint8"], D["bool"]


def tensor(dtype, shape=(2,)) -> Tensor:
    return Tensor(np.ones(shape, dtype=dtype))


# ------------------------------------------------------------------ result_type
@pytest.mark.parametrize("operands, expected", [
    (((f32, DIM), (f32, SCALAR)), f32),      # float32 tensor * Python float stays float32
    (((f64, DIM), (f32, SCALAR)), f64),
    (((f16, DIM), (f32, SCALAR)), f16),
    (((i64, DIM), (f32, SCALAR)), f32),      # int tensor * Python float -> default float
    (((i32, DIM), (i64, SCALAR)), i32),      # Python int does not widen an int tensor
    (((u8, DIM), (i64, SCALAR)), u8),
    (((b, DIM), (i64, SCALAR)), i64),        # ... but lifts a bool one
    (((b, DIM), (b, SCALAR)), b),
    (((i32, DIM), (i64, DIM)), i64),         # int32 + int64 -> int64
    (((u8, DIM), (i8, DIM)), i16),
    (((i64, DIM), (f16, DIM)), f16),         # int with float: the float
    (((f16, DIM), (f32, DIM)), f32),
    (((i32, DIM), (i64, ZERO_DIM)), i32),    # a 0-d tensor of the same category yields
    (((i32, DIM), (f64, ZERO_DIM)), f64),    # ... a 0-d of a higher category does not
    (((f16, DIM), (f64, ZERO_DIM)), f16),
    (((i32, ZERO_DIM), (i64, ZERO_DIM)), i64),
    (((i64, ZERO_DIM), (f32, SCALAR)), f32),
])
def test_result_type_rules(operands, expected):
    assert result_type(operands) == expected


@pytest.mark.parametrize("a, b", [(i32, f32), (f32, i64), (b, f32), (i32, i64), (u8, b)])
def test_strict_refuses_mixed_tensor_dtypes(a, b):
    with pytest.raises(PromotionError):
        result_type(((a, DIM), (b, DIM)), strict=True)


@pytest.mark.parametrize("a, b, expected", [(f32, f64, f64), (f16, f32, f32), (i32, i32, i32)])
def test_strict_allows_floats_together_and_equal_dtypes(a, b, expected):
    assert result_type(((a, DIM), (b, DIM)), strict=True) == expected


def test_strict_does_not_apply_to_python_scalars():
    assert result_type(((i64, DIM), (f32, SCALAR)), strict=True) == f32


# ------------------------------------------------------------------ through the ops
def test_op_result_dtypes_follow_the_rules():
    assert mul(tensor(f32), 2.5).dtype == f32
    assert mul(2.5, tensor(f32)).dtype == f32
    assert div(tensor(i64), 2).dtype == f32       # true division of ints -> default float
    assert div(7, tensor(i32)).dtype == f32
    assert mul(tensor(i64), 1.5).dtype == f32
    assert add(tensor(i32), tensor(i64)).dtype == i64
    assert add(tensor(i32), 1).dtype == i32
    assert add(tensor(f64), tensor(f32)).dtype == f64


def test_python_float_keeps_float32_values_in_float32():
    out = mul(Tensor(np.array([1.1], dtype=f32)), 3.3)
    assert out.array.dtype == f32
    assert out.array[0] == np.float32(1.1) * np.float32(3.3)


class StrictDialect(Dialect):
    strict_promotion = True

    def promotion(self, a, b):
        return TypeError(f"strict {a} {b}")


class StrictTensor(Tensor):
    __slots__ = ()
    dialect = StrictDialect()


def test_strict_dialect_raises_its_promotion_error_in_ops():
    with pytest.raises(TypeError, match="strict int32 float32"):
        add(StrictTensor(np.ones(2, i32)), StrictTensor(np.ones(2, f32)))
    assert add(StrictTensor(np.ones(2, f32)), StrictTensor(np.ones(2, f64))).dtype == f64
    assert mul(StrictTensor(np.ones(2, i64)), 0.5).dtype == f32


# ------------------------------------------------------------------ against real torch
TENSOR_OPERANDS = [(name, shape) for name in DTYPES for shape in ((2,), ())]
SCALAR_OPERANDS = [3, 2.5, True]
OPS = ["add", "mul", "div"]


def _grid():
    for (n1, s1), (n2, s2) in itertools.product(TENSOR_OPERANDS, repeat=2):
        yield (n1, s1), (n2, s2)
    for (n1, s1), v in itertools.product(TENSOR_OPERANDS, SCALAR_OPERANDS):
        yield (n1, s1), v
        yield v, (n1, s1)


GRID = list(_grid())


def _label(x):
    return repr(x) if not isinstance(x, tuple) else f"{x[0]}{list(x[1])}"


@pytest.mark.parametrize("op", OPS)
def test_promotion_grid_matches_torch(op):
    torch = pytest.importorskip("torch")
    from janusgrad.ops import elementwise

    engine_op = getattr(elementwise, op)
    torch_op = getattr(torch, op)

    def eng(x):
        return x if not isinstance(x, tuple) else Tensor(np.ones(x[1], DTYPES[x[0]]))

    def ref(x):
        return x if not isinstance(x, tuple) else torch.ones(x[1], dtype=getattr(torch, x[0]))

    mismatches = []
    for a, c in GRID:
        expected = str(torch_op(ref(a), ref(c)).dtype).removeprefix("torch.")
        got = str(engine_op(eng(a), eng(c)).dtype)
        if got != expected:
            mismatches.append(f"{op}({_label(a)}, {_label(c)}): {got} != torch {expected}")
    assert not mismatches, "\n".join(mismatches[:40]) + f"\n({len(mismatches)} in all)"
