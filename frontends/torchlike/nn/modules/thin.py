"""torch.nn's thin modules as rows (janusgrad.nn.rows): activations, distances, flatten,
dropouts, pooling, padding, shuffles and local response norm, each a class that keeps its
arguments under torch's attribute names and calls one functional, with torch's extra_repr."""
from __future__ import annotations

from janusgrad.nn.rows import LayerRow as R
from janusgrad.nn.rows import install_layers

from ... import _norm as NF
from .. import functional as F
from .module import Module


def _ntuple(v, n):
    return tuple(v) if isinstance(v, (list, tuple)) else (v,) * n


def _on(inplace) -> str:
    return "inplace=True" if inplace else ""


def _also(inplace) -> str:
    return ", inplace=True" if inplace else ""


_ACT = "torch.nn.modules.activation"
_IN = "input, inplace"
_ANY = dict(params="*args, **kwargs", keep="", call="input")
_DROP = dict(params="p=0.5, inplace=False", setup="_check_p(p)",
             extra_repr="p={p}, inplace={inplace}", call="input, p, self.training, inplace",
             module="torch.nn.modules.dropout")
_POOL = "kernel_size={kernel_size}, stride={stride}, padding={padding}"
_STRIDE = "stride = stride if (stride is not None) else kernel_size"
_PAD = dict(params="padding", setup="padding = _ntuple(padding, 2 * _d)", dims=(1, 2, 3),
            extra_repr="{padding}", module="torch.nn.modules.padding")
_PARTS = {"Pad": "padding", "Upsampl": "upsampling", "PixelU": "pixelshuffle",
          "PixelS": "pixelshuffle", "ChannelS": "channelshuffle"}

ACTIVATIONS = [
    *(R(n, f, "inplace=False", _IN, "{_on(inplace)}") for n, f in (
        ("SELU", F.selu), ("SiLU", F.silu), ("Mish", F.mish))),
    R("Hardswish", F.hardswish, "inplace=False", _IN),
    R("Hardsigmoid", F.hardsigmoid, "inplace=False", _IN),
    R("Softsign", F.softsign, **_ANY), R("Tanhshrink", F.tanhshrink, **_ANY),
    R("LogSigmoid", F.logsigmoid, **_ANY),
    *(R(n, f, "alpha=1.0, inplace=False", extra_repr="alpha={alpha}{_also(inplace)}")
      for n, f in (("ELU", F.elu), ("CELU", F.celu))),
    R("GLU", F.glu, "dim=-1", extra_repr="dim={dim}"),
    R("Softmin", F.softmin, "dim=None", extra_repr="dim={dim}"),
    R("Hardtanh", F.hardtanh, "min_val=-1.0, max_val=1.0, inplace=False, min_value=None, "
      "max_value=None", keep="min_val, max_val, inplace",
      extra_repr="min_val={min_val}, max_val={max_val}{_also(inplace)}",
      setup="if min_value is not None: min_val = min_value\n"
            "if max_value is not None: max_val = max_value\n"
            "if max_val <= min_val: raise AssertionError"),
    R("Hardshrink", F.hardshrink, "lambd=0.5", extra_repr="{lambd}"),
    R("Softshrink", F.softshrink, "lambd=0.5", extra_repr="{lambd}"),
    R("Threshold", F.threshold, "threshold, value, inplace=False",
      extra_repr="threshold={threshold}, value={value}{_also(inplace)}"),
    R("RReLU", F.rrelu, "lower=1.0 / 8, upper=1.0 / 3, inplace=False",
      "input, lower, upper, self.training, inplace",
      "lower={lower}, upper={upper}{_also(inplace)}"),
    R("ReLU", F.relu, "inplace=False", "input", "{_on(inplace)}"),
    R("Sigmoid", F.sigmoid, base_args="*args, **kwargs", **_ANY),
    R("Tanh", F.tanh, base_args="*args, **kwargs", **_ANY),
    R("GELU", F.gelu, "approximate='none'", "input, approximate=approximate",
      "approximate={approximate!r}"),
    R("LeakyReLU", F.leaky_relu, "negative_slope=0.01, inplace=False", "input, negative_slope",
      "negative_slope={negative_slope}{_also(inplace)}"),
    R("Softplus", F.softplus, "beta=1.0, threshold=20.0",
      extra_repr="beta={beta}, threshold={threshold}"),
    R("Softmax", F.softmax, "dim=None", extra_repr="dim={dim}"),
    R("LogSoftmax", F.log_softmax, "dim=None", extra_repr="dim={dim}"),
]
OTHERS = [
    R("Identity", None, module="torch.nn.modules.linear", **_ANY),
    R("CosineSimilarity", F.cosine_similarity, "dim=1, eps=1e-8",
      inputs="x1, x2", module="torch.nn.modules.distance"),
    R("PairwiseDistance", F.pairwise_distance, "p=2.0, eps=1e-6, keepdim=False",
      keep="norm=p, eps, keepdim", inputs="x1, x2", module="torch.nn.modules.distance"),
    R("Flatten", F.flatten, "start_dim=1, end_dim=-1", module="torch.nn.modules.flatten",
      extra_repr="start_dim={start_dim}, end_dim={end_dim}"),
    R("Unflatten", None, "dim, unflattened_size", "input.unflatten(dim, unflattened_size)",
      "dim={dim}, unflattened_size={unflattened_size}", module="torch.nn.modules.flatten",
      setup="if isinstance(dim, int) and not isinstance(unflattened_size, (list, tuple)):\n"
            "    raise TypeError('unflattened_size must be tuple of ints, but found type '\n"
            "                    f'{type(unflattened_size).__name__}')"),
    R("Dropout", F.dropout, **_DROP),
    R("Dropout{}d", (NF.dropout1d, NF.dropout2d, NF.dropout3d), dims=(1, 2, 3), **_DROP),
    R("AlphaDropout", NF.alpha_dropout, **_DROP),
    R("FeatureAlphaDropout", NF.feature_alpha_dropout, **_DROP),
    R("LocalResponseNorm", F.local_response_norm, "size, alpha=1e-4, beta=0.75, k=1.0",
      extra_repr="{size}, alpha={alpha}, beta={beta}, k={k}",
      module="torch.nn.modules.normalization"),
]
POOLS = [
    R("MaxPool{}d", (F.max_pool1d, F.max_pool2d, F.max_pool3d),
      "kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False",
      "input, kernel_size, stride, padding, dilation, ceil_mode=ceil_mode, "
      "return_indices=return_indices", dims=(1, 2, 3), setup=_STRIDE,
      extra_repr=_POOL + ", dilation={dilation}, ceil_mode={ceil_mode}"),
    R("AvgPool1d", F.avg_pool1d, "kernel_size, stride=None, padding=0, ceil_mode=False, "
      "count_include_pad=True", extra_repr=_POOL, setup=_STRIDE + "\n"
      "kernel_size, stride, padding = (_ntuple(v, 1) for v in (kernel_size, stride, padding))"),
    R("AvgPool{}d", (F.avg_pool2d, F.avg_pool3d), "kernel_size, stride=None, padding=0, "
      "ceil_mode=False, count_include_pad=True, divisor_override=None", dims=(2, 3),
      setup=_STRIDE, extra_repr=_POOL),
    R("AdaptiveAvgPool{}d", (F.adaptive_avg_pool1d, F.adaptive_avg_pool2d,
                             F.adaptive_avg_pool3d), "output_size", dims=(1, 2, 3),
      extra_repr="output_size={output_size}"),
    R("AdaptiveMaxPool{}d", (F.adaptive_max_pool1d, F.adaptive_max_pool2d,
                             F.adaptive_max_pool3d), "output_size, return_indices=False",
      dims=(1, 2, 3), extra_repr="output_size={output_size}"),
    R("MaxUnpool{}d", (F.max_unpool1d, F.max_unpool2d, F.max_unpool3d),
      "kernel_size, stride=None, padding=0", dims=(1, 2, 3), extra_repr=_POOL,
      inputs="input, indices, output_size=None", setup=_STRIDE + "\n"
      "kernel_size, stride, padding = (_ntuple(v, _d) for v in (kernel_size, stride, padding))",
      call="input, indices, kernel_size, stride, padding, output_size"),
    R("ConstantPad{}d", F.pad, call="input, padding, 'constant', value",
      **dict(_PAD, params="padding, value", extra_repr="padding={padding}, value={value}")),
    R("ZeroPad{}d", F.pad, call="input, padding, 'constant', self.value",
      keep="padding, value=0.0", **_PAD),
    *(R(f"{kind}Pad{{}}d", F.pad, call=f"input, padding, {mode!r}", **_PAD) for kind, mode in
      (("Reflection", "reflect"), ("Replication", "replicate"), ("Circular", "circular"))),
    R("PixelShuffle", F.pixel_shuffle, "upscale_factor",
      extra_repr="upscale_factor={upscale_factor}"),
    R("PixelUnshuffle", F.pixel_unshuffle, "downscale_factor",
      extra_repr="downscale_factor={downscale_factor}"),
    R("ChannelShuffle", F.channel_shuffle, "groups", extra_repr="groups={groups}"),
]

_ENV = {"_ntuple": _ntuple, "_on": _on, "_also": _also, "_check_p": NF._check_p}
__all__ = install_layers(ACTIVATIONS, globals(), base=Module, module=_ACT, env=_ENV)
__all__ += install_layers([  # a Hardtanh, as torch's
    R("ReLU6", None, "inplace=False", extra_repr="{_on(self.inplace)}", keep="",
      base=globals()["Hardtanh"], base_args="0.0, 6.0, inplace")], globals(), base=Module,
    module=_ACT, env=_ENV)
__all__ += install_layers(OTHERS, globals(), base=Module, module=_ACT, env=_ENV)
__all__ += install_layers(POOLS, globals(), base=Module, env=_ENV, module=lambda name: (
    "torch.nn.modules." + next((v for k, v in _PARTS.items() if k in name), "pooling")))
