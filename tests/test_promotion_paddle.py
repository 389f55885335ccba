"""paddle 3.3's type promotion, mapped against real paddle (issue 14 §4): dtype pairs x
0-d / dimensioned operands x op family.  paddle refuses two tensors of different
non-float dtypes only when both have dimensions in + - * / ** % // and comparisons (a 0-d
tensor there ranks like a Python scalar: ``A.sum() / A.numel()`` is float32), and whatever
the ranks in maximum, minimum and where.

Left out, with the reason: float16 (paddle has no CPU kernel for most of these ops and
raises; we compute) and pairs where paddle raises RuntimeError for a missing kernel (bool
maximum, bool ** bool, bool // bool); bool / bool, which real paddle returns as bool (a
truncated quotient) where we give the true quotient in float32."""
from __future__ import annotations

import itertools

import pytest

paddle = pytest.importorskip("paddle")
import paddlelike  # noqa: E402

DTYPES = ["bool", "int32", "int64", "float32", "float64"]
OPS = {
    "add": lambda m, a, b: a + b, "sub": lambda m, a, b: a - b, "mul": lambda m, a, b: a * b,
    "div": lambda m, a, b: a / b, "pow": lambda m, a, b: a ** b, "mod": lambda m, a, b: a % b,
    "floordiv": lambda m, a, b: a // b, "eq": lambda m, a, b: a == b,
    "lt": lambda m, a, b: a < b, "paddle.add": lambda m, a, b: m.add(a, b),
    "paddle.multiply": lambda m, a, b: m.multiply(a, b),
    "maximum": lambda m, a, b: m.maximum(a, b), "minimum": lambda m, a, b: m.minimum(a, b),
    "where": lambda m, a, b: m.where(m.to_tensor(True), a, b),
}


def _tensor(m, dtype, dims):
    t = m.ones([2] * dims, dtype="float32")
    return t.astype(dtype)


def _outcome(m, op, da, na, db, nb):
    try:
        return str(OPS[op](m, _tensor(m, da, na), _tensor(m, db, nb)).dtype).split(".")[-1]
    except TypeError:
        return "TypeError"
    except RuntimeError:
        return "RuntimeError"


@pytest.mark.parametrize("op", sorted(OPS))
def test_promotion_matches_paddle(op):
    diffs = []
    for (da, db), na, nb in itertools.product(itertools.product(DTYPES, DTYPES), (0, 1), (0, 1)):
        want = _outcome(paddle, op, da, na, db, nb)
        if want == "RuntimeError" or (op == "div" and da == db == "bool"):
            continue
        got = _outcome(paddlelike, op, da, na, db, nb)
        if got != want:
            diffs.append((da, "[2]" if na else "()", db, "[2]" if nb else "()", want, got))
    assert not diffs, diffs


def test_the_issue_examples():
    A = paddlelike.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert str((A.sum() / A.numel()).dtype) == "paddle.float32"
    assert str((paddlelike.to_tensor([1.5, 2.5]) + paddlelike.to_tensor(2)).dtype) == \
        "paddle.float32"
    assert str((paddlelike.to_tensor(1.5) + paddlelike.to_tensor([1, 2])).dtype) == \
        "paddle.float32"
    with pytest.raises(TypeError):
        paddlelike.to_tensor([1.5, 2.5]) + paddlelike.to_tensor([1, 2])
