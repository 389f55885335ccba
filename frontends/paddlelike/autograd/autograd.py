"""paddle.autograd.jacobian / hessian: lazily evaluated Jacobian and Hessian objects.

``jacobian(ys, xs, batch_axis=None)`` computes nothing at first; indexing the
returned object (``J[:]``, ``J[i]``, ``J[:, j]``, ``J[a:b]``) evaluates just the
rows it needs (one reverse pass per row, with the graph kept so the values can
be differentiated again) and caches them.  Unbatched: ys and xs are 0-D or 1-D
and ``J.shape == [len(ys), len(xs)]`` (a 0-D side drops its axis); batched
(``batch_axis=0``): ys and xs are 1-D or 2-D with the batch first and
``J.shape == [B, N, M]``.  Tuples of ys/xs give (nested) tuples of objects.
"""
from __future__ import annotations

from collections.abc import Sequence

from janusgrad.functional import grads_of
from janusgrad.ops import shape as _S
from janusgrad.tensor import Tensor

from ..creation import zeros_like


def _grad_rows(ys, xs):
    """d(sum of ys)/d xs with the graph kept; zeros (needing grad like xs) when unused."""
    g = grads_of((ys,), (xs,), create_graph=True)[0]
    if g is None:
        g = zeros_like(xs)
    if g.node is None:  # a constant gradient is still flagged like xs, as paddle does
        g.stop_gradient = xs.stop_gradient
    return g


def _multi_index(indexes, shape):
    """Normalize an index to one int or slice per axis (non-negative, steps filled in)."""
    indexes = indexes if isinstance(indexes, Sequence) else (indexes,)
    if any(i is Ellipsis for i in indexes):
        raise IndexError("Ellipsis index currently is not supported.")
    indexes = indexes + (slice(0, None, None),) * (len(shape) - len(indexes))
    out = []
    for i, index in enumerate(indexes):
        if isinstance(index, slice):
            # paddle's quirk kept: a stop of 0 means "to the end"
            start, stop, step = index.start or 0, index.stop or shape[i], index.step or 1
            out.append(slice(start + shape[i] if start < 0 else start,
                             stop + shape[i] if stop < 0 else stop, step))
        elif isinstance(index, int):
            out.append(index + shape[i] if index < 0 else index)
        else:
            raise TypeError(f"Not supported index type {index}.")
    return tuple(out)


class _Lazy:
    """Row-wise lazy evaluation along ``lazy_axis`` with a cache of evaluated rows."""

    lazy_axis = 0
    is_batched = False

    def __init__(self, ys, xs) -> None:
        self.original_xs_shape = list(xs.shape)
        self.original_ys_shape = ys_shape = list(ys.shape)
        self._xs = xs
        if isinstance(ys, Jacobian):  # a Hessian: the first derivative is evaluated now
            ys = ys._evaluate_all()
        if len(ys_shape) == 0 and not self.is_batched:
            ys = ys.reshape([-1])
        if len(ys_shape) == 1 and self.is_batched:
            ys = ys.reshape([-1, 1])
        self._ys = ys
        self._flatten_xs = self._flatten(xs)
        self._flatten_ys = self._flatten(ys)
        self._cache: dict = {}

    def _lazy_indexes(self, indexes):
        idx = indexes[self.lazy_axis]
        return (idx,) if isinstance(idx, int) else tuple(range(idx.start, idx.stop, idx.step))

    def _shifted_indexes(self, indexes, size=0):
        idx = indexes[self.lazy_axis]
        shifted = 0 if isinstance(idx, int) else slice(0, size, 1)
        return (*indexes[:self.lazy_axis], shifted, *indexes[self.lazy_axis + 1:])

    def __getitem__(self, indexes):
        if not self.is_batched:
            if len(self.shape) == 0:
                raise IndexError("0-D tensor can not be indexed.")
            if len(self.shape) == 1:
                indexes = (0, indexes) if len(self.original_ys_shape) == 0 else (indexes, 0)
        else:
            if len(self.shape) == 1:
                indexes = (indexes, 0, 0)
            elif len(self.shape) == 2:
                if isinstance(indexes, slice):
                    indexes = (indexes, slice(None, None, None))
                else:
                    indexes = ((indexes[0], 0, indexes[1]) if len(self.original_ys_shape) == 1
                               else (indexes[0], indexes[1], 0))
        indexes = _multi_index(indexes, self.inner_shape)
        axis = self.lazy_axis
        if isinstance(indexes[axis], int):
            return self._cached_evaluate(indexes[axis])[indexes[:axis] + indexes[axis + 1:]]
        rows = self._lazy_indexes(indexes)
        shape = list(self.inner_shape)
        shape[axis] = len(rows)
        part = _S.concatenate([self._cached_evaluate(i) for i in rows], axis).reshape(shape)
        result = part[self._shifted_indexes(indexes, len(rows))]
        for _ in range(len(result.shape) - len(self.shape)):
            result = result.squeeze(-1)
        return result

    def _cached_evaluate(self, k):
        if k is None:
            return self._cached_evaluate(0).reshape([])
        v = self._cache.get(k)
        if v is None:
            v = self._evaluate(k)
            self._cache[k] = v
        return v

    def _evaluate_all(self):
        return self._cached_evaluate(None) if len(self.shape) == 0 else self[:]


class _NoBatch(_Lazy):
    """f: R^M -> R^N gives an (N, M) matrix."""

    def __init__(self, ys, xs) -> None:
        super().__init__(ys, xs)
        self.inner_shape = [*list(self._flatten_ys.shape)[0:1], *list(self._flatten_xs.shape)[0:1]]
        self.shape = [*self.original_ys_shape[0:1], *self.original_xs_shape[0:1]]

    def _flatten(self, x):
        return x.reshape((-1,))

    def _evaluate(self, row):
        return self._flatten(_grad_rows(self._flatten_ys[row], self._xs))


class _BatchFirst(_Lazy):
    """f: R^{B,M} -> R^{B,N} gives a (B, N, M) array."""

    lazy_axis = 1
    is_batched = True

    def __init__(self, ys, xs) -> None:
        super().__init__(ys, xs)
        fx, fy = list(self._flatten_xs.shape), list(self._flatten_ys.shape)
        self.inner_shape = [*fx[0:1], *fy[1:2], *fx[1:2]]
        self.shape = [*fx[0:1], *self.original_ys_shape[1:2], *self.original_xs_shape[1:2]]

    def _flatten(self, x):
        return x.reshape((x.shape[0], -1))

    def _evaluate(self, row):
        return self._flatten(_grad_rows(self._flatten_ys[:, row], self._xs))


def _binary(name):
    def op(self, other):
        lhs = self._evaluate_all()
        rhs = other._evaluate_all() if isinstance(other, Jacobian) else other
        return getattr(lhs, name)(rhs)
    op.__name__ = name
    return op


class Jacobian:
    """The Jacobian of ys w.r.t. xs, evaluated row by row on indexing."""

    def __init__(self, ys, xs, is_batched: bool = False) -> None:
        if not is_batched:
            if not 0 <= len(xs.shape) <= 1:
                raise ValueError(f"xs.ndim should be 0 or 1 when is_batched=False but got "
                                 f"{len(xs.shape)}")
            if not 0 <= len(ys.shape) <= 1:
                raise ValueError(f"ys.ndim should be 0 or 1 when is_batched=False but got "
                                 f"{len(ys.shape)}")
            self._jacobian = _NoBatch(ys, xs)
        else:
            if not 1 <= len(ys.shape) <= 2:
                raise ValueError(f"ys.ndim should be 1 or 2 when is_batched=True but got "
                                 f"{len(ys.shape)}")
            if not 1 <= len(xs.shape) <= 2:
                raise ValueError(f"xs.ndim should be 1 or 2 when is_batched=True but got "
                                 f"{len(xs.shape)}")
            self._jacobian = _BatchFirst(ys, xs)

    @property
    def shape(self) -> list:
        """The shape of the flattened Jacobian matrix."""
        return self._jacobian.shape

    def __getitem__(self, indexes):
        return self._jacobian[indexes]

    def _evaluate_all(self):
        return self._jacobian._evaluate_all()

    def __getattr__(self, name: str):
        if name.startswith("__") or name == "_jacobian":
            raise AttributeError(name)
        return getattr(self._jacobian._evaluate_all(), name)

    __add__ = _binary("__add__")
    __sub__ = _binary("__sub__")
    __mul__ = _binary("__mul__")
    __truediv__ = _binary("__truediv__")
    __div__ = __truediv__
    __pow__ = _binary("__pow__")
    __mod__ = _binary("__mod__")
    __floordiv__ = _binary("__floordiv__")
    __matmul__ = _binary("__matmul__")
    __eq__ = _binary("__eq__")
    __ne__ = _binary("__ne__")
    __lt__ = _binary("__lt__")
    __le__ = _binary("__le__")
    __gt__ = _binary("__gt__")
    __ge__ = _binary("__ge__")
    __hash__ = object.__hash__


class Hessian(Jacobian):
    """The Jacobian of a gradient; same indexing."""


def _is_seq(x) -> bool:
    return isinstance(x, Sequence) and not isinstance(x, Tensor)


def jacobian(ys, xs, batch_axis=None):
    """Lazy Jacobian(s) of ys w.r.t. xs (nested tuples for tuples of ys and/or xs)."""
    if batch_axis is not None and batch_axis != 0:
        raise ValueError(f"batch_axis should be None or 0, but got {batch_axis}.")
    batched = batch_axis is not None
    if _is_seq(ys) and _is_seq(xs):
        return tuple(tuple(Jacobian(y, x, batched) for x in xs) for y in ys)
    if _is_seq(ys):
        return tuple(Jacobian(y, xs, batched) for y in ys)
    if _is_seq(xs):
        return tuple(Jacobian(ys, x, batched) for x in xs)
    return Jacobian(ys, xs, batched)


def hessian(ys, xs, batch_axis=None):
    """Lazy Hessian(s) of a single-element ys (one element per batch row when batched)."""
    if batch_axis is None:
        n = int(ys.numel())
        if n > 1:
            raise ValueError(f"Only support ys.numel()({n})==1 when batch_axis is None.")
        ys = ys.reshape(())
    elif isinstance(batch_axis, int):
        if int(ys[0].numel()) > 1:
            raise ValueError(f"Only support ys[0].numel()({int(ys.numel())})==1 when "
                             "batch_axis is int")
        if batch_axis != 0:
            raise ValueError("Only support batch_axis=0 yet.")
        ys = ys.reshape((-1,))
    else:
        raise ValueError(f"batch_axis should be None or int, but got {type(batch_axis)}.")
    first = jacobian(ys, xs, batch_axis)
    if not _is_seq(xs):
        h = jacobian(first, xs, batch_axis)
        h.__class__ = Hessian
        return h
    h = tuple(jacobian(j, xs, batch_axis) for j in first)
    for row in h:
        for el in row:
            el.__class__ = Hessian
    return h


__all__ = ["Jacobian", "Hessian", "jacobian", "hessian"]

# printed (repr, tracebacks) under paddle's module name
Jacobian.__module__ = Hessian.__module__ = "paddle.autograd.autograd"
