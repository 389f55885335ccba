"""torch's convolution functions: torch.conv1d/2d/3d, torch.conv_transpose1d/2d/3d and
torch.nn.functional's conv*, conv_transpose*, unfold, fold (torch's checks and messages;
the math is janusgrad.nn.conv).  Outside nn/ so that the op table can name them."""
from __future__ import annotations

from janusgrad.binding import facts as F
from janusgrad.nn import conv as NC

from . import _dtypes
from ._grad_fn import tag


def _dims(shape) -> str:
    return ", ".join(str(d) for d in shape)


def _legacy(dt) -> str:
    return "torch." + _dtypes.from_np(dt)._legacy


def _check_common(op: str, nd: int, input, weight, bias, stride, padding, dilation,  # noqa: A002
                  transposed: bool = False):
    xs, ws = tuple(input.array.shape), tuple(weight.array.shape)
    if len(xs) not in (nd + 1, nd + 2):
        raise RuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to "
                           f"{op}, but got input of size: [{_dims(xs)}]")
    if len(ws) != nd + 2:
        st = list(NC.ntuple(stride, nd))
        raise RuntimeError(f"expected stride to be a single integer value or a list of "
                           f"{len(ws) - 2} values to match the convolution dimensions, but "
                           f"got stride={st}")
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if padding == "same" and any(s != 1 for s in NC.ntuple(stride, nd)):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
    elif any(p < 0 for p in NC.ntuple(padding, nd)):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in NC.ntuple(stride, nd)):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in NC.ntuple(dilation, nd)):
        raise RuntimeError("dilation should be greater than zero")
    dt, wt = input.array.dtype, weight.array.dtype
    if dt != wt:
        raise RuntimeError(f"Input type ({_legacy(dt)}) and weight type ({_legacy(wt)}) "
                           "should be the same or input should be a MKLDNN tensor and weight "
                           "is a dense tensor")
    if bias is not None and bias.array.dtype != dt:
        raise RuntimeError(f"Input type ({_legacy(dt)}) and bias type "
                           f"({_legacy(bias.array.dtype)}) should be the same")
    return (xs if len(xs) == nd + 2 else (1,) + xs), ws


_BY_GROUPS = ("Given groups={0.groups}, expected weight to be divisible by {0.groups} at "
              "dimension 0, but got weight of size [[{1}]] instead")
_CHANNELS = ("Given {2}, weight of size [{1}], expected input[{3}] to have {0.expected} channels, "
             "but got {0.got} channels instead")
# torch's words for janusgrad.binding.facts' convolution facts
WORDS = {
    F.GroupsNotPositive: lambda f: RuntimeError("non-positive groups is not supported"),
    F.WeightNotDivisible: lambda f: RuntimeError(_BY_GROUPS.format(f, _dims(f.weight_shape))),
    F.ConvChannels: lambda f: RuntimeError(_CHANNELS.format(
        f, _dims(f.weight_shape), "transposed=1" if f.transposed else f"groups={f.groups}",
        _dims(f.input_shape))),
}


def _conv(op: str, nd: int, input, weight, bias, stride, padding, dilation,  # noqa: A002
          groups):
    xs, ws = _check_common(op, nd, input, weight, bias, stride, padding, dilation)
    F.first(F.conv_facts(xs, ws, groups, xs[1]), WORDS)
    if bias is not None and tuple(bias.array.shape) != (ws[0],):
        raise RuntimeError(f"Given weight of size [{_dims(ws)}], expected bias to be "
                           f"1-dimensional with {ws[0]} elements, but got bias of size "
                           f"[{_dims(bias.array.shape)}] instead")
    st, dil = NC.ntuple(stride, nd), NC.ntuple(dilation, nd)
    pads = NC.pad_pairs(padding, xs[2:], ws[2:], st, dil)
    padded = [s + lo + hi for s, (lo, hi) in zip(xs[2:], pads)]
    span = [d * (k - 1) + 1 for d, k in zip(dil, ws[2:])]
    if any(p < k for p, k in zip(padded, span)):
        raise RuntimeError(f"Calculated padded input size per channel: "
                           f"({' x '.join(map(str, padded))}). Kernel size: "
                           f"({' x '.join(map(str, span))}). Kernel size can't be greater "
                           "than actual input size")
    y = NC.conv(input, weight, bias, st, pads, dil, groups)
    return tag(y, "ConvolutionBackward0") if len(input.array.shape) == nd + 2 else y


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    return _conv("conv1d", 1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    return _conv("conv2d", 2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    return _conv("conv3d", 3, input, weight, bias, stride, padding, dilation, groups)


def _conv_t(op: str, nd: int, input, weight, bias, stride, padding, output_padding,  # noqa: A002
            groups, dilation):
    xs, ws = _check_common(op, nd, input, weight, bias, stride, padding, dilation, True)
    if isinstance(padding, str):
        raise TypeError(f"{op}() received an invalid combination of arguments - got "
                        "padding of type str")
    F.first(F.conv_facts(xs, ws, groups, xs[1], transposed=True), WORDS)
    st, dil = NC.ntuple(stride, nd), NC.ntuple(dilation, nd)
    op_ = NC.ntuple(output_padding, nd)
    if any(o >= s and o >= d for o, s, d in zip(op_, st, dil)):
        names = ["depth", "height", "width"][-nd:] if nd > 1 else ["width"]
        parts = ([f"output_padding_{n}: {o}" for n, o in zip(names, op_)] +
                 [f"stride_{n}: {s}" for n, s in zip(names, st)] +
                 [f"dilation_{n}: {d}" for n, d in zip(names, dil)])
        raise RuntimeError("output padding must be smaller than either stride or dilation, "
                           "but got " + " ".join(parts))
    cout = ws[1] * groups
    if bias is not None and tuple(bias.array.shape) != (cout,):
        raise RuntimeError(f"Given transposed=1, weight of size [{_dims(ws)}], expected bias "
                           f"to be 1-dimensional with {cout} elements, but got bias of size "
                           f"[{_dims(bias.array.shape)}] instead")
    pads = NC.pad_pairs(padding, xs[2:], ws[2:], st, dil)
    out = NC.transpose_size(xs[2:], ws[2:], st, pads, dil, op_)
    if any(o <= 0 for o in out):
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, xs[2:]))}). "
                           f"Calculated output size per channel: "
                           f"({' x '.join(map(str, out))}). Output size is too small")
    y = NC.conv_transpose(input, weight, bias, st, pads, op_, groups, dil)
    return tag(y, "ConvolutionBackward0") if len(input.array.shape) == nd + 2 else y


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0,  # noqa: A002
                     output_padding=0, groups=1, dilation=1):
    return _conv_t("conv_transpose1d", 1, input, weight, bias, stride, padding,
                   output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0,  # noqa: A002
                     output_padding=0, groups=1, dilation=1):
    return _conv_t("conv_transpose2d", 2, input, weight, bias, stride, padding,
                   output_padding, groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0,  # noqa: A002
                     output_padding=0, groups=1, dilation=1):
    return _conv_t("conv_transpose3d", 3, input, weight, bias, stride, padding,
                   output_padding, groups, dilation)


def _pair(v, name: str):
    t = NC.ntuple(v, 2)
    if len(t) != 2:
        raise RuntimeError(f"{name} must be an int or a tuple of two ints")
    return t


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002
    xs = tuple(input.array.shape)
    if len(xs) not in (3, 4) or (len(xs) == 3 and 0 in xs[1:]) or 0 in xs[1:]:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                           f"size for input, but got:[{_dims(xs)}]")
    K, d, p, s = (_pair(v, n) for v, n in ((kernel_size, "kernel_size"), (dilation, "dilation"),
                                           (padding, "padding"), (stride, "stride")))
    unbatched = len(xs) == 3
    x = input.reshape((1,) + xs) if unbatched else input
    sp = xs[-2:]
    L = [(n + 2 * pp - dd * (k - 1) - 1) // ss + 1 for n, pp, dd, k, ss in zip(sp, p, d, K, s)]
    if any(n < 1 for n in L):
        raise RuntimeError(f"Given input with spatial size ({sp[0]}, {sp[1]}), "
                           f"kernel_size=({K[0]}, {K[1]}), dilation=({d[0]}, {d[1]}), "
                           f"padding=({p[0]}, {p[1]}), calculated shape of the array of "
                           f"sliding blocks as ({L[0]}, {L[1]}), but its components must be "
                           "at least one.")
    y = tag(NC.unfold_nd(x, K, d, p, s), "Im2ColBackward0")
    return y.reshape(y.shape[1:]) if unbatched else y


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002
    xs = tuple(input.array.shape)
    if len(xs) not in (2, 3):
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor with optional 0 dim batch "
                           f"size for input, but got:[{_dims(xs)}]")
    out, K, d, p, s = (_pair(v, n) for v, n in (
        (output_size, "output_size"), (kernel_size, "kernel_size"), (dilation, "dilation"),
        (padding, "padding"), (stride, "stride")))
    unbatched = len(xs) == 2
    c = input.reshape((1,) + xs) if unbatched else input
    kp = K[0] * K[1]
    if c.array.shape[1] % kp:
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the "
                           f"product of kernel_size, but got input.size(1)={c.array.shape[1]} "
                           f"and kernel_size=({K[0]}, {K[1]})")
    L = NC.blocks(out, K, d, p, s)
    if L[0] * L[1] != c.array.shape[2]:
        raise RuntimeError(f"Given output_size=({out[0]}, {out[1]}), kernel_size=({K[0]}, "
                           f"{K[1]}), dilation=({d[0]}, {d[1]}), padding=({p[0]}, {p[1]}), "
                           f"stride=({s[0]}, {s[1]}), expected size of input's dimension 2 "
                           f"to match the calculated number of sliding blocks {L[0]} * "
                           f"{L[1]} = {L[0] * L[1]}, but got input.size(2)="
                           f"{c.array.shape[2]}.")
    y = tag(NC.fold_nd(c, out, K, d, p, s), "Col2ImBackward0")
    return y.reshape(y.shape[1:]) if unbatched else y
