"""torch.nn.functional's pooling, padding, resampling and shuffles (part pool): torch's
names, argument checks and messages over janusgrad.nn.pool.  A module of its own so that
the torch.* namespace rows (torch.max_pool2d, torch.constant_pad_nd, ...) in _table can
take them without importing torch.nn.functional."""
from __future__ import annotations

import math as _math
import warnings

from janusgrad.nn import pool as _P

from ._grad_fn import tag


def _tuple(v, n, name, op):
    if isinstance(v, (list, tuple)) or hasattr(v, "__len__"):
        v = tuple(int(e) for e in v)
        if len(v) == 1:
            return v * n
        if len(v) != n:
            raise RuntimeError(f"{op}: {name} must either be a single int, or a tuple of "
                               f"{['', 'one', 'two', 'three'][n]} ints")
        return v
    return (int(v),) * n


def _spatial_check(input, d, op):  # noqa: A002
    nd = input.array.ndim
    if nd not in (d + 1, d + 2) or 0 in input.array.shape[-d - 1:]:
        raise RuntimeError(f"non-empty {d + 1}D or {d + 2}D (batch mode) tensor expected for "
                           "input")


def _pool_args(input, d, op, kernel_size, stride, padding, dilation, ceil_mode):  # noqa: A002
    _spatial_check(input, d, op)
    k = _tuple(kernel_size, d, "kernel_size", op)
    s = k if stride is None or (hasattr(stride, "__len__") and len(stride) == 0) \
        else _tuple(stride, d, "stride", op)
    p = _tuple(padding, d, "padding", op)
    dil = _tuple(dilation, d, "dilation", op)
    if any(e <= 0 for e in k):
        raise RuntimeError(f"{op}: kernel_size must be greater than zero, but got "
                           + ", ".join(f"k{'DHW'[3 - d + i] if d > 1 else ''}: {e}"
                                       for i, e in enumerate(k)))
    if any(e == 0 for e in s):
        raise RuntimeError("stride should not be zero")
    if any(e <= 0 for e in dil):
        raise RuntimeError(f"{op}: dilation must be greater than zero")
    for i in range(d):
        if p[i] < 0:
            raise RuntimeError("pad must be non-negative")
        if p[i] > (dil[i] * (k[i] - 1) + 1) // 2:
            raise RuntimeError("pad should be at most half of effective kernel size, but got "
                               f"pad={p[i]}, kernel_size={k[i]} and dilation={dil[i]}")
    sp = input.array.shape[-d:]
    outs = [_P.pool_out_size(sp[i], k[i], s[i], p[i], p[i], dil[i], ceil_mode)
            for i in range(d)]
    if any(o <= 0 for o in outs):
        if op == "max_pool1d":
            raise RuntimeError(f"max_pool1d() Invalid computed output size: {outs[0]}")
        c = input.array.shape[-d - 1]
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, (c, *sp)))}). Calculated "
                           f"output size: ({'x'.join(map(str, (c, *outs)))}). Output size is "
                           "too small")
    return k, s, [(e, e) for e in p], dil


def _max_pool(d):
    op = f"max_pool{d}d"

    def max_pool(input, kernel_size, stride=None, padding=0, dilation=1,  # noqa: A002
                 ceil_mode=False, return_indices=False):
        k, s, p, dil = _pool_args(input, d, op, kernel_size, stride, padding, dilation,
                                  ceil_mode)
        out, idx = _P.max_pool(input, k, s, p, dil, bool(ceil_mode))
        if d > 1:
            tag(out, f"MaxPool{d}DWithIndicesBackward0")
        if return_indices:
            return out, type(input).wrap(idx)
        return out
    max_pool.__name__ = max_pool.__qualname__ = op
    return max_pool


max_pool1d, max_pool2d, max_pool3d = (_max_pool(d) for d in (1, 2, 3))
max_pool1d_with_indices = max_pool1d
max_pool2d_with_indices = max_pool2d
max_pool3d_with_indices = max_pool3d


def _avg_pool(d):
    op = f"avg_pool{d}d"

    def avg_pool(input, kernel_size, stride=None, padding=0, ceil_mode=False,  # noqa: A002
                 count_include_pad=True, divisor_override=None):
        k, s, p, _ = _pool_args(input, d, op, kernel_size, stride, padding, 1, ceil_mode)
        if divisor_override is not None and divisor_override == 0:
            raise RuntimeError("divisor must be not zero")
        out = _P.avg_pool(input, k, s, p, bool(ceil_mode),
                          "padded" if count_include_pad else "valid", divisor_override)
        if d > 1:
            tag(out, f"AvgPool{d}DBackward0")
        return out
    avg_pool.__name__ = avg_pool.__qualname__ = op
    if d == 1:
        def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,  # noqa: A002
                       count_include_pad=True):
            return avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad)
        return avg_pool1d
    return avg_pool


avg_pool1d, avg_pool2d, avg_pool3d = (_avg_pool(d) for d in (1, 2, 3))


def _adaptive_sizes(input, d, output_size, op):  # noqa: A002
    nd = input.array.ndim
    if nd not in (d + 1, d + 2):
        if nd < d:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-max(nd, 1)}, {max(nd, 1) - 1}], but got {-d})")
        raise RuntimeError(f"{op}(): Expected {d + 1}D or {d + 2}D tensor, but got "
                           f"{list(input.array.shape)}")
    sp = input.array.shape[-d:]
    if isinstance(output_size, (list, tuple)):
        if len(output_size) != d:
            raise RuntimeError(f"{op}: internal error: output_size.size() must be {d}")
        sizes = tuple(sp[i] if o is None else int(o) for i, o in enumerate(output_size))
    else:
        sizes = (int(output_size),) * d
    if any(o < 0 for o in sizes):
        raise RuntimeError(f"{op}(): Expected output_size to be non-negative")
    if 0 in input.array.shape[-d:]:
        raise RuntimeError(f"{op}(): Expected input to have non-zero size for non-batch "
                           "dimensions, but input has sizes " + str(list(input.array.shape)))
    return sizes


def _adaptive_avg(d):
    op = f"adaptive_avg_pool{d}d"

    def adaptive_avg_pool(input, output_size):  # noqa: A002
        sizes = _adaptive_sizes(input, d, output_size, op)
        out = _P.adaptive_avg_pool(input, sizes)
        if d > 1:
            tag(out, f"AdaptiveAvgPool{d}DBackward0")
        return out
    adaptive_avg_pool.__name__ = adaptive_avg_pool.__qualname__ = op
    return adaptive_avg_pool


def _adaptive_max(d):
    op = f"adaptive_max_pool{d}d"

    def adaptive_max_pool(input, output_size, return_indices=False):  # noqa: A002
        sizes = _adaptive_sizes(input, d, output_size, op)
        out, idx = _P.adaptive_max_pool(input, sizes)
        if d > 1:
            tag(out, f"AdaptiveMaxPool{d}DBackward0")
        return (out, type(input).wrap(idx)) if return_indices else out
    adaptive_max_pool.__name__ = adaptive_max_pool.__qualname__ = op
    return adaptive_max_pool


adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d = (
    _adaptive_avg(d) for d in (1, 2, 3))
adaptive_max_pool1d, adaptive_max_pool2d, adaptive_max_pool3d = (
    _adaptive_max(d) for d in (1, 2, 3))
adaptive_max_pool1d_with_indices = adaptive_max_pool1d
adaptive_max_pool2d_with_indices = adaptive_max_pool2d
adaptive_max_pool3d_with_indices = adaptive_max_pool3d


def _max_unpool(d):
    op = f"max_unpool{d}d"

    def max_unpool(input, indices, kernel_size, stride=None, padding=0,  # noqa: A002
                   output_size=None):
        k = _tuple(kernel_size, d, "kernel_size", op)
        s = k if stride is None else _tuple(stride, d, "stride", op)
        p = _tuple(padding, d, "padding", op)
        sp = input.array.shape[-d:]
        default = [(sp[i] - 1) * s[i] + k[i] - 2 * p[i] for i in range(d)]
        if output_size is None:
            out = default
        else:
            out = [int(e) for e in output_size]
            if len(out) == d + 2 or len(out) == d + 1:
                out = out[-d:]
            if len(out) != d:
                raise ValueError(f"output_size should be a sequence containing {d} or "
                                 f"{d + 2} elements, but it has a length of '{len(out)}'")
            for i in range(d):
                lo, hi = default[i] - s[i], default[i] + s[i]
                if not lo < out[i] < hi:
                    raise ValueError(f'invalid output_size "{list(output_size)}" (dim {i} '
                                     f'must be between {lo} and {hi})')
        idx = indices.array
        if idx.shape != input.array.shape:
            raise RuntimeError("Expected shape of indices to be same as that of the input "
                               f"tensor ({list(input.array.shape)}) but got indices tensor "
                               f"with shape: {list(idx.shape)}")
        n = 1
        for e in out:
            n *= e
        if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= n):
            bad = int(idx.max()) if int(idx.max()) >= n else int(idx.min())
            raise RuntimeError(f"Found an invalid max index: {bad} (output volumes are of "
                               f"size {'x'.join(map(str, out))}")
        return _P.max_unpool(input, idx, tuple(out))
    max_unpool.__name__ = max_unpool.__qualname__ = op
    return max_unpool


max_unpool1d, max_unpool2d, max_unpool3d = (_max_unpool(d) for d in (1, 2, 3))


def pad(input, pad, mode="constant", value=None):  # noqa: A002
    nd = input.array.ndim
    pad = [int(e) for e in pad]
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > nd:
        raise RuntimeError("Padding length should be less than or equal to two times the "
                           f"input dimension but got padding length {len(pad)} and input of "
                           f"dimension {nd}")
    n = len(pad) // 2
    pairs = [(pad[2 * (n - 1 - i)], pad[2 * (n - 1 - i) + 1]) for i in range(n)]
    if mode == "constant":
        shape = input.array.shape
        for i, (b, e) in enumerate(pairs):
            if shape[nd - n + i] + b + e < 0:
                raise RuntimeError(f"The input size {shape[nd - n + i]}, plus negative padding "
                                   f"{b} and {e} resulted in a negative output size, which is "
                                   "invalid. Check dimension {} of your input.".format(nd - n + i))
        return tag(_P.pad(input, pairs, "constant", 0.0 if value is None else value),
                   "ConstantPadNdBackward0")
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}"" doesn\'t take in value argument.')
    if not (n <= 3 and nd in (n + 1, n + 2)):
        raise NotImplementedError("Only 2D, 3D, 4D, 5D padding with non-constant padding are "
                                  "supported for now")
    shape = input.array.shape
    for i, (b, e) in enumerate(pairs):
        size = shape[nd - n + i]
        if mode == "reflect" and (b >= size or e >= size):
            raise RuntimeError(f"Argument #4: Padding size should be less than the "
                               f"corresponding input dimension, but got: padding ({b}, {e}) at "
                               f"dimension {nd - n + i} of input {list(shape)}")
        if mode == "circular" and (b > size or e > size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
    name = {"reflect": "Reflection", "replicate": "Replication"}.get(mode)
    out = _P.pad(input, pairs, mode)
    return tag(out, f"{name}Pad{n}DBackward0") if name else out


def constant_pad_nd(input, pad, value=0):  # noqa: A002
    return globals()["pad"](input, pad, "constant", value)


_INTERP = {"nearest": "nearest", "nearest-exact": "nearest-exact", "linear": "linear",
           "bilinear": "linear", "trilinear": "linear", "bicubic": "cubic", "area": "area"}
_NEED = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}


def interpolate(input, size=None, scale_factor=None, mode="nearest",  # noqa: A002
                align_corners=None, recompute_scale_factor=None, antialias=False):
    nd = input.array.ndim
    d = nd - 2
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    if antialias and not (mode in ("bilinear", "bicubic") and nd == 4):
        raise ValueError("Anti-alias option is restricted to bilinear and bicubic modes and "
                         "requires a 4-D tensor as input")
    if antialias:
        raise NotImplementedError("torchlike does not implement interpolate(antialias=True)")
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != d:
                raise ValueError("Input and output must have the same number of spatial "
                                 f"dimensions, but got input with spatial dimensions of "
                                 f"{list(input.array.shape[2:])} and output size of {size}. "
                                 "Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                                 "and output size in (o1, o2, ...,oK) format.")
            sizes = tuple(int(e) for e in size)
        else:
            sizes = (int(size),) * d
        scales = None
    elif scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != d:
                raise ValueError("Input and scale_factor must have the same number of spatial "
                                 f"dimensions, but got input with spatial dimensions of "
                                 f"{list(input.array.shape[2:])} and scale_factor of shape "
                                 f"{scale_factor}. Please provide input tensor in (N, C, d1, "
                                 "d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) "
                                 "format.")
            factors = [float(e) for e in scale_factor]
        else:
            factors = [float(scale_factor)] * d
        sizes = tuple(int(_math.floor(float(input.array.shape[i + 2]) * factors[i]))
                      for i in range(d))
        scales = None if recompute_scale_factor else tuple(1.0 / f for f in factors)
    else:
        raise ValueError("either size or scale_factor should be defined")
    if mode not in _INTERP or (mode in _NEED and nd != _NEED[mode]) or nd not in (3, 4, 5):
        if mode in _NEED and nd in (3, 4, 5):
            raise NotImplementedError(f"Got {nd}D input, but {mode} mode needs "
                                      f"{_NEED[mode]}D input")
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported "
                                  f"(got {nd}D) for the modes: nearest | linear | bilinear | "
                                  f"bicubic | trilinear | lanczos | area | nearest-exact "
                                  f"(got {mode})")
    if any(s <= 0 for s in sizes):
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                           f"({', '.join(map(str, input.array.shape[2:]))}) output "
                           f"({', '.join(map(str, sizes))})")
    out = _P.interpolate(input, sizes, _INTERP[mode], bool(align_corners), scales)
    names = {"nearest": "UpsampleNearest", "nearest-exact": "UpsampleNearestExact",
             "linear": "UpsampleLinear", "bilinear": "UpsampleBilinear",
             "bicubic": "UpsampleBicubic", "trilinear": "UpsampleTrilinear"}
    if mode in names:
        tag(out, f"{names[mode]}{d}DBackward0")
    return out


def upsample(input, size=None, scale_factor=None, mode="nearest",  # noqa: A002
             align_corners=None):
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` "
                  "instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):  # noqa: A002
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):  # noqa: A002
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def pixel_shuffle(input, upscale_factor):  # noqa: A002
    s = input.array.shape
    r = int(upscale_factor)
    if len(s) < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but "
                           f"got input with {len(s)} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    if s[-3] % (r * r):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be "
                           "divisible by the square of upscale_factor, but input.size(-3)="
                           f"{s[-3]} is not divisible by {r * r}")
    return _P.pixel_shuffle(input, r)


def pixel_unshuffle(input, downscale_factor):  # noqa: A002
    s = input.array.shape
    r = int(downscale_factor)
    if len(s) < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, "
                           f"but got input with {len(s)} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    if s[-2] % r:
        raise RuntimeError("pixel_unshuffle expects height to be divisible by "
                           f"downscale_factor, but input.size(-2)={s[-2]} is not divisible by "
                           f"{r}")
    if s[-1] % r:
        raise RuntimeError("pixel_unshuffle expects width to be divisible by "
                           f"downscale_factor, but input.size(-1)={s[-1]} is not divisible by "
                           f"{r}")
    return _P.pixel_unshuffle(input, r)


def channel_shuffle(input, groups):  # noqa: A002
    s = input.array.shape
    g = int(groups)
    if len(s) <= 2:
        raise RuntimeError(f"channel_shuffle expects input to have at least 3 dimensions, "
                           f"but got input with sizes {list(s)}")
    if g <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value "
                           f"of groups:{g}")
    if s[1] % g:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {s[1]} "
                           f"channels and {g} groups.")
    return _P.channel_shuffle(input, g, 1)

