"""Pooling, padding, resampling and shuffles (part pool): torchlike against real torch and
paddlelike against real paddle (values, input gradients incl. ties, index outputs, module
reprs, errors), and the engine functions on the fake GPU."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from .tolerance import assert_kernels_close

RNG = np.random.default_rng(7)


# ---------------------------------------------------------------- torch
@pytest.fixture(scope="module")
def tt():
    torch = pytest.importorskip("torch")
    import torchlike
    return torch, torchlike


def _torch_pair(tt, fn, a, *args, index_out=False, **kw):
    torch, tl = tt
    x = torch.tensor(a, requires_grad=True)
    y = tl.tensor(a, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = getattr(torch.nn.functional, fn)(x, *args, **kw)
        m = getattr(tl.nn.functional, fn)(y, *args, **kw)
    if isinstance(r, tuple):
        np.testing.assert_array_equal(m[1].numpy(), r[1].numpy())
        assert str(m[1].dtype) == str(r[1].dtype)
        r, m = r[0], m[0]
    assert tuple(m.shape) == tuple(r.shape)
    assert_kernels_close(m.detach().numpy(), r.detach().numpy(), n=64)
    g = RNG.standard_normal(tuple(r.shape))
    r.backward(torch.tensor(g))
    m.backward(tl.tensor(g))
    assert_kernels_close(y.grad.numpy(), x.grad.numpy(), n=64)
    return r, m


POOL_CASES = [
    dict(kernel_size=2), dict(kernel_size=3, stride=1, padding=1),
    dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
    dict(kernel_size=(2, 3), stride=(1, 2)),
]


@pytest.mark.parametrize("kw", POOL_CASES)
def test_torch_max_avg_pool2d(tt, kw):
    a = RNG.standard_normal((2, 3, 7, 6))
    _torch_pair(tt, "max_pool2d", a, return_indices=True, **kw)
    _torch_pair(tt, "max_pool2d", a, dilation=2, **{**kw, "padding": 0})
    _torch_pair(tt, "avg_pool2d", a, **kw)
    _torch_pair(tt, "avg_pool2d", a, count_include_pad=False, **kw)
    _torch_pair(tt, "avg_pool2d", a, divisor_override=3, **kw)
    _torch_pair(tt, "avg_pool2d", a[0], **kw)  # unbatched


def test_torch_pool_1d_3d(tt):
    a = RNG.standard_normal((2, 3, 9))
    _torch_pair(tt, "max_pool1d", a, 3, 2, 1, return_indices=True)
    _torch_pair(tt, "avg_pool1d", a, 3, 2, 1, ceil_mode=True, count_include_pad=False)
    b = RNG.standard_normal((1, 2, 5, 4, 6))
    _torch_pair(tt, "max_pool3d", b, 2, return_indices=True)
    _torch_pair(tt, "avg_pool3d", b, (2, 3, 2), 1, 1)


@pytest.mark.parametrize("a", [np.ones((1, 1, 4, 4)), np.array([[[[1., 3.], [3., 2.]]]]),
                               np.ones((1, 1, 3, 3))])
def test_torch_max_pool_ties_route_to_first_max(tt, a):
    _torch_pair(tt, "max_pool2d", a, 2, 1, return_indices=True)
    _torch_pair(tt, "adaptive_max_pool2d", a, 1, return_indices=True)


@pytest.mark.parametrize("out", [1, 3, (2, 5), (None, 2)])
def test_torch_adaptive(tt, out):
    a = RNG.standard_normal((2, 3, 7, 5))
    _torch_pair(tt, "adaptive_avg_pool2d", a, out)
    _torch_pair(tt, "adaptive_max_pool2d", a, out, return_indices=True)
    _torch_pair(tt, "adaptive_avg_pool1d", a[0], 3)
    _torch_pair(tt, "adaptive_max_pool3d", a, (2, 2, 3))


def test_torch_unpool(tt):
    torch, tl = tt
    a = RNG.standard_normal((1, 2, 6, 6))
    v, i = torch.nn.functional.max_pool2d(torch.tensor(a), 2, 1, return_indices=True)
    x = v.clone().requires_grad_(True)
    y = tl.tensor(v.numpy(), requires_grad=True)
    r = torch.nn.functional.max_unpool2d(x, i, 2, 1)
    m = tl.nn.functional.max_unpool2d(y, tl.tensor(i.numpy()), 2, 1)
    np.testing.assert_array_equal(m.detach().numpy(), r.detach().numpy())
    g = RNG.standard_normal(tuple(r.shape))
    r.backward(torch.tensor(g))
    m.backward(tl.tensor(g))
    np.testing.assert_allclose(y.grad.numpy(), x.grad.numpy())


@pytest.mark.parametrize("mode,pad", [("constant", (1, 2)), ("constant", (1, 2, -1, 3)),
                                      ("reflect", (2, 1, 1, 2)), ("replicate", (3, 1, 0, 2)),
                                      ("circular", (2, 1, 1, 3))])
def test_torch_pad(tt, mode, pad):
    a = RNG.standard_normal((2, 3, 4, 5))
    _torch_pair(tt, "pad", a, pad, mode)
    if mode == "constant":
        _torch_pair(tt, "pad", a, pad, mode, 2.5)


@pytest.mark.parametrize("mode", ["nearest", "nearest-exact", "bilinear", "bicubic", "area"])
@pytest.mark.parametrize("size", [dict(size=(5, 9)), dict(scale_factor=2),
                                  dict(scale_factor=(0.5, 1.7))])
def test_torch_interpolate(tt, mode, size):
    a = RNG.standard_normal((2, 3, 4, 5))
    _torch_pair(tt, "interpolate", a, mode=mode, **size)
    if mode in ("bilinear", "bicubic"):
        _torch_pair(tt, "interpolate", a, mode=mode, align_corners=True, **size)


def test_torch_linear_trilinear_shuffles(tt):
    _torch_pair(tt, "interpolate", RNG.standard_normal((2, 3, 5)), size=8, mode="linear")
    _torch_pair(tt, "interpolate", RNG.standard_normal((1, 2, 3, 4, 5)), scale_factor=1.5,
                mode="trilinear")
    _torch_pair(tt, "upsample_bilinear", RNG.standard_normal((1, 2, 3, 4)), scale_factor=2)
    _torch_pair(tt, "upsample_nearest", RNG.standard_normal((1, 2, 3, 4)), size=(5, 7))
    _torch_pair(tt, "pixel_shuffle", RNG.standard_normal((2, 8, 3, 4)), 2)
    _torch_pair(tt, "pixel_unshuffle", RNG.standard_normal((2, 2, 4, 6)), 2)
    _torch_pair(tt, "channel_shuffle", RNG.standard_normal((2, 6, 3, 4)), 3)


def test_torch_grad_fn_names(tt):
    torch, tl = tt
    for fn, args in [("max_pool2d", (2,)), ("avg_pool2d", (2,)), ("adaptive_avg_pool2d", (2,)),
                     ("pad", ((1, 1),))]:
        r = getattr(torch.nn.functional, fn)(torch.ones(1, 1, 4, 4, requires_grad=True), *args)
        m = getattr(tl.nn.functional, fn)(tl.ones(1, 1, 4, 4, requires_grad=True), *args)
        assert type(m.grad_fn).__name__ == type(r.grad_fn).__name__


def _errors_match(f_ref, f_ours):
    with pytest.raises(Exception) as ref:
        f_ref()
    with pytest.raises(Exception) as ours:
        f_ours()
    assert type(ours.value) is type(ref.value)
    assert str(ours.value) == str(ref.value)


@pytest.mark.parametrize("call", [
    lambda F, t: F.max_pool2d(t.ones(1, 1, 2, 2), 3),
    lambda F, t: F.max_pool2d(t.ones(1, 1, 2, 2), 2, padding=2),
    lambda F, t: F.max_pool1d(t.ones(1, 1, 2), 3),
    lambda F, t: F.avg_pool2d(t.ones(1, 1, 2, 2), 3),
    lambda F, t: F.max_pool2d(t.ones(2, 2), 2),
    lambda F, t: F.max_pool2d(t.ones(1, 1, 4, 4), 2, stride=0),
    lambda F, t: F.pixel_shuffle(t.ones(1, 3, 2, 2), 2),
    lambda F, t: F.pixel_unshuffle(t.ones(1, 3, 3, 3), 2),
    lambda F, t: F.channel_shuffle(t.ones(1, 3, 3, 3), 2),
    lambda F, t: F.pad(t.ones(1, 2, 3), (1, 2, 3, 4, 5, 6, 7, 8)),
    lambda F, t: F.pad(t.ones(1, 2, 3), (1,)),
    lambda F, t: F.pad(t.ones(1, 2, 3), (3, 3), mode="reflect"),
    lambda F, t: F.pad(t.ones(1, 2, 3), (4, 4), mode="circular"),
    lambda F, t: F.interpolate(t.ones(1, 1, 2, 2)),
    lambda F, t: F.interpolate(t.ones(1, 1, 2, 2), size=3, scale_factor=2),
    lambda F, t: F.interpolate(t.ones(1, 1, 2, 2), size=3, mode="linear"),
    lambda F, t: F.interpolate(t.ones(1, 1, 2, 2), size=3, align_corners=True),
])
def test_torch_errors(tt, call):
    torch, tl = tt
    _errors_match(lambda: call(torch.nn.functional, torch), lambda: call(tl.nn.functional, tl))


def test_torch_module_reprs_and_outputs(tt):
    torch, tl = tt
    specs = [("MaxPool2d", (3,), {}), ("MaxPool1d", (2, 1), {}), ("MaxPool3d", (2,), {}),
             ("AvgPool1d", (3,), {}), ("AvgPool2d", (2,), {}), ("AvgPool3d", (2,), {"padding": 1}),
             ("AdaptiveAvgPool2d", ((None, 2),), {}), ("AdaptiveAvgPool1d", (2,), {}),
             ("AdaptiveAvgPool3d", (1,), {}), ("AdaptiveMaxPool2d", (1,), {}),
             ("AdaptiveMaxPool1d", (2,), {}), ("MaxUnpool2d", (2,), {}), ("ZeroPad2d", (1,), {}),
             ("ConstantPad1d", (2, 3.5), {}), ("ConstantPad2d", ((1, 2, 3, 4), 1), {}),
             ("ReflectionPad1d", (2,), {}), ("ReflectionPad2d", ((1, 1, 2, 0),), {}),
             ("ReplicationPad1d", (1,), {}), ("ReplicationPad2d", (1,), {}),
             ("Upsample", (), {"scale_factor": 2}),
             ("Upsample", (), {"size": (3, 4), "mode": "bilinear"}),
             ("UpsamplingNearest2d", (), {"scale_factor": 2}),
             ("UpsamplingBilinear2d", (), {"size": 3}), ("PixelShuffle", (2,), {}),
             ("PixelUnshuffle", (2,), {}), ("ChannelShuffle", (2,), {})]
    for name, args, kw in specs:
        r, m = getattr(torch.nn, name)(*args, **kw), getattr(tl.nn, name)(*args, **kw)
        assert repr(m) == repr(r), name
        if name.startswith("MaxUnpool"):
            continue
        nd = 5 if "3d" in name else (3 if "1d" in name else 4)
        a = RNG.standard_normal((1, 4, 6, 6, 4)[:nd])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ro, mo = r(torch.tensor(a)), m(tl.tensor(a))
        assert_kernels_close(mo.numpy(), ro.numpy(), n=64)


# ---------------------------------------------------------------- paddle
@pytest.fixture(scope="module")
def pp():
    paddle = pytest.importorskip("paddle")
    import paddlelike
    return paddle, paddlelike


def _paddle_pair(pp, fn, a, *args, **kw):
    paddle, pl = pp
    x = paddle.to_tensor(a, stop_gradient=False)
    y = pl.to_tensor(a, stop_gradient=False)
    r = getattr(paddle.nn.functional, fn)(x, *args, **kw)
    m = getattr(pl.nn.functional, fn)(y, *args, **kw)
    if isinstance(r, (tuple, list)):
        np.testing.assert_array_equal(m[1].numpy(), r[1].numpy())
        assert str(m[1].dtype) == str(r[1].dtype)
        r, m = r[0], m[0]
    assert tuple(m.shape) == tuple(r.shape)
    assert_kernels_close(m.numpy(), r.numpy(), n=64)
    g = RNG.standard_normal(tuple(r.shape))
    (r * paddle.to_tensor(g)).sum().backward()
    (m * pl.to_tensor(g)).sum().backward()
    # (paddle's float64 pooling gradients divide by a float32 count: float32 tolerance)
    assert_kernels_close(y.grad.numpy(), x.grad.numpy(), n=64, dtype="float32")


@pytest.mark.parametrize("kw", POOL_CASES + [dict(kernel_size=3, stride=2, padding="SAME"),
                                            dict(kernel_size=2, padding=[0, 1, 1, 0])])
def test_paddle_pool2d(pp, kw):
    a = RNG.standard_normal((2, 3, 7, 6))
    if not isinstance(kw.get("padding"), (str, list)):  # (paddle's mask kernel: no SAME)
        _paddle_pair(pp, "max_pool2d", a, return_mask=True, **kw)
    _paddle_pair(pp, "max_pool2d", a, **kw)
    _paddle_pair(pp, "avg_pool2d", a, **kw)
    _paddle_pair(pp, "avg_pool2d", a, exclusive=False, **kw)
    _paddle_pair(pp, "avg_pool2d", a, divisor_override=2, **kw)


def test_paddle_pool_1d_3d_nhwc_nan(pp):
    _paddle_pair(pp, "max_pool1d", RNG.standard_normal((2, 3, 9)), 3, 2, 1, return_mask=True)
    _paddle_pair(pp, "avg_pool1d", RNG.standard_normal((2, 3, 9)), 3, 2, 1, False, True)
    _paddle_pair(pp, "max_pool3d", RNG.standard_normal((1, 2, 5, 4, 6)), 2)
    _paddle_pair(pp, "avg_pool3d", RNG.standard_normal((1, 2, 5, 4, 6)), 2, 1, 1)
    _paddle_pair(pp, "max_pool2d", RNG.standard_normal((1, 6, 5, 3)), 2, data_format="NHWC")
    paddle, pl = pp
    a = np.array([[[[1., np.nan], [3., 2.]]]], dtype="float32")
    r = paddle.nn.functional.max_pool2d(paddle.to_tensor(a), 2)
    m = pl.nn.functional.max_pool2d(pl.to_tensor(a), 2)
    np.testing.assert_array_equal(m.numpy(), r.numpy())  # NaN ignored: 3.0


@pytest.mark.parametrize("a", [np.ones((1, 1, 4, 4)), np.array([[[[1., 3.], [3., 2.]]]])])
def test_paddle_ties(pp, a):
    _paddle_pair(pp, "max_pool2d", a, 2, 1, return_mask=True)
    _paddle_pair(pp, "adaptive_max_pool2d", a, 1, return_mask=True)


def test_paddle_adaptive_unpool(pp):
    a = RNG.standard_normal((2, 3, 7, 5))
    _paddle_pair(pp, "adaptive_avg_pool2d", a, [3, None])
    _paddle_pair(pp, "adaptive_max_pool2d", a, [2, 3], return_mask=True)
    _paddle_pair(pp, "adaptive_avg_pool1d", a[0], 3)
    _paddle_pair(pp, "adaptive_max_pool3d", a[None], [1, 2, 2])
    paddle, pl = pp
    v, i = paddle.nn.functional.max_pool2d(paddle.to_tensor(a), 2, return_mask=True)
    r = paddle.nn.functional.max_unpool2d(v, i, 2, output_size=[7, 5])
    m = pl.nn.functional.max_unpool2d(pl.to_tensor(v.numpy()), pl.to_tensor(i.numpy()), 2,
                                      output_size=[7, 5])
    np.testing.assert_array_equal(m.numpy(), r.numpy())


@pytest.mark.parametrize("x_shape,pad,mode", [
    ((1, 1, 2, 3), [1, 2, 3, 4, 5, 6, 7, 8], "constant"), ((2, 3), [1, 2, 3, 4], "constant"),
    ((1, 2, 3), [1, 2, 3, 4], "constant"), ((1, 2, 4, 5), [1, 2, 2, 1], "reflect"),
    ((1, 2, 4, 5), [1, 2, 2, 1], "replicate"), ((1, 2, 4, 5), [1, 2, 2, 1], "circular"),
    ((1, 2, 5), [2, 1], "reflect"),
])
def test_paddle_pad(pp, x_shape, pad, mode):
    _paddle_pair(pp, "pad", RNG.standard_normal(x_shape), pad, mode)
    if mode == "constant":
        _paddle_pair(pp, "pad", RNG.standard_normal(x_shape), pad, mode, 1.5,
                     pad_from_left_axis=False)


@pytest.mark.parametrize("mode", ["nearest", "bilinear", "bicubic"])
@pytest.mark.parametrize("size", [dict(size=[5, 9]), dict(scale_factor=2),
                                  dict(scale_factor=[0.5, 1.7])])
def test_paddle_interpolate(pp, mode, size):
    a = RNG.standard_normal((2, 3, 4, 5)).astype("float32")
    _paddle_pair(pp, "interpolate", a, mode=mode, **size)
    if mode != "nearest":
        _paddle_pair(pp, "interpolate", a, mode=mode, align_corners=True, **size)
    if mode == "bilinear":
        _paddle_pair(pp, "interpolate", a, mode=mode, align_mode=1, **size)


def test_paddle_shuffles_area_linear(pp):
    _paddle_pair(pp, "interpolate", RNG.standard_normal((2, 3, 4, 5)), size=[3, 2], mode="area")
    _paddle_pair(pp, "interpolate", RNG.standard_normal((2, 3, 5)), size=[8], mode="linear")
    _paddle_pair(pp, "pixel_shuffle", RNG.standard_normal((2, 8, 3, 4)), 2)
    _paddle_pair(pp, "pixel_unshuffle", RNG.standard_normal((2, 2, 4, 6)), 2)
    _paddle_pair(pp, "channel_shuffle", RNG.standard_normal((2, 6, 3, 4)), 3)


@pytest.mark.parametrize("call", [
    lambda F, p: F.max_pool2d(p.ones([3, 4, 4]), 2),
    lambda F, p: F.pad(p.ones([1, 2, 3, 4]), [-1, 0]),
    lambda F, p: F.pad(p.ones([2, 3]), [-1, 0, 0, 0]),
    lambda F, p: F.max_pool2d(p.ones([1, 1, 4, 4]), 2, padding=[0, 1, 1, 0], return_mask=True),
    lambda F, p: F.pad(p.ones([1, 2, 3]), [1, 1], mode="bogus"),
    lambda F, p: F.interpolate(p.ones([1, 1, 2, 2]), size=[3, 3], mode="linear"),
    lambda F, p: F.interpolate(p.ones([1, 1, 2, 2]), size=[3, 3], align_corners=True),
    lambda F, p: F.interpolate(p.ones([1, 1, 2, 2]), scale_factor=2, mode="area"),
    lambda F, p: F.pixel_shuffle(p.ones([1, 1, 5, 5]), 2),
    lambda F, p: F.channel_shuffle(p.ones([1, 3, 2, 2]), 2),
])
def test_paddle_errors(pp, call):
    paddle, pl = pp
    with pytest.raises(Exception) as ref:
        call(paddle.nn.functional, paddle)
    with pytest.raises(Exception) as ours:
        call(pl.nn.functional, pl)
    assert type(ours.value) is type(ref.value)
    assert str(ours.value).split("\n")[0] == str(ref.value).split("\n")[0]


def test_paddle_layer_reprs_and_outputs(pp):
    paddle, pl = pp
    specs = [("MaxPool1D", (2,), {}), ("MaxPool2D", (3,), {}), ("MaxPool3D", (2, 1, 1), {}),
             ("AvgPool1D", (2,), {}), ("AvgPool2D", (2,), {}), ("AvgPool3D", (2,), {}),
             ("AdaptiveAvgPool1D", (2,), {}), ("AdaptiveAvgPool2D", (1,), {}),
             ("AdaptiveAvgPool3D", (1,), {}), ("AdaptiveMaxPool1D", (2,), {}),
             ("AdaptiveMaxPool2D", (1,), {}), ("AdaptiveMaxPool3D", (1,), {}),
             ("MaxUnPool2D", (2,), {}), ("MaxUnPool1D", (2,), {}), ("Pad1D", (1,), {}),
             ("Pad2D", ([1, 2, 3, 4],), {"mode": "reflect"}), ("Pad3D", (1,), {}),
             ("ZeroPad2D", (1,), {}), ("Upsample", (), {"scale_factor": 2}),
             ("Upsample", (), {"size": [3, 4], "mode": "bilinear"}),
             ("UpsamplingNearest2D", (), {"scale_factor": 2}),
             ("UpsamplingBilinear2D", (), {"size": [3, 3]}), ("PixelShuffle", (2,), {}),
             ("PixelUnshuffle", (2,), {}), ("ChannelShuffle", (2,), {})]
    for name, args, kw in specs:
        r, m = getattr(paddle.nn, name)(*args, **kw), getattr(pl.nn, name)(*args, **kw)
        assert repr(m) == repr(r), name
        if name.startswith("MaxUnPool"):
            continue
        nd = 5 if "3D" in name else (3 if "1D" in name else 4)
        a = RNG.standard_normal((1, 4, 6, 6, 4)[:nd]).astype("float32")
        assert_kernels_close(m(pl.to_tensor(a)).numpy(), r(paddle.to_tensor(a)).numpy(), n=64)


# ---------------------------------------------------------------- fake GPU
def test_engine_pool_ops_on_fake_gpu():
    from janusgrad import Tensor
    from janusgrad.array import backend
    from janusgrad.core.autograd import backward
    from janusgrad.nn import pool as P
    from janusgrad.ops import index as I
    from janusgrad.ops import reduce as R

    from .fake_gpu import FakeGpuArray, installed
    gpu = backend.Device("gpu", 0)
    a = RNG.standard_normal((2, 3, 6, 5))
    perm = RNG.permutation(35)[:30].reshape(1, 1, 6, 5).repeat(2, 0).repeat(3, 1)
    calls = [
        lambda x: P.max_pool(x, (2, 2), (1, 2), [(1, 1), (0, 0)], (1, 1), True)[0],
        lambda x: P.avg_pool(x, (3, 2), (2, 1), [(1, 1), (1, 1)], False, "valid"),
        lambda x: P.adaptive_avg_pool(x, (4, 3)),
        lambda x: P.adaptive_max_pool(x, (4, 3))[0],
        lambda x: P.pad(x, [(1, 2), (2, 1)], "reflect"),
        lambda x: P.pad(x, [(1, 2), (-1, 1)], "constant", 1.5),
        lambda x: P.interpolate(x, (7, 3), "linear", True),
        lambda x: P.interpolate(x, (7, 9), "cubic"),
        lambda x: P.interpolate(x, (7, 9), "nearest"),
        lambda x: P.pixel_shuffle(P.pixel_unshuffle(I.getitem(x, (Ellipsis, slice(0, 4),
                                                                    slice(0, 4))), 2), 2),
        lambda x: P.channel_shuffle(x, 3),
        lambda x: P.max_unpool(x, perm, (7, 5)),
    ]
    with installed():
        for f in calls:
            host = Tensor.wrap(a.copy())
            host._rg = True
            out_h = f(host)
            backward((R.sum(out_h),))
            dev = Tensor.wrap(backend.from_host(a.copy(), gpu))
            dev._rg = True
            out_d = f(dev)
            assert isinstance(out_d.array, FakeGpuArray)
            backward((R.sum(out_d),))
            assert isinstance(dev.grad.array, FakeGpuArray)
            np.testing.assert_allclose(backend.to_host(out_d.array), out_h.array)
            np.testing.assert_allclose(backend.to_host(dev.grad.array), host.grad.array)
