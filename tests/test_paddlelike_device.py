"""paddlelike on GPUs: places, the expected device, moves, printing, training and I/O.

Everything runs on the fake GPU (tests/fake_gpu.py: an array type numpy refuses), so a
machine without a GPU tests every GPU code path; a few tests marked ``gpu`` repeat the
essentials on a real GPU through CuPy.  Differential tests check against real CPU paddle
what a CPU build can show (place reprs, set_device('cpu'), the no-GPU errors).
"""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import paddlelike as paddle
from janusgrad.array import backend
from paddlelike import device as pdevice
from tests.fake_gpu import FakeGpuArray, installed

REPO = Path(__file__).resolve().parents[1]
REAL_GPU = backend.gpu_available()
needs_no_gpu = pytest.mark.skipif(REAL_GPU, reason="shows what a machine without a GPU does")
needs_real_gpu = pytest.mark.skipif(not REAL_GPU, reason="needs a usable GPU through CuPy")


@pytest.fixture(autouse=True)
def _fresh_device():
    pdevice.reset_device()
    yield
    pdevice.reset_device()


@pytest.fixture
def fake():
    with installed() as b:
        pdevice.reset_device()
        yield b
    pdevice.reset_device()


def on_gpu(t) -> bool:
    return type(t.array) is FakeGpuArray


# ---------------------------------------------------------------- the expected device
def test_default_device_is_gpu0_when_a_gpu_is_usable(fake):
    assert paddle.get_device() == "gpu:0"
    assert paddle.device.get_device() == "gpu:0"
    assert paddle.is_compiled_with_cuda()
    assert paddle.device.cuda.device_count() == 1
    t = paddle.to_tensor([1.0, 2.0])
    assert on_gpu(t)
    assert t.place == paddle.CUDAPlace(0)
    assert str(t.place) == "Place(gpu:0)" and t.place.is_gpu_place()
    assert t.place.gpu_device_id() == 0 and paddle.get_device(t) == 0


@needs_no_gpu
def test_default_device_is_cpu_without_a_gpu():
    assert paddle.get_device() == "cpu"
    assert not paddle.is_compiled_with_cuda()
    assert paddle.device.cuda.device_count() == 0
    t = paddle.to_tensor([1.0])
    assert str(t.place) == "Place(cpu)" and paddle.get_device(t) == -1


def test_default_follows_the_gpu_being_installed_later():
    with installed():
        assert on_gpu(paddle.ones([2]))
    if not REAL_GPU:
        assert type(paddle.ones([2]).array) is np.ndarray


def test_set_device_and_get_device(fake):
    assert repr(paddle.set_device("cpu")) == "Place(cpu)"
    assert paddle.get_device() == "cpu"
    assert not on_gpu(paddle.zeros([2]))
    assert repr(paddle.set_device("gpu")) == "Place(gpu:0)"
    assert paddle.get_device() == "gpu:0" and on_gpu(paddle.zeros([2]))
    assert repr(paddle.device.set_device("gpu:0")) == "Place(gpu:0)"
    assert repr(paddle.set_device("cuda:0")) == "Place(gpu:0)"
    assert repr(paddle.set_device(paddle.CPUPlace())) == "Place(cpu)"
    assert paddle.get_device() == "cpu"
    with pytest.raises(ValueError, match="Invalid CUDAPlace"):
        paddle.set_device("gpu:1")
    with pytest.raises(ValueError, match="The device must be a string which is like 'cpu'"):
        paddle.set_device("tpu")


def test_synchronize(fake):
    paddle.device.cuda.synchronize()
    paddle.device.cuda.synchronize(0)
    paddle.device.cuda.synchronize("gpu:0")
    paddle.device.synchronize()
    paddle.set_device("cpu")
    with pytest.raises(TypeError, match="device should be gpu"):
        paddle.device.synchronize()


# ---------------------------------------------------------------- placing and moving
def test_place_arguments_of_creation_functions(fake):
    cpu, gpu = paddle.CPUPlace(), paddle.CUDAPlace(0)
    assert not on_gpu(paddle.to_tensor([1, 2], place=cpu))
    assert not on_gpu(paddle.to_tensor([1, 2], place="cpu"))
    assert on_gpu(paddle.to_tensor(np.ones(3), place=gpu))
    paddle.set_device("cpu")
    assert on_gpu(paddle.to_tensor([1, 2], place="gpu:0"))
    for make in (lambda d: paddle.zeros([2, 3], device=d), lambda d: paddle.ones([2], device=d),
                 lambda d: paddle.full([2], 7.0, device=d), lambda d: paddle.empty([2], device=d),
                 lambda d: paddle.arange(5, device=d), lambda d: paddle.arange(0.0, 1.0, 0.25,
                                                                               device=d),
                 lambda d: paddle.linspace(0, 1, 5, device=d), lambda d: paddle.eye(3, device=d),
                 lambda d: paddle.rand([2], device=d), lambda d: paddle.randn([2], device=d),
                 lambda d: paddle.uniform([2], device=d)):
        g, c = make("gpu"), make(cpu)
        assert on_gpu(g) and not on_gpu(c)
        assert g.dtype == c.dtype and g.shape == c.shape


def test_factories_follow_the_expected_place_with_the_same_values(fake):
    def make():
        paddle.seed(3)
        return [paddle.zeros([2]), paddle.ones([2, 2], "int32"), paddle.full([3], 2.5),
                paddle.arange(0.0, 1.0, 0.3), paddle.arange(4), paddle.linspace(-1, 1, 7),
                paddle.eye(2, 3), paddle.rand([3]), paddle.randn([3]), paddle.uniform([3]),
                paddle.randint(0, 9, [4]), paddle.normal(shape=[3]), paddle.to_tensor(3.5)]
    gpu = make()
    paddle.set_device("cpu")
    cpu = make()
    for g, c in zip(gpu, cpu):
        assert on_gpu(g) and not on_gpu(c)
        assert g.dtype == c.dtype
        np.testing.assert_array_equal(g.numpy(), c.numpy())


def test_like_functions_keep_the_place_of_their_input(fake):
    g = paddle.to_tensor([1.0, 2.0])
    c = paddle.to_tensor([1.0, 2.0], place="cpu")
    for fn in (paddle.zeros_like, paddle.ones_like, paddle.empty_like, paddle.rand_like,
               paddle.randn_like, lambda x: paddle.full_like(x, 3.0)):
        assert on_gpu(fn(g)) and not on_gpu(fn(c))
    assert not on_gpu(paddle.zeros_like(g, device="cpu"))
    assert on_gpu(paddle.ones_like(c, device="gpu"))


def test_cuda_and_cpu_round_trips(fake):
    paddle.set_device("cpu")
    c = paddle.to_tensor([[1.0, -2.0], [3.5, 4.0]], stop_gradient=False)
    assert c.cpu() is c
    g = c.cuda()
    assert on_gpu(g) and g.place == paddle.CUDAPlace(0) and g.is_cuda
    assert g.stop_gradient is False and g.grad_fn is not None  # a new leaf
    assert g.cuda() is g and g.cuda(0) is g
    back = g.cpu()
    assert not on_gpu(back) and back.place == paddle.CPUPlace()
    np.testing.assert_array_equal(back.numpy(), c.numpy())
    # paddle's copies between places are not recorded: grads stay on the copy
    (g * 2).sum().backward()
    assert c.grad is None and on_gpu(g.grad)
    with pytest.raises(ValueError, match="device_id must be int|None"):
        c.cuda("0")


def test_tensor_to_forms(fake):
    x = paddle.to_tensor([1, 2, 3])
    assert on_gpu(x)
    y = x.to("cpu")
    assert not on_gpu(y) and y.dtype == paddle.int64
    z = y.to("gpu", "int16")
    assert on_gpu(z) and z.dtype == paddle.int16
    w = paddle.to_tensor([4, 5, 6], place="cpu").to(z)
    assert on_gpu(w) and w.dtype == paddle.int16 and w.tolist() == [4, 5, 6]
    assert x.to("float32").dtype == paddle.float32 and on_gpu(x.to("float32"))
    assert x.to(device=paddle.CPUPlace()).place == paddle.CPUPlace()
    assert x.to(paddle.CUDAPlace(0)) is x
    assert x.to("gpu:0", dtype="int64") is x
    f = paddle.to_tensor([1.0], stop_gradient=False)
    assert f.to("cpu").stop_gradient is False
    with pytest.raises(ValueError, match="device value error"):
        x.to(3.5)
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        x.to(device="cpu", place="cpu")


def test_host_conversions_of_gpu_tensors(fake):
    x = paddle.to_tensor([[1.5, 2.0], [3.0, 4.0]])
    a = x.numpy()
    assert type(a) is np.ndarray and a.tolist() == [[1.5, 2.0], [3.0, 4.0]]
    assert x.tolist() == [[1.5, 2.0], [3.0, 4.0]]
    assert x[1, 0].item() == 3.0 and x.item(3) == 4.0 and float(x.sum()) == 10.5
    assert np.asarray(x).shape == (2, 2)


def test_printing_shows_the_gpu_place(fake):
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    assert repr(x) == ("Tensor(shape=[3], dtype=float32, place=Place(gpu:0), "
                       "stop_gradient=False,\n       [1., 2., 3.])")
    assert str(paddle.to_tensor(True)) == ("Tensor(shape=[], dtype=bool, place=Place(gpu:0), "
                                           "stop_gradient=True,\n       True)")
    lin = paddle.nn.Linear(2, 1)
    assert "place=Place(gpu:0)" in repr(lin.weight)
    assert repr(x.cpu()).startswith("Tensor(shape=[3], dtype=float32, place=Place(cpu),")


def test_mixing_places_raises(fake):
    g = paddle.to_tensor([1.0, 2.0])
    c = paddle.to_tensor([1.0, 2.0], place="cpu")
    with pytest.raises(ValueError, match=r"The tensors must be in the same place.*"
                                         r"Place\(gpu:0\).*Place\(cpu\)"):
        g + c
    with pytest.raises(ValueError, match="The tensors must be in the same place"):
        c * g
    # a 0-d host operand is copied over, as paddle does with every operand
    out = g + paddle.to_tensor(1.0, place="cpu")
    assert on_gpu(out) and out.tolist() == [2.0, 3.0]


# ---------------------------------------------------------------- training and data
def _train(steps: int = 2, opt: str = "Adam"):
    paddle.seed(7)
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 2))
    optimizer = getattr(paddle.optimizer, opt)(learning_rate=0.1, parameters=net.parameters())
    x = paddle.to_tensor(np.linspace(-1, 1, 12, dtype="float32").reshape(3, 4))
    y = paddle.to_tensor([[0.5, -0.5], [1.0, 0.0], [0.0, 1.0]])
    for _ in range(steps):
        loss = paddle.nn.functional.mse_loss(net(x), y)
        loss.backward()
        optimizer.step()
        if _ < steps - 1:
            optimizer.clear_grad()
    return net, optimizer, loss


@pytest.mark.parametrize("opt", ["SGD", "Adam"])
def test_mlp_training_step_on_gpu_equals_cpu(fake, opt):
    net_g, opt_g, loss_g = _train(opt=opt)
    paddle.set_device("cpu")
    net_c, _, loss_c = _train(opt=opt)
    assert on_gpu(loss_g)
    np.testing.assert_allclose(loss_g.item(), loss_c.item(), rtol=1e-6)
    for pg, pc in zip(net_g.parameters(), net_c.parameters()):
        assert on_gpu(pg) and on_gpu(pg.grad)
        np.testing.assert_allclose(pg.numpy(), pc.numpy(), rtol=1e-5, atol=1e-7)
    for name, acc in opt_g.state_dict().items():
        if name != "LR_Scheduler":
            assert on_gpu(acc), name


def test_layer_to_moves_parameters_in_place(fake):
    lin = paddle.nn.Linear(3, 2)
    w = lin.weight
    assert on_gpu(w)
    (lin(paddle.ones([1, 3])).sum()).backward()
    assert lin.to(device="cpu") is lin
    assert lin.weight is w and not on_gpu(w) and not on_gpu(w.grad)
    lin.to("gpu:0")
    assert on_gpu(lin.weight) and on_gpu(lin.bias.grad)
    lin.to(device=paddle.CPUPlace(), dtype="float64")
    assert lin.weight.dtype == paddle.float64 and not on_gpu(lin.weight)


def test_dataloader_batches_stay_on_the_gpu(fake):
    xs = paddle.arange(24, dtype="float32").reshape([12, 2])
    ys = paddle.arange(12)
    loader = paddle.io.DataLoader(paddle.io.TensorDataset([xs, ys]), batch_size=5)
    batches = list(loader)
    assert len(batches) == 3
    for bx, by in batches:
        assert on_gpu(bx) and on_gpu(by)
    assert batches[2][1].tolist() == [10, 11]

    class Numpy(paddle.io.Dataset):
        def __getitem__(self, i):
            return np.full(2, i, "float32"), i

        def __len__(self):
            return 4

    for bx, by in paddle.io.DataLoader(Numpy(), batch_size=2):
        assert on_gpu(bx) and on_gpu(by)


def test_save_and_load_gpu_tensors(fake, tmp_path):
    lin = paddle.nn.Linear(2, 3)
    path = str(tmp_path / "lin.pdparams")
    paddle.save(lin.state_dict(), path)
    with open(path, "rb") as f:
        raw = pickle.load(f)
    assert all(type(raw[k]) is np.ndarray for k in ("weight", "bias"))  # host data
    loaded = paddle.load(path)
    assert on_gpu(loaded["weight"])
    np.testing.assert_array_equal(loaded["weight"].numpy(), lin.weight.numpy())
    other = paddle.nn.Linear(2, 3)
    other.set_state_dict(paddle.load(path, return_numpy=True))
    assert on_gpu(other.weight)
    np.testing.assert_array_equal(other.weight.numpy(), lin.weight.numpy())
    paddle.save({"t": paddle.to_tensor([1.0, 2.0])}, str(tmp_path / "t.pd"))
    assert paddle.load(str(tmp_path / "t.pd"))["t"].tolist() == [1.0, 2.0]


def test_optimizer_state_round_trip_on_gpu(fake, tmp_path):
    net, opt, _ = _train(steps=1)
    path = str(tmp_path / "opt.pdopt")
    paddle.save(opt.state_dict(), path)
    opt.set_state_dict(paddle.load(path, return_numpy=True))  # host data into GPU state
    opt.step()
    for name, acc in opt.state_dict().items():
        if name != "LR_Scheduler":
            assert on_gpu(acc), name


# ---------------------------------------------------------------- the seeds on a "GPU"
SEEDS = next((p.resolve() for p in (REPO / ".." / "shared" / "seeds", REPO / "shared" / "seeds")
              if p.is_dir()), None)
_RUN_WITH_FAKE = ("import runpy, sys; from tests.fake_gpu import installed; "
                  "ctx = installed(); ctx.__enter__(); sys.argv = ['paddlelike', sys.argv[1]]; "
                  "runpy.run_module('paddlelike', run_name='__main__')")


@pytest.mark.skipif(SEEDS is None, reason="seed folder not found")
@pytest.mark.parametrize("script", sorted(p.name for p in SEEDS.glob("paddle*.py"))
                         if SEEDS else [])
def test_paddle_seeds_print_gpu_places_with_a_gpu(script):
    """The .expected files were recorded on a CPU; on a GPU paddle prints Place(gpu:0)
    (the seeds' original text, recorded on a GPU, shows it)."""
    expected = (SEEDS / script).with_suffix(".expected").read_text()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    p = subprocess.run([sys.executable, "-c", _RUN_WITH_FAKE, script], cwd=SEEDS, env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout == expected.replace("Place(cpu)", "Place(gpu:0)")


# ---------------------------------------------------------------- against real CPU paddle
NO_GPU_PROBES = {
    "cpu_place": lambda P: repr(P.CPUPlace()),
    "set_cpu": lambda P: (repr(P.set_device("cpu")), P.get_device(), P.device.get_device()),
    "set_gpu": lambda P: P.set_device("gpu"),
    "set_gpu0": lambda P: P.set_device("gpu:0"),
    "set_cuda": lambda P: P.set_device("cuda"),
    "set_bad": lambda P: P.set_device("cpu:0"),
    "set_xpu": lambda P: P.set_device("xpu"),
    "cuda_place": lambda P: P.CUDAPlace(0),
    "pinned_place": lambda P: P.CUDAPinnedPlace(),
    "compiled": lambda P: (P.is_compiled_with_cuda(), P.device.cuda.device_count()),
    "tensor_place": lambda P: (repr(P.to_tensor([1.0]).place),
                               P.to_tensor([1.0]).place == P.CPUPlace(),
                               P.to_tensor([1.0], place=P.CPUPlace()).place.is_cpu_place(),
                               P.get_device(P.to_tensor(1.0))),
    "tensor_cuda": lambda P: P.to_tensor([1.0]).cuda(),
    "tensor_to_gpu": lambda P: P.to_tensor([1.0]).to("gpu"),
    "tensor_to_cpu": lambda P: (repr(P.to_tensor([1.0]).to("cpu")),
                                repr(P.to_tensor([1, 2]).to("cpu", "float64")),
                                repr(P.to_tensor([1.0]).to(P.CPUPlace()))),
    "tensor_to_none": lambda P: P.to_tensor([1.0]).to(),
    "tensor_cpu": lambda P: repr(P.to_tensor([2.0]).cpu()),
    "sync": lambda P: P.device.cuda.synchronize(),
    "device_sync": lambda P: P.device.synchronize(),
    "zeros_device": lambda P: repr(P.zeros([2], device="cpu")),
}


def _outcome(fn, module):
    try:
        return ("ok", fn(module))
    except Exception as e:  # the error's type and text are the observable
        return (type(e).__name__, str(e))


@needs_no_gpu
@pytest.mark.parametrize("probe", sorted(NO_GPU_PROBES))
def test_without_a_gpu_matches_real_cpu_paddle(probe):
    real = pytest.importorskip("paddle")
    fn = NO_GPU_PROBES[probe]
    try:
        theirs = _outcome(fn, real)
    finally:
        real.set_device("cpu")
    assert _outcome(fn, paddle) == theirs


# ---------------------------------------------------------------- a real GPU (CuPy)
@pytest.mark.gpu
@needs_real_gpu
def test_real_gpu_default_place_and_printing():
    t = paddle.to_tensor([1.0, 2.0])
    assert backend.device_of(t.array).kind == "gpu"
    assert repr(t) == ("Tensor(shape=[2], dtype=float32, place=Place(gpu:0), "
                       "stop_gradient=True,\n       [1., 2.])")
    assert t.cpu().place == paddle.CPUPlace() and t.numpy().tolist() == [1.0, 2.0]


@pytest.mark.gpu
@needs_real_gpu
def test_real_gpu_training_step_equals_cpu():
    net_g, _, loss_g = _train()
    paddle.set_device("cpu")
    net_c, _, loss_c = _train()
    np.testing.assert_allclose(loss_g.item(), loss_c.item(), rtol=1e-5)
    for pg, pc in zip(net_g.parameters(), net_c.parameters()):
        assert backend.device_of(pg.array).kind == "gpu"
        np.testing.assert_allclose(pg.numpy(), pc.numpy(), rtol=1e-4, atol=1e-6)


@pytest.mark.gpu
@needs_real_gpu
def test_real_gpu_mixing_places_raises():
    with pytest.raises(ValueError, match="The tensors must be in the same place"):
        paddle.to_tensor([1.0, 2.0]) + paddle.to_tensor([1.0, 2.0], place="cpu")
