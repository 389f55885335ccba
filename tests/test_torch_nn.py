"""torch.nn in torchlike against real torch 2.13: layers, losses, init statistics, module
bookkeeping, printing and misuse."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import torchlike
from torchlike import nn as jnn

torch = pytest.importorskip("torch")


def _pair(a, requires_grad=False):
    a = np.asarray(a)
    t = torch.tensor(a, requires_grad=requires_grad)
    j = torchlike.tensor(a, requires_grad=requires_grad)
    return t, j


def _copy_params(src, dst) -> None:
    """Real torch module's parameters into the torchlike module (same names)."""
    ours = dict(dst.named_parameters())
    for name, p in src.named_parameters():
        with torchlike.no_grad():
            ours[name].copy_(torchlike.tensor(p.detach().numpy()))


def _close(j, t, atol=1e-6):
    np.testing.assert_allclose(np.asarray(j.detach().numpy()), t.detach().numpy(),
                               rtol=1e-5, atol=atol)


# ---------------------------------------------------------------- layers
LAYERS = {
    "Linear": lambda m: m.Linear(4, 3),
    "Linear no bias": lambda m: m.Linear(4, 3, bias=False),
    "ReLU": lambda m: m.ReLU(),
    "Sigmoid": lambda m: m.Sigmoid(),
    "Tanh": lambda m: m.Tanh(),
    "GELU": lambda m: m.GELU(),
    "GELU tanh": lambda m: m.GELU(approximate="tanh"),
    "LeakyReLU": lambda m: m.LeakyReLU(0.2),
    "Softplus": lambda m: m.Softplus(),
    "Softmax": lambda m: m.Softmax(dim=1),
    "LogSoftmax": lambda m: m.LogSoftmax(dim=-1),
    "Flatten": lambda m: m.Flatten(),
    "Flatten 0": lambda m: m.Flatten(0, 1),
    "Identity": lambda m: m.Identity(),
    "Dropout eval": lambda m: m.Dropout(0.5).eval(),
    "Sequential": lambda m: m.Sequential(m.Flatten(), m.Linear(4, 5), m.ReLU(),
                                         m.Linear(5, 2)),
}


@pytest.mark.parametrize("name", LAYERS)
def test_layer_forward_backward_and_repr(name):
    torch.manual_seed(0)
    ref = LAYERS[name](torch.nn)
    ours = LAYERS[name](jnn)
    _copy_params(ref, ours)
    shape = (2, 2, 2) if "Flatten" in name or name == "Sequential" else (2, 4)
    x = np.random.default_rng(1).normal(size=shape).astype(np.float32)
    xt, xj = _pair(x, requires_grad=True)
    yt, yj = ref(xt), ours(xj)
    _close(yj, yt)
    w = np.random.default_rng(2).normal(size=tuple(yt.shape)).astype(np.float32)
    (yt * torch.tensor(w)).sum().backward()
    (yj * torchlike.tensor(w)).sum().backward()
    _close(xj.grad, xt.grad, atol=1e-5)
    for (n1, p1), (n2, p2) in zip(ref.named_parameters(), ours.named_parameters()):
        assert n1 == n2
        _close(p2.grad, p1.grad, atol=1e-5)
    assert repr(ours) == repr(ref)
    assert type(yj.grad_fn).__name__ == type(yt.grad_fn).__name__


def test_linear_default_init_bounds_and_layout():
    lin = jnn.Linear(50, 40)
    assert tuple(lin.weight.shape) == (40, 50) and tuple(lin.bias.shape) == (40,)
    bound = 1 / math.sqrt(50)  # kaiming_uniform(a=sqrt(5)) gives the same bound
    w = lin.weight.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
    assert np.abs(lin.bias.detach().numpy()).max() <= bound
    assert lin.weight.requires_grad and isinstance(lin.weight, jnn.Parameter)
    assert lin.weight.dtype == torchlike.float32


def test_dropout_training_zeroes_and_scales():
    x = torchlike.ones(20000)
    y = jnn.Dropout(0.3)(x).numpy()
    assert abs((y == 0).mean() - 0.3) < 0.02
    np.testing.assert_allclose(y[y != 0], 1 / 0.7, rtol=1e-6)
    assert jnn.Dropout(0.3).eval()(x) is x


# ---------------------------------------------------------------- losses
def _loss_inputs(kind, rng):
    if kind == "regression":
        return rng.normal(size=(4, 3)).astype(np.float32), rng.normal(size=(4, 3)).astype(
            np.float32) * 2
    if kind == "classes":
        return rng.normal(size=(5, 4)).astype(np.float32), np.array([0, 3, 1, 3, 2])
    if kind == "classes ignored":
        return rng.normal(size=(5, 4)).astype(np.float32), np.array([0, -100, 1, 3, -100])
    if kind == "classes 3d":
        return rng.normal(size=(2, 4, 3)).astype(np.float32), rng.integers(0, 4, size=(2, 3))
    if kind == "probs":
        p = rng.random(size=(5, 4)).astype(np.float32)
        return rng.normal(size=(5, 4)).astype(np.float32), p / p.sum(1, keepdims=True)
    if kind == "binary":
        return (rng.random(size=(4, 3)).astype(np.float32) * 0.9 + 0.05,
                rng.random(size=(4, 3)).astype(np.float32))
    if kind == "logits":
        return rng.normal(size=(4, 3)).astype(np.float32) * 3, rng.random(size=(4, 3)).astype(
            np.float32)
    raise AssertionError(kind)


W4 = [0.5, 1.0, 2.0, 0.25]
LOSSES = [
    ("MSELoss", {}, "regression"),
    ("L1Loss", {}, "regression"),
    ("SmoothL1Loss", {}, "regression"),
    ("SmoothL1Loss", {"beta": 0.5}, "regression"),
    ("SmoothL1Loss", {"beta": 0.0}, "regression"),
    ("HuberLoss", {}, "regression"),
    ("HuberLoss", {"delta": 0.7}, "regression"),
    ("CrossEntropyLoss", {}, "classes"),
    ("CrossEntropyLoss", {"weight": W4}, "classes"),
    ("CrossEntropyLoss", {"label_smoothing": 0.2}, "classes"),
    ("CrossEntropyLoss", {"label_smoothing": 0.1, "weight": W4}, "classes"),
    ("CrossEntropyLoss", {}, "classes ignored"),
    ("CrossEntropyLoss", {"weight": W4, "label_smoothing": 0.3}, "classes ignored"),
    ("CrossEntropyLoss", {"ignore_index": 3}, "classes"),
    ("CrossEntropyLoss", {}, "classes 3d"),
    ("CrossEntropyLoss", {}, "probs"),
    ("CrossEntropyLoss", {"weight": W4}, "probs"),
    ("CrossEntropyLoss", {"label_smoothing": 0.25}, "probs"),
    ("NLLLoss", {}, "classes"),
    ("NLLLoss", {"weight": W4}, "classes"),
    ("NLLLoss", {}, "classes ignored"),
    ("BCELoss", {}, "binary"),
    ("BCELoss", {"weight": [[1.0, 2.0, 0.5]]}, "binary"),
    ("BCEWithLogitsLoss", {}, "logits"),
    ("BCEWithLogitsLoss", {"pos_weight": [1.0, 3.0, 0.5]}, "logits"),
    ("BCEWithLogitsLoss", {"weight": [[2.0, 1.0, 0.5]]}, "logits"),
]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("case", LOSSES, ids=[f"{n}-{k}-{o}" for n, o, k in LOSSES])
def test_loss_value_and_gradient(case, reduction):
    name, opts, kind = case
    x, y = _loss_inputs(kind, np.random.default_rng(len(name) + len(opts)))
    tensors = {k: np.asarray(v, dtype=np.float32) for k, v in opts.items()
               if isinstance(v, list)}
    ref = getattr(torch.nn, name)(reduction=reduction, **{**opts, **{
        k: torch.tensor(v) for k, v in tensors.items()}})
    ours = getattr(jnn, name)(reduction=reduction, **{**opts, **{
        k: torchlike.tensor(v) for k, v in tensors.items()}})
    xt, xj = _pair(x, requires_grad=True)
    yt, yj = _pair(y)
    lt, lj = ref(xt, yt), ours(xj, yj)
    assert tuple(lj.shape) == tuple(lt.shape)
    _close(lj, lt, atol=1e-5)
    g = np.random.default_rng(3).normal(size=tuple(lt.shape)).astype(np.float32)
    (lt * torch.tensor(g)).sum().backward()
    (lj * torchlike.tensor(g)).sum().backward()
    _close(xj.grad, xt.grad, atol=1e-5)
    assert repr(ours) == repr(ref)


def test_loss_grad_fn_names():
    x = np.random.default_rng(0).normal(size=(3, 4)).astype(np.float32)
    for f, target in [("mse_loss", x), ("cross_entropy", np.array([0, 1, 3])),
                      ("smooth_l1_loss", x), ("huber_loss", x)]:
        xt, xj = _pair(x, requires_grad=True)
        yt, yj = _pair(target)
        a = getattr(torch.nn.functional, f)(xt * 2, yt)
        b = getattr(jnn.functional, f)(xj * 2, yj)
        assert type(b.grad_fn).__name__ == type(a.grad_fn).__name__, f
        assert repr(b) .split("(")[0] == repr(a).split("(")[0]


def test_mse_loss_warns_on_shape_mismatch_like_torch():
    xt, xj = _pair(np.zeros((3, 1), np.float32))
    yt, yj = _pair(np.zeros(3, np.float32))
    with warnings.catch_warnings(record=True) as wt:
        warnings.simplefilter("always")
        torch.nn.functional.mse_loss(xt, yt)
    with warnings.catch_warnings(record=True) as wj:
        warnings.simplefilter("always")
        jnn.functional.mse_loss(xj, yj)
    assert [str(w.message) for w in wj] == [str(w.message) for w in wt]


# ---------------------------------------------------------------- init
INITS = [
    ("uniform_", {"a": -0.3, "b": 0.5}),
    ("normal_", {"mean": 0.2, "std": 0.3}),
    ("xavier_uniform_", {}),
    ("xavier_uniform_", {"gain": 2.0}),
    ("xavier_normal_", {}),
    ("kaiming_uniform_", {}),
    ("kaiming_uniform_", {"a": math.sqrt(5)}),
    ("kaiming_uniform_", {"mode": "fan_out", "nonlinearity": "relu"}),
    ("kaiming_normal_", {"nonlinearity": "relu"}),
    ("kaiming_normal_", {"mode": "fan_out"}),
    ("trunc_normal_", {"std": 0.5, "a": -0.4, "b": 0.6}),
]


@pytest.mark.parametrize("case", INITS, ids=[f"{n}{o}" for n, o in INITS])
def test_init_statistics_match_torch(case):
    name, opts = case
    t = torch.empty(300, 200, 2)
    j = torchlike.empty(300, 200, 2)
    getattr(torch.nn.init, name)(t, **opts)
    out = getattr(jnn.init, name)(j, **opts)
    assert out is j
    a, b = j.numpy(), t.numpy()
    assert abs(a.mean() - b.mean()) < 0.02 * max(b.std(), 1e-3) + 2e-3
    assert abs(a.std() / b.std() - 1) < 0.02
    if "uniform" in name or "trunc" in name:  # bounded: the same support as torch's
        assert a.min() >= b.min() - 0.01 * b.std() and a.max() <= b.max() + 0.01 * b.std()
        assert a.min() <= b.min() + 0.01 * b.std() and a.max() >= b.max() - 0.01 * b.std()


def test_constant_zeros_ones_and_gain():
    j = torchlike.empty(3, 2)
    assert (jnn.init.constant_(j, 0.25).numpy() == 0.25).all()
    assert (jnn.init.zeros_(j).numpy() == 0).all()
    assert (jnn.init.ones_(j).numpy() == 1).all()
    for nl, p in [("relu", None), ("tanh", None), ("leaky_relu", 0.2), ("sigmoid", None),
                  ("linear", None), ("selu", None)]:
        assert jnn.init.calculate_gain(nl, p) == pytest.approx(torch.nn.init.calculate_gain(nl, p))


def test_init_on_a_parameter_is_not_recorded():
    p = jnn.Linear(3, 2).weight
    jnn.init.normal_(p, std=0.01)
    assert p.is_leaf and p.grad_fn is None and p.requires_grad


# ---------------------------------------------------------------- module bookkeeping
class _Net:
    @staticmethod
    def build(nn, t):
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.hidden = nn.Linear(3, 4)
                self.scale = nn.Parameter(t.ones(2))
                self.register_buffer("running", t.zeros(2))
                self.register_buffer("tmp", t.zeros(1), persistent=False)
                self.blocks = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4), nn.ReLU()])
                self.out = nn.Sequential(nn.Linear(4, 2))

            def forward(self, x):
                h = self.hidden(x)
                for b in self.blocks:
                    h = b(h)
                return self.out(h) * self.scale
        return Net()


def test_module_bookkeeping_matches_torch():
    ref, ours = _Net.build(torch.nn, torch), _Net.build(jnn, torchlike)
    assert repr(ours) == repr(ref)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in ref.named_parameters()]
    assert [n for n, _ in ours.named_buffers()] == [n for n, _ in ref.named_buffers()]
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in ref.named_modules()]
    assert [type(m).__name__ for m in ours.children()] == [
        type(m).__name__ for m in ref.children()]
    sd_ref, sd_ours = ref.state_dict(), ours.state_dict()
    assert list(sd_ours) == list(sd_ref)
    assert [tuple(v.shape) for v in sd_ours.values()] == [tuple(v.shape) for v in sd_ref.values()]
    assert not any(isinstance(v, jnn.Parameter) for v in sd_ours.values())
    assert type(sd_ours).__name__ == "OrderedDict"
    ours.eval()
    assert not any(m.training for m in ours.modules())
    ours.train()
    assert all(m.training for m in ours.modules())
    seen = []
    ours.apply(lambda m: seen.append(type(m).__name__))
    ref_seen = []
    ref.apply(lambda m: ref_seen.append(type(m).__name__))
    assert seen == ref_seen


def test_zero_grad_requires_grad_and_to():
    net = jnn.Sequential(jnn.Linear(2, 2))
    net(torchlike.ones(1, 2)).sum().backward()
    assert net[0].weight.grad is not None
    net.zero_grad()
    assert net[0].weight.grad is None
    net(torchlike.ones(1, 2)).sum().backward()
    net.zero_grad(set_to_none=False)
    assert (net[0].weight.grad.numpy() == 0).all()
    net.requires_grad_(False)
    assert not net[0].weight.requires_grad
    w = net[0].weight
    net.to(torchlike.float64)
    assert net[0].weight is w and w.dtype == torchlike.float64


def test_sequential_indexing_len_append_and_state_dict_printing():
    ref = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU())
    ours = jnn.Sequential(jnn.Linear(2, 3), jnn.ReLU())
    ref.append(torch.nn.Linear(3, 1))
    ours.append(jnn.Linear(3, 1))
    assert len(ours) == len(ref) == 3
    assert repr(ours[-1]) == repr(ref[-1])
    assert repr(ours[1:]) == repr(ref[1:])
    _copy_params(ref, ours)
    assert repr(ours.state_dict()) == repr(ref.state_dict())
    assert repr(ours[0].bias) == repr(ref[0].bias)
    assert str(ours[0].weight) == str(ref[0].weight)


def test_parameter_ops_give_plain_tensors():
    p = jnn.Parameter(torchlike.ones(2))
    assert type(p * 2) is torchlike.Tensor
    assert type(p.detach()) is torchlike.Tensor
    assert type(p.data) is torchlike.Tensor
    assert isinstance(p, torchlike.Tensor)


# ---------------------------------------------------------------- misuse
def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - comparing what each framework raises
        return type(e).__name__, str(e)
    return None


def _both(build):
    return _error(lambda: build(torch)), _error(lambda: build(torchlike))


@pytest.mark.parametrize("build", [
    lambda t: t.nn.Linear(3, 2)(t.ones(4, 5)),
    lambda t: t.nn.Linear(3, 2)(t.ones(5)),
    lambda t: t.nn.Linear(3, 2)(t.ones(2, 4, 5)),
    lambda t: t.nn.functional.cross_entropy(t.ones(3, 4), t.tensor([0, 1, 4])),
    lambda t: t.nn.functional.cross_entropy(t.ones(3, 4), t.tensor([0, -1, 2])),
    lambda t: t.nn.functional.nll_loss(t.ones(3, 4), t.tensor([0, 7, 2])),
    lambda t: t.nn.CrossEntropyLoss(reduction="none")(t.ones(2, 3), t.tensor([[0], [1]])),
    lambda t: t.nn.functional.binary_cross_entropy_with_logits(t.ones(3), t.ones(2)),
    lambda t: t.nn.Dropout(1.5),
    lambda t: t.optim.SGD([], lr=0.1),
    lambda t: t.optim.Adam([], lr=0.1),
    lambda t: t.optim.SGD(t.nn.Parameter(t.ones(2)), lr=0.1),
    lambda t: t.optim.SGD([t.nn.Parameter(t.ones(2))], lr=-1.0),
], ids=["linear in-features", "linear 1-D", "linear 3-D", "ce index high", "ce index negative",
        "nll index", "ce multi-target", "bce logits size", "dropout p", "sgd empty",
        "adam empty", "sgd tensor", "sgd lr"])
def test_misuse_raises_like_torch(build):
    real, ours = _both(build)
    assert real is not None
    assert ours == real


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("state", ["missing", "unexpected", "both", "shape", "nested"])
def test_load_state_dict_errors_like_torch(state, strict):
    def build(t):
        net = t.nn.Sequential(t.nn.Linear(2, 3), t.nn.ReLU(), t.nn.Linear(3, 1))
        sd = dict(net.state_dict())
        if state in ("missing", "both"):
            del sd["2.bias"]
        if state in ("unexpected", "both"):
            sd["3.weight"] = t.zeros(1)
            sd["extra"] = t.zeros(1)
        if state == "shape":
            sd["0.weight"] = t.zeros(2, 2)
        if state == "nested":
            del sd["0.weight"]
            sd["0.weight.x"] = t.zeros(1)
        return repr(net.load_state_dict(sd, strict=strict))

    real, ours = _error(lambda: build(torch)), _error(lambda: build(torchlike))
    if real is None:
        assert build(torchlike) == build(torch)
    else:
        assert ours == real


def test_container_edits_keep_order():
    """Assigning to a position keeps it in place; insert/del renumber; torch's errors."""
    def build(m):
        ml = m.nn.ModuleList([m.nn.ReLU(), m.nn.Tanh()])
        ml[0] = m.nn.Sigmoid()
        ml.insert(1, m.nn.Flatten())
        ml += [m.nn.ReLU()]
        del ml[0]
        seq = m.nn.Sequential(m.nn.ReLU(), m.nn.Tanh())
        seq[-2] = m.nn.Sigmoid()
        seq.insert(2, m.nn.ReLU())
        del seq[1:2]
        out = [repr(ml), list(ml._modules), repr(seq), repr(seq + seq), repr(seq[::-1])]
        for bad in (lambda: ml[5], lambda: seq.insert(9, m.nn.ReLU()), lambda: seq[-9]):
            try:
                bad()
            except IndexError as e:
                out.append(str(e))
        return out
    assert build(torch) == build(torchlike)
