"""Image datasets and transforms (issue 16 §1): janusgrad.host.vision (IDX files, resizing,
normalising), paddle.vision against real paddle on the same IDX files, and torchvision's
subset against its documented behaviour (torchvision is not installed; real torch's
``interpolate`` and Pillow judge the resizing)."""
from __future__ import annotations

import os
import subprocess
import sys
from urllib.error import URLError

import numpy as np
import pytest

import paddlelike
import torchlike
from janusgrad.array import backend
from janusgrad.core.tensor import Tensor
from janusgrad.host import vision as V
from paddlelike import vision as pv
from torchlike.vision import datasets as tvd
from torchlike.vision import transforms as tvt

from .fake_gpu import FakeGpuArray, installed

PIL = pytest.importorskip("PIL.Image")
RNG = np.random.RandomState(0)


def _write_split(folder, prefix, n, gz_images=True, gz_labels=True, seed=0):
    rng = np.random.RandomState(seed)
    images = rng.randint(0, 256, (n, 28, 28)).astype(np.uint8)
    labels = rng.randint(0, 10, n).astype(np.uint8)
    ip = os.path.join(folder, f"{prefix}-images-idx3-ubyte" + (".gz" if gz_images else ""))
    lp = os.path.join(folder, f"{prefix}-labels-idx1-ubyte" + (".gz" if gz_labels else ""))
    V.write_idx(ip, images)
    V.write_idx(lp, labels)
    return ip, lp, images, labels


# ------------------------------------------------------------------ engine
@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "float32", "float64"])
@pytest.mark.parametrize("name", ["a.idx", "a.idx.gz"])
def test_idx_files_round_trip(tmp_path, dtype, name):
    a = (RNG.rand(3, 4, 5) * 100).astype(dtype)
    V.write_idx(tmp_path / name, a)
    b = V.read_idx(tmp_path / name)
    assert b.dtype == a.dtype and b.shape == a.shape and (a == b).all()


def test_idx_reader_finds_gzip_by_content_and_rejects_bad_files(tmp_path):
    a = np.arange(10, dtype=np.uint8)
    V.write_idx(tmp_path / "x.gz", a)
    os.rename(tmp_path / "x.gz", tmp_path / "x")  # gzipped, named without .gz
    assert (V.read_idx(tmp_path / "x") == a).all()
    (tmp_path / "bad").write_bytes(b"\x01\x02\x03\x04")
    with pytest.raises(ValueError, match="not an IDX file"):
        V.read_idx(tmp_path / "bad")
    V.write_idx(tmp_path / "t", np.zeros((4, 3), np.uint8))
    (tmp_path / "t").write_bytes((tmp_path / "t").read_bytes()[:-2])
    with pytest.raises(ValueError, match="truncated"):
        V.read_idx(tmp_path / "t")


@pytest.mark.parametrize("antialias", [False, True])
@pytest.mark.parametrize("size", [(7, 13), (40, 9), (20, 30), (3, 3)])
def test_resize_matches_torch_interpolate(size, antialias):
    torch = pytest.importorskip("torch")
    x = RNG.rand(2, 3, 20, 30).astype(np.float32)
    want = torch.nn.functional.interpolate(torch.tensor(x), size=size, mode="bilinear",
                                           align_corners=False, antialias=antialias).numpy()
    got = V.resize_array(x, *size, antialias=antialias, axes=(-2, -1))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    want = torch.nn.functional.interpolate(torch.tensor(x), size=size, mode="nearest").numpy()
    np.testing.assert_array_equal(V.resize_array(x, *size, "nearest", axes=(-2, -1)), want)


def test_resize_of_a_float_tensor_is_recorded():
    x = Tensor(RNG.rand(1, 4, 6).astype(np.float64), requires_grad=True)
    y = V.resize_tensor(x, 8, 3, antialias=True)
    assert y.shape == (1, 8, 3)
    from janusgrad.core.autograd import backward
    from janusgrad.ops import reduce as R
    backward([R.sum(y)])
    # each output row of the weights sums to one: the gradient is the column sums
    wh = V.resize_weights(np, 4, 8, antialias=True, dtype="float64")
    ww = V.resize_weights(np, 6, 3, antialias=True, dtype="float64")
    np.testing.assert_allclose(x.grad.array[0], np.outer(wh.sum(0), ww.sum(0)), rtol=1e-12)


def test_uint8_resize_rounds_like_pillow():
    img = RNG.randint(0, 256, (20, 30)).astype(np.uint8)
    want = np.asarray(PIL.fromarray(img).resize((13, 7), PIL.BILINEAR))
    got = V.resize_array(img, 7, 13, antialias=True)
    assert got.dtype == np.uint8 and np.abs(got.astype(int) - want).max() <= 1


def test_resize_and_normalize_stay_on_the_fake_gpu():
    with installed():
        a = backend.from_host(RNG.rand(3, 5, 6).astype(np.float32), backend.Device("gpu", 0))
        out = V.resize_array(a, 4, 9, axes=(-2, -1))
        assert type(out) is FakeGpuArray and out.shape == (3, 4, 9)
        t = V.normalize_tensor(Tensor(a), [0.1, 0.2, 0.3], [1.0, 2.0, 3.0])
        assert type(t.array) is FakeGpuArray


# ------------------------------------------------------------------ paddle.vision
paddle_required = pytest.mark.skipif(
    __import__("importlib").util.find_spec("paddle") is None, reason="real paddle absent")


def _paddle():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import paddle
    return paddle


def _np(x):
    return x.numpy() if hasattr(x, "numpy") and not isinstance(x, np.ndarray) else np.asarray(x)


@paddle_required
@pytest.mark.parametrize("backend_name", ["pil", "cv2"])
@pytest.mark.parametrize("cls", ["MNIST", "FashionMNIST"])
def test_paddle_dataset_items_match_real_paddle(tmp_path, backend_name, cls):
    paddle = _paddle()
    ip, lp, images, labels = _write_split(tmp_path, "train", 200)
    real = getattr(paddle.vision.datasets, cls)(image_path=ip, label_path=lp, mode="test",
                                                backend=backend_name)
    ours = getattr(pv.datasets, cls)(image_path=ip, label_path=lp, mode="test",
                                     backend=backend_name)
    assert len(ours) == len(real) == 200
    for i in (0, 57, 199):
        (ri, rl), (oi, ol) = real[i], ours[i]
        assert type(oi) is type(ri)
        assert ol.dtype == rl.dtype == np.int64 and ol.shape == rl.shape == (1,)
        assert ol[0] == rl[0] == labels[i]
        if backend_name == "pil":
            assert oi.mode == ri.mode == "L" and oi.size == ri.size
        else:
            assert oi.dtype == ri.dtype == np.float32 and oi.shape == ri.shape == (28, 28)
        np.testing.assert_array_equal(np.asarray(oi), np.asarray(ri))


@paddle_required
@pytest.mark.parametrize("backend_name", ["pil", "cv2"])
def test_paddle_transformed_dataset_and_loader_match_real_paddle(tmp_path, backend_name):
    paddle = _paddle()
    ip, lp, _, _ = _write_split(tmp_path, "train", 200)

    def make(mod):
        T = mod.vision.transforms
        steps = [T.ToTensor(), T.Normalize([0.5], [0.5])]
        if backend_name == "pil":  # paddle resizes numpy images with OpenCV (absent here)
            steps.insert(0, T.Resize(32))
        ds = mod.vision.datasets.FashionMNIST(image_path=ip, label_path=lp,
                                              transform=T.Compose(steps), backend=backend_name)
        return ds, mod.io.DataLoader(ds, batch_size=8, shuffle=False, return_list=True)

    (rds, rdl), (ods, odl) = make(paddle), make(paddlelike)
    ri, oi = rds[3][0], ods[3][0]
    assert list(oi.shape) == list(ri.shape) and str(oi.dtype) == str(ri.dtype)
    np.testing.assert_allclose(oi.numpy(), ri.numpy(), rtol=1e-5, atol=1e-5)
    (rx, ry), (ox, oy) = next(iter(rdl)), next(iter(odl))
    assert list(ox.shape) == list(rx.shape) and list(oy.shape) == list(ry.shape) == [8, 1]
    assert str(oy.dtype) == str(ry.dtype)
    np.testing.assert_allclose(ox.numpy(), rx.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(oy.numpy(), ry.numpy())


def _same_outcome(fn_real, fn_ours):
    def run(fn):
        try:
            return fn(), None
        except Exception as e:  # noqa: BLE001 - the exception is what is compared
            return None, (type(e), str(e).strip())
    (rv, re_), (ov, oe) = run(fn_real), run(fn_ours)
    assert oe == re_
    if re_ is None:
        r, o = _np(rv), _np(ov)
        assert r.shape == o.shape and r.dtype == o.dtype
        np.testing.assert_allclose(o, r, rtol=1e-5, atol=1e-6)


PIXELS = np.arange(24, dtype=np.uint8).reshape(2, 4, 3) * 10


@paddle_required
@pytest.mark.parametrize("case", [
    ("ToTensor", (), PIXELS), ("ToTensor", (), PIXELS[..., 0]),
    ("ToTensor", ("HWC",), PIXELS), ("ToTensor", (), PIXELS.astype(np.float32)),
    ("ToTensor", (), PIXELS.astype(np.float64)), ("ToTensor", (), [1, 2]),
    ("ToTensor", (), np.zeros((2, 2, 2, 2), np.uint8)),
    ("Normalize", ([0.5, 0.4, 0.3], [0.2, 0.2, 0.2], "HWC"), PIXELS.astype(np.float32)),
    ("Normalize", ([0.5, 0.4, 0.3], [0.2, 0.2, 0.2]), PIXELS.astype(np.float32)),
    ("Normalize", ([0.5, 0.4, 0.3], [0.2, 0.2, 0.2], "HWC", True),
     PIXELS.astype(np.float32)),
    ("Normalize", (127.5, 127.5, "HWC"), PIXELS.astype(np.float32)),
])
def test_paddle_transforms_on_arrays_match_real_paddle(case):
    paddle = _paddle()
    name, args, x = case
    _same_outcome(lambda: getattr(paddle.vision.transforms, name)(*args)(x),
                  lambda: getattr(pv.transforms, name)(*args)(x))


@paddle_required
@pytest.mark.parametrize("size", [32, 10, (7, 9), (40, 20), 20])
@pytest.mark.parametrize("mode", ["L", "RGB"])
def test_paddle_transforms_on_pil_images_match_real_paddle(size, mode):
    paddle = _paddle()
    img = PIL.fromarray(RNG.randint(0, 256, (20, 40, 3)).astype(np.uint8)).convert(mode)
    for mod in (paddle, paddlelike):
        T = mod.vision.transforms
        out = T.Resize(size)(img)
        t = T.ToTensor()(out)
        n = T.normalize(out, [1, 2, 3] if mode == "RGB" else [1], [2, 2, 2] if mode == "RGB"
                        else [2], data_format="HWC")
        if mod is paddle:
            want = (out.size, t.numpy(), list(t.shape), n)
        else:
            assert out.size == want[0] and list(t.shape) == want[2]
            np.testing.assert_allclose(t.numpy(), want[1], rtol=1e-6)
            np.testing.assert_allclose(n, want[3], rtol=1e-6)


@paddle_required
@pytest.mark.parametrize("step", [
    lambda T: T.Resize((7, 13)), lambda T: T.Resize(5), lambda T: T.Resize(10),
    lambda T: T.Normalize([0.5, 0.4, 0.3], [0.2, 0.2, 0.2]),
    lambda T: T.Normalize(0.5, 0.5), lambda T: T.ToTensor(), lambda T: T.ToTensor("HWC"),
])
def test_paddle_transforms_on_tensors_match_real_paddle(step):
    paddle = _paddle()
    x = RNG.rand(3, 10, 20).astype(np.float32)
    _same_outcome(lambda: step(paddle.vision.transforms)(paddle.to_tensor(x)),
                  lambda: step(pv.transforms)(paddlelike.to_tensor(x)))


@paddle_required
def test_paddle_dataset_errors_match_real_paddle(tmp_path):
    paddle = _paddle()
    ip, lp, _, _ = _write_split(tmp_path, "train", 100)
    for kw in (dict(mode="val"), dict(download=False), dict(image_path=ip, download=False),
               dict(image_path=ip, label_path=lp, backend="tensor")):
        _same_outcome(lambda kw=kw: paddle.vision.datasets.MNIST(**kw),
                      lambda kw=kw: pv.datasets.MNIST(**kw))
    assert pv.get_image_backend() == paddle.vision.get_image_backend() == "pil"


def test_paddle_download_retries_then_fails_clearly(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(tmp_path))

    def offline(url, path, md5=None, timeout=30.0):
        raise URLError("no network")
    monkeypatch.setattr(V, "download", offline)
    with pytest.raises(RuntimeError, match="Cannot download https://dataset.bj.bcebos.com/"
                       "fashion_mnist/train-images-idx3-ubyte.gz within retry limit 3"):
        pv.datasets.FashionMNIST()
    assert capsys.readouterr().err.count("Begin to download") == 3


# ------------------------------------------------------------------ torchvision
@pytest.fixture
def fashion_root(tmp_path):
    raw = tmp_path / "FashionMNIST" / "raw"
    raw.mkdir(parents=True)
    train = _write_split(raw, "train", 30, gz_images=False, gz_labels=False, seed=1)
    test = _write_split(raw, "t10k", 10, gz_images=True, gz_labels=False, seed=2)
    return tmp_path, train, test


def test_torchvision_dataset_items_as_documented(fashion_root):
    root, (_, _, images, labels), (_, _, timages, tlabels) = fashion_root
    train = tvd.FashionMNIST(root=str(root), train=True)
    test = tvd.FashionMNIST(root=str(root), train=False, download=True)  # present: no fetch
    assert (len(train), len(test)) == (30, 10)
    img, target = train[4]
    assert isinstance(img, PIL.Image) and img.mode == "L" and img.size == (28, 28)
    assert type(target) is int and target == labels[4]
    np.testing.assert_array_equal(np.asarray(img), images[4])
    assert train.data.dtype == torchlike.uint8 and tuple(train.data.shape) == (30, 28, 28)
    assert train.targets.dtype == torchlike.int64 and tuple(train.targets.shape) == (30,)
    assert train.classes[0] == "T-shirt/top" and train.class_to_idx["Ankle boot"] == 9
    np.testing.assert_array_equal(test.data.numpy(), timages)
    trans = tvt.Compose([tvt.ToTensor()])
    ds = tvd.FashionMNIST(root=str(root), train=True, transform=trans,
                          target_transform=tvt.Lambda(lambda y: y + 100))
    x, y = ds[4]
    assert x.dtype == torchlike.float32 and tuple(x.shape) == (1, 28, 28) and y == labels[4] + 100
    np.testing.assert_array_equal(x.numpy()[0], images[4].astype(np.float32) / np.float32(255))
    assert repr(ds).splitlines() == [
        "Dataset FashionMNIST", "    Number of datapoints: 30", f"    Root location: {root}",
        "    Split: Train", "    StandardTransform", "Transform: Compose(",
        "               ToTensor()", "           )", "Target transform: Lambda()"]


def test_torchvision_loader_as_d2l_uses_it(fashion_root):
    root = str(fashion_root[0])
    trans = tvt.Compose([tvt.Resize(64), tvt.ToTensor()])
    ds = tvd.FashionMNIST(root=root, train=True, transform=trans, download=True)
    it = torchlike.utils.data.DataLoader(ds, 8, shuffle=True, num_workers=4)
    X, y = next(iter(it))
    assert tuple(X.shape) == (8, 1, 64, 64) and X.dtype == torchlike.float32
    assert tuple(y.shape) == (8,) and y.dtype == torchlike.int64
    assert len(it) == 4


def test_torchvision_missing_files_and_offline_download(tmp_path, monkeypatch, capsys):
    with pytest.raises(RuntimeError, match="^Dataset not found. You can use download=True"):
        tvd.MNIST(root=str(tmp_path))

    def offline(url, path, md5=None, timeout=30.0):
        raise URLError("no network")
    monkeypatch.setattr(V, "download", offline)
    with pytest.raises(RuntimeError, match="Error downloading train-images-idx3-ubyte.gz:\n"
                       "Tried https://ossci-datasets.s3.amazonaws.com/mnist/, got:\n"):
        tvd.MNIST(root=str(tmp_path), download=True)
    assert "Downloading https://ossci-datasets" in capsys.readouterr().out


def test_torchvision_transforms_as_documented():
    x = PIXELS
    t = tvt.ToTensor()(x)
    assert tuple(t.shape) == (3, 2, 4) and t.dtype == torchlike.float32
    np.testing.assert_array_equal(t.numpy(), x.transpose(2, 0, 1).astype(np.float32) / 255)
    f = tvt.ToTensor()(x.astype(np.float64))
    assert f.dtype == torchlike.float64 and float(f.max()) == 230.0  # not scaled
    assert tuple(tvt.ToTensor()(x[..., 0]).shape) == (1, 2, 4)
    with pytest.raises(TypeError, match="pic should be PIL Image or ndarray. Got <class 'list'>"):
        tvt.ToTensor()([1])
    with pytest.raises(ValueError, match="pic should be 2/3 dimensional. Got 4 dimensions."):
        tvt.ToTensor()(np.zeros((1, 1, 1, 1), np.uint8))
    n = tvt.Normalize([0.5, 0.25, 0.0], [0.5, 0.5, 2.0])(t)
    np.testing.assert_allclose(n.numpy(), (t.numpy() - np.array([0.5, 0.25, 0.0])[:, None, None])
                               / np.array([0.5, 0.5, 2.0])[:, None, None], rtol=1e-6)
    with pytest.raises(TypeError, match="img should be Tensor Image"):
        tvt.Normalize([0.5], [0.5])(x)
    with pytest.raises(TypeError, match="Input tensor should be a float tensor. Got torch.uint8."):
        tvt.Normalize([0.5], [0.5])(torchlike.zeros(1, 2, 2, dtype=torchlike.uint8))
    with pytest.raises(ValueError, match="std evaluated to zero after conversion to "
                       "torch.float32, leading to division by zero."):
        tvt.Normalize([0.5], [0.0])(t)
    with pytest.raises(ValueError, match=r"Expected tensor to be a tensor image of size "
                       r"\(\.\.\., C, H, W\). Got tensor.size\(\) = torch.Size\(\[2, 4\]\)"):
        tvt.Normalize([0.5], [0.5])(t[0])
    assert repr(tvt.Normalize([0.5], [0.2])) == "Normalize(mean=[0.5], std=[0.2])"
    assert repr(tvt.Resize(3)) == \
        "Resize(size=3, interpolation=bilinear, max_size=None, antialias=True)"
    assert repr(tvt.Compose([tvt.ToTensor()])) == "Compose(\n    ToTensor()\n)"
    with pytest.raises(TypeError, match="Size should be int or sequence. Got <class 'float'>"):
        tvt.Resize(2.5)
    with pytest.raises(ValueError, match="If size is a sequence, it should have 1 or 2 values"):
        tvt.Resize([1, 2, 3])
    with pytest.raises(TypeError, match="Argument lambd should be callable, got 'int'"):
        tvt.Lambda(3)


@pytest.mark.parametrize("size", [64, [10], (7, 9), 28])
@pytest.mark.parametrize("interpolation", ["BILINEAR", "NEAREST"])
def test_torchvision_resize_pil_and_tensors(size, interpolation):
    torch = pytest.importorskip("torch")
    mode = getattr(tvt.InterpolationMode, interpolation)
    img = PIL.fromarray(RNG.randint(0, 256, (28, 40)).astype(np.uint8))
    out = tvt.Resize(size, mode)(img)
    short = size if isinstance(size, int) else size[0]
    want_hw = tuple(size) if isinstance(size, tuple) else (short, int(short * 40 / 28))
    assert (out.size[1], out.size[0]) == want_hw
    if want_hw == (28, 40):
        assert out is img  # already that size: returned as it is
    else:
        pil = getattr(PIL, interpolation)
        np.testing.assert_array_equal(np.asarray(out),
                                      np.asarray(img.resize(want_hw[::-1], pil)))
    x = RNG.rand(2, 1, 28, 40).astype(np.float32)
    got = tvt.Resize(size, mode)(torchlike.tensor(x))
    if want_hw != (28, 40):
        ref = torch.nn.functional.interpolate(
            torch.tensor(x), size=want_hw, mode=mode.value,
            **({"antialias": True, "align_corners": False} if interpolation == "BILINEAR"
               else {})).numpy()
        np.testing.assert_allclose(got.numpy(), ref, rtol=1e-5, atol=1e-6)


def test_torchvision_import_under_the_runner(tmp_path):
    script = tmp_path / "s.py"
    script.write_text("import torchvision\nfrom torchvision import transforms\n"
                      "import torchvision.transforms.functional as F\n"
                      "print(torchvision.__version__, transforms.ToTensor(), F.to_tensor)\n")
    r = subprocess.run([sys.executable, "-m", "torchlike", str(script)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("0.28.0 ToTensor() <function to_tensor")
