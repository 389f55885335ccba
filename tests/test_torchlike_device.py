"""torchlike on devices: torch.device, device= on factories, moves, printing and errors.

Every GPU code path runs on the fake GPU (tests/fake_gpu.py: an array type numpy refuses),
so CI without a GPU covers them; what a CPU build of torch can show (device objects, the
CPU paths, the errors of a build without CUDA, files saved from CUDA tensors) is compared
with real torch.  Tests marked ``gpu`` run on a real GPU through CuPy and skip without one.
"""
from __future__ import annotations

import io

import numpy as np
import pytest

import torchlike as torch
from janusgrad.array import backend
from tests.fake_gpu import FakeGpuArray, installed
from torchlike.utils.data import DataLoader, TensorDataset


@pytest.fixture
def gpu():
    with installed():
        yield


@pytest.fixture
def no_gpu():
    if backend.gpu_available():
        pytest.skip("a GPU is usable here: the no-CUDA behaviour cannot be shown")


def outcome(f):
    """What a call gives: ('ok', repr) or (exception type name, message)."""
    try:
        return "ok", repr(f())
    except Exception as e:  # noqa: BLE001 - the exception is the observation
        return type(e).__name__, str(e)


def on_gpu(t) -> bool:
    return type(t.array) is FakeGpuArray


CUDA0 = torch.device("cuda", 0)


# ---------------------------------------------------------------- torch.device vs real torch
DEVICE_ARGS = [("cpu",), ("cuda",), ("cuda:0",), ("cuda", 0), ("cuda:1",), ("cpu", 0),
               ("cpu:1",), ("mps",), ("meta",), ("gpu",), ("cuda:-1",), ("cuda:x",),
               ("CUDA",), (" cuda",), ("cuda:01",), ("cuda", -1), ("cuda:1", 2)]


def _describe(d):
    return repr(d), str(d), d.type, d.index


@pytest.mark.parametrize("args", DEVICE_ARGS, ids=repr)
def test_device_objects_match_torch(args):
    real = pytest.importorskip("torch")
    ours = outcome(lambda: _describe(torch.device(*args)))
    assert ours == outcome(lambda: _describe(real.device(*args)))


PAIRS = [("cuda", "cuda:0"), ("cuda:0", "cuda:0"), ("cpu", "cpu"), ("cpu", "cpu:0"),
         ("cuda:0", "cuda:1"), ("cpu", "cuda")]


@pytest.mark.parametrize("a,b", PAIRS)
def test_device_equality_and_hash_match_torch(a, b):
    real = pytest.importorskip("torch")
    ours = (torch.device(a) == torch.device(b),
            hash(torch.device(a)) == hash(torch.device(b)))
    theirs = (real.device(a) == real.device(b), hash(real.device(a)) == hash(real.device(b)))
    assert ours == theirs
    assert (torch.device(a) == a) == (real.device(a) == a)


def test_device_from_a_device_and_saving():
    real = pytest.importorskip("torch")
    d = torch.device("cuda", 0)
    assert torch.device(d) == d
    assert d.__reduce__() == (torch.device, ("cuda", 0))
    buf = io.BytesIO()
    torch.save({"d": d, "c": torch.device("cpu")}, buf)
    buf.seek(0)
    assert torch.load(buf) == {"d": d, "c": torch.device("cpu")}
    buf.seek(0)
    assert real.load(buf) == {"d": real.device("cuda", 0), "c": real.device("cpu")}
    with pytest.raises(AttributeError):
        d.index = 1


# ---------------------------------------------------------------- a CPU build of torch
def _no_cuda_calls(t):
    x = t.tensor([1.0])
    lin = t.nn.Linear(2, 2)
    return {
        "zeros": lambda: t.zeros(2, device="cuda"),
        "zeros_index": lambda: t.zeros(2, device=0),
        "tensor": lambda: t.tensor([1.0], device="cuda:0"),
        "randn": lambda: t.randn(2, device="cuda"),
        "arange": lambda: t.arange(3, device=t.device("cuda")),
        "new_zeros": lambda: x.new_zeros(2, device="cuda"),
        "zeros_like": lambda: t.zeros_like(x, device="cuda"),
        "to": lambda: x.to("cuda"),
        "to_dtype": lambda: x.to("cuda", t.float64),
        "cuda": lambda: x.cuda(),
        "cuda_index": lambda: x.cuda(0),
        "cuda_cpu": lambda: x.cuda("cpu"),
        "module_cuda": lambda: lin.cuda(),
        "module_cuda_index": lambda: lin.cuda(0),
        "module_to": lambda: lin.to("cuda"),
        "is_available": lambda: t.cuda.is_available(),
        "device_count": lambda: t.cuda.device_count(),
        "current_device": lambda: t.cuda.current_device(),
        "synchronize": lambda: t.cuda.synchronize(),
        "manual_seed": lambda: t.cuda.manual_seed(1),
        "manual_seed_all": lambda: t.cuda.manual_seed_all(1),
        "initial_seed": lambda: t.cuda.initial_seed(),
        "get_device_name": lambda: t.cuda.get_device_name(0),
        "to_cpu": lambda: x.to("cpu"),
        "device": lambda: x.device,
        "is_cuda": lambda: x.is_cuda,
        "get_device": lambda: x.get_device(),
        "type": lambda: x.type(),
    }


@pytest.mark.parametrize("name", sorted(_no_cuda_calls(torch)))
def test_without_a_gpu_cuda_fails_as_a_cpu_build_of_torch(no_gpu, name):
    real = pytest.importorskip("torch")
    assert outcome(_no_cuda_calls(torch)[name]) == outcome(_no_cuda_calls(real)[name])


TO_CALLS = [
    ("cpu",), (None,), ("cpu", None), ("float64",), ("cpu", "float64"), ("float64", "cpu"),
    ("cpu", "cpu"), ("float64", "float64"), ("tensor_i",), ("tensor_i", True, True),
    ("float64", True, False, False), ("cpu", "float64", False, True),
]
TO_KWARGS = [{}, {"copy": True}, {"device": "cpu"}, {"dtype": "float64"},
             {"non_blocking": True}, {"bogus": 1}, {"device": None, "dtype": None}]


def _to_args(t, spec):
    table = {"float64": t.float64, "tensor_i": t.tensor([1, 2])}
    return [table.get(a, a) if isinstance(a, str) else a for a in spec]


# calls of more than five arguments are left out: torch annotates each refused signature
# in its message there, which we do not copy
TO_CASES = [(a, k) for a in TO_CALLS for k in TO_KWARGS if len(a) + len(k) <= 5]


@pytest.mark.parametrize("args, kwargs", TO_CASES, ids=repr)
def test_to_parses_arguments_as_torch(args, kwargs):
    real = pytest.importorskip("torch")

    def call(t):
        x = t.tensor([1.5, 2.5], requires_grad=True)
        kw = {k: (t.float64 if v == "float64" else v) for k, v in kwargs.items()}
        r = x.to(*_to_args(t, args), **kw)
        return r, r is x

    assert outcome(lambda: call(torch)) == outcome(lambda: call(real))


def test_module_to_parses_as_torch():
    real = pytest.importorskip("torch")
    for spec in [("cpu",), ("float64",), ("cpu", "float64"), ("float64", "cpu"), ("cpu", "cpu")]:
        for kwargs in ({}, {"bogus": 1}):
            def call(t, spec=spec, kwargs=kwargs):
                m = t.nn.Linear(2, 2)
                return m.to(*_to_args(t, spec), **kwargs).weight.dtype
            assert outcome(lambda: call(torch)) == outcome(lambda: call(real))
    assert (outcome(lambda: torch.nn.Linear(1, 1).to(torch.int64))
            == outcome(lambda: real.nn.Linear(1, 1).to(real.int64)))


def test_numpy_of_a_device_tensor_fails_before_the_grad_check():
    """torch checks the device first (shown with real torch on its meta device)."""
    real = pytest.importorskip("torch")
    meta = real.zeros(2, device="meta", requires_grad=True)
    with pytest.raises(TypeError, match="can't convert meta device type tensor to numpy. Use "
                                        r"Tensor.cpu\(\) to copy the tensor to host memory "
                                        "first."):
        meta.numpy()


def test_repr_puts_the_device_first_as_torch_does():
    """torch's suffix order (device, size, dtype, grad) shown on its meta device."""
    real = pytest.importorskip("torch")
    t = real.zeros(0, 3, device="meta", dtype=real.int32)
    assert repr(t) == "tensor(..., device='meta', size=(0, 3), dtype=torch.int32)"
    r = real.zeros(2, device="meta", requires_grad=True) * 2
    assert repr(r) == "tensor(..., device='meta', size=(2,), grad_fn=<MulBackward0>)"


# ---------------------------------------------------------------- creation on the GPU
FACTORIES = {
    "tensor": lambda d: torch.tensor([[1.0, 2.0], [3.0, 4.0]], device=d),
    "tensor_int": lambda d: torch.tensor([1, 2, 3], device=d),
    "as_tensor": lambda d: torch.as_tensor([1.0, 2.0], device=d),
    "as_tensor_np": lambda d: torch.as_tensor(np.arange(3.0), device=d),
    "zeros": lambda d: torch.zeros(2, 3, device=d),
    "ones": lambda d: torch.ones((2, 3), dtype=torch.int32, device=d),
    "empty": lambda d: torch.empty(4, device=d),
    "full": lambda d: torch.full((2, 2), 7.0, device=d),
    "arange": lambda d: torch.arange(0, 5, 0.5, device=d),
    "arange_int": lambda d: torch.arange(5, device=d),
    "linspace": lambda d: torch.linspace(0, 1, 7, device=d),
    "eye": lambda d: torch.eye(3, device=d),
    "rand": lambda d: torch.rand(3, 2, device=d),
    "randn": lambda d: torch.randn(3, device=d),
    "randint": lambda d: torch.randint(0, 10, (4,), device=d),
    "normal": lambda d: torch.normal(0.0, 1.0, (3,), device=d),
    "zeros_like": lambda d: torch.zeros_like(torch.ones(2), device=d),
    "ones_like": lambda d: torch.ones_like(torch.ones(2), device=d),
    "full_like": lambda d: torch.full_like(torch.ones(2), 3.0, device=d),
    "rand_like": lambda d: torch.rand_like(torch.ones(2), device=d),
    "randn_like": lambda d: torch.randn_like(torch.ones(2), device=d),
    "new_zeros": lambda d: torch.ones(2).new_zeros(3, device=d),
    "new_ones": lambda d: torch.ones(2).new_ones(3, device=d),
    "new_full": lambda d: torch.ones(2).new_full((3,), 2.0, device=d),
    "new_empty": lambda d: torch.ones(2).new_empty(3, device=d),
    "new_tensor": lambda d: torch.ones(2).new_tensor([1.0, 5.0], device=d),
}


@pytest.mark.parametrize("name", sorted(FACTORIES))
@pytest.mark.parametrize("device", ["cuda", "cuda:0", CUDA0, 0])
def test_factories_create_on_the_device(gpu, name, device):
    torch.manual_seed(3)
    host = FACTORIES[name](None)
    torch.manual_seed(3)
    t = FACTORIES[name](device)
    assert on_gpu(t)
    assert t.device == CUDA0 and t.is_cuda and t.get_device() == 0
    assert t.dtype == host.dtype
    np.testing.assert_array_equal(t.cpu().numpy(), host.numpy())  # same seed, same values


def test_factories_with_cpu_stay_on_the_host(gpu):
    for name, make in FACTORIES.items():
        t = make("cpu")
        assert type(t.array) is np.ndarray, name
        assert t.device == torch.device("cpu") and not t.is_cuda


def test_like_and_new_follow_the_device_of_their_tensor(gpu):
    x = torch.ones(2, 2, device="cuda")
    for t in (torch.zeros_like(x), torch.ones_like(x), torch.empty_like(x),
              torch.full_like(x, 2.0), torch.rand_like(x), torch.randn_like(x),
              x.new_zeros(3), x.new_ones(3), x.new_empty(3), x.new_full((2,), 1.0),
              x.new_tensor([1.0, 2.0])):
        assert on_gpu(t)
    assert not on_gpu(torch.zeros_like(x, device="cpu"))
    assert not on_gpu(x.new_zeros(3, device="cpu"))


def test_random_fills_in_place_stay_on_the_device(gpu):
    x = torch.zeros(3, device="cuda")
    x.normal_()
    x.uniform_(0, 1)
    assert on_gpu(x)


# ---------------------------------------------------------------- moves
def test_to_cuda_cpu_round_trips(gpu):
    x = torch.tensor([1.0, 2.0, 3.0])
    y = x.to("cuda")
    assert on_gpu(y) and y.device == CUDA0
    assert y.to("cuda") is y and y.cuda() is y and x.cpu() is x and x.to("cpu") is x
    z = y.cpu()
    assert type(z.array) is np.ndarray
    np.testing.assert_array_equal(z.numpy(), x.numpy())
    for moved in (x.cuda(), x.cuda(0), x.cuda("cuda:0"), x.to(CUDA0), x.to(0),
                  x.to(device="cuda"), x.to(torch.ones(1, device="cuda")),
                  x.to("cuda", torch.float64), x.to(device="cuda", dtype=torch.float64),
                  x.to("cuda", non_blocking=True)):
        assert on_gpu(moved)
    assert x.to("cuda", torch.float64).dtype == torch.float64
    assert x.to(torch.ones(1, dtype=torch.float64, device="cuda")).dtype == torch.float64
    c = y.to("cuda", copy=True)
    assert c is not y and on_gpu(c)
    with pytest.raises(RuntimeError, match="Invalid device, must be cuda device"):
        x.cuda("cpu")


def test_a_move_is_differentiable_back_to_the_source_device(gpu):
    w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = w.cuda()
    assert y.grad_fn.name() == "ToCopyBackward0"
    assert repr(y) == "tensor([ 1., -2.,  3.], device='cuda:0', grad_fn=<ToCopyBackward0>)"
    (y * y).sum().backward()
    assert type(w.grad.array) is np.ndarray  # the leaf's grad lives with the leaf
    np.testing.assert_array_equal(w.grad.numpy(), [2.0, -4.0, 6.0])
    v = torch.tensor([1.0, 2.0], device="cuda", requires_grad=True)
    (v.cpu() * 3).sum().backward()
    assert on_gpu(v.grad)
    np.testing.assert_array_equal(v.grad.cpu().numpy(), [3.0, 3.0])


def test_second_derivatives_through_a_move(gpu):
    w = torch.tensor([2.0], requires_grad=True)
    y = (w.cuda() ** 3).sum()
    (g,) = torch.autograd.grad(y, w, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), w)
    assert g.item() == 12.0 and h.item() == 12.0
    assert type(h.array) is np.ndarray


def test_copy_crosses_devices(gpu):
    c = torch.zeros(2)
    g = torch.tensor([1.0, 2.0], device="cuda")
    c.copy_(g)
    assert type(c.array) is np.ndarray and c.tolist() == [1.0, 2.0]
    g.copy_(torch.tensor([5.0, 6.0]))
    assert on_gpu(g) and g.tolist() == [5.0, 6.0]


def test_scalars_and_lists_copy_to_the_host(gpu):
    g = torch.tensor([[1.5, 2.5]], device="cuda")
    assert g.sum().item() == 4.0 and float(g.sum()) == 4.0 and g.tolist() == [[1.5, 2.5]]
    assert int(torch.tensor(3, device="cuda")) == 3 and bool(torch.tensor(True, device="cuda"))
    assert f"{g.sum():.1f}" == "4.0"


def test_type_names_the_cuda_tensor_type(gpu):
    assert torch.ones(1, device="cuda").type() == "torch.cuda.FloatTensor"
    assert torch.ones(1, dtype=torch.int64, device="cuda").type() == "torch.cuda.LongTensor"


# ---------------------------------------------------------------- printing and errors
REPRS = [
    (lambda: torch.tensor([1.0, 2.0], device="cuda"), "tensor([1., 2.], device='cuda:0')"),
    (lambda: torch.tensor(3.5, device="cuda"), "tensor(3.5000, device='cuda:0')"),
    (lambda: torch.tensor([1, 2], dtype=torch.int32, device="cuda"),
     "tensor([1, 2], device='cuda:0', dtype=torch.int32)"),
    (lambda: torch.tensor([1.0], device="cuda", requires_grad=True),
     "tensor([1.], device='cuda:0', requires_grad=True)"),
    (lambda: torch.tensor([1.0], device="cuda", requires_grad=True) * 2,
     "tensor([2.], device='cuda:0', grad_fn=<MulBackward0>)"),
    (lambda: torch.zeros(0, 3, dtype=torch.int32, device="cuda"),
     "tensor([], device='cuda:0', size=(0, 3), dtype=torch.int32)"),
    (lambda: torch.zeros(0, device="cuda"), "tensor([], device='cuda:0')"),
    (lambda: torch.ones(2, 2, dtype=torch.float64, device="cuda"),
     "tensor([[1., 1.],\n        [1., 1.]], device='cuda:0', dtype=torch.float64)"),
    (lambda: torch.nn.Parameter(torch.zeros(2, device="cuda")),
     "Parameter containing:\ntensor([0., 0.], device='cuda:0', requires_grad=True)"),
]


@pytest.mark.parametrize("make,expected", REPRS)
def test_repr_shows_the_device_where_torch_does(gpu, make, expected):
    assert repr(make()) == expected
    assert str(make()) == expected


def test_repr_of_a_long_tensor_wraps_the_suffixes_as_torch(gpu):
    """The body is the CPU one; the device comes first among the suffixes, which wrap
    at torch's line width."""
    real = pytest.importorskip("torch")
    data = [[0.123456, 1234.5, -7.25] * 4] * 2
    ours = repr(torch.tensor(data, dtype=torch.float64, device="cuda", requires_grad=True))
    cpu = repr(real.tensor(data, dtype=real.float64, requires_grad=True))
    body = cpu[:cpu.rindex("]]") + 2]
    assert ours == body + (", device='cuda:0', dtype=torch.float64,\n"
                           "       requires_grad=True)")


def test_numpy_of_a_cuda_tensor_raises_torchs_type_error(gpu):
    text = ("can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the "
            "tensor to host memory first.")
    g = torch.ones(2, device="cuda", requires_grad=True)
    for call in (g.numpy, g.detach().numpy, lambda: np.asarray(g.detach())):
        with pytest.raises(TypeError) as e:
            call()
        assert str(e.value) == text
    np.testing.assert_array_equal(g.numpy(force=True), [1.0, 1.0])
    assert type(g.cpu().detach().numpy()) is np.ndarray


SAME_DEVICE = ("Expected all tensors to be on the same device, but found at least two "
               "devices, cuda:0 and cpu!")


def _mixes(c, g):
    return {
        "add": lambda: g + c, "radd": lambda: c + g, "mul": lambda: c * g,
        "matmul": lambda: c @ g, "cat": lambda: torch.cat([g, c]),
        "stack": lambda: torch.stack([c, g]), "where": lambda: torch.where(c > 0, g, c),
        "mse": lambda: torch.nn.functional.mse_loss(g, c),
        "iadd": lambda: c.add_(g),
    }


@pytest.mark.parametrize("op", sorted(_mixes(None, None)))
def test_mixing_devices_raises_torchs_error(gpu, op):
    c = torch.ones(2, 2)
    g = torch.ones(2, 2, device="cuda")
    with pytest.raises(RuntimeError) as e:
        _mixes(c, g)[op]()
    assert str(e.value) == SAME_DEVICE


def test_a_0d_cpu_tensor_joins_a_cuda_op(gpu):
    g = torch.tensor([1.0, 2.0], device="cuda")
    s = torch.tensor(3.0)
    for r in (g + s, s + g, g * s, s * g, g - s, s / g, torch.maximum(g, s)):
        assert on_gpu(r)
    assert (g + s).tolist() == [4.0, 5.0]
    assert on_gpu(g.add_(torch.tensor(1.0)))


# ---------------------------------------------------------------- nn, optim, data
def _mlp_run(device):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 5), torch.nn.Tanh(), torch.nn.Linear(5, 2))
    model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    x = torch.randn(8, 3, device=device)
    y = torch.randint(0, 2, (8,), device=device)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model, opt, losses


def test_mlp_training_on_cuda_equals_the_cpu_run(gpu):
    cpu_model, _, cpu_losses = _mlp_run("cpu")
    model, opt, losses = _mlp_run("cuda")
    assert losses == cpu_losses
    for p, q in zip(model.parameters(), cpu_model.parameters()):
        assert on_gpu(p) and on_gpu(p.grad)
        np.testing.assert_array_equal(p.detach().cpu().numpy(), q.detach().numpy())
        state = opt.state[p]
        assert on_gpu(state["exp_avg"]) and on_gpu(state["exp_avg_sq"])
        assert type(state["step"].array) is np.ndarray  # torch keeps the step on the CPU


def test_module_moves_keep_parameter_identity(gpu):
    model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Linear(3, 1))
    model.register_buffer("scale", torch.ones(3))
    params = list(model.parameters())
    model(torch.ones(1, 2)).sum().backward()
    assert model.cuda() is model
    assert all(p is q for p, q in zip(params, model.parameters()))
    assert all(on_gpu(p) and on_gpu(p.grad) for p in params)
    assert on_gpu(model.scale)
    model.to("cpu", torch.float64)
    assert all(p is q for p, q in zip(params, model.parameters()))
    assert all(type(p.array) is np.ndarray and p.dtype == torch.float64 for p in params)
    assert all(p.grad.dtype == torch.float64 for p in params)
    assert model.to(torch.ones(1, device="cuda")) is model
    assert all(on_gpu(p) and p.dtype == torch.float32 for p in params)
    model.cpu()
    assert not any(on_gpu(p) or on_gpu(p.grad) for p in params)


def test_load_state_dict_onto_a_cuda_model(gpu):
    src = torch.nn.Linear(2, 2)
    dst = torch.nn.Linear(2, 2).cuda()
    dst.load_state_dict(src.state_dict())
    assert on_gpu(dst.weight)
    np.testing.assert_array_equal(dst.weight.detach().cpu().numpy(),
                                  src.weight.detach().numpy())


def test_optimizer_state_loads_onto_the_parameters_device(gpu):
    _, opt, _ = _mlp_run("cpu")
    model, opt2, _ = _mlp_run("cuda")
    opt2.load_state_dict(opt.state_dict())
    for p in model.parameters():
        assert on_gpu(opt2.state[p]["exp_avg"])
        assert type(opt2.state[p]["step"].array) is np.ndarray


def test_dataloader_over_cuda_tensors_yields_cuda_tensors(gpu):
    ds = TensorDataset(torch.arange(10.0, device="cuda"), torch.arange(10, device="cuda"))
    seen = []
    for xb, yb in DataLoader(ds, batch_size=4, shuffle=True):
        assert on_gpu(xb) and on_gpu(yb)
        seen += yb.tolist()
    assert sorted(seen) == list(range(10))
    for xb, _ in DataLoader(ds, batch_size=3, collate_fn=lambda b: (
            torch.stack([x for x, _ in b]), None)):
        assert on_gpu(xb)


# ---------------------------------------------------------------- torch.cuda and files
def test_torch_cuda_with_a_gpu(gpu):
    assert torch.cuda.is_available() and torch.cuda.device_count() == 1
    assert torch.cuda.current_device() == 0
    assert torch.cuda.synchronize() is None and torch.cuda.manual_seed_all(1) is None
    assert isinstance(torch.cuda.get_device_name(), str)
    with pytest.raises(RuntimeError, match="CUDA error: invalid device ordinal"):
        torch.zeros(1, device="cuda:1")
    with torch.cuda.device(0):
        assert torch.zeros(1, device="cuda").device == CUDA0


def test_cuda_seeds_leave_the_host_stream_alone(gpu):
    torch.manual_seed(5)
    a = torch.randn(3)
    torch.manual_seed(5)
    torch.cuda.manual_seed_all(99)
    assert torch.randn(3).tolist() == a.tolist()
    torch.manual_seed(5)
    assert torch.randn(3, device="cuda").tolist() == a.tolist()


def _saved_from_cuda() -> bytes:
    with installed():
        buf = io.BytesIO()
        model = torch.nn.Linear(2, 3).cuda()
        torch.save({"x": torch.tensor([[1.0, 2.0]], device="cuda"),
                    "model": model.state_dict()}, buf)
        return buf.getvalue()


def test_cuda_tensors_saved_load_in_real_torch_with_map_location():
    real = pytest.importorskip("torch")
    data = _saved_from_cuda()
    got = real.load(io.BytesIO(data), map_location="cpu")
    assert got["x"].tolist() == [[1.0, 2.0]] and got["model"]["weight"].shape == (3, 2)
    ours = torch.load(io.BytesIO(data), map_location="cpu")
    np.testing.assert_array_equal(ours["model"]["weight"].numpy(),
                                  got["model"]["weight"].numpy())


def test_cuda_files_without_a_gpu_fail_as_in_real_torch(no_gpu):
    real = pytest.importorskip("torch")
    data = _saved_from_cuda()
    for ml in (None, "cuda", {"cpu": "cpu"}):
        assert (outcome(lambda ml=ml: torch.load(io.BytesIO(data), map_location=ml))
                == outcome(lambda ml=ml: real.load(io.BytesIO(data), map_location=ml)))
    for ml in ("cpu", torch.device("cpu"), {"cuda:0": "cpu"}, lambda s, loc: s):
        assert type(torch.load(io.BytesIO(data), map_location=ml)["x"].array) is np.ndarray


def test_load_puts_cuda_storages_back_on_the_gpu(gpu):
    data = _saved_from_cuda()
    got = torch.load(io.BytesIO(data))
    assert on_gpu(got["x"]) and on_gpu(got["model"]["weight"])
    assert not on_gpu(torch.load(io.BytesIO(data), map_location="cpu")["x"])
    buf = io.BytesIO()
    torch.save(torch.ones(2), buf)
    buf.seek(0)
    assert on_gpu(torch.load(buf, map_location="cuda:0"))


# ---------------------------------------------------------------- a real GPU (CuPy)
needs_gpu = pytest.mark.skipif(not backend.gpu_available(), reason="no usable GPU (CuPy)")


@pytest.mark.gpu
@needs_gpu
def test_real_gpu_creation_repr_and_moves():
    x = torch.tensor([1.0, 2.0], device="cuda")
    assert x.is_cuda and backend.device_of(x.array).kind == "gpu"
    assert repr(x) == "tensor([1., 2.], device='cuda:0')"
    assert x.cpu().tolist() == [1.0, 2.0]
    with pytest.raises(RuntimeError, match="same device"):
        x + torch.ones(2)
    with pytest.raises(TypeError, match="can't convert cuda:0 device type tensor"):
        x.numpy()


@pytest.mark.gpu
@needs_gpu
def test_real_gpu_mlp_training_matches_the_cpu():
    cpu_model, _, cpu_losses = _mlp_run("cpu")
    model, opt, losses = _mlp_run("cuda")
    np.testing.assert_allclose(losses, cpu_losses, rtol=1e-5)
    for p, q in zip(model.parameters(), cpu_model.parameters()):
        assert p.is_cuda and p.grad.is_cuda and opt.state[p]["exp_avg"].is_cuda
        np.testing.assert_allclose(p.detach().cpu().numpy(), q.detach().numpy(), rtol=1e-4,
                                   atol=1e-6)


@pytest.mark.gpu
@needs_gpu
def test_real_gpu_dataloader_and_save_load():
    ds = TensorDataset(torch.arange(6.0, device="cuda"))
    for (xb,) in DataLoader(ds, batch_size=4):
        assert xb.is_cuda
    buf = io.BytesIO()
    torch.save(torch.ones(2, device="cuda"), buf)
    buf.seek(0)
    assert torch.load(buf).is_cuda
    buf.seek(0)
    assert not torch.load(buf, map_location="cpu").is_cuda


def test_a_cpu_scalar_that_joined_a_cuda_op_gets_its_grad_on_the_cpu(gpu):
    """torch sends the gradient of a 0-d CPU operand of a CUDA op back to the CPU."""
    s = torch.tensor(2.0, requires_grad=True)
    x = torch.ones(3, device="cuda", requires_grad=True)
    (x * s).sum().backward()
    assert s.grad.device == torch.device("cpu") and s.grad.item() == 3.0
    assert x.grad.is_cuda and x.grad.tolist() == [2.0, 2.0, 2.0]
