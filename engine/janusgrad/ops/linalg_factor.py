"""Linear algebra beyond matmul: inverse, determinants, solve, cholesky, eigh, svdvals, norms.

Forward kernels are the ``linalg`` module of the input's array module (numpy.linalg,
cupy.linalg: ``xp_of(a).linalg``), on batches ``(..., n, n)`` as torch takes them.  The
derivatives are the standard ones, written once over the rule namespace ``np``
(engine.ops.rules), which carries ``inv``, ``solve``, ``tril``, ``eigvalsh``,
``eigh_vectors`` in both forms (``linalg_arrays`` / ``linalg_tensors`` below):

- inv: -A^-T g A^-T;  det: g det A^-T;  logabsdet: g A^-T;
- solve X = A^-1 B: gB = A^-T g, gA = -gB X^T;
- cholesky L: A^-T-sandwich of Phi(L^T gL) (torch's cholesky_backward);
- eigh (w, V): gA = V (diag(gw) + F o skew(V^T gV)) V^T with F_ij = 1 / (w_j - w_i);
- svdvals s: gA = U diag(gs) V^T (U, V from the eigenvectors of A^T A, so that the
  recording form is itself differentiable).

Eigenvalues and eigenvectors are two recorded ops (their gradients add up to eigh's).
"""
from __future__ import annotations

import math

from janusgrad.array.backend import as_array, broadcast_shapes, default_float, host, xp_of
from janusgrad.core.tensor import record
from janusgrad.ops import defop, spec
from janusgrad.ops import elementwise as E
from janusgrad.ops import reduce as R
from janusgrad.ops import shape as S
from janusgrad.ops.linalg import matmul
from janusgrad.ops.manip import tril
from janusgrad.ops.rules import rule_arrays, rule_tensors
from janusgrad.ops.testing import array, distinct_array


def _t(np, a):
    return np.swapaxes(a, -1, -2)


def _float(x, op=None):
    """``x`` as a float tensor: ints refused where ``op`` is named (torch.linalg's ops)."""
    if x.array.dtype.kind != "f":
        if op is not None:
            raise x.dialect.invalid(op, "expected a floating point tensor, got "
                                    f"{x.array.dtype}", dtype=x.array.dtype,
                                    float_required=True)
        return E.cast(x, default_float)
    return x


def _failing_order(a, op):
    """The 1-based order at which a factorization of ``a`` breaks down (the first leading
    minor that is not positive-definite, for cholesky; else the first column dependent on
    those before it: where LU meets a zero pivot)."""
    xp = xp_of(a)
    for k in range(1, a.shape[-1] + 1):
        if op == "linalg.cholesky":
            try:
                xp.linalg.cholesky(a[..., :k, :k])
            except Exception:
                return k
        elif bool((xp.linalg.matrix_rank(a[..., :, :k]) < k).any()):
            return k
    return a.shape[-1]


def _square(x, op: str):
    a = x.array
    if a.ndim < 2:
        raise x.dialect.invalid(op, "The input tensor A must have at least 2 dimensions.",
                                shape=a.shape)
    if a.shape[-1] != a.shape[-2]:
        raise x.dialect.invalid(op, f"A must be batches of square matrices, but they are "
                                f"{a.shape[-2]} by {a.shape[-1]} matrices", shape=a.shape)


def _col(np, v, shape):
    """A batch of numbers (shape ``shape[:-2]``) as (..., 1, 1): it broadcasts over matrices."""
    return np.reshape(v, tuple(shape[:-2]) + (1, 1))


def _row(np, v):
    """(..., n) as (..., 1, n)."""
    s = tuple(v.shape)
    return np.reshape(v, s[:-1] + (1, s[-1]))


# ---------------------------------------------------------------- inverse
_inv = defop("linalg_inv", fresh=True, uses="out",
             rule=lambda np, g, out: -np.matmul(np.matmul(_t(np, out), g), _t(np, out)))


def _kernel(op, name, x, *args, **kw):
    a = x.array
    try:
        return getattr(xp_of(a).linalg, name)(a, *args, **kw)
    except Exception as e:  # numpy's LinAlgError (singular, not positive definite)
        if type(e).__name__ != "LinAlgError":
            raise
        raise x.dialect.invalid(op, str(e), singular=True,
                                order=_failing_order(a, op)) from None


def inv(x):
    """The inverse of each square matrix of ``x``."""
    x = _float(x, "linalg.inv")
    _square(x, "linalg.inv")
    return record(_inv, as_array(_kernel("linalg.inv", "inv", x)), (x,), (), save_out=True)


# ---------------------------------------------------------------- determinants
def _det_rule(np, g, x, out):
    return _col(np, g * out, x.shape) * _t(np, np.inv(x))


_det = defop("linalg_det", fresh=True, rule=_det_rule, uses=("x", "out"))


def det(x):
    """The determinant of each square matrix of ``x``."""
    x = _float(x, "linalg.det")
    _square(x, "linalg.det")
    out = as_array(_kernel("linalg.det", "det", x))
    return record(_det, out.astype(x.array.dtype, copy=False), (x,), (x,), save_out=True)


_logabsdet = defop("linalg_logabsdet", fresh=True, uses="x",
                   rule=lambda np, g, x: _col(np, g, x.shape) * _t(np, np.inv(x)))


def _zero_rule(np, g, x):
    return np.broadcast_to(_col(np, g * 0.0, x.shape), x.shape)


_slogdet_sign = defop("linalg_slogdet_sign", fresh=True, rule=_zero_rule, uses="x")


def slogdet(x):
    """(sign, log|det|) of each square matrix: the sign records no derivative."""
    x = _float(x, "linalg.slogdet")
    _square(x, "linalg.slogdet")
    sign, logabs = _kernel("linalg.slogdet", "slogdet", x)
    dt = x.array.dtype
    return (record(_slogdet_sign, as_array(sign).astype(dt, copy=False), (x,), (x,)),
            record(_logabsdet, as_array(logabs).astype(dt, copy=False), (x,), (x,)))


def logdet(x):
    """log det: NaN where the determinant is negative (torch.logdet)."""
    sign, logabs = slogdet(x)
    return E.add(logabs, E.log(sign))


# ---------------------------------------------------------------- solve
def _solve_a(np, g, x, y, out):
    return -np.matmul(np.solve(_t(np, x), g), _t(np, out))


def _solve_b(np, g, x, y, out):
    return np.solve(_t(np, x), g)


_solve = defop("linalg_solve", fresh=True, rule=(_solve_a, _solve_b), uses=("x", "y", "out"))


def solve(a, b, left=True):
    """X with A X = B (``left``) or X A = B; B a (batch of) vector(s) where it has one
    dim fewer than A and matches A's batch, as torch.linalg.solve takes it."""
    a, b = _float(a, "linalg.solve"), _float(b, "linalg.solve")
    if b.array.dtype != a.array.dtype:
        b = E.cast(b, a.array.dtype)
    _square(a, "linalg.solve")
    if not left:
        return S.swapaxes(solve(S.swapaxes(a, -1, -2), S.swapaxes(b, -1, -2)), -1, -2)
    av, bv = a.array, b.array
    vector = bv.ndim == 1 or (bv.ndim == av.ndim - 1 and bv.shape == av.shape[:-1])
    if vector:
        b = S.reshape(b, tuple(bv.shape) + (1,))
        bv = b.array
    if bv.shape[-2] != av.shape[-1]:
        raise a.dialect.invalid("linalg.solve", "Incompatible shapes of A and B for the "
                                f"equation AX = B ({av.shape[-2]}x{av.shape[-1]} and "
                                f"{bv.shape[-2]}x{bv.shape[-1]})", shape=av.shape)
    batch = broadcast_shapes(av.shape[:-2], bv.shape[:-2])
    xp = xp_of(av)
    ab = xp.broadcast_to(av, batch + av.shape[-2:])
    bb = xp.broadcast_to(bv, batch + bv.shape[-2:])
    try:
        out = xp.linalg.solve(ab, bb)
    except Exception as e:
        if type(e).__name__ != "LinAlgError":
            raise
        raise a.dialect.invalid("linalg.solve", str(e), singular=True,
                                order=_failing_order(ab, "linalg.solve")) from None
    x = record(_solve, as_array(out), (a, b), (a, b), save_out=True)
    return S.reshape(x, tuple(x.array.shape[:-1])) if vector else x


# ---------------------------------------------------------------- cholesky
def _cholesky_rule(np, g, out):
    lt = _t(np, out)
    m = np.tril(np.matmul(lt, g), 0)
    p = (m + _t(np, np.tril(m, -1))) * 0.5
    li = np.inv(out)
    return np.matmul(np.matmul(_t(np, li), p), li)


_cholesky = defop("linalg_cholesky", fresh=True, rule=_cholesky_rule, uses="out")


def cholesky(x, upper=False):
    """The lower (or ``upper``) Cholesky factor of each symmetric positive-definite
    matrix (only the lower triangle is read)."""
    x = _float(x, "linalg.cholesky")
    _square(x, "linalg.cholesky")
    out = record(_cholesky, as_array(_kernel("linalg.cholesky", "cholesky", x)), (x,), (),
                 save_out=True)
    return S.swapaxes(out, -1, -2) if upper else out


# ---------------------------------------------------------------- eigh
def _eigvalsh_rule(np, g, x, uplo):
    v = np.eigh_vectors(x, uplo)
    return np.matmul(v * _row(np, g), _t(np, v))


def _eigvecs_rule(np, g, x, out, uplo):
    w = np.eigvalsh(x, uplo)
    e = _row(np, w) - np.swapaxes(_row(np, w), -1, -2)  # e_ij = w_j - w_i
    zero = np.equal(e, 0.0)
    f = np.where(zero, 0.0, 1.0 / np.where(zero, 1.0, e))
    m = np.matmul(_t(np, out), g)
    skew = (m - _t(np, m)) * 0.5  # (F o skew(M) is symmetric: the gradient is, as torch's)
    return np.matmul(np.matmul(out, f * skew), _t(np, out))


_eigvalsh = defop("linalg_eigvalsh", fresh=True, rule=_eigvalsh_rule, uses=("x", "attrs"))
_eigvecs = defop("linalg_eigh_vectors", fresh=True, rule=_eigvecs_rule,
                 uses=("x", "out", "attrs"))


def eigvalsh(x, UPLO="L"):
    """The eigenvalues (ascending) of each symmetric matrix (one triangle read)."""
    x = _float(x)
    _square(x, "linalg.eigvalsh")
    out = as_array(_kernel("linalg.eigvalsh", "eigvalsh", x, UPLO=UPLO))
    return record(_eigvalsh, out, (x,), (x,), UPLO)


def eigh_vectors(x, UPLO="L"):
    """The eigenvectors (columns) of eigh."""
    x = _float(x)
    _square(x, "linalg.eigh")
    out = as_array(_kernel("linalg.eigh", "eigh", x, UPLO=UPLO)[1])
    return record(_eigvecs, out, (x,), (x,), UPLO, save_out=True)


def eigh(x, UPLO="L"):
    """(eigenvalues, eigenvectors) of each symmetric matrix."""
    return eigvalsh(x, UPLO), eigh_vectors(x, UPLO)


# ---------------------------------------------------------------- singular values
def _svdvals_rule(np, g, x):
    u, vt = np.svd_uv(x)
    return np.matmul(u * _row(np, g), vt)


_svdvals = defop("linalg_svdvals", fresh=True, rule=_svdvals_rule, uses="x")


def svdvals(x):
    """The singular values (descending) of each matrix."""
    x = _float(x, "linalg.svd")
    a = x.array
    if a.ndim < 2:
        raise x.dialect.invalid("linalg.svdvals", "The input tensor A must have at least 2 "
                                "dimensions.", shape=a.shape)
    out = as_array(_kernel("linalg.svdvals", "svd", x, compute_uv=False))
    return record(_svdvals, out, (x,), (x,))


def _svd_uvs_array(a):
    """U, S, V^T from the kernels the ops use (S alone from svdvals' call, so that both
    forms of a rule see the same bits)."""
    la = xp_of(a).linalg
    u, _, vt = la.svd(a, full_matrices=False)
    return u, la.svd(a, compute_uv=False), vt


def _svd_uvs_tensors(x):
    return svd_u(x), svdvals(x), svd_vh(x)


def _svd_uv_array(a):
    u, _, vt = _svd_uvs_array(a)
    return u, vt


def _svd_uv_tensors(x):
    return svd_u(x), svd_vh(x)


def _svd_e(np, sv):
    """E_ij = s_j^2 - s_i^2 with ones on the diagonal (torch's svd_backward)."""
    s2 = _row(np, sv * sv)
    e = s2 - _t(np, s2)
    return np.where(np.equal(e, 0.0), 1.0, e)


def _skew(np, m):
    return m - _t(np, m)


def _thin(np, g, k, full):
    """The gradient of the first ``k`` columns (U) / rows (Vh) where the full ones were made."""
    if not full:
        return g
    return np.getitem(g, (Ellipsis, slice(None), slice(0, k)) if full == "u"
                      else (Ellipsis, slice(0, k), slice(None)))


def _svd_u_rule(np, g, x, full):
    u, sv, vt = np.svd(x)
    m, k = u.shape[-2], u.shape[-1]
    g = _thin(np, g, k, full and "u")
    ret = np.divide(_skew(np, np.matmul(_t(np, u), g)), _svd_e(np, sv)) * _row(np, sv)
    inner = np.matmul(u, ret)
    if m > k:  # + (I - U U^T) gU S^-1
        gs = g / _row(np, sv)
        inner = inner + gs - np.matmul(u, np.matmul(_t(np, u), gs))
    return np.matmul(inner, vt)


def _svd_vh_rule(np, g, x, full):
    u, sv, vt = np.svd(x)
    n, k = vt.shape[-1], vt.shape[-2]
    g = _thin(np, g, k, full and "vh")
    col = _t(np, _row(np, sv))
    ret = col * np.divide(_skew(np, np.matmul(vt, _t(np, g))), _svd_e(np, sv))
    inner = np.matmul(ret, vt)
    if n > k:  # + S^-1 gVh (I - V V^T)
        sg = g / col
        inner = inner + sg - np.matmul(np.matmul(sg, _t(np, vt)), vt)
    return np.matmul(u, inner)


_svd_u = defop("linalg_svd_u", fresh=True, rule=_svd_u_rule, uses=("x", "attrs"))
_svd_vh = defop("linalg_svd_vh", fresh=True, rule=_svd_vh_rule, uses=("x", "attrs"))


def _svd_factors(x, full):
    x = _float(x, "linalg.svd")
    a = x.array
    if a.ndim < 2:
        raise x.dialect.invalid("linalg.svd", "The input tensor A must have at least 2 "
                                "dimensions.", shape=a.shape)
    u, sv, vt = _kernel("linalg.svd", "svd", x, full_matrices=full)
    return x, as_array(u), as_array(vt)


def svd_u(x, full_matrices=False):
    """U of the SVD (thin, or ``full_matrices``)."""
    x, u, _ = _svd_factors(x, full_matrices)
    full = full_matrices and u.shape[-1] != min(u.shape[-2], x.array.shape[-1])
    return record(_svd_u, u, (x,), (x,), full)


def svd_vh(x, full_matrices=False):
    """V^T of the SVD (thin, or ``full_matrices``)."""
    x, _, vt = _svd_factors(x, full_matrices)
    full = full_matrices and vt.shape[-2] != min(x.array.shape[-2], vt.shape[-1])
    return record(_svd_vh, vt, (x,), (x,), full)


def svd(x, full_matrices=True):
    """(U, S, Vh) with A = U diag(S) Vh; the gradients of U and Vh are those of their first
    min(m, n) columns / rows (the rest is any orthonormal completion)."""
    return svd_u(x, full_matrices), svdvals(x), svd_vh(x, full_matrices)


# ---------------------------------------------------------------- qr
def _sym_upper(np, m):
    """triu(M, 1) + triu(M, 1)^T + diag(M) (torch's linalg_qr_backward)."""
    low = np.tril(m, 0)
    upper = m - low
    return upper + _t(np, upper) + (low - np.tril(m, -1))


def _qr_finish(np, q, r, m, gq):
    """(Q sym(triu(M)) + gQ) R^-T."""
    ga = np.matmul(q, _sym_upper(np, m))
    if gq is not None:
        ga = ga + gq
    return np.matmul(ga, _t(np, np.inv(r)))


def _qr_parts(np, x, mode):
    m, n = x.shape[-2], x.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' "
                           "and nrows > ncols.")
    q, r = np.qr(x)
    return q, r, m, n


def _qr_q_rule(np, g, x, mode):
    q, r, m, n = _qr_parts(np, x, mode)
    if m >= n:
        return _qr_finish(np, q, r, -np.matmul(_t(np, q), g), g)
    # A = [X | Y], R = [U | V], X = Q U: X's gradient is the square case's, Y's none
    ax = len(x.shape) - 1
    gx = _qr_finish(np, q, np.narrow(r, ax, 0, m), -np.matmul(_t(np, q), g), g)
    return np.unnarrow(gx, tuple(x.shape), ax, 0)


def _qr_r_rule(np, g, x, mode):
    q, r, m, n = _qr_parts(np, x, mode)
    if m >= n:
        return _qr_finish(np, q, r, np.matmul(g, _t(np, r)), None)
    ax = len(x.shape) - 1  # (torch's wide case: gQ' = Y gV^T, gY = Q gV)
    u, gu, gv = np.narrow(r, ax, 0, m), np.narrow(g, ax, 0, m), np.narrow(g, ax, m, n - m)
    gq = np.matmul(np.narrow(x, ax, m, n - m), _t(np, gv))
    gx = _qr_finish(np, q, u, np.matmul(gu, _t(np, u)) - np.matmul(_t(np, q), gq), gq)
    return (np.unnarrow(gx, tuple(x.shape), ax, 0)
            + np.unnarrow(np.matmul(q, gv), tuple(x.shape), ax, m))


_qr_q = defop("linalg_qr_q", fresh=True, rule=_qr_q_rule, uses=("x", "attrs"))
_qr_r = defop("linalg_qr_r", fresh=True, rule=_qr_r_rule, uses=("x", "attrs"))


def _qr_factors(x, mode):
    x = _float(x, "linalg.qr")
    if x.array.ndim < 2:
        raise x.dialect.invalid("linalg.qr", "The input tensor A must have at least 2 "
                                "dimensions.", shape=x.array.shape)
    if mode not in ("reduced", "complete", "r"):
        raise x.dialect.invalid("linalg.qr", f"qr received unrecognized mode '{mode}' but "
                                "expected one of 'reduced' (default), 'r', or 'complete'",
                                mode=mode)
    q, r = _kernel("linalg.qr", "qr", x, mode="complete" if mode == "complete" else "reduced")
    return x, as_array(q), as_array(r)


def qr_q(x, mode="reduced"):
    x, q, _ = _qr_factors(x, mode)
    return record(_qr_q, q, (x,), (x,), mode)


def qr_r(x, mode="reduced"):
    x, _, r = _qr_factors(x, mode)
    return record(_qr_r, r, (x,), (x,), mode)


def qr(x, mode="reduced"):
    """(Q, R) with A = Q R (torch's derivatives: none for mode 'complete' with m > n);
    mode 'r' gives an empty Q."""
    if mode == "r":
        r = qr_r(x)
        return type(r).wrap(as_array(xp_of(r.array).zeros((0,), dtype=r.array.dtype))), r
    return qr_q(x, mode), qr_r(x, mode)


# ---------------------------------------------------------------- composites
def matrix_power(x, n):
    """x @ x @ ... (n times; the identity for 0, powers of the inverse for n < 0)."""
    n = int(n)
    _square(x, "linalg.matrix_power")
    if n < 0:
        x, n = inv(x), -n
    if n == 0:
        a = x.array  # (recorded, with a zero gradient, as torch's)
        eye = type(x).wrap(as_array(xp_of(a).eye(a.shape[-1], dtype=a.dtype)))
        return E.add(E.mul(x, 0.0), eye)
    result = None
    base = x
    while n:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return result


def multi_dot(tensors):
    """The chained product of matrices; the first may be a row vector and the last a column
    vector (1-D), as torch.linalg.multi_dot."""
    tensors = list(tensors)
    if len(tensors) < 2:
        raise ValueError("multi_dot(): expected at least 2 tensors but got "
                         f"{len(tensors)}")
    out = tensors[0]
    for t in tensors[1:]:
        out = matmul(out, t)
    return out


def cross(x, y, axis=-1):
    """The cross product of 3-vectors along ``axis`` (broadcast)."""
    nd = max(x.array.ndim, y.array.ndim)
    ax = axis + nd if axis < 0 else axis
    shape = broadcast_shapes(x.array.shape, y.array.shape)
    if not 0 <= ax < nd or shape[ax] != 3:
        raise x.dialect.invalid("linalg.cross", f"inputs dimension {axis} must have length 3. "
                                f"Got {shape[ax] if 0 <= ax < nd else 0} and "
                                f"{shape[ax] if 0 <= ax < nd else 0}", axis=axis)
    x = S.broadcast_to(x, shape)
    y = S.broadcast_to(y, shape)

    def c(t, i):
        return S.narrow(t, ax, i, 1)
    parts = [E.sub(E.mul(c(x, (i + 1) % 3), c(y, (i + 2) % 3)),
                   E.mul(c(x, (i + 2) % 3), c(y, (i + 1) % 3))) for i in range(3)]
    return S.concatenate(parts, ax)


def vector_norm(x, ord=2, axis=None, keepdims=False):
    """The vector ``ord``-norm over ``axis`` (all elements for None); ord 0 (a count) is
    recorded with a zero gradient, as torch's."""
    _float(x, "linalg.vector_norm")
    out = R.norm(x, ord, axis, keepdims)
    if ord == 0 and x.array.dtype.kind == "f":
        out = E.add(out, E.mul(R.sum(x, axis, keepdims), 0.0))
    return out


def matrix_norm(x, ord="fro", axis=(-2, -1), keepdims=False):
    """Matrix norms over the two ``axis``: 'fro', 'nuc', inf, -inf, 1, -1, 2, -2."""
    x = _float(x, "linalg.matrix_norm")
    nd = x.array.ndim
    a0, a1 = (a + nd if a < 0 else a for a in axis)
    if ord == "fro":
        return R.norm(x, 2, (a0, a1), keepdims)
    if ord in ("nuc", 2, -2):
        moved = S.moveaxis(x, (a0, a1), (-2, -1)) if (a0, a1) != (nd - 2, nd - 1) else x
        s = svdvals(moved)
        out = (R.sum(s, -1) if ord == "nuc" else R.amax(s, -1) if ord == 2
               else R.amin(s, -1))
        if keepdims:
            for a in sorted((a0, a1)):
                out = S.unsqueeze(out, a)
        return out
    if ord in (1, -1, math.inf, -math.inf):
        inner, outer = (a0, a1) if ord in (1, -1) else (a1, a0)
        sums = R.sum(E.abs(x), inner, True)
        pick = R.amax if ord > 0 else R.amin
        out = pick(sums, outer, True)
        return out if keepdims else S.squeeze(out, tuple(sorted((a0, a1))))
    raise x.dialect.invalid("linalg.matrix_norm", f"Order {ord} not supported.", ord=ord)


def _pinv_rule(np, g, x, out):
    p, pt, gt = out, _t(np, out), _t(np, g)
    ga = -np.matmul(np.matmul(pt, g), pt)
    ppt = np.matmul(p, pt)
    gppt = np.matmul(gt, ppt)  # (I - A P) g^T P P^T
    ga = ga + gppt - np.matmul(x, np.matmul(p, gppt))
    ptpg = np.matmul(np.matmul(pt, p), gt)  # P^T P g^T (I - P A)
    return ga + ptpg - np.matmul(np.matmul(ptpg, p), x)


_pinv = defop("linalg_pinv", fresh=True, rule=_pinv_rule, uses=("x", "out"))


def pinv(x, atol=None, rtol=None, hermitian=False):
    """The Moore-Penrose pseudo-inverse: singular values at most max(atol, rtol * s_max)
    count as zero (rtol's default: eps * max(m, n) where atol is None, as torch's)."""
    x = _float(x)
    a = x.array
    if a.ndim < 2:
        raise x.dialect.invalid("linalg.pinv", "The input tensor A must have at least 2 "
                                "dimensions.", shape=a.shape)
    xp = xp_of(a)
    m, n = a.shape[-2:]
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else float(xp.finfo(a.dtype).eps) * max(m, n)
    atol = 0.0 if atol is None else atol
    if min(m, n) == 0:
        out = xp.zeros(a.shape[:-2] + (n, m), dtype=a.dtype)
    elif hermitian:  # (the lower triangle read, through eigh)
        w, v = xp.linalg.eigh(a)
        sv = xp.abs(w)
        keep = sv > xp.maximum(sv.max(axis=-1, keepdims=True) * rtol, atol)
        inv_w = xp.where(keep, 1.0 / xp.where(keep, w, 1.0), 0.0).astype(a.dtype)
        out = xp.matmul(v * inv_w[..., None, :], xp.swapaxes(v, -1, -2))
    else:
        u, sv, vt = xp.linalg.svd(a, full_matrices=False)
        cut = xp.maximum(sv[..., :1] * rtol, atol)
        keep = sv > cut
        inv_s = xp.where(keep, 1.0 / xp.where(keep, sv, 1.0), 0.0).astype(a.dtype)
        out = xp.matmul(xp.swapaxes(vt, -1, -2) * inv_s[..., None, :], xp.swapaxes(u, -1, -2))
    return record(_pinv, as_array(out), (x,), (x,), save_out=True)


def _eps(xp, a):
    return float(xp.finfo(a.dtype).eps)


def matrix_rank(x, atol=None, rtol=None, hermitian=False, tol=None):
    """The number of singular values above max(atol, rtol * s_max) (``tol``: an absolute
    tolerance; numpy's and torch's default: eps * max(m, n) * s_max), as int64."""
    x = _float(x, "linalg.matrix_rank")
    a = x.array
    xp = xp_of(a)
    m, n = a.shape[-2:]
    if min(m, n) == 0:
        r = xp.zeros(a.shape[:-2], dtype="int64")
    else:
        sv = (xp.abs(xp.linalg.eigvalsh(a)) if hermitian
              else xp.linalg.svd(a, compute_uv=False))
        if tol is not None:
            atol, rtol = tol, 0.0
        if rtol is None:
            rtol = 0.0 if atol is not None and atol > 0 else _eps(xp, a) * max(m, n)
        cut = xp.maximum(sv.max(axis=-1, keepdims=True) * rtol, 0.0 if atol is None else atol)
        r = (sv > cut).sum(axis=-1).astype("int64")
    return type(x).wrap(as_array(r))


def lstsq(a, b, rcond=None, driver=None):
    """(solution, residuals, rank, singular values) of min |A X - B| (the minimum-norm
    solution, through pinv), the extras as torch's ``driver`` gives them: residuals (the
    squared column norms of A X - B) where m > n for gels/gelsd/gelss, the rank but for
    gels, the singular values for gelsd/gelss; empty otherwise."""
    a, b = _float(a, "linalg.lstsq"), _float(b, "linalg.lstsq")
    driver = driver or "gelsy"
    vector = b.array.ndim == a.array.ndim - 1
    bm = S.reshape(b, tuple(b.array.shape) + (1,)) if vector else b
    sol = matmul(pinv(a, None, rcond), bm)
    xp = xp_of(a.array)
    m, n = a.array.shape[-2:]

    def empty(dtype):
        return type(a).wrap(as_array(xp.zeros((0,), dtype=dtype)))
    if driver != "gelsy" and m > n:
        res = R.sum(E.square(E.sub(matmul(a, sol), bm)), -2)
        if vector:
            res = S.reshape(res, tuple(res.array.shape[:-1]))
    else:  # (empty, yet recorded from A as torch's: it requires grad where A does)
        res = E.mul(S.narrow(S.reshape(a, (a.array.size,)), 0, 0, 0), 0.0)
    if vector:
        sol = S.reshape(sol, tuple(sol.array.shape[:-1]))
    rank = empty("int64") if driver == "gels" else matrix_rank(a, rtol=rcond)
    sv = (type(a).wrap(as_array(xp.linalg.svd(a.array, compute_uv=False)))
          if driver in ("gelsd", "gelss") else empty(a.array.dtype))
    return sol, res, rank, sv


def cond(x, p=None):
    """The condition number in the ``p`` norm: s_max / s_min for None and 2 (s_min / s_max
    for -2), else |A|_p |A^-1|_p (square A)."""
    x = _float(x, "linalg.cond")
    if p in (None, 2, -2):
        sv = svdvals(x)
        hi, lo = R.amax(sv, -1), R.amin(sv, -1)
        return E.div(lo, hi) if p == -2 else E.div(hi, lo)
    _square(x, "linalg.cond")
    return E.mul(matrix_norm(x, p), matrix_norm(inv(x), p))


def vecdot(x, y, axis=-1):
    """sum(x * y) along ``axis`` (broadcast)."""
    return R.sum(E.mul(x, y), axis)


def info_zeros(x):
    """The ``info`` of torch's *_ex functions: int32 zeros over the batch (no error)."""
    a = x.array
    return type(x).wrap(as_array(xp_of(a).zeros(a.shape[:-2], dtype="int32")))


# ---------------------------------------------------------------- rule namespaces
@rule_arrays
def linalg_arrays(xp) -> dict:
    """The linear-algebra functions rules use, on bare arrays of module ``xp``."""
    la = xp.linalg
    return {"inv": la.inv, "solve": la.solve, "tril": lambda a, k=0: xp.tril(a, k),
            "eigvalsh": lambda a, uplo="L": la.eigvalsh(a, UPLO=uplo),
            "eigh_vectors": lambda a, uplo="L": la.eigh(a, UPLO=uplo)[1],
            "svd_uv": _svd_uv_array, "svd": _svd_uvs_array,
            "qr": lambda a: la.qr(a)}


@rule_tensors
def linalg_tensors() -> dict:
    """The same names as engine ops, for the recording backward."""
    return {"inv": inv, "solve": solve, "tril": tril, "eigvalsh": eigvalsh,
            "eigh_vectors": eigh_vectors, "svd_uv": _svd_uv_tensors, "svd": _svd_uvs_tensors,
            "qr": lambda x: (qr_q(x), qr_r(x))}


# ---------------------------------------------------------------- specs
def _sq(draw, st, hnp, lo=1, hi=3):
    n = draw(st.integers(lo, hi))
    batch = draw(st.sampled_from([(), (2,)]))
    return batch, n


def _well(draw, st, hnp, n_extra=0):
    """A well-conditioned square batch: identity times 3 plus entries in [-1, 1]."""
    batch, n = _sq(draw, st, hnp)
    a = array(draw, st, hnp, batch + (n, n), -1.0, 1.0) + 3.0 * host.eye(n)  # host-ok: test inputs
    return a, batch, n


def _make_square(draw, st, hnp):
    a, _, _ = _well(draw, st, hnp)
    return [a], {}


def _make_solve(draw, st, hnp):
    a, batch, n = _well(draw, st, hnp)
    kind = draw(st.sampled_from(["mat", "vec"]))
    shape = batch + ((n, draw(st.integers(1, 3))) if kind == "mat" else (n,))
    return [a, array(draw, st, hnp, shape)], {}


def _spd(x):
    """A symmetric positive-definite matrix from any square ``x``: x x^T + n I."""
    a = x.array
    n = a.shape[-1]
    eye = type(x).wrap(as_array(xp_of(a).eye(n, dtype=a.dtype) * float(n)))
    return E.add(matmul(x, S.swapaxes(x, -1, -2)), eye)


def _spd_ref(a):
    return a @ host.swapaxes(a, -1, -2) + a.shape[-1] * host.eye(a.shape[-1])


def _sym(x):
    return E.add(x, S.swapaxes(x, -1, -2))


def _sym_ref(a):
    return a + host.swapaxes(a, -1, -2)


def _make_distinct_sym(draw, st, hnp):
    """Square matrices whose symmetric part has well-separated eigenvalues."""
    batch, n = _sq(draw, st, hnp)
    d = host.arange(n) * 2.0 + draw(st.floats(-1.0, 1.0))
    noise = array(draw, st, hnp, batch + (n, n), -0.2, 0.2)
    return [noise + host.diag(d)], {}


def _make_svd(draw, st, hnp):
    """Matrices with well-separated nonzero singular values."""
    batch, m = _sq(draw, st, hnp)
    n = draw(st.integers(1, 3))
    k = min(m, n)
    base = host.zeros((m, n))
    base[host.arange(k), host.arange(k)] = 1.0 + 1.5 * host.arange(k)
    return [base + array(draw, st, hnp, batch + (m, n), -0.2, 0.2)], {}


la = host.linalg
spec("linalg_inv", inv, _make_square, ref=la.inv)
spec("linalg_det", det, _make_square, ref=la.det)
spec("linalg_slogdet", lambda x: slogdet(x)[1], _make_square, ref=lambda a: la.slogdet(a)[1])
spec("linalg_slogdet_sign", lambda x: slogdet(x)[0], _make_square,
     ref=lambda a: la.slogdet(a)[0])
spec("linalg_solve", solve, _make_solve,
     ref=lambda a, b: la.solve(a, b[..., None])[..., 0] if b.ndim == a.ndim - 1
     else la.solve(a, b))
spec("linalg_cholesky", lambda x: cholesky(_spd(x)), _make_square,
     ref=lambda a: la.cholesky(_spd_ref(a)))
spec("linalg_cholesky_upper", lambda x: cholesky(_spd(x), upper=True), _make_square,
     ref=lambda a: host.swapaxes(la.cholesky(_spd_ref(a)), -1, -2))
spec("linalg_eigvalsh", lambda x: eigvalsh(_sym(x)), _make_distinct_sym,
     ref=lambda a: la.eigvalsh(_sym_ref(a)))
spec("linalg_eigh_vectors", lambda x: E.square(eigh_vectors(_sym(x))), _make_distinct_sym,
     ref=lambda a: la.eigh(_sym_ref(a))[1] ** 2)
spec("linalg_svdvals", svdvals, _make_svd, ref=lambda a: la.svd(a, compute_uv=False))
spec("linalg_matrix_power", lambda x: matrix_power(x, 3), _make_square,
     ref=lambda a: la.matrix_power(a, 3))
spec("linalg_matrix_power_neg", lambda x: matrix_power(x, -2), _make_square,
     ref=lambda a: la.matrix_power(a, -2))
spec("linalg_multi_dot", lambda a, b, c: multi_dot([a, b, c]),
     lambda draw, st, hnp: ([array(draw, st, hnp, s) for s in ((3,), (3, 2), (2, 4))], {}),
     ref=lambda a, b, c: la.multi_dot([a, b, c]))
spec("linalg_cross", cross,
     lambda draw, st, hnp: ([array(draw, st, hnp, (2, 3)), array(draw, st, hnp, (3,))], {}),
     ref=lambda a, b: host.cross(a, b))
def _make_apart(draw, st, hnp):
    """Entries of distinct magnitudes away from 0 (no kink of |x|, no tied sums)."""
    batch, m = _sq(draw, st, hnp)
    n = draw(st.integers(1, 3))
    a = distinct_array(draw, st, hnp, batch + (m, n), 0.3, 2.0, signs=True)
    bump = (host.arange(a.size) ** 1.5 * 0.0137).reshape(a.shape)  # (unequal sums)
    return [a + host.sign(a) * bump], {}


spec("linalg_matrix_norm_fro", lambda x: matrix_norm(x, "fro"), _make_svd,
     ref=lambda a: la.norm(a, "fro", axis=(-2, -1)))
for _ord in (1, -1, math.inf, -math.inf):
    spec(f"linalg_matrix_norm_{_ord}", lambda x, o=_ord: matrix_norm(x, o), _make_apart,
         ref=lambda a, o=_ord: la.norm(a, o, axis=(-2, -1)))
for _ord in ("nuc", 2, -2):
    spec(f"linalg_matrix_norm_{_ord}", lambda x, o=_ord: matrix_norm(x, o), _make_svd,
         ref=lambda a, o=_ord: la.norm(a, o, axis=(-2, -1)), rtol=1e-4)
spec("linalg_pinv", pinv, _make_svd, ref=la.pinv)
spec("linalg_cond", cond, _make_svd, ref=lambda a: la.cond(a))
spec("linalg_cond_fro", lambda x: cond(x, "fro"), _make_square, ref=lambda a: la.cond(a, "fro"))
spec("linalg_vecdot", vecdot,
     lambda draw, st, hnp: ([array(draw, st, hnp, (2, 3)), array(draw, st, hnp, (3,))], {}),
     ref=lambda a, b: (a * b).sum(-1))
spec("linalg_svd_u", lambda x: E.square(svd_u(x)), _make_svd,
     ref=lambda a: la.svd(a, full_matrices=False)[0] ** 2)
spec("linalg_svd_vh", lambda x: E.square(svd_vh(x)), _make_svd,
     ref=lambda a: la.svd(a, full_matrices=False)[2] ** 2)
spec("linalg_svd_u_full", lambda x: E.square(svd_u(x, True)), _make_svd,
     ref=lambda a: la.svd(a)[0] ** 2, differentiable=False)


def _make_tall(draw, st, hnp):
    batch, n = _sq(draw, st, hnp)
    m = n + draw(st.integers(0, 2))
    base = host.zeros((m, n))
    base[host.arange(n), host.arange(n)] = 2.0  # host-ok: test inputs
    # (no zero column below a diagonal: LAPACK reflects only a nonzero one, a jump of sign)
    return [base + distinct_array(draw, st, hnp, batch + (m, n), 0.1, 0.5, signs=True)], {}


spec("linalg_qr_q", lambda x: qr_q(x), _make_tall, ref=lambda a: la.qr(a)[0])
spec("linalg_qr_r", lambda x: qr_r(x), _make_tall, ref=lambda a: la.qr(a)[1])


def _make_wide(draw, st, hnp):
    [a], kw = _make_tall(draw, st, hnp)
    return [host.swapaxes(a, -1, -2).copy()], kw


spec("linalg_qr_q_wide", lambda x: qr_q(x), _make_wide, ref=lambda a: la.qr(a)[0])
spec("linalg_qr_r_wide", lambda x: qr_r(x), _make_wide, ref=lambda a: la.qr(a)[1])


