"""Convolution layers' math, framework-neutral: padding arithmetic, bias, unbatched input,
transposed convolution's output size, unfold/fold, and the non-zero padding modes.

The primitives (and their derivatives) are in engine.ops.conv; the frontends check the
arguments with their framework's messages and call these.
"""
from __future__ import annotations

from janusgrad.nn.pool import pad
from janusgrad.ops import elementwise as E
from janusgrad.ops import shape as S
from janusgrad.ops.conv import Geometry, fold, unfold
from janusgrad.ops.conv import conv as _conv
from janusgrad.ops.conv import conv_transpose as _conv_transpose


def ntuple(v, n: int) -> tuple:
    """An int (or a 1-sequence) repeated n times, or the sequence itself as a tuple."""
    if isinstance(v, (list, tuple)):
        v = tuple(int(e) for e in v)
        return v * n if len(v) == 1 else v
    return (int(v),) * n


def same_pads(S_, K, stride, dilation) -> tuple:
    """'same' padding: the output has ceil(S / stride) positions; the odd unit goes after
    (torch's rule for stride 1, paddle's for any stride)."""
    pads = []
    for s, k, st, d in zip(S_, K, stride, dilation):
        out = -(-s // st)
        total = max((out - 1) * st + d * (k - 1) + 1 - s, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


def pad_pairs(padding, S_, K, stride, dilation) -> tuple:
    """Padding as one (lo, hi) pair per spatial axis from: 'same' / 'valid' (any case), an
    int, one int per axis, or pairs."""
    nd = len(K)
    if isinstance(padding, str):
        if padding.lower() == "valid":
            return ((0, 0),) * nd
        return same_pads(S_, K, stride, dilation)
    if isinstance(padding, (list, tuple)) and padding and isinstance(padding[0], (list, tuple)):
        return tuple((int(a), int(b)) for a, b in padding)
    return tuple((p, p) for p in ntuple(padding, nd))


def _bias(y, bias, nd: int):
    if bias is None:
        return y
    return E.add(y, S.reshape(bias, (bias.array.shape[0],) + (1,) * nd))


def _prepare(x, w, stride, dilation):
    """x with a batch axis (and whether it lacked one), the spatial rank, kernel size, and
    stride and dilation as tuples."""
    nd = w.array.ndim - 2
    unbatched = x.array.ndim == nd + 1
    if unbatched:
        x = S.reshape(x, (1,) + x.array.shape)
    return x, nd, w.array.shape[2:], ntuple(stride, nd), ntuple(dilation, nd), unbatched


def _unbatch(y, unbatched: bool):
    return S.reshape(y, y.array.shape[1:]) if unbatched else y


def conv(x, w, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """N-d convolution of x (N, C, *S) or unbatched (C, *S) with w (O, C/groups, *K), plus
    bias (O,).  ``padding``: see pad_pairs."""
    x, nd, K, stride, dilation, unbatched = _prepare(x, w, stride, dilation)
    sp = x.array.shape[2:]
    geo = Geometry(stride, pad_pairs(padding, sp, K, stride, dilation), dilation, groups,
                   sp, K)
    return _unbatch(_bias(_conv(x, w, geo), bias, nd), unbatched)


def transpose_size(L, K, stride, pads, dilation, output_padding) -> tuple:
    """The spatial output size of a transposed convolution."""
    return tuple((n - 1) * st - lo - hi + d * (k - 1) + op + 1 for n, k, st, (lo, hi), d, op
                 in zip(L, K, stride, pads, dilation, output_padding))


def conv_transpose(x, w, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                   dilation=1):
    """Transposed convolution of x (N, Cin, *L) or unbatched with w (Cin, Cout/groups, *K):
    the adjoint of the convolution with the same w, plus bias (Cout,)."""
    x, nd, K, stride, dilation, unbatched = _prepare(x, w, stride, dilation)
    L = x.array.shape[2:]
    pads = pad_pairs(padding, L, K, stride, dilation)
    out = transpose_size(L, K, stride, pads, dilation, ntuple(output_padding, nd))
    geo = Geometry(stride, pads, dilation, groups, out, K, L)
    return _unbatch(_bias(_conv_transpose(x, w, geo), bias, nd), unbatched)


def unfold_nd(x, kernel_size, dilation=1, padding=0, stride=1):
    """im2col: x (N, C, *S) or unbatched -> (N, C * prod K, prod L)."""
    nd = x.array.ndim - 2
    K = ntuple(kernel_size, nd)
    stride, dilation = ntuple(stride, nd), ntuple(dilation, nd)
    sp = x.array.shape[2:]
    geo = Geometry(stride, pad_pairs(padding, sp, K, stride, dilation), dilation, 1, sp, K)
    return unfold(x, geo)


def fold_nd(c, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """col2im: c (N, C * prod K, prod L) -> (N, C, *output_size), overlaps summed."""
    nd = len(ntuple(output_size, 2)) if not isinstance(output_size, int) else 2
    out = ntuple(output_size, nd)
    K = ntuple(kernel_size, nd)
    stride, dilation = ntuple(stride, nd), ntuple(dilation, nd)
    geo = Geometry(stride, pad_pairs(padding, out, K, stride, dilation), dilation, 1, out, K)
    return fold(c, geo)


def blocks(output_size, kernel_size, dilation, padding, stride) -> tuple:
    """The number of sliding blocks per spatial axis (fold's L)."""
    nd = len(output_size)
    K = ntuple(kernel_size, nd)
    st, d = ntuple(stride, nd), ntuple(dilation, nd)
    pads = pad_pairs(padding, output_size, K, st, d)
    return Geometry(st, pads, d, 1, output_size, K).L


# ---------------------------------------------------------------- padding modes
def pad_mode(x, pairs, mode: str):
    """Pad the trailing len(pairs) axes of x by (lo, hi) each, 'reflect', 'replicate' or
    'circular': the padding of F.pad (janusgrad.nn.pool.pad), as the modules' padding_mode."""
    return pad(x, list(pairs), mode)
