"""Convolution as three bilinear primitives, each the others' derivative.

For one geometry ``geo`` (stride, padding pairs, dilation, groups, the input's spatial
shape, the kernel's spatial shape) the N-d convolution ``y = conv(x, w)`` (x: N, C, *S;
w: O, C/groups, *K; y: N, O, *L) is bilinear.  Its two partial adjoints are ops of their
own:

- ``conv_transpose(u, w)``: the adjoint in x (N, O, *L -> N, C, *S), which is also the
  transposed convolution;
- ``conv_weight(x, u)``: the adjoint in w (the correlation of x with u, shape of w).

Each op's derivative is written with the other two (over the rule namespace ``np``), so
derivatives of any order come free.  The kernels are im2col (one copy of a strided view of
the padded input where the array module has stride tricks, else a strided slice per kernel
tap: no Python loop over positions or batch) plus one batched matrix product; col2im adds
the columns back tap by tap.  The array module comes from the
arrays (numpy, cupy, the fake GPU alike).  ``unfold``/``fold`` (im2col/col2im as tensors)
are a fourth and fifth op, each the other's derivative.
"""
from __future__ import annotations

import itertools

from janusgrad.array.backend import host, xp_of
from janusgrad.core.tensor import record
from janusgrad.ops import defop, spec
from janusgrad.ops.elementwise import operands
from janusgrad.ops.rules import rule_arrays, rule_tensors
from janusgrad.ops.testing import array


class Geometry(tuple):
    """(stride, pads, dilation, groups, S, K, L): pads is one (lo, hi) pair per spatial axis,
    S the input's spatial shape, K the kernel's, L the output's (by default all the
    positions the padded input holds; a transposed convolution with output_padding may
    ask for fewer, the rest of S then being outside every window).  Hashable."""

    __slots__ = ()

    def __new__(cls, stride, pads, dilation, groups, S, K, L=None):
        stride, pads, dilation = (tuple(stride), tuple(tuple(p) for p in pads),
                                  tuple(dilation))
        if L is None:
            L = tuple((s + lo + hi - d * (k - 1) - 1) // st + 1 for s, (lo, hi), d, k, st in
                      zip(S, pads, dilation, K, stride))
        return tuple.__new__(cls, (stride, pads, dilation, int(groups), tuple(S), tuple(K),
                                   tuple(L)))

    stride = property(lambda self: self[0])
    pads = property(lambda self: self[1])
    dilation = property(lambda self: self[2])
    groups = property(lambda self: self[3])
    S = property(lambda self: self[4])
    K = property(lambda self: self[5])
    L = property(lambda self: self[6])

    def taps(self):
        """(tap number, the slices of the padded input it reads) for each kernel tap."""
        L = self.L
        ranges = [range(k) for k in self.K]
        for t, ks in enumerate(itertools.product(*ranges)):
            yield t, tuple(slice(k * d, k * d + st * (n - 1) + 1, st)
                           for k, d, st, n in zip(ks, self.dilation, self.stride, L))


def _prod(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


# ---------------------------------------------------------------- kernels (on arrays)
# Layout: the columns of x are (N, C * prod K, prod L), torch's unfold layout, so that the
# forward is one batched product w (O, C*K) @ cols[n] whose result is already y's
# (N, O, *L) layout, and the transposed convolution's columns w^T @ u[n] come out in the
# same layout for col2im: no transposed copy of a large operand on either side.
def _padded(x, geo: Geometry):
    """x (N, C, *S) zero-padded by geo.pads (x itself when there is no padding)."""
    if not any(lo or hi for lo, hi in geo.pads):
        return x
    xp = xp_of(x)
    sp = tuple(s + lo + hi for s, (lo, hi) in zip(geo.S, geo.pads))
    buf = xp.zeros(x.shape[:2] + sp, dtype=x.dtype)
    buf[(slice(None), slice(None)) + tuple(slice(lo, lo + s) for s, (lo, _) in
                                           zip(geo.S, geo.pads))] = x
    return buf


def _im2col(x, geo: Geometry):
    """x (N, C, *S) -> a new array of columns (N, C * prod K, prod L).

    Where the array module has stride tricks (numpy, cupy), one strided view of the padded
    input (N, C, *K, *L) copied once; otherwise one strided slice per kernel tap."""
    xp = xp_of(x)
    N, C = x.shape[:2]
    buf = _padded(x, geo)
    shape = (N, C) + geo.K + geo.L
    cols = xp.empty(shape, dtype=x.dtype)
    tricks = getattr(getattr(xp, "lib", None), "stride_tricks", None)
    if tricks is not None:
        sp = buf.strides[2:]
        strides = (buf.strides[:2] + tuple(s * d for s, d in zip(sp, geo.dilation)) +
                   tuple(s * st for s, st in zip(sp, geo.stride)))
        cols[...] = tricks.as_strided(buf, shape, strides)
    else:
        flat = xp.reshape(cols, (N, C, _prod(geo.K)) + geo.L)
        head = (slice(None), slice(None))
        for t, sl in geo.taps():
            flat[:, :, t] = buf[head + sl]
    return xp.reshape(cols, (N, C * _prod(geo.K), _prod(geo.L)))


def _col2im(cols, geo: Geometry, N: int, C: int):
    """columns (N, C * prod K, prod L) -> their sum into (N, C, *S) (the adjoint of
    _im2col): one strided add per kernel tap."""
    xp = xp_of(cols)
    cols = xp.reshape(cols, (N, C, _prod(geo.K)) + geo.L)
    sp = tuple(s + lo + hi for s, (lo, hi) in zip(geo.S, geo.pads))
    buf = xp.zeros((N, C) + sp, dtype=cols.dtype)
    head = (slice(None), slice(None))
    for t, sl in geo.taps():
        buf[head + sl] += cols[:, :, t]
    if not any(lo or hi for lo, hi in geo.pads) and sp == tuple(geo.S):
        return buf
    crop = head + tuple(slice(lo, lo + s) for s, (lo, _) in zip(geo.S, geo.pads))
    return xp.ascontiguousarray(buf[crop])


def _conv_cols(cols, w, geo: Geometry, N: int):
    """y (N, O, *L) from the columns of x and w (O, C/g, *K)."""
    xp = xp_of(cols)
    g = geo.groups
    O = w.shape[0]
    ck = cols.shape[1] // g
    if g == 1:
        y = xp.matmul(xp.reshape(w, (O, ck)), cols)
    else:
        y = xp.matmul(xp.reshape(w, (g, O // g, ck)),
                      xp.reshape(cols, (N, g, ck, cols.shape[2])))
    return xp.reshape(y, (N, O) + geo.L)


def conv_array(x, w, geo: Geometry):
    """y (N, O, *L) = the convolution of x (N, C, *S) with w (O, C/g, *K)."""
    return _conv_cols(_im2col(x, geo), w, geo, x.shape[0])


def conv_transpose_array(u, w, geo: Geometry):
    """x-shaped (N, C, *S): the adjoint of conv_array in x, applied to u (N, O, *L).

    Batch innermost: u moved to (O, *L, N), the columns w^T @ u as (L0, C * prod K,
    *L[1:], N), and col2im into (C, *S, N): each tap's strided add then runs over
    contiguous stretches of (last L) * N numbers, where in (N, C, *S) they would be the
    last L alone (numpy's per-stretch cost made that twice as slow for LeNet's second
    layer)."""
    xp = xp_of(u)
    g = geo.groups
    N, O = u.shape[:2]
    C = w.shape[1] * g
    kp = _prod(geo.K)
    ck = w.shape[1] * kp
    L = tuple(u.shape[2:])
    # (one product per position of the first spatial axis: faster than one long product,
    # and so are the adds from its result)
    ut = xp.reshape(xp.moveaxis(u, 0, -1), (g, O // g, L[0], _prod(L[1:]) * N))
    ut = xp.transpose(ut, (2, 0, 1, 3))  # (L0, g, O/g, rest)
    wt = xp.swapaxes(xp.reshape(w, (g, O // g, ck)), 1, 2)
    cols = xp.matmul(wt[0], ut[:, 0]) if g == 1 else xp.matmul(wt, ut)
    cols = xp.reshape(cols, (L[0], C, kp) + L[1:] + (N,))
    sp = tuple(s + lo + hi for s, (lo, hi) in zip(geo.S, geo.pads))
    buf = xp.zeros((C,) + sp + (N,), dtype=cols.dtype)
    for t, sl in geo.taps():
        buf[(slice(None),) + sl] += xp.swapaxes(cols[:, :, t], 0, 1)
    crop = (slice(None),) + tuple(slice(lo, lo + s) for s, (lo, _) in zip(geo.S, geo.pads))
    return xp.ascontiguousarray(xp.moveaxis(buf[crop], -1, 0))


def conv_weight_array(x, u, geo: Geometry):
    """w-shaped (O, C/g, *K): the adjoint of conv_array in w, applied to u (N, O, *L)."""
    xp = xp_of(x)
    g = geo.groups
    N, C = x.shape[:2]
    O = u.shape[1]
    cols = _im2col(x, geo)
    LL = cols.shape[2]
    ck, og = cols.shape[1] // g, O // g
    um = xp.reshape(u, (N, g, og, LL))
    cm = xp.reshape(cols, (N, g, ck, LL))
    if og <= LL:
        # one product per sample, summed over the batch: a temporary of N weights, no
        # larger than the columns
        gw = xp.swapaxes(xp.matmul(cm, xp.swapaxes(um, 2, 3)).sum(axis=0), 1, 2)
    else:  # (more outputs than positions) one product over (N, L) of transposed copies
        gw = xp.matmul(xp.reshape(xp.transpose(um, (1, 2, 0, 3)), (g, og, N * LL)),
                       xp.reshape(xp.transpose(cm, (1, 0, 3, 2)), (g, N * LL, ck)))
    return xp.reshape(gw, (O, C // g) + geo.K)


def unfold_array(x, geo: Geometry):
    """x (N, C, *S) -> (N, C * prod K, prod L): torch's unfold (im2col)."""
    return _im2col(x, geo)


def fold_array(c, geo: Geometry):
    """c (N, C * prod K, prod L) -> (N, C, *S): torch's fold (col2im; the adjoint of unfold)."""
    N = c.shape[0]
    return _col2im(c, geo, N, c.shape[1] // _prod(geo.K))


# ---------------------------------------------------------------- the ops
_conv = defop("conv", fresh=True, uses=("x", "y", "attrs"), rule=(
    lambda np, g, x, w, geo: np.conv_transpose(g, w, geo),
    lambda np, g, x, w, geo: np.conv_weight(x, g, geo)))
_conv_transpose = defop("conv_transpose", fresh=True, uses=("x", "y", "attrs"), rule=(
    lambda np, g, u, w, geo: np.conv(g, w, geo),
    lambda np, g, u, w, geo: np.conv_weight(g, u, geo)))
_conv_weight = defop("conv_weight", fresh=True, uses=("x", "y", "attrs"), rule=(
    lambda np, g, x, u, geo: np.conv_transpose(u, g, geo),
    lambda np, g, x, u, geo: np.conv(x, g, geo)))
_unfold = defop("unfold", fresh=True, uses="attrs",
                rule=lambda np, g, geo: np.fold(g, geo))
_fold = defop("fold", fresh=True, uses="attrs",
              rule=lambda np, g, geo: np.unfold(g, geo))


def _same_dtype(x, w):
    a, b = x.array, w.array
    if a.dtype != b.dtype:
        a, b, _ = operands(x, w)
    return a, b


def conv(x, w, geo: Geometry):
    """The convolution of tensors x (N, C, *S) and w (O, C/g, *K) over ``geo``.  (The
    weight gradient makes x's columns again rather than the node keeping them: measured
    on benchmark G, keeping them more than doubled the step's peak memory and was slower,
    the fresh columns costing more than the second im2col.)"""
    a, b = _same_dtype(x, w)
    return record(_conv, conv_array(a, b, geo), (x, w), (x, w), geo)


def conv_transpose(u, w, geo: Geometry):
    """The adjoint of ``conv`` in x: u (N, O, *L) -> (N, C, *S) (the transposed conv)."""
    a, b = _same_dtype(u, w)
    return record(_conv_transpose, conv_transpose_array(a, b, geo), (u, w), (u, w), geo)


def conv_weight(x, u, geo: Geometry):
    """The adjoint of ``conv`` in w: the correlation of x with u, of w's shape."""
    a, b = _same_dtype(x, u)
    return record(_conv_weight, conv_weight_array(a, b, geo), (x, u), (x, u), geo)


def unfold(x, geo: Geometry):
    """im2col: x (N, C, *S) -> (N, C * prod K, prod L)."""
    return record(_unfold, unfold_array(x.array, geo), (x,), (), geo)


def fold(c, geo: Geometry):
    """col2im: (N, C * prod K, prod L) -> (N, C, *S), overlapping taps summed."""
    return record(_fold, fold_array(c.array, geo), (c,), (), geo)


@rule_arrays
def conv_arrays(xp) -> dict:
    """The rule names on bare arrays (any module: the kernels take it from the arrays)."""
    return {"conv": conv_array, "conv_transpose": conv_transpose_array,
            "conv_weight": conv_weight_array, "unfold": unfold_array, "fold": fold_array}


@rule_tensors
def conv_tensors() -> dict:
    """The same names as engine ops, for the recording backward."""
    return {"conv": conv, "conv_transpose": conv_transpose, "conv_weight": conv_weight,
            "unfold": unfold, "fold": fold}


# ---------------------------------------------------------------- specs
def naive_conv(x, w, geo: Geometry):
    """The reference: a loop over every output position, kernel tap and channel."""
    N, C = x.shape[:2]
    O = w.shape[0]
    g = geo.groups
    cg, og = C // g, O // g
    L = geo.L
    xp = host.pad(x, ((0, 0), (0, 0)) + geo.pads)  # host-ok: reference
    y = host.zeros((N, O) + L)  # host-ok: reference
    for n, o in itertools.product(range(N), range(O)):
        grp = o // og
        for pos in itertools.product(*(range(n_) for n_ in L)):
            acc = 0.0
            for c in range(cg):
                for k in itertools.product(*(range(k_) for k_ in geo.K)):
                    idx = tuple(p * s + kk * d for p, s, kk, d in
                                zip(pos, geo.stride, k, geo.dilation))
                    acc += xp[(n, grp * cg + c) + idx] * w[(o, c) + k]
            y[(n, o) + pos] = acc
    return y


def naive_conv_transpose(u, w, geo: Geometry):
    """The reference of the adjoint: scatter each u entry through the kernel."""
    N, O = u.shape[:2]
    g = geo.groups
    og, cg = O // g, w.shape[1]
    C = cg * g
    sp = tuple(s + lo + hi for s, (lo, hi) in zip(geo.S, geo.pads))
    buf = host.zeros((N, C) + sp)  # host-ok: reference
    for n, o in itertools.product(range(N), range(O)):
        grp = o // og
        for pos in itertools.product(*(range(n_) for n_ in u.shape[2:])):
            for c in range(cg):
                for k in itertools.product(*(range(k_) for k_ in geo.K)):
                    idx = tuple(p * s + kk * d for p, s, kk, d in
                                zip(pos, geo.stride, k, geo.dilation))
                    buf[(n, grp * cg + c) + idx] += u[(n, o) + pos] * w[(o, c) + k]
    crop = (slice(None), slice(None)) + tuple(slice(lo, lo + s) for s, (lo, _) in
                                              zip(geo.S, geo.pads))
    return buf[crop]


def naive_conv_weight(x, u, geo: Geometry):
    """The reference of the weight adjoint: d<conv(x, w), u>/dw entry by entry."""
    O = u.shape[1]
    C = x.shape[1]
    out = host.zeros((O, C // geo.groups) + geo.K)  # host-ok: reference
    for idx in itertools.product(*(range(n) for n in out.shape)):
        e = host.zeros(out.shape)  # host-ok: reference
        e[idx] = 1.0
        out[idx] = (naive_conv(x, e, geo) * u).sum()
    return out


def naive_unfold(x, geo: Geometry):
    N, C = x.shape[:2]
    kp = _prod(geo.K)
    eye = host.zeros((C * kp, 1) + geo.K)  # host-ok: reference
    for c in range(C):
        for t in range(kp):
            eye[(c * kp + t, 0) + host.unravel_index(t, geo.K)] = 1.0  # host-ok: reference
    g2 = Geometry(geo.stride, geo.pads, geo.dilation, C, geo.S, geo.K, geo.L)
    return naive_conv(x, eye, g2).reshape(N, C * kp, -1)


def _draw_geometry(draw, st, nd):
    K = tuple(draw(st.integers(1, 3)) for _ in range(nd))
    stride = tuple(draw(st.integers(1, 2)) for _ in range(nd))
    dilation = tuple(draw(st.integers(1, 2)) for _ in range(nd))
    pads = tuple((draw(st.integers(0, 2)), draw(st.integers(0, 2))) for _ in range(nd))
    S = []
    for k, d, (lo, hi) in zip(K, dilation, pads):
        span = d * (k - 1) + 1
        S.append(max(1, span - lo - hi) + draw(st.integers(0, 2)))
    groups = draw(st.sampled_from([1, 2]))
    geo = Geometry(stride, pads, dilation, groups, S, K)
    if draw(st.integers(0, 3)) == 0:  # fewer outputs than fit (output_padding's case)
        geo = Geometry(stride, pads, dilation, groups, S, K, [max(1, n - 1) for n in geo.L])
    return geo


def _make_conv(kind):
    def make(draw, st, hnp):
        nd = draw(st.sampled_from([1, 2, 2, 3])) if kind != "unfold" else 2
        geo = _draw_geometry(draw, st, nd)
        if nd == 3:  # (keep it small: the reference loops are slow)
            geo = Geometry((1,) * 3, ((0, 1),) * 3, (1,) * 3, geo.groups, (2, 2, 2),
                           (1, 2, 1))
        g = geo.groups
        N = draw(st.integers(1, 2))
        cg = draw(st.integers(1, 2))
        og = draw(st.integers(1, 2))
        C, O = cg * g, og * g
        x = array(draw, st, hnp, (N, C) + geo.S)
        w = array(draw, st, hnp, (O, cg) + geo.K)
        u = array(draw, st, hnp, (N, O) + geo.L)
        if kind == "conv":
            return [x, w], {"geo": geo}
        if kind == "conv_transpose":
            return [u, w], {"geo": geo}
        if kind == "conv_weight":
            return [x, u], {"geo": geo}
        if kind == "unfold":
            return [x], {"geo": geo}
        c = array(draw, st, hnp, (N, C * _prod(geo.K), _prod(geo.L)))
        return [c], {"geo": geo}
    return make


spec("conv", conv, _make_conv("conv"), ref=naive_conv)
spec("conv_transpose", conv_transpose, _make_conv("conv_transpose"), ref=naive_conv_transpose)
spec("conv_weight", conv_weight, _make_conv("conv_weight"), ref=naive_conv_weight)
spec("unfold", unfold, _make_conv("unfold"), ref=naive_unfold)
spec("fold", fold, _make_conv("fold"),
     ref=lambda c, geo: _naive_fold(c, geo))


def _naive_fold(c, geo: Geometry):
    N = c.shape[0]
    kp = _prod(geo.K)
    C = c.shape[1] // kp
    eye = host.zeros((C * kp, 1) + geo.K)  # host-ok: reference
    for ch in range(C):
        for t in range(kp):
            eye[(ch * kp + t, 0) + host.unravel_index(t, geo.K)] = 1.0  # host-ok: reference
    g2 = Geometry(geo.stride, geo.pads, geo.dilation, C, geo.S, geo.K, geo.L)
    return naive_conv_transpose(c.reshape((N, C * kp) + geo.L), eye, g2)


