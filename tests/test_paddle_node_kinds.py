"""paddle names a binary op's grad node by its operand's kind: a Python number makes it a
scale op (ScaleGradNode, DivScaleGradNode, PowGradNode), a tensor operand, with
stop_gradient or not, the op itself (AddGradNode, MultiplyGradNode ...). Against real paddle."""
from __future__ import annotations

import pytest

import paddlelike

paddle = pytest.importorskip("paddle")

CASES = {
    "x + c": lambda P, x, c: x + c, "x + 2.0": lambda P, x, c: x + 2.0,
    "2.0 + x": lambda P, x, c: 2.0 + x, "c + x": lambda P, x, c: c + x,
    "x - c": lambda P, x, c: x - c, "x - 2.0": lambda P, x, c: x - 2.0,
    "c - x": lambda P, x, c: c - x, "x * c": lambda P, x, c: x * c,
    "x * 2.0": lambda P, x, c: x * 2.0, "c * x": lambda P, x, c: c * x,
    "x / c": lambda P, x, c: x / c, "x / 2.0": lambda P, x, c: x / 2.0,
    "x ** c": lambda P, x, c: x ** c, "x ** 2.0": lambda P, x, c: x ** 2.0,
    "add(x, c)": lambda P, x, c: P.add(x, c), "multiply(x, c)": lambda P, x, c: P.multiply(x, c),
    "subtract(x, c)": lambda P, x, c: P.subtract(x, c),
    "divide(x, c)": lambda P, x, c: P.divide(x, c),
}


def _name(P, case):
    x = P.to_tensor([1.0, 2.0], stop_gradient=False)
    c = P.to_tensor([3.0, 4.0])
    return CASES[case](P, x, c).grad_fn.name()


@pytest.mark.parametrize("case", list(CASES))
def test_grad_node_name_follows_the_operand_kind(case):
    assert _name(paddlelike, case) == _name(paddle, case)
