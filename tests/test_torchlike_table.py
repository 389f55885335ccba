"""torchlike's op table: its forms exist, the fast paths stay bound to the engine."""
from __future__ import annotations

import numpy as np

import torchlike as torch
from janusgrad.ops import elementwise as E
from janusgrad.ops import reduce as R
from torchlike import _table


def test_every_row_installed_its_forms():
    for name, made in _table.INSTALLED.items():
        row = made.row
        if "f" in row.forms:
            assert getattr(torch, name) is made.function, name
        if "m" in row.forms:
            assert getattr(torch.Tensor, row.method or (name if name in row.aliases
                                                        else row.name)) is made.method, name
        if "i" in row.forms:
            want = row.inplace or f"{name if name in row.aliases else row.name}_"
            assert getattr(torch.Tensor, want) is made.inplace, name


def test_operators_and_plain_ops_are_the_engine_functions_themselves():
    assert torch.Tensor.__add__ is E.add and torch.Tensor.__mul__ is E.mul
    assert torch.Tensor.__truediv__ is E.div and torch.Tensor.__neg__ is E.neg
    assert torch.sin is E.sin and torch.Tensor.tanh is E.tanh and torch.arcsin is E.asin
    assert torch.amax.__name__ == "amax" and R.amax is not torch.amax


def test_inplace_forms_and_operators_update_the_tensor():
    x = torch.tensor([1.0, 4.0, 9.0])
    y = x
    x.sqrt_().add_(1.0, alpha=2.0)
    y += 1
    y **= 2
    assert y is x and x.tolist() == [16.0, 25.0, 36.0]
    x.lerp_(torch.zeros(3), 0.5).clamp_min_(20.0)
    assert x.tolist() == [20.0, 20.0, 20.0]
    m = torch.tensor([True, False, True])
    assert x.masked_fill_(m, 0.0).tolist() == [0.0, 20.0, 0.0]


def test_composite_node_names_follow_torch():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([0.5, 0.5])
    assert torch.lerp(x, w, 0.5).grad_fn.name() == "LerpBackward0"
    assert torch.lerp(x, w, w).grad_fn.name() == "LerpBackward1"
    assert torch.addcmul(x, w, w).grad_fn.name() == "AddcmulBackward0"
    assert x.clamp_min(0.0).grad_fn.name() == "ClampMinBackward0"
    assert x.sum().grad_fn.name() == "SumBackward0"
    assert x.sum(0).grad_fn.name() == "SumBackward1"


def test_no_op_is_skipped_silently():
    """The unary in-place lists are gone: trunc_ exists exactly when the engine has trunc
    and a row names it."""
    assert hasattr(torch.Tensor, "trunc_") == ("trunc" in _table.INSTALLED)
    np.testing.assert_allclose(torch.tensor([0.25]).exp_().numpy(), np.exp([0.25]), rtol=1e-6)
