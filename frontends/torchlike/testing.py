"""janusgrad's property-testing kit, torch dialect: ``from torchlike.testing import ...``.

Strategies draw ``torchlike.Tensor`` objects (``dtypes`` are torch dtypes) and
``assert_gradients(fn, *tensors, order=2)`` checks ``fn``'s first and second
derivatives against finite differences (see janusgrad.testing
(engine/janusgrad/testing.py) and the README,
"Property-testing your own functions").  hypothesis is imported only when a strategy
is built.  torch.testing's ``assert_close`` (with torch's failure messages) is here too.
"""
from __future__ import annotations

from janusgrad import testing as _kit
from janusgrad.host.dropin import module_getattr

from ._dtypes import float64
from ._tensor import Tensor

GradientMismatch = _kit.GradientMismatch
assert_gradients = _kit.assert_gradients
shapes = _kit.shapes
broadcastable_shapes = _kit.broadcastable_shapes


def tensors(shape=None, dtypes=(float64,), low=-3.0, high=3.0, away_from=(), margin=0.1,
            requires_grad=None, min_dims=0, max_dims=3, max_side=4):
    """A strategy of tensors (shape drawn unless given; requires_grad drawn when None)."""
    return _kit.tensors(Tensor, shape, tuple(d._np for d in dtypes), low, high, away_from,
                        margin, requires_grad, min_dims, max_dims, max_side)


def tensor_pairs(dtypes=(float64,), low=-3.0, high=3.0, away_from=(), margin=0.1,
                 requires_grad=None, num=2, max_dims=3, max_side=4):
    """A strategy of ``num`` tensors whose shapes broadcast together."""
    return _kit.tensor_pairs(Tensor, tuple(d._np for d in dtypes), low, high, away_from,
                             margin, requires_grad, num, max_dims, max_side)


from ._size import Size  # noqa: E402


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None) -> None:
    """torch.testing.assert_close, with torch's failure messages."""
    from . import _dtypes

    _kit.assert_close(actual, expected, shape_str=Size, dtype_str=_dtypes.from_np, rtol=rtol,
                      atol=atol, equal_nan=equal_nan, check_dtype=check_dtype, msg=msg)



__all__ = ["GradientMismatch", "assert_close", "assert_gradients", "broadcastable_shapes",
           "shapes", "tensor_pairs", "tensors"]
__getattr__ = module_getattr("torchlike", "torch.testing")
