"""Loading a checkpoint runs no code (issue 14 §5).

paddlelike.load reproduces paddle.save's pickle format, not its hole: it resolves only the
globals paddle.save writes (checked here against everything real paddle 3.3.1 writes) and
refuses any other with pickle.UnpicklingError; ``weights_only=False`` opts in for a trusted
file.  torchlike.load follows torch's ``weights_only=True`` default.
"""
from __future__ import annotations

import collections
import fractions
import io
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import paddlelike
import torchlike
from paddlelike.framework_io import SAFE_GLOBALS


# ------------------------------------------------------------------ malicious files
class _Payload:
    """Pickles as a call of ``target`` (a global) with ``args``: what a hostile file holds."""

    def __init__(self, target, args):
        self.target, self.args = target, args

    def __reduce__(self):
        return self.target, self.args


def _payloads(marker):
    cmd = f"{sys.executable} -c \"open({str(marker)!r}, 'w').write('ran')\""
    return {
        "os.system": _Payload(os.system, (cmd,)),
        "builtins.eval": _Payload(eval, (f"open({str(marker)!r}, 'w').write('ran')",)),
        "builtins.exec": _Payload(exec, (f"open({str(marker)!r}, 'w').write('ran')",)),
        "subprocess.Popen": _Payload(subprocess.Popen, ([sys.executable, "-c",
                                      f"open({str(marker)!r}, 'w').write('ran')"],)),
    }


PAYLOADS = ["os.system", "builtins.eval", "builtins.exec", "subprocess.Popen"]
# how pickle names each target (os.system lives in posix on Linux, nt on Windows)
NAMES = {"os.system": f"{os.system.__module__}.system", "builtins.eval": "builtins.eval",
         "builtins.exec": "builtins.exec", "subprocess.Popen": "subprocess.Popen"}


def _hostile_objects(payload):
    """The payload alone, inside a state dict, and deep in nested containers."""
    return {
        "bare": payload,
        "state_dict": {"weight": np.ones((2, 2), "float32"), "bias": payload,
                       "StructuredToParameterName@@": {"weight": "linear_0.w_0"}},
        "nested": collections.OrderedDict(
            model={"w": np.zeros(3)}, opt=[1, ("lr", {"x": payload})]),
    }


@pytest.mark.parametrize("protocol", [2, 3, 4])
@pytest.mark.parametrize("target", PAYLOADS)
def test_paddlelike_load_refuses_a_malicious_file_and_runs_nothing(tmp_path, target,
                                                                   protocol):
    marker = tmp_path / "marker"
    payload = _payloads(marker)[target]
    for kind, obj in _hostile_objects(payload).items():
        path = tmp_path / f"{kind}.pdparams"
        path.write_bytes(pickle.dumps(obj, protocol=protocol))
        with pytest.raises(pickle.UnpicklingError) as info:
            paddlelike.load(str(path))
        msg = str(info.value)
        assert f"load {NAMES[target]}" in msg, msg
        assert "weights_only=False" in msg, msg
        with open(path, "rb") as f, pytest.raises(pickle.UnpicklingError):
            paddlelike.load(f)  # a file object too
        with pytest.raises(pickle.UnpicklingError):
            paddlelike.load(str(path), return_numpy=True)
        assert not marker.exists(), f"{kind}: loading ran the payload"


def test_the_malicious_file_is_real_and_weights_only_false_opts_in(tmp_path):
    """The opt-in unpickles anything (the hole real paddle has): proof that the files
    above would run their payload."""
    marker = tmp_path / "marker"
    path = tmp_path / "evil.pdparams"
    path.write_bytes(pickle.dumps(_payloads(marker)["builtins.eval"], protocol=4))
    paddlelike.load(str(path), weights_only=False)
    assert marker.read_text() == "ran"


def test_a_refused_global_that_is_harmless_is_still_refused(tmp_path):
    """The rule is an allow list, not a deny list: any class outside it is refused."""
    path = tmp_path / "c.pd"
    path.write_bytes(pickle.dumps({"c": fractions.Fraction(1, 3)}, protocol=4))
    with pytest.raises(pickle.UnpicklingError, match=r"fractions\.Fraction"):
        paddlelike.load(str(path))
    assert paddlelike.load(str(path), weights_only=False)["c"] == fractions.Fraction(1, 3)


@pytest.mark.parametrize("target", PAYLOADS)
def test_torchlike_load_refuses_a_malicious_file_and_runs_nothing(tmp_path, target):
    torch = pytest.importorskip("torch")
    marker = tmp_path / "marker"
    path = tmp_path / "evil.pt"
    torch.save({"w": torch.ones(2), "evil": _payloads(marker)[target]}, path)
    with pytest.raises(pickle.UnpicklingError):
        torchlike.load(path)
    assert not marker.exists()


# ------------------------------------------------------------------ what paddle.save writes
def _real_paddle_objects(paddle):
    """Everything a training script saves with paddle.save: layers' state dicts, every
    optimizer's, LR schedulers', tensors of every dtype, nested containers."""
    paddle.seed(0)
    lin = paddle.nn.Linear(3, 4)
    layers = {
        "linear": lin,
        "conv_bn": paddle.nn.Sequential(paddle.nn.Conv2D(1, 2, 3), paddle.nn.BatchNorm2D(2),
                                        paddle.nn.ReLU(), paddle.nn.Conv1DTranspose(2, 2, 3)),
        "norms": paddle.nn.Sequential(paddle.nn.LayerNorm(2), paddle.nn.GroupNorm(1, 2),
                                      paddle.nn.InstanceNorm2D(2), paddle.nn.BatchNorm1D(2),
                                      paddle.nn.PReLU()),
        "embedding": paddle.nn.Embedding(5, 3),
        "rnns": paddle.nn.LayerList([paddle.nn.GRU(3, 4), paddle.nn.LSTM(3, 4),
                                     paddle.nn.SimpleRNN(3, 4)]),
        "attention": paddle.nn.MultiHeadAttention(4, 2),
        "transformer": paddle.nn.TransformerEncoderLayer(4, 2, 8),
    }
    objs = {f"layer_{k}": v.state_dict() for k, v in layers.items()}
    x = paddle.randn([2, 3])
    L = paddle.optimizer.lr
    P = lin.parameters
    opts = {
        "adam": paddle.optimizer.Adam(parameters=P()),
        "adamw": paddle.optimizer.AdamW(parameters=P()),
        "momentum": paddle.optimizer.Momentum(parameters=P()),
        "nesterov": paddle.optimizer.Momentum(parameters=P(), use_nesterov=True),
        "rmsprop": paddle.optimizer.RMSProp(learning_rate=0.1, parameters=P()),
        "adagrad": paddle.optimizer.Adagrad(learning_rate=0.1, parameters=P()),
        "adamax": paddle.optimizer.Adamax(parameters=P()),
        "adadelta": paddle.optimizer.Adadelta(parameters=P()),
        "lamb": paddle.optimizer.Lamb(parameters=P()),
        "adam_step_decay": paddle.optimizer.Adam(learning_rate=L.StepDecay(0.1, 2),
                                                 parameters=P()),
        "sgd_cosine": paddle.optimizer.SGD(learning_rate=L.CosineAnnealingDecay(0.1, 10),
                                           parameters=P()),
    }
    for name, opt in opts.items():
        for _ in range(2):
            lin(x).sum().backward()
            opt.step()
            opt.clear_grad()
        objs[f"opt_{name}"] = opt.state_dict()
    scheds = {
        "step": L.StepDecay(0.1, 3), "cosine": L.CosineAnnealingDecay(0.1, 10),
        "noam": L.NoamDecay(2, 10), "piecewise": L.PiecewiseDecay([2, 4], [0.1, 0.01, 1e-3]),
        "exponential": L.ExponentialDecay(0.1, 0.9), "multistep": L.MultiStepDecay(0.1, [2, 4]),
        "warmup": L.LinearWarmup(L.StepDecay(0.1, 2), 5, 0.0, 0.1),
        "plateau": L.ReduceOnPlateau(0.1), "lambda": L.LambdaDecay(0.1, lambda e: 0.9 ** e),
        "onecycle": L.OneCycleLR(0.1, 100), "cyclic": L.CyclicLR(0.01, 0.1, 5),
        "polynomial": L.PolynomialDecay(0.1, 10), "inverse_time": L.InverseTimeDecay(0.1, 0.5),
        "natural_exp": L.NaturalExpDecay(0.1, 0.5), "multiplicative":
        L.MultiplicativeDecay(0.1, lambda e: 0.9),
    }
    for name, s in scheds.items():
        for _ in range(3):
            s.step(1.0) if name == "plateau" else s.step()
        objs[f"sched_{name}"] = s.state_dict()
    dtypes = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
              "bool", "complex64", "complex128"]
    objs["dtypes"] = {d: paddle.ones([2], dtype=d) for d in dtypes}
    objs["tensor"] = paddle.arange(6, dtype="float32").reshape([2, 3])
    objs["tensor_0d"] = paddle.to_tensor(1.5)
    objs["tensor_list"] = [paddle.ones([2]), paddle.to_tensor(np.arange(3, dtype="int32"))]
    objs["nested"] = {
        "model": lin.state_dict(), "opt": objs["opt_adam"], "epoch": 3, "best": 0.25,
        "items": [paddle.ones([2]), 1.5, "a", None, True, -7, 2 ** 70],
        "pair": (paddle.zeros([1], dtype="int64"), 2),
        "ordered": collections.OrderedDict(a=1, b=[1.0, "x"]),
        "numpy": {"a": np.ones(3), "f32": np.float32(2.0), "i64": np.int64(3),
                  "dtype": np.dtype("float32"), "empty": np.zeros((0, 2))},
    }
    return objs


def _same(got, want, where="obj"):
    """Recursive equality: arrays by dtype, shape and bits; containers by type and items."""
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), (where, type(got))
        assert got.dtype == want.dtype and got.shape == want.shape, where
        np.testing.assert_array_equal(got, want, err_msg=where)
    elif isinstance(want, dict):
        assert type(got) is type(want) and list(got) == list(want), where
        for k in want:
            _same(got[k], want[k], f"{where}[{k!r}]")
    elif isinstance(want, (list, tuple)):
        assert type(got) is type(want) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
    else:
        assert type(got) is type(want) and (got == want or got != got), (where, got, want)


class _Recorder(pickle.Unpickler):
    def __init__(self, f, seen):
        super().__init__(f, encoding="latin1")
        self.seen = seen

    def find_class(self, module, name):
        self.seen.add((module, name))
        return super().find_class(module, name)


@pytest.fixture(scope="module")
def real_paddle_files(tmp_path_factory):
    paddle = pytest.importorskip("paddle")
    root = tmp_path_factory.mktemp("paddle_saves")
    files = []
    for name, obj in _real_paddle_objects(paddle).items():
        for protocol in (2, 3, 4):
            path = root / f"{name}.p{protocol}"
            paddle.save(obj, str(path), protocol=protocol)
            files.append(path)
    return paddle, files


def test_every_global_real_paddle_writes_is_accepted(real_paddle_files):
    """What the allow list holds is what paddle.save writes (found by unpickling it)."""
    _, files = real_paddle_files
    seen: set = set()
    for path in files:
        _Recorder(io.BytesIO(path.read_bytes()), seen).load()
    assert seen <= SAFE_GLOBALS, sorted(seen - SAFE_GLOBALS)
    assert ("numpy", "ndarray") in seen and ("collections", "OrderedDict") in seen


def test_every_file_real_paddle_writes_loads_like_paddle_loads_it(real_paddle_files):
    paddle, files = real_paddle_files
    for path in files:
        want = paddle.load(str(path), return_numpy=True)
        got = paddlelike.load(str(path), return_numpy=True)
        _same(got, want, path.name)
        paddlelike.load(str(path))  # as tensors too (the default)


def test_our_own_saves_load(tmp_path, real_paddle_files):
    """Every object above, as paddlelike tensors, saved by paddlelike and loaded back."""
    _, files = real_paddle_files
    for path in files:
        if not path.name.endswith(".p4"):
            continue
        obj = paddlelike.load(str(path))
        for protocol in (2, 3, 4):
            out = tmp_path / f"{path.stem}.{protocol}"
            paddlelike.save(obj, str(out), protocol=protocol)
            _same(paddlelike.load(str(out), return_numpy=True),
                  paddlelike.load(str(path), return_numpy=True), out.name)
