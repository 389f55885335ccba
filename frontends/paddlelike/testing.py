"""janusgrad's property-testing kit, paddle dialect: ``from paddlelike.testing import ...``.

Strategies draw ``paddlelike.Tensor`` objects (``dtypes`` are paddle dtypes or their
names; ``requires_grad=True`` means ``stop_gradient=False``) and
``assert_gradients(fn, *tensors, order=2)`` checks ``fn``'s first and second
derivatives against finite differences (see janusgrad.testing
(engine/janusgrad/testing.py) and the README,
"Property-testing your own functions").  hypothesis is imported only when a strategy
is built.
"""
from __future__ import annotations

from janusgrad import testing as _kit
from janusgrad.host.dropin import module_getattr

from .meta import to_np
from .tensor import Tensor

GradientMismatch = _kit.GradientMismatch
assert_gradients = _kit.assert_gradients
shapes = _kit.shapes
broadcastable_shapes = _kit.broadcastable_shapes


def tensors(shape=None, dtypes=("float64",), low=-3.0, high=3.0, away_from=(), margin=0.1,
            requires_grad=None, min_dims=0, max_dims=3, max_side=4):
    """A strategy of tensors (shape drawn unless given; requires_grad drawn when None)."""
    return _kit.tensors(Tensor, shape, tuple(to_np(d) for d in dtypes), low, high, away_from,
                        margin, requires_grad, min_dims, max_dims, max_side)


def tensor_pairs(dtypes=("float64",), low=-3.0, high=3.0, away_from=(), margin=0.1,
                 requires_grad=None, num=2, max_dims=3, max_side=4):
    """A strategy of ``num`` tensors whose shapes broadcast together."""
    return _kit.tensor_pairs(Tensor, tuple(to_np(d) for d in dtypes), low, high, away_from,
                             margin, requires_grad, num, max_dims, max_side)


__all__ = ["GradientMismatch", "assert_gradients", "broadcastable_shapes", "shapes",
           "tensor_pairs", "tensors"]
__getattr__ = module_getattr("paddlelike", "paddle.testing")
