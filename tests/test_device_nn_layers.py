"""The layers of issue 16 on a GPU, in both dialects: convolutions, pooling, normalisation,
embeddings, recurrent networks and attention, forward and backward.

Each layer is built on the host from one seed, run once on the host and once moved to the
GPU, and the two runs agree: outputs, the input's gradient, every parameter's gradient and
every buffer (running statistics); on the GPU every one of them stays on the device. The
GPU is the fake one (tests/fake_gpu.py: an array type numpy refuses) everywhere, and a real
one through CuPy in the tests marked ``gpu`` (scripts/gpu_check.sh runs them). A layer class
the dialect lacks at test time is skipped with its name.
"""
from __future__ import annotations

import numpy as np
import pytest

import paddlelike
import torchlike
from janusgrad.array import backend

from .fake_gpu import FakeGpuArray, installed

RNG = np.random.default_rng(16)


def _x(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _ids(*shape):
    return RNG.integers(1, 10, shape).astype(np.int64)


# name: (torch constructor, paddle constructor, input, how to call the layer)
def _self_attention(layer, x):
    return layer(x, x, x)


LAYERS = {
    "conv1d": ("Conv1d(3, 4, 3, padding=1)", "Conv1D(3, 4, 3, padding=1)", _x(2, 3, 7), None),
    "conv2d": ("Conv2d(3, 4, 3, stride=2, padding=1, groups=1)",
               "Conv2D(3, 4, 3, stride=2, padding=1)", _x(2, 3, 7, 6), None),
    "conv2d_groups_dilation": ("Conv2d(4, 6, 3, padding=2, dilation=2, groups=2)",
                               "Conv2D(4, 6, 3, padding=2, dilation=2, groups=2)",
                               _x(2, 4, 6, 6), None),
    "conv_transpose2d": ("ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1)",
                         "Conv2DTranspose(3, 2, 3, stride=2, padding=1, output_padding=1)",
                         _x(2, 3, 4, 5), None),
    "max_pool2d": ("MaxPool2d(2, 2)", "MaxPool2D(2, 2)", _x(2, 3, 6, 6), None),
    "avg_pool2d": ("AvgPool2d(3, stride=2, padding=1)", "AvgPool2D(3, stride=2, padding=1)",
                   _x(2, 3, 7, 7), None),
    "adaptive_avg_pool2d": ("AdaptiveAvgPool2d((2, 3))", "AdaptiveAvgPool2D((2, 3))",
                            _x(2, 3, 7, 8), None),
    "batch_norm2d": ("BatchNorm2d(3)", "BatchNorm2D(3)", _x(4, 3, 5, 5), None),
    "batch_norm1d": ("BatchNorm1d(5)", "BatchNorm1D(5)", _x(6, 5), None),
    "layer_norm": ("LayerNorm(6)", "LayerNorm(6)", _x(3, 4, 6), None),
    "group_norm": ("GroupNorm(2, 4)", "GroupNorm(2, 4)", _x(3, 4, 5, 5), None),
    "embedding": ("Embedding(10, 4, padding_idx=0)", "Embedding(10, 4, padding_idx=0)",
                  _ids(3, 5), None),
    "gru": ("GRU(4, 5, num_layers=2, batch_first=True)", "GRU(4, 5, num_layers=2)",
            _x(3, 6, 4), None),
    "lstm_bidirectional": ("LSTM(4, 5, bidirectional=True, batch_first=True)",
                           "LSTM(4, 5, direction='bidirect')", _x(3, 6, 4), None),
    "multihead_attention": ("MultiheadAttention(8, 2, batch_first=True)",
                            "MultiHeadAttention(8, 2)", _x(2, 5, 8), _self_attention),
    "transformer_encoder_layer": (
        "TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)",
        "TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0)", _x(2, 5, 8), None),
}


def _tensors(out) -> list:
    """The tensors of a layer's output, nested tuples flattened."""
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _tensors(o)]
    return [] if out is None else [out]


class _Torch:
    m = torchlike

    def build(self, spec):
        self.m.manual_seed(0)
        return eval("self.m.nn." + spec)

    def move(self, layer, gpu):
        return layer.to("cuda" if gpu else "cpu")

    def tensor(self, a, gpu):
        t = self.m.tensor(a, device="cuda" if gpu else "cpu")
        if a.dtype.kind == "f":
            t.requires_grad_(True)
        return t

    def grads(self, layer):
        return [(n, p.grad) for n, p in layer.named_parameters()]

    def buffers(self, layer):
        return list(layer.named_buffers())


class _Paddle:
    m = paddlelike

    def build(self, spec):
        self.m.set_device("cpu")
        self.m.seed(0)
        return eval("self.m.nn." + spec)

    def move(self, layer, gpu):
        return layer.to("gpu:0" if gpu else "cpu")

    def tensor(self, a, gpu):
        place = self.m.CUDAPlace(0) if gpu else self.m.CPUPlace()
        return self.m.to_tensor(a, place=place, stop_gradient=a.dtype.kind != "f")

    def grads(self, layer):
        return [(n, p.grad) for n, p in layer.named_parameters()]

    def buffers(self, layer):
        return list(layer.named_buffers())


DIALECTS = {"torch": (_Torch(), 0), "paddle": (_Paddle(), 1)}


def _run(dialect, name: str, gpu: bool):
    """Outputs, input gradient, parameter gradients and buffers of one forward and backward
    of layer ``name``, on the GPU or the host."""
    d, column = DIALECTS[dialect]
    spec = LAYERS[name][column]
    cls = spec.split("(")[0]
    if not hasattr(d.m.nn, cls):
        pytest.skip(f"{dialect} dialect has no nn.{cls} yet")
    layer = d.move(d.build(spec), gpu)
    x = d.tensor(LAYERS[name][2], gpu)
    call = LAYERS[name][3]
    outs = _tensors(call(layer, x) if call else layer(x))
    loss = None
    for o in outs:  # a weighted sum of every output: no gradient is trivially zero
        w = d.tensor(RNG.standard_normal(tuple(o.shape)).astype(np.float32), gpu).detach()
        loss = (o * w).sum() if loss is None else loss + (o * w).sum()
    loss.backward()
    grads = [("input", x.grad)] + d.grads(layer)
    return outs, grads, d.buffers(layer)


def _on_device(t) -> np.ndarray:
    a = t.array
    assert backend.device_of(a).kind == "gpu", f"left the device: {type(a).__name__}"
    return backend.to_host(a)


def _on_host(t) -> np.ndarray:
    assert type(t.array) is np.ndarray, f"not on the host: {type(t.array).__name__}"
    return t.array


def _same_on_gpu_and_host(dialect, name, fake: bool, rtol: float, atol: float) -> None:
    state = RNG.bit_generator.state
    host = _run(dialect, name, gpu=False)
    RNG.bit_generator.state = state  # the same loss weights for both runs
    dev = _run(dialect, name, gpu=True)
    for (ho, hg, hb), (do, dg, db) in [(host, dev)]:
        assert len(ho) == len(do)
        for h, g in zip(ho, do):
            if fake:
                assert type(g.array) is FakeGpuArray
            np.testing.assert_allclose(_on_device(g), _on_host(h), rtol=rtol, atol=atol)
        assert [n for n, _ in hg] == [n for n, _ in dg]
        for (n, h), (_, g) in zip(hg, dg):
            assert (h is None) == (g is None), n
            if h is not None:
                np.testing.assert_allclose(_on_device(g), _on_host(h), rtol=rtol, atol=atol,
                                           err_msg=n)
        assert [n for n, _ in hb] == [n for n, _ in db]
        for (n, h), (_, g) in zip(hb, db):
            np.testing.assert_allclose(_on_device(g), _on_host(h), rtol=rtol, atol=atol,
                                       err_msg=n)


@pytest.fixture
def _paddle_device_reset():
    yield
    paddlelike.set_device("cpu")
    from paddlelike import device as pdevice
    pdevice.reset_device()


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
@pytest.mark.parametrize("name", list(LAYERS))
def test_layer_on_the_fake_gpu_equals_the_host(dialect, name, _paddle_device_reset):
    with installed():
        _same_on_gpu_and_host(dialect, name, fake=True, rtol=1e-5, atol=1e-6)


@pytest.mark.gpu
@pytest.mark.skipif(not backend.gpu_available(), reason="no usable GPU (CuPy)")
@pytest.mark.parametrize("dialect", sorted(DIALECTS))
@pytest.mark.parametrize("name", list(LAYERS))
def test_layer_on_a_real_gpu_equals_the_host(dialect, name, _paddle_device_reset):
    _same_on_gpu_and_host(dialect, name, fake=False, rtol=2e-4, atol=2e-5)


def test_benchmark_g_on_the_fake_gpu_agrees_with_numpy():
    """Workload G (LeNet-5) as `python -m benchmarks --device cuda` runs it
    (scripts/gpu_check.sh), on the fake GPU, against its numpy version on the host."""
    from benchmarks import workloads as W

    with installed():
        style = W.TorchStyle(torchlike)
        style.device = "cuda"
        ours = W.build(style, "G", smoke=True)
        ours.run()
        assert all(type(p.array) is FakeGpuArray and type(p.grad.array) is FakeGpuArray
                   for p in ours.params)
        ref = W.build(W.NumpyStyle(), "G", smoke=True)
        for g, r in zip(W.build(style, "G", smoke=True).grads(), ref.grads()):
            np.testing.assert_allclose(g, r, rtol=1e-4, atol=1e-6)
