"""Linear algebra, part three: triangular solves, Cholesky solves and inverses, the LU
family (factor, unpack, solve), the matrix exponential, Householder products, Vandermonde
matrices and the tensor inverse / solve.

One primitive, the packed LU factorization (its rule is torch's linalg_lu_backward, square,
wide and tall); the rest are compositions of engine ops (solve, inv, matmul, tril ...), so
their derivatives of every order come from those ops'.
"""
from __future__ import annotations

import math

from janusgrad.array.backend import as_array, broadcast_shapes, host, quiet, xp_of
from janusgrad.core.tensor import Tensor, record
from janusgrad.ops import defop, spec
from janusgrad.ops import elementwise as E
from janusgrad.ops import reduce as R
from janusgrad.ops import shape as S
from janusgrad.ops.linalg import matmul
from janusgrad.ops.linalg_factor import _float, _t, inv, solve
from janusgrad.ops.manip import tril, triu
from janusgrad.ops.testing import array


def _const(x, a):
    return type(x).wrap(as_array(a))


def _eye_like(x, n, m=None):
    a = x.array
    return _const(x, xp_of(a).eye(n, n if m is None else m, dtype=a.dtype))


def _need_matrix(x, op, what="A"):
    if x.array.ndim < 2:
        raise RuntimeError(f"{op}: The input tensor {what} must have at least 2 dimensions.")


# ---------------------------------------------------------------- triangular solves
def _triangle(a, upper, unitriangular):
    t = triu(a) if upper else tril(a)
    if unitriangular:
        n = a.array.shape[-1]
        t = E.add(triu(t, 1) if upper else tril(t, -1), _eye_like(a, n))
    return t


def solve_triangular(a, b, upper, left=True, unitriangular=False):
    """X with T X = B (``left``) or X T = B, T the upper or lower triangle of A (its
    diagonal taken as ones for ``unitriangular``); A's other triangle is never read."""
    a, b = _float(a, "linalg.solve_triangular"), _float(b, "linalg.solve_triangular")
    _need_matrix(a, "linalg.solve_triangular")
    _need_matrix(b, "linalg.solve_triangular", "B")
    if a.array.dtype != b.array.dtype:
        raise RuntimeError("linalg.solve_triangular: Expected A and B to have the same dtype, "
                           f"but found A of type {a.array.dtype} and B of type "
                           f"{b.array.dtype} instead")
    t = _triangle(a, upper, unitriangular)
    if not left:
        return S.swapaxes(solve_triangular(S.swapaxes(t, -1, -2), S.swapaxes(b, -1, -2),
                                           not upper, True, False), -1, -2)
    n = t.array.shape[-1]
    if b.array.shape[-2] != n or t.array.shape[-2] != n:
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the "
                           f"equation AX = B ({t.array.shape[-2]}x{n} and "
                           f"{b.array.shape[-2]}x{b.array.shape[-1]})")
    if n == 0 or b.array.size == 0 or t.array.size == 0:  # (empty: recorded all the same)
        batch = _batch(t, b)
        return matmul(S.broadcast_to(t, batch + t.array.shape[-2:]),
                      S.broadcast_to(b, batch + b.array.shape[-2:]))
    return _tri_solve(t, b, upper)


def _batch(*ts):
    return broadcast_shapes(*[tuple(t.array.shape[:-2]) for t in ts])


def _tri_solve(t, b, upper):
    """T^-1 B by the general solve where T is invertible; where a diagonal entry is zero,
    substitution as LAPACK's trtrs would give (inf / nan), unrecorded."""
    d = t.array.diagonal(0, -2, -1)
    if bool((d != 0).all()):
        batch = _batch(t, b)
        tb = S.broadcast_to(t, batch + t.array.shape[-2:])
        bb = S.broadcast_to(b, batch + b.array.shape[-2:])
        return solve(tb, bb)
    return _const(b, _substitute(t.array, b.array, upper))


def _substitute(t, b, upper):
    xp = xp_of(t)
    batch = broadcast_shapes(tuple(t.shape[:-2]), tuple(b.shape[:-2]))
    t = xp.broadcast_to(t, batch + t.shape[-2:])
    x = xp.array(xp.broadcast_to(b, batch + b.shape[-2:]), copy=True)
    n = t.shape[-1]
    order = range(n - 1, -1, -1) if upper else range(n)
    with quiet(invalid="ignore", divide="ignore"):
        for i in order:
            rest = range(i + 1, n) if upper else range(i)
            acc = x[..., i, :]
            for j in rest:
                acc = acc - t[..., i, j, None] * x[..., j, :]
            x[..., i, :] = acc / t[..., i, i, None]
    return x


def triangular_solve(b, a, upper=True, transpose=False, unitriangular=False):
    """torch.triangular_solve: (X, a copy of A) with op(T) X = B."""
    t = _triangle(_float(a), upper, unitriangular)
    if transpose:
        t, upper = S.swapaxes(t, -1, -2), not upper
    x = solve_triangular(t, _float(b), upper)
    return x, E.clone(a)


# ---------------------------------------------------------------- Cholesky solves
def cholesky_solve(b, factor, upper=False):
    """X with A X = B for A = L L^T (``factor`` L) or U^T U (``upper``)."""
    b, factor = _float(b), _float(factor)
    if b.array.ndim < 2 or factor.array.ndim < 2:
        raise RuntimeError("cholesky_solve: b should have at least 2 dimensions, but has "
                           f"{b.array.ndim} dimensions instead" if b.array.ndim < 2 else
                           "cholesky_solve: u should have at least 2 dimensions, but has "
                           f"{factor.array.ndim} dimensions instead")
    low = S.swapaxes(triu(factor), -1, -2) if upper else tril(factor)
    y = solve_triangular(low, b, False)
    return solve_triangular(S.swapaxes(low, -1, -2), y, True)


def cholesky_inverse(factor, upper=False):
    """(L L^T)^-1 from its Cholesky factor (U^T U for ``upper``)."""
    factor = _float(factor)
    if factor.array.ndim < 2:
        raise RuntimeError("cholesky_inverse: The input tensor A must have at least 2 "
                           "dimensions.")
    n = factor.array.shape[-1]
    eye = S.broadcast_to(_eye_like(factor, n), factor.array.shape[:-2] + (n, n))
    return cholesky_solve(eye, factor, upper)


# ---------------------------------------------------------------- LU
def _lu_kernel(a):
    """(packed LU, 1-based int32 pivots) of each matrix (..., m, n): partial pivoting, the
    first row of largest magnitude (LAPACK's getrf)."""
    xp = xp_of(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    lu = xp.array(a.reshape((-1, m, n)), copy=True)
    nb = lu.shape[0]
    piv = xp.zeros((nb, k), dtype="int32")
    rows = xp.arange(nb)
    for j in range(k):
        p = xp.argmax(xp.abs(lu[:, j:, j]), axis=-1) + j if m > j else xp.zeros(nb, int)
        piv[:, j] = p + 1
        top = lu[rows, j].copy()
        lu[rows, j] = lu[rows, p]
        lu[rows, p] = top
        pivot = lu[:, j, j]
        safe = xp.where(pivot == 0, 1, pivot)
        lu[:, j + 1:, j] = xp.where((pivot == 0)[:, None], lu[:, j + 1:, j],
                                    lu[:, j + 1:, j] / safe[:, None])
        lu[:, j + 1:, j + 1:] -= lu[:, j + 1:, j:j + 1] * lu[:, j:j + 1, j + 1:]
    return lu.reshape(a.shape), piv.reshape(batch + (k,))


def _perm_matrix(piv, m, dtype, xp):
    """P (..., m, m) with A = P L U, from 1-based pivots (..., k)."""
    batch = piv.shape[:-1]
    p2 = piv.reshape((-1, piv.shape[-1])) - 1
    nb = p2.shape[0]
    perm = xp.broadcast_to(xp.arange(m), (nb, m)).copy()
    rows = xp.arange(nb)
    for j in range(p2.shape[1]):
        a, b = perm[rows, j].copy(), perm[rows, p2[:, j]].copy()
        perm[rows, j] = b
        perm[rows, p2[:, j]] = a
    out = xp.zeros((nb, m, m), dtype=dtype)
    out[rows[:, None], perm, xp.arange(m)[None, :]] = 1
    return out.reshape(batch + (m, m))


def _as_operand(np, like, a):
    """A constant array beside ``like`` in the rule's namespace (a tensor when recording)."""
    return type(like).wrap(as_array(a)) if isinstance(like, Tensor) else a


def _lu_rule(np, g, out, attrs):
    """torch's linalg_lu_backward on the packed factors (gL = the strict lower part of g,
    gU = its upper part): square, wide (m < n) and tall (m > n)."""
    p, m, n = attrs
    k = min(m, n)
    ax_r, ax_c = len(out.shape) - 2, len(out.shape) - 1
    low = np.tril(out, -1)
    up = out - low
    arr = out.array if isinstance(out, Tensor) else out
    eye = _as_operand(np, out, xp_of(arr).eye(m, k, dtype=arr.dtype))
    lo = np.narrow(low, ax_c, 0, k) + eye if n > k else low + eye  # L (m, k)
    u = np.narrow(up, ax_r, 0, k) if m > k else up  # U (k, n)
    g_low = np.tril(g, -1)
    gl = np.narrow(g_low, ax_c, 0, k) if n > k else g_low
    g_up = g - g_low
    gu = np.narrow(g_up, ax_r, 0, k) if m > k else g_up
    if m == n:
        ga = np.tril(np.matmul(_t(np, lo), gl), -1) + _upper(np, np.matmul(gu, _t(np, u)))
        ga = np.matmul(ga, np.inv(_t(np, u)))
        ga = np.matmul(np.inv(_t(np, lo)), ga)
    elif m < n:
        u1 = np.narrow(u, ax_c, 0, k)
        ga = np.matmul(_t(np, lo), gl) - np.matmul(_upper(np, gu), _t(np, u))
        ga = np.matmul(np.tril(ga, -1), np.inv(_t(np, u1)))
        gu1, gu2 = np.narrow(gu, ax_c, 0, k), np.narrow(gu, ax_c, k, n - k)
        ga = _cat(np, ga + _upper(np, gu1), gu2, ax_c, out)
        ga = np.matmul(np.inv(_t(np, lo)), ga)
    else:
        l1 = np.narrow(lo, ax_r, 0, k)
        ga = np.matmul(gu, _t(np, u)) - np.matmul(_t(np, lo), np.tril(gl, -1))
        ga = np.matmul(np.inv(_t(np, l1)), _upper(np, ga))
        gl1, gl2 = np.narrow(gl, ax_r, 0, k), np.narrow(gl, ax_r, k, m - k)
        ga = _cat(np, ga + np.tril(gl1, -1), gl2, ax_r, out)
        ga = np.matmul(ga, np.inv(_t(np, u)))
    return np.matmul(_as_operand(np, ga, p), ga)


def _upper(np, a):
    return a - np.tril(a, -1)


def _cat(np, a, b, axis, like):
    """[a | b] along ``axis`` with the adjoint pair unnarrow (in both namespaces)."""
    shape = list(a.shape)
    shape[axis] = a.shape[axis] + b.shape[axis]
    return np.unnarrow(a, tuple(shape), axis, 0) + np.unnarrow(b, tuple(shape), axis,
                                                                a.shape[axis])


_lu_packed = defop("linalg_lu_factor", fresh=True, rule=_lu_rule, uses=("out", "attrs"))


def lu_factor(a, pivot=True):
    """(LU packed, pivots): A = P L U with L unit lower (m x k) and U upper (k x n) packed in
    one (m x n) tensor; pivots 1-based int32 (k = min(m, n))."""
    a = _float(a, "linalg.lu_factor")
    _need_matrix(a, "linalg.lu_factor")
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the "
                           "CPU")
    arr = a.array
    lu, piv = _lu_kernel(arr)
    m, n = arr.shape[-2:]
    p = _perm_matrix(piv, m, arr.dtype, xp_of(arr))
    out = record(_lu_packed, as_array(lu), (a,), (), (p, m, n), save_out=True)
    return out, _const(a, piv)


def lu_unpack(lu, pivots, unpack_data=True, unpack_pivots=True):
    """(P, L, U) from the packed factors and pivots (empty tensors for what is not asked)."""
    arr = lu.array
    m, n = arr.shape[-2:]
    k = min(m, n)
    xp = xp_of(arr)
    if unpack_pivots:
        p = _const(lu, _perm_matrix(pivots.array.astype("int64"), m, arr.dtype, xp))
    else:
        p = _const(lu, xp.zeros((0,), arr.dtype))
    if unpack_data:
        low = tril(lu, -1)
        low = S.narrow(low, -1, 0, k) if n > k else low
        low = E.add(low, _eye_like(lu, m, k))
        up = triu(lu)
        up = S.narrow(up, -2, 0, k) if m > k else up
    else:
        low = up = _const(lu, xp.zeros((0,), arr.dtype))
    return p, low, up


def lu(a, pivot=True):
    """(P, L, U) with A = P L U."""
    packed, piv = lu_factor(a, pivot)
    return lu_unpack(packed, piv)


def lu_solve(lu_data, pivots, b, left=True, adjoint=False):
    """X with A X = B (``left``; X A = B otherwise; A^T for ``adjoint``) from A's packed LU."""
    p, low, up = lu_unpack(lu_data, pivots)
    b = _float(b)
    if not left:  # X A = B  <=>  A^T X^T = B^T
        return S.swapaxes(lu_solve(lu_data, pivots, S.swapaxes(b, -1, -2), True,
                                   not adjoint), -1, -2)
    if not adjoint:  # A = P L U: X = U^-1 L^-1 P^T B
        y = matmul(S.swapaxes(p, -1, -2), b)
        y = solve_triangular(low, y, False, True, True)
        return solve_triangular(up, y, True)
    # A^T = U^T L^T P^T: X = P L^-T U^-T B
    y = solve_triangular(S.swapaxes(up, -1, -2), b, False)
    y = solve_triangular(S.swapaxes(low, -1, -2), y, True, True, True)
    return matmul(p, y)


# ---------------------------------------------------------------- matrix exponential
_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
           1187353796428800.0, 129060195264000.0, 10559470521600.0, 670442572800.0,
           33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152


def matrix_exp(a):
    """exp(A) of each square matrix: the Pade (13, 13) approximant after scaling A by 2^-s
    (s from the largest 1-norm of the batch), squared back s times (Higham 2005)."""
    a = _float(a, "linalg.matrix_exp")
    arr = a.array
    if arr.ndim < 2 or arr.shape[-1] != arr.shape[-2]:
        raise RuntimeError("linalg.matrix_exp: Expected a square matrix or batch of square "
                           f"matrices, but got a tensor of shape {list(arr.shape)}"
                           if arr.ndim >= 2 else
                           "linalg.matrix_exp: The input tensor A must have at least 2 "
                           "dimensions.")
    n = arr.shape[-1]
    if arr.size == 0:
        return E.clone(a)
    xp = xp_of(arr)
    norm = float(xp.abs(arr).sum(-2).max()) if arr.size else 0.0
    s = max(0, int(math.ceil(math.log2(norm / _THETA13)))) if norm > _THETA13 else 0
    x = E.mul(a, 2.0 ** -s) if s else a
    b = _PADE13
    eye = _eye_like(a, n)
    x2 = matmul(x, x)
    x4 = matmul(x2, x2)
    x6 = matmul(x4, x2)

    def comb(c6, c4, c2, c0):
        return E.add(E.add(E.add(E.mul(x6, c6), E.mul(x4, c4)), E.mul(x2, c2)),
                     E.mul(eye, c0))
    u = matmul(x, E.add(matmul(x6, E.add(E.add(E.mul(x6, b[13]), E.mul(x4, b[11])),
                                         E.mul(x2, b[9]))), comb(b[7], b[5], b[3], b[1])))
    v = E.add(matmul(x6, E.add(E.add(E.mul(x6, b[12]), E.mul(x4, b[10])), E.mul(x2, b[8]))),
              comb(b[6], b[4], b[2], b[0]))
    r = solve(E.sub(v, u), E.add(v, u))
    for _ in range(s):
        r = matmul(r, r)
    return r


# ---------------------------------------------------------------- Householder
def householder_product(a, tau):
    """The first n columns of H_1 ... H_k, H_i = I - tau_i v_i v_i^T with v_i the i-th
    column of A below the diagonal and a one on it (LAPACK's orgqr)."""
    a, tau = _float(a, "linalg.householder_product"), _float(tau)
    arr = a.array
    if arr.ndim < 2:
        raise RuntimeError("householder_product: input must have at least 2 dimensions.")
    m, n = arr.shape[-2:]
    k = tau.array.shape[-1]
    if m < n:
        raise RuntimeError("householder_product: input.shape[-2] must be greater than or "
                           "equal to input.shape[-1]")
    if n < k:
        raise RuntimeError("householder_product: input.shape[-1] must be greater than or "
                           "equal to tau.shape[-1]")
    if tau.array.ndim != arr.ndim - 1:
        raise RuntimeError("linalg.householder_product: Expected tau to have one "
                           "dimension less than input, but got tau.ndim equal to "
                           f"{tau.array.ndim} and input.ndim is equal to {arr.ndim}")
    if arr.dtype != tau.array.dtype:
        raise RuntimeError("linalg.householder_product: Expected input and tau to have "
                           f"the same dtype, but input has dtype {arr.dtype} and tau has dtype "
                           f"{tau.array.dtype}")
    v = E.add(tril(a, -1), _eye_like(a, m, n))
    q = S.broadcast_to(_eye_like(a, m), arr.shape[:-2] + (m, m))
    for i in range(k):
        vi = S.narrow(v, -1, i, 1)  # (..., m, 1)
        ti = S.unsqueeze(S.narrow(tau, -1, i, 1), -1)  # (..., 1, 1)
        q = E.sub(q, E.mul(matmul(matmul(q, vi), S.swapaxes(vi, -1, -2)), ti))
    return S.narrow(q, -1, 0, n)


# ---------------------------------------------------------------- Vandermonde, tensors
def vander(x, n=None, increasing=True):
    """(..., len, n): the powers x^0 .. x^(n-1) of each element along the last axis
    (decreasing unless ``increasing``)."""
    arr = x.array
    if arr.ndim == 0:
        if not increasing:
            raise RuntimeError("x must be a one-dimensional tensor.")
        x = S.reshape(x, (1,))
        arr = x.array
    size = arr.shape[-1]
    n = size if n is None else int(n)
    if n <= 1 and increasing:  # (torch.linalg.vander; torch.vander takes any N)
        raise RuntimeError("N must be greater than 1.")
    xp = xp_of(arr)
    if arr.dtype.kind == "b":
        if increasing:
            raise RuntimeError("linalg.vander supports floating point, complex, and integer "
                               "tensors, but got Bool")
        x = E.cast(x, xp.dtype("int64"))
    if n == 0:
        return _const(x, xp.zeros(arr.shape + (0,), dtype=x.array.dtype))
    ones = _const(x, xp.ones(arr.shape + (1,), dtype=x.array.dtype))
    cols = [ones]
    col = S.unsqueeze(x, -1)
    power = col
    for _ in range(1, n):  # (repeated products: no division in any derivative at zero)
        cols.append(power)
        power = E.mul(power, col)
    out = S.concatenate(cols, -1)
    return out if increasing else S.flip(out, (-1,))


def tensorinv(a, ind=2):
    """The inverse of A as a map from its first ``ind`` axes to the rest."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    shape = tuple(a.array.shape)
    rows = math.prod(shape[:ind])
    cols = math.prod(shape[ind:])
    if rows != cols:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[ind:]) "
                           f"== prod(self.shape[:ind]), but got {cols} != {rows}")
    return S.reshape(inv(S.reshape(a, (rows, cols))), shape[ind:] + shape[:ind])


def tensorsolve(a, b, dims=None):
    """X with tensordot(A, X, X.ndim) = B."""
    nd = a.array.ndim
    if dims is not None:
        dims = [d % nd for d in dims]
        rest = [i for i in range(nd) if i not in dims]
        a = S.transpose(a, tuple(rest + dims))
    shape = tuple(a.array.shape)
    bn = b.array.ndim
    result = shape[bn:]
    rows = math.prod(shape[:bn])
    cols = math.prod(result)
    if rows != cols:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:]"
                           f") == prod(self.shape[:other.ndim]), but got {cols} != {rows}")
    x = solve(S.reshape(a, (rows, cols)), S.reshape(b, (rows,)))
    return S.reshape(x, result)


# ---------------------------------------------------------------- specs
def _well(draw, st, hnp, m, n, batch=()):
    """A matrix (m, n) with a dominant diagonal (stable pivots, well conditioned)."""
    base = host.zeros((m, n))  # host-ok: test inputs
    k = min(m, n)
    base[host.arange(k), host.arange(k)] = 3.0 + host.arange(k)  # host-ok: test inputs
    return base + array(draw, st, hnp, batch + (m, n), -1.0, 1.0)


def _make_lu(draw, st, hnp):
    m, n = draw(st.sampled_from([(3, 3), (2, 4), (4, 2), (1, 1)]))
    return [_well(draw, st, hnp, m, n, draw(st.sampled_from([(), (2,)])))], {}


def _lu_ref(a):
    import scipy.linalg as sl
    out = host.empty_like(a)  # host-ok: test reference
    for i in host.ndindex(a.shape[:-2]):
        p, lo, up = sl.lu(a[i])
        m, n = a.shape[-2:]
        k = min(m, n)
        packed = host.zeros((m, n))
        packed[:, :k] += host.tril(lo, -1)
        packed[:k, :] += up
        out[i] = packed
    return out


def _make_tri(draw, st, hnp):
    return [_well(draw, st, hnp, 3, 3), array(draw, st, hnp, (3, 2))], {}


spec("linalg_lu_factor", lambda x: lu_factor(x)[0], _make_lu, ref=_lu_ref)
spec("linalg_lu_p_l_u", lambda x: E.add(R.sum(lu(x)[1]), R.sum(lu(x)[2])), _make_lu,
     ref=lambda a: host.asarray(sum(_lu_l_u(m) for m in a.reshape((-1,) + a.shape[-2:]))))


def _lu_l_u(a):
    import scipy.linalg as sl
    _, lo, up = sl.lu(a)
    return lo.sum() + up.sum()


spec("linalg_solve_triangular", lambda a, b: solve_triangular(a, b, True), _make_tri,
     ref=lambda a, b: host.linalg.solve(host.triu(a), b))
spec("linalg_solve_triangular_right_unit",
     lambda a, b: solve_triangular(a, S.swapaxes(b, 0, 1), False, False, True), _make_tri,
     ref=lambda a, b: host.linalg.solve((host.tril(a, -1) + host.eye(3)).T, b).T)
spec("linalg_cholesky_solve", lambda a, b: cholesky_solve(b, a), _make_tri,
     ref=lambda a, b: host.linalg.solve(host.tril(a) @ host.tril(a).T, b))
spec("linalg_cholesky_inverse", lambda a: cholesky_inverse(a, True),
     lambda draw, st, hnp: ([_well(draw, st, hnp, 3, 3)], {}),
     ref=lambda a: host.linalg.inv(host.triu(a).T @ host.triu(a)))
spec("linalg_lu_solve", lambda a, b: lu_solve(*lu_factor(a), b), _make_tri,
     ref=lambda a, b: host.linalg.solve(a, b))
spec("linalg_lu_solve_adjoint", lambda a, b: lu_solve(*lu_factor(a), b, adjoint=True),
     _make_tri, ref=lambda a, b: host.linalg.solve(a.T, b))
spec("linalg_matrix_exp", matrix_exp,
     lambda draw, st, hnp: ([array(draw, st, hnp, draw(st.sampled_from([(3, 3), (2, 2, 2)])),
                                   -2.0, 2.0)], {}),
     ref=lambda a: host.stack([__import__("scipy.linalg").linalg.expm(m)
                               for m in a.reshape((-1,) + a.shape[-2:])]).reshape(a.shape))


def _householder_ref(a, tau):
    m, n = a.shape
    q = host.eye(m)
    for i in range(tau.shape[0]):
        v = host.zeros(m)
        v[i] = 1.0
        v[i + 1:] = a[i + 1:, i]
        q = q @ (host.eye(m) - tau[i] * host.outer(v, v))
    return q[:, :n]


spec("linalg_householder_product", householder_product,
     lambda draw, st, hnp: ([array(draw, st, hnp, (4, 3)), array(draw, st, hnp, (2,))], {}),
     ref=_householder_ref)
spec("linalg_vander", lambda x: vander(x, 4), lambda draw, st, hnp: ([array(draw, st, hnp,
                                                                             (3,))], {}),
     ref=lambda a: host.vander(a, 4, increasing=True))
spec("linalg_tensorinv", lambda a: tensorinv(a, 1),
     lambda draw, st, hnp: ([_well(draw, st, hnp, 4, 4).reshape(4, 2, 2)], {}),
     ref=lambda a: host.linalg.tensorinv(a, 1))
spec("linalg_tensorsolve", tensorsolve,
     lambda draw, st, hnp: ([_well(draw, st, hnp, 4, 4).reshape(2, 2, 4),
                             array(draw, st, hnp, (2, 2))], {}),
     ref=lambda a, b: host.linalg.tensorsolve(a, b))
