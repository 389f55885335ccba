"""paddle.nn's thin layers as rows (janusgrad.nn.rows): activations, flatten, dropouts,
pooling, padding, upsampling, shuffles and local response norm, each a class that keeps its
arguments under paddle's attribute names and calls one functional, with paddle's repr."""
from __future__ import annotations

from janusgrad.nn.rows import LayerRow as R
from janusgrad.nn.rows import install_layers

from .._surface import get_default_dtype
from . import functional as F
from .layer import Layer


def _nm(name, lead: str = ", ") -> str:
    return f"{lead}name={name}" if name else ""


def _unless(key: str, value, usual) -> str:
    return f", {key}={value}" if value != usual else ""


def _main(scale_factor, size) -> str:
    return f"scale_factor={scale_factor}" if scale_factor is not None else f"size={size}"


_ACT = "paddle.nn.layer.activation"
_COMMON = "paddle.nn.layer.common"
_PLAIN = dict(params="name=None", call="x", extra_repr="{_nm(name, '')}")
_LAYOUT = "data_format = data_format if data_format is not None else (0, 'NCL', 'NCHW', " \
          "'NCDHW')[_d]"
_POOL = "kernel_size={kernel_size}, stride={stride}, padding={padding}"
_ON = dict(attr="{}", dims=(1, 2, 3))


def _axis(name: str, fn) -> R:
    return R(name, fn, "axis=-1, name=None", "x, axis", "axis={axis}{_nm(name)}")


ACTIVATIONS = [
    *(R(n, f, **_PLAIN) for n, f in (
        ("ReLU", F.relu), ("Sigmoid", F.sigmoid), ("Tanh", F.tanh), ("Hardswish", F.hardswish),
        ("ReLU6", F.relu6), ("Swish", F.swish), ("Mish", F.mish), ("Softsign", F.softsign),
        ("Tanhshrink", F.tanhshrink), ("LogSigmoid", F.log_sigmoid))),
    R("Hardsigmoid", F.hardsigmoid, keep="name, name=name", **_PLAIN),
    R("Silu", F.silu, "inplace=False, name=None", "x, inplace",
      "inplace={inplace}{_nm(name)}"),
    *(R(n, f, "alpha=1.0, name=None", "x, alpha", "alpha={alpha}{_nm(name)}")
      for n, f in (("ELU", F.elu), ("CELU", F.celu))),
    R("SELU", F.selu, "scale=1.0507009873554804934193349852946, "
      "alpha=1.6732632423543772848170429916717, name=None", "x, scale, alpha",
      "scale={scale:.16f}, alpha={alpha:.16f}{_nm(name)}"),
    _axis("GLU", F.glu), _axis("Softmax", F.softmax), _axis("LogSoftmax", F.log_softmax),
    R("LeakyReLU", F.leaky_relu, "negative_slope=0.01, name=None", "x, negative_slope",
      "negative_slope={negative_slope}{_nm(name)}"),
    R("Hardtanh", F.hardtanh, "min=-1.0, max=1.0, name=None", "x, min, max",
      "min={min}, max={max}{_nm(name)}"),
    *(R(n, f, "threshold=0.5, name=None", "x, threshold", "threshold={threshold}{_nm(name)}")
      for n, f in (("Hardshrink", F.hardshrink), ("Softshrink", F.softshrink))),
    R("ThresholdedReLU", F.thresholded_relu, "threshold=1.0, value=0.0, name=None",
      "x, threshold, value", "threshold={threshold}, value={value}{_nm(name)}"),
    R("RReLU", F.rrelu, "lower=1.0 / 8.0, upper=1.0 / 3.0, name=None",
      "x, lower, upper, self.training", "lower={lower}, upper={upper}, "
      "training={self.training}, dtype={self._dtype}{_nm(name)}",
      keep="lower, upper, name, _dtype=get_default_dtype()"),
    R("GELU", F.gelu, "approximate=False, name=None", "x, approximate",
      "approximate={approximate}{_nm(name)}"),
]
OTHERS = [
    R("Identity", None, "*args, **kwargs", "input", keep="", inputs="input",
      module=_COMMON),
    R("CosineSimilarity", F.cosine_similarity, "axis=1, eps=1e-8", "x1, x2, axis, eps",
      "axis={axis}, eps={eps}", inputs="x1, x2", module=_COMMON),
    R("Flatten", F.flatten, "start_axis=1, stop_axis=-1", inputs="input", attr="{}",
      module=_COMMON),
    R("Dropout", F.dropout, "p=0.5, inplace=False, axis=None, mode='upscale_in_train', "
      "name=None", "input, p=p, axis=axis, training=self.training, mode=mode",
      "p={p}, axis={axis}, mode={mode}{_nm(name)}, inplace={inplace}", inputs="input",
      attr="{}", module=_COMMON),
    *(R(f"Dropout{d}D", f, f"p=0.5, data_format={layout!r}, name=None",
        "input, p, self.training, data_format", "p={p}, data_format={data_format}{_nm(name)}",
        inputs="input", attr="{}", module=_COMMON)
      for d, f, layout in ((2, F.dropout2d, "NCHW"), (3, F.dropout3d, "NCDHW"))),
    *(R(n, f, "p=0.5, name=None", "input, p, self.training", "p={p}{_nm(name)}",
        inputs="input", attr="{}", module=_COMMON)
      for n, f in (("AlphaDropout", F.alpha_dropout),
                   ("FeatureAlphaDropout", F.feature_alpha_dropout))),
    R("Unflatten", None, "axis, shape, name=None", "_unflatten(input, axis, tuple(shape))",
      "axis={axis}, shape={shape}{_nm(name)}", inputs="input", attr="{}", module=_COMMON),
    R("LocalResponseNorm", F.local_response_norm, "size, alpha=0.0001, beta=0.75, k=1.0, "
      "data_format='NCHW', name=None", "input, size, alpha, beta, k, data_format",
      "size={size}, alpha={alpha}, beta={beta}, k={k}"
      "{_unless('data_format', data_format, 'NCHW')}{_unless('name', name, None)}",
      inputs="input", attr="{}", module="paddle.nn.layer.norm"),
]
POOLS = [
    R("MaxPool1D", F.max_pool1d, "kernel_size, stride=None, padding=0, return_mask=False, "
      "ceil_mode=False, name=None",
      "input, kernel_size, stride, padding, return_mask, ceil_mode", _POOL,
      "ksize=kernel_size, stride, padding, return_mask, ceil_mode, data_format='NCL', name",
      attr="{}", inputs="input"),
    R("MaxPool{}D", (F.max_pool2d, F.max_pool3d), "kernel_size, stride=None, padding=0, "
      "return_mask=False, ceil_mode=False, data_format=None, name=None",
      "x, kernel_size, stride, padding, return_mask, ceil_mode, data_format", _POOL,
      "ksize=kernel_size, stride, padding, return_mask, ceil_mode, data_format, name",
      _LAYOUT, attr="{}", dims=(2, 3)),
    R("AvgPool1D", F.avg_pool1d, "kernel_size, stride=None, padding=0, exclusive=True, "
      "ceil_mode=False, name=None", "x, kernel_size, stride, padding, exclusive, ceil_mode",
      _POOL, "ksize=kernel_size, stride, padding, ceil_mode, exclusive, divisor=None, "
      "data_format='NCL', name", attr="{}"),
    R("AvgPool{}D", (F.avg_pool2d, F.avg_pool3d), "kernel_size, stride=None, padding=0, "
      "ceil_mode=False, exclusive=True, divisor_override=None, data_format=None, name=None",
      "x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format",
      _POOL, "ksize=kernel_size, stride, padding, ceil_mode, exclusive, "
      "divisor=divisor_override, data_format, name", _LAYOUT, attr="{}", dims=(2, 3)),
    R("AdaptiveAvgPool1D", F.adaptive_avg_pool1d, "output_size, name=None",
      "input, output_size", "output_size={output_size}", attr="{}", inputs="input"),
    R("AdaptiveAvgPool{}D", (F.adaptive_avg_pool2d, F.adaptive_avg_pool3d),
      "output_size, data_format=None, name=None", extra_repr="output_size={output_size}",
      dims=(2, 3)),
    *(R(f"AdaptiveMaxPool{d}D", fn, "output_size, return_mask=False, name=None",
        f"{x}, output_size, return_mask", "output_size={output_size}, return_mask={return_mask}",
        inputs=x) for d, fn, x in ((1, F.adaptive_max_pool1d, "input"),
                                   (2, F.adaptive_max_pool2d, "x"),
                                   (3, F.adaptive_max_pool3d, "x"))),
    R("MaxUnPool{}D", (F.max_unpool1d, F.max_unpool2d, F.max_unpool3d), "kernel_size, "
      "stride=None, padding=0, data_format=None, output_size=None, name=None",
      "x, indices, kernel_size, stride, padding, data_format, "
      "output_size or self.output_size", "output_size={output_size}",
      "ksize=kernel_size, stride, padding, data_format, output_size, name",
      inputs="x, indices, output_size=None", **_ON),
    R("Pad{}D", F.pad, "padding, mode='constant', value=0.0, data_format=None, name=None",
      "x, padding, mode, value, data_format", "padding={padding}, mode={mode}, value={value}, "
      "data_format={data_format}{_nm(name)}", "_pad=padding, mode, value, data_format, name",
      "if isinstance(padding, int): padding = [padding] * (2 * _d)\n" + _LAYOUT, dims=(1, 2, 3)),
    R("Upsample", F.interpolate, "size=None, scale_factor=None, mode='nearest', "
      "align_corners=False, align_mode=0, data_format=None, recompute_scale_factor=None, "
      "name=None", "x, size, scale_factor, mode, align_corners, align_mode, data_format, "
      "recompute_scale_factor", "{_main(scale_factor, size)}, mode={mode}, "
      "align_corners={align_corners}, align_mode={align_mode}, data_format={data_format}"
      "{_nm(name)}", setup="mode = mode.lower()", attr="{}"),
    *(R(f"Upsampling{kind}2D", F.interpolate, "size=None, scale_factor=None, "
        "data_format='NCHW', name=None", f"x, size, scale_factor, {mode!r}, "
        f"{mode == 'bilinear'}, 0, data_format",
        "{_main(scale_factor, size)}, data_format={data_format}{_nm(name)}", attr="{}")
      for kind, mode in (("Nearest", "nearest"), ("Bilinear", "bilinear"))),
    *(R(n, f, f"{factor}, data_format='NCHW', name=None", f"x, {factor}, data_format",
        f"{factor}={{{factor}}}{{_unless('data_format', data_format, 'NCHW')}}{{_nm(name)}}",
        f"_factor={factor}, data_format, name")
      for n, f, factor in (("PixelShuffle", F.pixel_shuffle, "upscale_factor"),
                           ("PixelUnshuffle", F.pixel_unshuffle, "downscale_factor"),
                           ("ChannelShuffle", F.channel_shuffle, "groups"))),
]


def _unflatten(x, axis, shape):
    from janusgrad.ops import manip
    return manip.unflatten(x, axis, shape)


_ENV = {"_nm": _nm, "_unless": _unless, "_main": _main, "_unflatten": _unflatten,
        "get_default_dtype": get_default_dtype}
_OWN = dict(base=Layer, inputs="x", attr="_{}", env=_ENV)
__all__ = install_layers(ACTIVATIONS, globals(), module=_ACT, **_OWN)
__all__ += install_layers(OTHERS, globals(), module=_ACT, **_OWN)
__all__ += install_layers(POOLS, globals(), module=lambda name: "paddle.nn.layer." + (
    "common" if "Pad" in name or "Upsampl" in name else
    "vision" if "Shuffle" in name or "Unshuffle" in name else "pooling"), **_OWN)
__all__ += install_layers([  # a Pad2D, as paddle's
    R("ZeroPad2D", None, "padding, data_format=None, name=None", keep="", base=globals()["Pad2D"],
      base_args="padding, 'constant', 0.0, data_format, name")], globals(), module=_COMMON,
    **_OWN)
