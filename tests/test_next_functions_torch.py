"""grad_fn.next_functions names (None, 0) for an input that does not require grad, an
AccumulateGrad for a leaf that does, and the input's own node otherwise (issue 14 §4).
Against real torch: the names in each position, for number and tensor operands."""
from __future__ import annotations

import pytest

import torchlike

torch = pytest.importorskip("torch")

CASES = {
    "x * c": lambda x, c: x * c, "c * x": lambda x, c: c * x, "x * 2.0": lambda x, c: x * 2.0,
    "(x * 2).sum()": lambda x, c: (x * 2).sum(), "x + c": lambda x, c: x + c,
    "c - x": lambda x, c: c - x, "torch.where(c > 3, x, c)": None,
    "x.exp() * x": lambda x, c: x.exp() * x,
}


def _shape(T, case):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    c = T.tensor([3.0, 4.0])
    fn = CASES[case] or (lambda x, c: T.where(c > 3, x, c))
    out = fn(x, c)
    return [(None if f is None else type(f).__name__ if f.__class__.__name__ == "AccumulateGrad"
             else f.name(), i) for f, i in out.grad_fn.next_functions]


@pytest.mark.parametrize("case", list(CASES))
def test_next_functions_name_each_input_as_torch(case):
    assert _shape(torchlike, case) == _shape(torch, case)
