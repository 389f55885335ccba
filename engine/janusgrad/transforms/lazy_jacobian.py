"""Lazily evaluated Jacobian matrices: nothing is computed when one is made; indexing it
(``J[:]``, ``J[i]``, ``J[:, j]``, ``J[a:b]``) evaluates just the rows it needs (one reverse
pass per row, with the graph kept so the values can be differentiated again) and caches them.

Unbatched: ys and xs are 0-D or 1-D and ``J.shape == [len(ys), len(xs)]`` (a 0-D side drops
its axis); batched (batch first): ys and xs are 1-D or 2-D and ``J.shape == [B, N, M]``.
A dialect subclasses ``LazyJacobian`` to check its arguments in its own words.
"""
from __future__ import annotations

from collections.abc import Sequence

from janusgrad.core.tensor import Tensor
from janusgrad.ops import shape as _S
from janusgrad.transforms.functional import grads_of, zeros_like


def _grad_rows(ys, xs):
    """d(sum of ys)/d xs with the graph kept; zeros (needing grad like xs) when unused."""
    g = grads_of((ys,), (xs,), create_graph=True)[0]
    if g is None:
        g = zeros_like(xs)
    if g.node is None:  # a constant gradient is still flagged like xs
        g.requires_grad = xs.requires_grad
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
            # a stop of 0 means "to the end" (the reference API's reading, kept)
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
        if isinstance(ys, LazyJacobian):  # a Hessian: the first derivative is evaluated now
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
        rhs = other._evaluate_all() if isinstance(other, LazyJacobian) else other
        return getattr(lhs, name)(rhs)
    op.__name__ = name
    return op


class LazyJacobian:
    """The Jacobian of ys w.r.t. xs, evaluated row by row on indexing; arithmetic and any
    other attribute act on the whole evaluated matrix."""

    def __init__(self, ys, xs, is_batched: bool = False) -> None:
        self._jacobian = _BatchFirst(ys, xs) if is_batched else _NoBatch(ys, xs)

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


def is_sequence(x) -> bool:
    return isinstance(x, Sequence) and not isinstance(x, Tensor)


def for_pairs(make, ys, xs):
    """``make(y, x)`` for a tensor or sequence of ys and xs: nested tuples (ys outer)."""
    if is_sequence(ys) and is_sequence(xs):
        return tuple(tuple(make(y, x) for x in xs) for y in ys)
    if is_sequence(ys):
        return tuple(make(y, xs) for y in ys)
    if is_sequence(xs):
        return tuple(make(ys, x) for x in xs)
    return make(ys, xs)
