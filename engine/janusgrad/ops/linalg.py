"""Linear algebra: matmul is the primitive; dot, mm, mv, bmm, outer are checked views of it."""
from __future__ import annotations

from math import prod as _prod

from janusgrad.array.backend import MODULES, host, ndarray
from janusgrad.core.tensor import record
from janusgrad.ops import check_same_device, defop, spec
from janusgrad.ops.elementwise import as_out, operands
from janusgrad.ops.rules import rule_tensors
from janusgrad.ops.shape import reshape
from janusgrad.ops.testing import array


def _matmul_x(np, g, x, y):
    if x.ndim >= 2 and y.ndim >= 2:  # (the common case: matrices, or stacks of them)
        return np.matmul(g, np.swapaxes(y, -1, -2))
    g2, y2 = _as_matrices(np, g, x, y)
    gx = np.matmul(g2, np.swapaxes(y2, -1, -2))
    return np.reshape(gx, gx.shape[:-2] + gx.shape[-1:]) if x.ndim == 1 else gx


def _matmul_y(np, g, x, y):
    if y.ndim == 2 and x.ndim > 2:
        # a stack times one matrix (a Linear on [T, B, I]): one product over the folded
        # stack, not one per matrix of the stack summed afterwards (several times faster)
        rows = _prod(x.shape[:-1])
        return np.matmul(np.swapaxes(np.reshape(x, (rows, x.shape[-1])), 0, 1),
                         np.reshape(g, (rows, g.shape[-1])))
    if x.ndim >= 2 and y.ndim >= 2:
        return np.matmul(np.swapaxes(x, -1, -2), g)
    g2, _ = _as_matrices(np, g, x, y)
    x2 = np.reshape(x, (1,) + x.shape) if x.ndim == 1 else x
    gy = np.matmul(np.swapaxes(x2, -1, -2), g2)
    return np.reshape(gy, gy.shape[:-1]) if y.ndim == 1 else gy


def _as_matrices(np, g, x, y):
    """g and y with 1-D operands promoted to matrices, as matmul does (undone after)."""
    y2 = np.reshape(y, y.shape + (1,)) if y.ndim == 1 else y
    if x.ndim == 1 and y.ndim == 1:
        return np.reshape(g, (1, 1)), y2
    if x.ndim == 1:
        return np.reshape(g, g.shape[:-1] + (1, g.shape[-1])), y2
    if y.ndim == 1:
        return np.reshape(g, g.shape + (1,)), y2
    return g, y2


# new arrays from g; the scheduler's sum_to folds broadcast batch dims of the gradient back
_matmul = defop("matmul", fresh=True, rule=(_matmul_x, _matmul_y), uses=("x", "y"))
_np_matmul = host.matmul  # numpy's, bound once: the fast path of the common case


def matmul(x, y):
    a, b = x.array, y.array
    if a.ndim == 0 or b.ndim == 0:
        raise x.dialect.invalid("matmul", "both arguments to matmul need to be at least 1D",
                                a_shape=a.shape, b_shape=b.shape)
    if a.dtype != b.dtype:
        a, b, _ = operands(x, y)
    ka = a.shape[-1]
    kb = b.shape[-2] if b.ndim > 1 else b.shape[0]
    if ka != kb:
        raise x.dialect.invalid("matmul", f"shapes {tuple(a.shape)} and {tuple(b.shape)} "
                                "cannot be multiplied", a_shape=a.shape, b_shape=b.shape)
    try:
        out = _np_matmul(a, b) if type(a) is ndarray else MODULES[type(a)].matmul(a, b)
    except ValueError:
        raise x.dialect.invalid("matmul", f"batch shapes of {tuple(a.shape)} and "
                                f"{tuple(b.shape)} do not broadcast",
                                a_shape=a.shape, b_shape=b.shape) from None
    except TypeError:  # the array libraries refuse operands of another device
        check_same_device(type(x), "matmul", a, b)
        raise
    return record(_matmul, as_out(out), (x, y), (x, y))


def _require(x, y, op: str, a_ndim: int, b_ndim: int, what: str) -> None:
    a, b = x.array, y.array
    if a.ndim != a_ndim or b.ndim != b_ndim:
        raise x.dialect.invalid(op, f"{op} expects {what}, got {a.ndim}-D and {b.ndim}-D "
                                "tensors", a_shape=a.shape, b_shape=b.shape,
                                a_dtype=a.dtype, b_dtype=b.dtype)


def _inner_mismatch(x, y, op: str, ka: int, kb: int):
    a, b = x.array, y.array
    return x.dialect.invalid(op, f"inner sizes differ: {ka} and {kb} (shapes "
                             f"{tuple(a.shape)} and {tuple(b.shape)})", a_shape=a.shape,
                             b_shape=b.shape, a_dtype=a.dtype, b_dtype=b.dtype)


def dot(x, y):
    """Inner product of two vectors (0-d result)."""
    _require(x, y, "dot", 1, 1, "two 1-D tensors")
    if x.array.shape[0] != y.array.shape[0]:
        raise _inner_mismatch(x, y, "dot", x.array.shape[0], y.array.shape[0])
    return matmul(x, y)


def mm(x, y):
    """Matrix product of two 2-D tensors."""
    _require(x, y, "mm", 2, 2, "two 2-D tensors")
    if x.array.shape[1] != y.array.shape[0]:
        raise _inner_mismatch(x, y, "mm", x.array.shape[1], y.array.shape[0])
    return matmul(x, y)


def mv(x, y):
    """Matrix (2-D) times vector (1-D)."""
    _require(x, y, "mv", 2, 1, "a 2-D and a 1-D tensor")
    if x.array.shape[1] != y.array.shape[0]:
        raise _inner_mismatch(x, y, "mv", x.array.shape[1], y.array.shape[0])
    return matmul(x, y)


def bmm(x, y):
    """Batched matrix product of two 3-D tensors with the same batch size."""
    _require(x, y, "bmm", 3, 3, "two 3-D tensors")
    a, b = x.array.shape, y.array.shape
    if a[0] != b[0]:
        raise x.dialect.invalid("bmm", f"batch sizes differ: {a[0]} and {b[0]}", a_shape=a,
                                b_shape=b, a_dtype=x.array.dtype, b_dtype=y.array.dtype)
    if a[2] != b[1]:
        raise _inner_mismatch(x, y, "bmm", a[2], b[1])
    return matmul(x, y)


def outer(x, y):
    """Outer product of two vectors: (n,) and (m,) give (n, m)."""
    _require(x, y, "outer", 1, 1, "two 1-D tensors")
    return matmul(reshape(x, (x.array.shape[0], 1)), reshape(y, (1, y.array.shape[0])))


def _make_matmul(draw, st, hnp):
    m, k, n = (draw(st.integers(1, 3)) for _ in range(3))
    kind = draw(st.sampled_from(["vv", "mv", "vm", "mm", "bmm", "bcast"]))
    batch = (draw(st.integers(1, 3)),)
    shapes = {
        "vv": ((k,), (k,)), "mv": ((m, k), (k,)), "vm": ((k,), (k, n)),
        "mm": ((m, k), (k, n)), "bmm": (batch + (m, k), batch + (k, n)),
        "bcast": (batch + (m, k), (k, n)),
    }[kind]
    return [array(draw, st, hnp, s) for s in shapes], {}


spec("matmul", matmul, _make_matmul, ref=host.matmul)


def _make_shapes(*pairs):
    def make(draw, st, hnp):
        m, k, n, b = (draw(st.integers(1, 3)) for _ in range(4))
        dims = {"m": m, "k": k, "n": n, "b": b}
        shapes = draw(st.sampled_from(pairs))
        return [array(draw, st, hnp, tuple(dims[c] for c in s)) for s in shapes], {}
    return make


spec("dot", dot, _make_shapes(("k", "k")), ref=host.dot)
spec("mm", mm, _make_shapes(("mk", "kn")), ref=host.matmul)
spec("mv", mv, _make_shapes(("mk", "k")), ref=host.matmul)
spec("bmm", bmm, _make_shapes(("bmk", "bkn")), ref=host.matmul)
spec("outer", outer, _make_shapes(("m", "n")), ref=host.outer)


@rule_tensors
def _rule_tensors() -> dict:
    return {"matmul": matmul}
