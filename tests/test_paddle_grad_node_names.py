"""paddle names a result's grad node after its one fused kernel (UnsqueezeGradNode,
BatchNormGradNode, DropoutGradNode, BmmGradNode, Conv2dGradNodeFinal, RnnGradNode ...), not
after the last primitive janusgrad composes it of; ``y.grad_fn.name()`` against real paddle
3.3.1 for the common functions, layers and Tensor methods."""

from __future__ import annotations

import numpy as np
import pytest

import paddlelike

paddle = pytest.importorskip("paddle")


def _t(P, *shape):
    data = np.random.default_rng(len(shape)).standard_normal(shape).astype("float32")
    return P.to_tensor(data, stop_gradient=False)


def _lab(P):
    return P.to_tensor(np.array([1, 0, 2]))


def _F(P):  # noqa: N802 - paddle.nn.functional, imported as F in paddle's own docs
    return P.nn.functional


def _y01(P):
    return P.to_tensor([0.0, 1.0, 1.0])


def _eval(layer):
    layer.eval()
    return layer


CASES = {
    "unsqueeze": lambda P: P.unsqueeze(_t(P, 3), 0),
    "squeeze": lambda P: P.squeeze(_t(P, 1, 3)),
    "flatten": lambda P: P.flatten(_t(P, 2, 3, 4)),
    "reshape": lambda P: P.reshape(_t(P, 2, 3), [3, 2]),
    "transpose": lambda P: P.transpose(_t(P, 2, 3), [1, 0]),
    "t": lambda P: _t(P, 2, 3).t(),
    "bmm": lambda P: P.bmm(_t(P, 2, 3, 4), _t(P, 2, 4, 5)),
    "matmul": lambda P: P.matmul(_t(P, 3, 4), _t(P, 4, 5)),
    "mm": lambda P: P.mm(_t(P, 3, 4), _t(P, 4, 5)),
    "batch_norm_layer": lambda P: P.nn.BatchNorm2D(2)(_t(P, 2, 2, 3, 3)),
    "batch_norm_eval": lambda P: _F(P).batch_norm(
        _t(P, 2, 2, 3), P.zeros([2]), P.ones([2]), _t(P, 2), _t(P, 2), training=False
    ),
    "dropout": lambda P: _F(P).dropout(_t(P, 4, 4), 0.5),
    "dropout_eval": lambda P: _F(P).dropout(_t(P, 4, 4), 0.5, training=False),
    "dropout_p0": lambda P: _F(P).dropout(_t(P, 4, 4), 0.0),
    "dropout2d": lambda P: _F(P).dropout2d(_t(P, 2, 2, 3, 3), 0.5),
    "alpha_dropout": lambda P: _F(P).alpha_dropout(_t(P, 4, 4), 0.5),
    "layer_norm": lambda P: _F(P).layer_norm(_t(P, 2, 4), 4),
    "layer_norm_wb": lambda P: _F(P).layer_norm(_t(P, 2, 4), 4, _t(P, 4), _t(P, 4)),
    "softmax": lambda P: _F(P).softmax(_t(P, 2, 4)),
    "log_softmax": lambda P: _F(P).log_softmax(_t(P, 2, 4)),
    "cross_entropy": lambda P: _F(P).cross_entropy(_t(P, 3, 4), _lab(P)),
    "cross_entropy_none": lambda P: _F(P).cross_entropy(_t(P, 3, 4), _lab(P), reduction="none"),
    "nll_loss": lambda P: _F(P).nll_loss(_t(P, 3, 4), _lab(P)),
    "mse_loss": lambda P: _F(P).mse_loss(_t(P, 3), _t(P, 3)),
    "l1_loss": lambda P: _F(P).l1_loss(_t(P, 3), _t(P, 3)),
    "smooth_l1": lambda P: _F(P).smooth_l1_loss(_t(P, 3), _t(P, 3)),
    "bce": lambda P: _F(P).binary_cross_entropy(_F(P).sigmoid(_t(P, 3)), _y01(P)),
    "bce_logits": lambda P: _F(P).binary_cross_entropy_with_logits(_t(P, 3), _y01(P)),
    "kl_div": lambda P: _F(P).kl_div(_t(P, 3), _t(P, 3)),
    "linear": lambda P: _F(P).linear(_t(P, 2, 3), _t(P, 3, 4), _t(P, 4)),
    "linear_nobias": lambda P: _F(P).linear(_t(P, 2, 3), _t(P, 3, 4)),
    "linear_layer": lambda P: P.nn.Linear(3, 4)(_t(P, 2, 3)),
    "conv2d": lambda P: _F(P).conv2d(_t(P, 1, 2, 5, 5), _t(P, 3, 2, 3, 3)),
    "conv2d_b": lambda P: _F(P).conv2d(_t(P, 1, 2, 5, 5), _t(P, 3, 2, 3, 3), _t(P, 3)),
    "conv1d": lambda P: _F(P).conv1d(_t(P, 1, 2, 5), _t(P, 3, 2, 3)),
    "conv2d_transpose": lambda P: _F(P).conv2d_transpose(_t(P, 1, 2, 5, 5), _t(P, 2, 3, 3, 3)),
    "conv2d_layer": lambda P: P.nn.Conv2D(2, 3, 3)(_t(P, 1, 2, 5, 5)),
    "embedding": lambda P: _F(P).embedding(_lab(P), _t(P, 4, 3)),
    "embedding_layer": lambda P: P.nn.Embedding(4, 3)(_lab(P)),
    "lstm_out": lambda P: P.nn.LSTM(3, 4)(_t(P, 2, 3, 3))[0],
    "lstm_h": lambda P: P.nn.LSTM(3, 4)(_t(P, 2, 3, 3))[1][0],
    "gru_out": lambda P: P.nn.GRU(3, 4)(_t(P, 2, 3, 3))[0],
    "rnn_out": lambda P: P.nn.SimpleRNN(3, 4)(_t(P, 2, 3, 3))[0],
    "relu": lambda P: _F(P).relu(_t(P, 3)),
    "relu6": lambda P: _F(P).relu6(_t(P, 3)),
    "gelu": lambda P: _F(P).gelu(_t(P, 3)),
    "gelu_tanh": lambda P: _F(P).gelu(_t(P, 3), approximate=True),
    "sigmoid": lambda P: _F(P).sigmoid(_t(P, 3)),
    "tanh": lambda P: _F(P).tanh(_t(P, 3)),
    "silu": lambda P: _F(P).silu(_t(P, 3)),
    "swish": lambda P: _F(P).swish(_t(P, 3)),
    "mish": lambda P: _F(P).mish(_t(P, 3)),
    "leaky_relu": lambda P: _F(P).leaky_relu(_t(P, 3)),
    "elu": lambda P: _F(P).elu(_t(P, 3)),
    "selu": lambda P: _F(P).selu(_t(P, 3)),
    "celu": lambda P: _F(P).celu(_t(P, 3)),
    "softplus": lambda P: _F(P).softplus(_t(P, 3)),
    "softsign": lambda P: _F(P).softsign(_t(P, 3)),
    "hardswish": lambda P: _F(P).hardswish(_t(P, 3)),
    "hardsigmoid": lambda P: _F(P).hardsigmoid(_t(P, 3)),
    "hardtanh": lambda P: _F(P).hardtanh(_t(P, 3)),
    "log_sigmoid": lambda P: _F(P).log_sigmoid(_t(P, 3)),
    "prelu": lambda P: _F(P).prelu(_t(P, 2, 3), _t(P, 1)),
    "glu": lambda P: _F(P).glu(_t(P, 2, 4)),
    "tanhshrink": lambda P: _F(P).tanhshrink(_t(P, 3)),
    "softshrink": lambda P: _F(P).softshrink(_t(P, 3)),
    "hardshrink": lambda P: _F(P).hardshrink(_t(P, 3)),
    "thresholded_relu": lambda P: _F(P).thresholded_relu(_t(P, 3)),
    "avg_pool2d": lambda P: _F(P).avg_pool2d(_t(P, 1, 1, 4, 4), 2),
    "max_pool2d": lambda P: _F(P).max_pool2d(_t(P, 1, 1, 4, 4), 2),
    "max_pool1d": lambda P: _F(P).max_pool1d(_t(P, 1, 1, 4), 2),
    "avg_pool1d": lambda P: _F(P).avg_pool1d(_t(P, 1, 1, 4), 2),
    "adaptive_avg_pool2d": lambda P: _F(P).adaptive_avg_pool2d(_t(P, 1, 1, 4, 4), 2),
    "adaptive_max_pool2d": lambda P: _F(P).adaptive_max_pool2d(_t(P, 1, 1, 4, 4), 2),
    "adaptive_avg_pool1d": lambda P: _F(P).adaptive_avg_pool1d(_t(P, 1, 1, 4), 2),
    "interpolate_nearest": lambda P: _F(P).interpolate(_t(P, 1, 1, 2, 2), scale_factor=2),
    "interpolate_bilinear": lambda P: _F(P).interpolate(
        _t(P, 1, 1, 2, 2), scale_factor=2, mode="bilinear"
    ),
    "pad": lambda P: _F(P).pad(_t(P, 1, 1, 2, 2), [1, 1, 1, 1]),
    "pad_const1d": lambda P: _F(P).pad(_t(P, 4), [1, 1]),
    "group_norm": lambda P: _F(P).group_norm(_t(P, 2, 4, 3), 2),
    "instance_norm": lambda P: _F(P).instance_norm(_t(P, 2, 2, 3)),
    "normalize": lambda P: _F(P).normalize(_t(P, 2, 3)),
    "cosine_similarity": lambda P: _F(P).cosine_similarity(_t(P, 2, 3), _t(P, 2, 3)),
    "one_hot_mm": lambda P: P.matmul(_F(P).one_hot(_lab(P), 4), _t(P, 4, 2)),
    "pixel_shuffle": lambda P: _F(P).pixel_shuffle(_t(P, 1, 4, 2, 2), 2),
    "unfold": lambda P: _F(P).unfold(_t(P, 1, 1, 3, 3), 2),
    "sdpa": lambda P: _F(P).scaled_dot_product_attention(
        _t(P, 1, 2, 1, 4), _t(P, 1, 2, 1, 4), _t(P, 1, 2, 1, 4)
    ),
    "mha": lambda P: P.nn.MultiHeadAttention(4, 2)(_t(P, 1, 2, 4)),
    "mean": lambda P: P.mean(_t(P, 3)),
    "sum": lambda P: P.sum(_t(P, 3)),
    "max": lambda P: P.max(_t(P, 3)),
    "var": lambda P: P.var(_t(P, 3)),
    "std": lambda P: P.std(_t(P, 3)),
    "logsumexp": lambda P: P.logsumexp(_t(P, 3)),
    "cumsum": lambda P: P.cumsum(_t(P, 3)),
    "stack": lambda P: P.stack([_t(P, 3), _t(P, 3)]),
    "concat": lambda P: P.concat([_t(P, 3), _t(P, 3)]),
    "split0": lambda P: P.split(_t(P, 4), 2)[0],
    "chunk0": lambda P: P.chunk(_t(P, 4), 2)[0],
    "unbind0": lambda P: P.unbind(_t(P, 2, 3))[0],
    "expand": lambda P: P.expand(_t(P, 1, 3), [2, 3]),
    "tile": lambda P: P.tile(_t(P, 3), [2]),
    "gather": lambda P: P.gather(_t(P, 3), P.to_tensor([0, 2])),
    "where": lambda P: P.where(P.to_tensor([True, False, True]), _t(P, 3), _t(P, 3)),
    "clip": lambda P: P.clip(_t(P, 3), -0.5, 0.5),
    "abs": lambda P: P.abs(_t(P, 3)),
    "exp": lambda P: P.exp(_t(P, 3)),
    "sqrt": lambda P: P.sqrt(P.abs(_t(P, 3))),
    "rsqrt": lambda P: P.rsqrt(P.abs(_t(P, 3))),
    "square": lambda P: P.square(_t(P, 3)),
    "pow_t": lambda P: P.pow(_t(P, 3), 2.0),
    "einsum": lambda P: P.einsum("ij,jk->ik", _t(P, 2, 3), _t(P, 3, 4)),
    "outer": lambda P: P.outer(_t(P, 2), _t(P, 3)),
    "dot": lambda P: P.dot(_t(P, 3), _t(P, 3)),
    "norm": lambda P: P.linalg.norm(_t(P, 3)),
    "flip": lambda P: P.flip(_t(P, 3), 0),
    "roll": lambda P: P.roll(_t(P, 3), 1),
    "tril": lambda P: P.tril(_t(P, 3, 3)),
    "masked_fill": lambda P: P.masked_fill(_t(P, 3), P.to_tensor([True, False, True]), 0.0),
    "index_select": lambda P: P.index_select(_t(P, 3), P.to_tensor([0])),
    "slice": lambda P: _t(P, 4)[1:3],
    "getitem_int": lambda P: _t(P, 4)[1],
    "cast": lambda P: P.cast(_t(P, 3), "float64"),
    "sign": lambda P: P.sign(_t(P, 3)),
    "lerp": lambda P: P.lerp(_t(P, 3), _t(P, 3), 0.5),
    "addmm": lambda P: P.addmm(_t(P, 2, 2), _t(P, 2, 3), _t(P, 3, 2)),
    "sigmoid_t": lambda P: _t(P, 3).sigmoid(),
    "erf": lambda P: P.erf(_t(P, 3)),
    "log1p": lambda P: P.log1p(P.abs(_t(P, 3))),
    "prod": lambda P: P.prod(_t(P, 3)),
    "amax": lambda P: P.amax(_t(P, 3)),
    "topk0": lambda P: P.topk(_t(P, 4), 2)[0],
    "sort": lambda P: P.sort(_t(P, 4)),
    "cumprod": lambda P: P.cumprod(_t(P, 3), 0),
    "diag": lambda P: P.diag(_t(P, 3)),
    "kron": lambda P: P.kron(_t(P, 2), _t(P, 2)),
    "trace": lambda P: P.trace(_t(P, 3, 3)),
    "scale": lambda P: P.scale(_t(P, 3), 2.0, 1.0),
    "neg": lambda P: -_t(P, 3),
    "rsub": lambda P: 1.0 - _t(P, 3),
    "broadcast_to": lambda P: P.broadcast_to(_t(P, 3), [2, 3]),
    "moveaxis": lambda P: P.moveaxis(_t(P, 2, 3), 0, 1),
    "nanmean": lambda P: P.nanmean(_t(P, 3)),
    "logit": lambda P: P.logit(_F(P).sigmoid(_t(P, 3))),
    "maximum": lambda P: P.maximum(_t(P, 3), _t(P, 3)),
    "margin_ranking": lambda P: _F(P).margin_ranking_loss(
        _t(P, 3), _t(P, 3), P.to_tensor([1.0, -1.0, 1.0])
    ),
    "softmax_ce_fn": lambda P: _F(P).softmax_with_cross_entropy(
        _t(P, 3, 4), P.to_tensor([[1], [0], [2]])
    ),
    "hinge_emb": lambda P: _F(P).hinge_embedding_loss(_t(P, 3), P.to_tensor([1.0, -1.0, 1.0])),
    "cosine_emb": lambda P: _F(P).cosine_embedding_loss(
        _t(P, 2, 3), _t(P, 2, 3), P.to_tensor([1, -1])
    ),
    "triplet": lambda P: _F(P).triplet_margin_loss(_t(P, 2, 3), _t(P, 2, 3), _t(P, 2, 3)),
    "square_error_cost": lambda P: _F(P).square_error_cost(_t(P, 3), _t(P, 3)),
    "local_response_norm": lambda P: _F(P).local_response_norm(_t(P, 1, 4, 2, 2), 3),
    "baddbmm": lambda P: P.baddbmm(_t(P, 2, 2, 2), _t(P, 2, 2, 3), _t(P, 2, 3, 2)),
    "amin": lambda P: P.amin(_t(P, 3)),
    "diag2d": lambda P: P.diag(_t(P, 3, 3)),
    "masked_fill_t": lambda P: P.masked_fill(
        _t(P, 3), P.to_tensor([True, False, True]), P.to_tensor(1.0)
    ),
    "lerp_t": lambda P: P.lerp(_t(P, 3), _t(P, 3), _t(P, 3)),
    "split_list": lambda P: P.split(_t(P, 5), [2, 3])[1],
    "split_n1": lambda P: P.split(_t(P, 4), 2)[1],
    "chunk1": lambda P: P.chunk(_t(P, 4), 2)[1],
    "unbind1": lambda P: P.unbind(_t(P, 2, 3))[1],
    "sort_desc": lambda P: P.sort(_t(P, 4), descending=True),
    "flatten_t": lambda P: _t(P, 2, 3).flatten(),
    "unsqueeze_m": lambda P: _t(P, 3).unsqueeze(0),
    "squeeze_axis": lambda P: P.squeeze(_t(P, 1, 3), 0),
    "conv3d": lambda P: _F(P).conv3d(_t(P, 1, 1, 3, 3, 3), _t(P, 1, 1, 2, 2, 2)),
    "conv1d_transpose": lambda P: _F(P).conv1d_transpose(_t(P, 1, 2, 5), _t(P, 2, 3, 3)),
    "conv3d_transpose": lambda P: _F(P).conv3d_transpose(
        _t(P, 1, 1, 3, 3, 3), _t(P, 1, 1, 2, 2, 2)
    ),
    "conv2d_transpose_b": lambda P: _F(P).conv2d_transpose(
        _t(P, 1, 2, 5, 5), _t(P, 2, 3, 3, 3), _t(P, 3)
    ),
    "conv2d_nhwc": lambda P: _F(P).conv2d(_t(P, 1, 5, 5, 2), _t(P, 3, 2, 3, 3), data_format="NHWC"),
    "conv2d_groups": lambda P: _F(P).conv2d(_t(P, 1, 2, 5, 5), _t(P, 2, 1, 3, 3), groups=2),
    "max_pool3d": lambda P: _F(P).max_pool3d(_t(P, 1, 1, 4, 4, 4), 2),
    "avg_pool3d": lambda P: _F(P).avg_pool3d(_t(P, 1, 1, 4, 4, 4), 2),
    "adaptive_avg_pool3d": lambda P: _F(P).adaptive_avg_pool3d(_t(P, 1, 1, 4, 4, 4), 2),
    "adaptive_max_pool3d": lambda P: _F(P).adaptive_max_pool3d(_t(P, 1, 1, 4, 4, 4), 2),
    "adaptive_max_pool1d": lambda P: _F(P).adaptive_max_pool1d(_t(P, 1, 1, 4), 2),
    "max_pool2d_mask": lambda P: _F(P).max_pool2d(_t(P, 1, 1, 4, 4), 2, return_mask=True)[0],
    "max_pool2d_nhwc": lambda P: _F(P).max_pool2d(_t(P, 1, 4, 4, 1), 2, data_format="NHWC"),
    "avg_pool2d_nhwc": lambda P: _F(P).avg_pool2d(_t(P, 1, 4, 4, 1), 2, data_format="NHWC"),
    "interp_linear": lambda P: _F(P).interpolate(_t(P, 1, 1, 3), scale_factor=2, mode="linear"),
    "interp_bicubic": lambda P: _F(P).interpolate(
        _t(P, 1, 1, 2, 2), scale_factor=2, mode="bicubic"
    ),
    "interp_trilinear": lambda P: _F(P).interpolate(
        _t(P, 1, 1, 2, 2, 2), scale_factor=2, mode="trilinear"
    ),
    "interp_area": lambda P: _F(P).interpolate(_t(P, 1, 1, 4, 4), size=[2, 2], mode="area"),
    "interp_nearest_nhwc": lambda P: _F(P).interpolate(
        _t(P, 1, 2, 2, 1), scale_factor=2, data_format="NHWC"
    ),
    "pad_reflect": lambda P: _F(P).pad(_t(P, 1, 1, 3, 3), [1, 1, 1, 1], mode="reflect"),
    "pad_replicate": lambda P: _F(P).pad(_t(P, 1, 1, 3, 3), [1, 1, 1, 1], mode="replicate"),
    "pad_circular": lambda P: _F(P).pad(_t(P, 1, 1, 3, 3), [1, 1, 1, 1], mode="circular"),
    "pad_3d_const": lambda P: _F(P).pad(_t(P, 1, 1, 3), [1, 1]),
    "pad_5d": lambda P: _F(P).pad(_t(P, 1, 1, 2, 2, 2), [1, 1, 1, 1, 1, 1]),
    "pad_2d_full": lambda P: _F(P).pad(_t(P, 3, 3), [1, 1, 1, 1]),
    "pad_4d_full": lambda P: _F(P).pad(_t(P, 1, 1, 3, 3), [0, 0, 0, 0, 1, 1, 1, 1]),
    "dropout_down": lambda P: _F(P).dropout(_t(P, 4, 4), 0.5, mode="downscale_in_infer"),
    "dropout_down_eval": lambda P: _F(P).dropout(
        _t(P, 4, 4), 0.5, training=False, mode="downscale_in_infer"
    ),
    "dropout_axis": lambda P: _F(P).dropout(_t(P, 4, 4), 0.5, axis=0),
    "dropout_p1": lambda P: _F(P).dropout(_t(P, 4, 4), 1.0),
    "dropout_layer": lambda P: P.nn.Dropout(0.5)(_t(P, 4, 4)),
    "layer_norm_w": lambda P: _F(P).layer_norm(_t(P, 2, 4), 4, _t(P, 4)),
    "layer_norm_b": lambda P: _F(P).layer_norm(_t(P, 2, 4), 4, None, _t(P, 4)),
    "layer_norm_layer": lambda P: P.nn.LayerNorm(4)(_t(P, 2, 4)),
    "bn_train_f": lambda P: _F(P).batch_norm(
        _t(P, 2, 2, 3), P.zeros([2]), P.ones([2]), _t(P, 2), _t(P, 2), training=True
    ),
    "bn_noaffine": lambda P: _F(P).batch_norm(
        _t(P, 2, 2, 3), P.zeros([2]), P.ones([2]), training=True
    ),
    "bn1d_layer": lambda P: P.nn.BatchNorm1D(2)(_t(P, 2, 2)),
    "bn_layer_eval": lambda P: _eval(P.nn.BatchNorm2D(2))(_t(P, 2, 2, 3, 3)),
    "bn_legacy": lambda P: P.nn.BatchNorm(2)(_t(P, 2, 2, 3, 3)),
    "instance_norm_w": lambda P: _F(P).instance_norm(
        _t(P, 2, 2, 3), weight=_t(P, 2), bias=_t(P, 2)
    ),
    "instance_norm_layer": lambda P: P.nn.InstanceNorm2D(2)(_t(P, 2, 2, 3, 3)),
    "group_norm_layer": lambda P: P.nn.GroupNorm(2, 4)(_t(P, 2, 4, 3)),
    "ce_sum": lambda P: _F(P).cross_entropy(_t(P, 3, 4), _lab(P), reduction="sum"),
    "ce_weight": lambda P: _F(P).cross_entropy(
        _t(P, 3, 4), _lab(P), weight=P.to_tensor([1.0, 2.0, 3.0, 4.0])
    ),
    "ce_soft": lambda P: _F(P).cross_entropy(
        _t(P, 3, 4), _F(P).softmax(_t(P, 3, 4)), soft_label=True
    ),
    "ce_soft_none": lambda P: _F(P).cross_entropy(
        _t(P, 3, 4), _F(P).softmax(_t(P, 3, 4)), soft_label=True, reduction="none"
    ),
    "ce_nosoftmax": lambda P: _F(P).cross_entropy(
        _F(P).softmax(_t(P, 3, 4)), _lab(P), use_softmax=False
    ),
    "ce_layer": lambda P: P.nn.CrossEntropyLoss()(_t(P, 3, 4), _lab(P)),
    "ce_ls": lambda P: _F(P).cross_entropy(_t(P, 3, 4), _lab(P), label_smoothing=0.1),
    "nll_none": lambda P: _F(P).nll_loss(_t(P, 3, 4), _lab(P), reduction="none"),
    "nll_sum": lambda P: _F(P).nll_loss(_t(P, 3, 4), _lab(P), reduction="sum"),
    "l1_sum": lambda P: _F(P).l1_loss(_t(P, 3), _t(P, 3), reduction="sum"),
    "l1_none": lambda P: _F(P).l1_loss(_t(P, 3), _t(P, 3), reduction="none"),
    "bce_none": lambda P: _F(P).binary_cross_entropy(
        _F(P).sigmoid(_t(P, 3)), _y01(P), reduction="none"
    ),
    "bce_sum": lambda P: _F(P).binary_cross_entropy(
        _F(P).sigmoid(_t(P, 3)), _y01(P), reduction="sum"
    ),
    "bcel_none": lambda P: _F(P).binary_cross_entropy_with_logits(
        _t(P, 3), _y01(P), reduction="none"
    ),
    "bcel_sum": lambda P: _F(P).binary_cross_entropy_with_logits(
        _t(P, 3), _y01(P), reduction="sum"
    ),
    "bcel_pw": lambda P: _F(P).binary_cross_entropy_with_logits(
        _t(P, 3), _y01(P), pos_weight=_t(P, 3)
    ),
    "mse_sum": lambda P: _F(P).mse_loss(_t(P, 3), _t(P, 3), reduction="sum"),
    "mse_none": lambda P: _F(P).mse_loss(_t(P, 3), _t(P, 3), reduction="none"),
    "mr_none": lambda P: _F(P).margin_ranking_loss(
        _t(P, 3), _t(P, 3), P.to_tensor([1.0, -1.0, 1.0]), reduction="none"
    ),
    "mr_sum": lambda P: _F(P).margin_ranking_loss(
        _t(P, 3), _t(P, 3), P.to_tensor([1.0, -1.0, 1.0]), reduction="sum"
    ),
    "swce_soft": lambda P: _F(P).softmax_with_cross_entropy(
        _t(P, 3, 4), _F(P).softmax(_t(P, 3, 4)), soft_label=True
    ),
    "swce_ret": lambda P: _F(P).softmax_with_cross_entropy(
        _t(P, 3, 4), P.to_tensor([[1], [0], [2]]), return_softmax=True
    )[1],
    "lstm_c": lambda P: P.nn.LSTM(3, 4)(_t(P, 2, 3, 3))[1][1],
    "gru_h": lambda P: P.nn.GRU(3, 4)(_t(P, 2, 3, 3))[1],
    "rnn_h": lambda P: P.nn.SimpleRNN(3, 4)(_t(P, 2, 3, 3))[1],
    "lstm2_h": lambda P: P.nn.LSTM(3, 4, num_layers=2)(_t(P, 2, 3, 3))[1][0],
    "lstm_bi_out": lambda P: P.nn.LSTM(3, 4, direction="bidirect")(_t(P, 2, 3, 3))[0],
    "lstm_tm_out": lambda P: P.nn.LSTM(3, 4, time_major=True)(_t(P, 3, 2, 3))[0],
    "lstmcell_h": lambda P: P.nn.LSTMCell(3, 4)(_t(P, 2, 3))[0],
    "lstmcell_c": lambda P: P.nn.LSTMCell(3, 4)(_t(P, 2, 3))[1][1],
    "grucell": lambda P: P.nn.GRUCell(3, 4)(_t(P, 2, 3))[0],
    "rnncell": lambda P: P.nn.SimpleRNNCell(3, 4)(_t(P, 2, 3))[0],
    "relu6_layer": lambda P: P.nn.ReLU6()(_t(P, 3)),
    "gelu_layer": lambda P: P.nn.GELU()(_t(P, 3)),
    "softplus_b": lambda P: _F(P).softplus(_t(P, 3), beta=2),
    "prelu_layer": lambda P: P.nn.PReLU()(_t(P, 2, 3)),
    "prelu_c": lambda P: _F(P).prelu(_t(P, 2, 3, 2), _t(P, 3)),
    "silu_layer": lambda P: P.nn.Silu()(_t(P, 3)),
    "swish_layer": lambda P: P.nn.Swish()(_t(P, 3)),
    "embedding_pad": lambda P: _F(P).embedding(_lab(P), _t(P, 4, 3), padding_idx=0),
    "pixel_unshuffle": lambda P: _F(P).pixel_unshuffle(_t(P, 1, 1, 4, 4), 2),
    "channel_shuffle": lambda P: _F(P).channel_shuffle(_t(P, 1, 4, 2, 2), 2),
    "linear_3d": lambda P: _F(P).linear(_t(P, 2, 2, 3), _t(P, 3, 4), _t(P, 4)),
    "upsample": lambda P: P.nn.Upsample(scale_factor=2)(_t(P, 1, 1, 2, 2)),
    "rrelu_eval": lambda P: _F(P).rrelu(_t(P, 3), training=False),
    "rrelu": lambda P: _F(P).rrelu(_t(P, 3)),
    "hardtanh2": lambda P: _F(P).hardtanh(_t(P, 3), -2.0, 2.0),
    # an op that returns its input unchanged keeps the input's node and name
    "dropout_p0_of_result": lambda P: _F(P).dropout(_t(P, 3) * 2.0, 0.0),
    "reshape_same_of_result": lambda P: P.reshape(_t(P, 3) * 2.0, [3]),
    "split_sections_last": lambda P: P.split(_t(P, 5), [2, 3])[1],
    "lerp_inplace": lambda P: (_t(P, 2) * 1.0).lerp_(_t(P, 2), 0.5),
    "masked_fill_inplace": lambda P: (_t(P, 2) * 1.0).masked_fill_(P.to_tensor([True, False]), 0.0),
    "addmm_inplace": lambda P: (_t(P, 2, 2) * 1.0).addmm_(_t(P, 2, 3), _t(P, 3, 2)),
    "view": lambda P: (_t(P, 2, 3) * 1.0).view([3, 2]),
    "conv2d_transpose_depthwise": lambda P: _F(P).conv2d_transpose(
        _t(P, 1, 2, 5, 5), _t(P, 2, 1, 3, 3), groups=2
    ),
    "conv2d_depthwise_4": lambda P: _F(P).conv2d(_t(P, 1, 2, 5, 5), _t(P, 4, 1, 3, 3), groups=2),
    "conv2d_groups_2": lambda P: _F(P).conv2d(_t(P, 1, 4, 5, 5), _t(P, 2, 2, 3, 3), groups=2),
    "conv1d_bias": lambda P: _F(P).conv1d(_t(P, 1, 2, 5), _t(P, 3, 2, 3), _t(P, 3)),
    "Conv2D_reflect_no_bias": lambda P: P.nn.Conv2D(
        2, 3, 3, padding=1, padding_mode="reflect", bias_attr=False
    )(_t(P, 1, 2, 5, 5)),
}


def _name(P, case):
    fn = CASES[case](P).grad_fn
    return None if fn is None else fn.name()


@pytest.mark.parametrize("case", list(CASES))
def test_grad_node_name_as_paddle(case):
    assert _name(paddlelike, case) == _name(paddle, case)
