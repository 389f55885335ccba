"""torch.save(model) / torch.load of a whole module (issue 22 §3): files move both ways
between torchlike (direct import and the drop-in runner) and real torch 2.13, with the
model's class defined in the script's ``__main__``; paddle.save of a Layer is refused as
paddle 3.3.1 refuses it."""
from __future__ import annotations

import collections
import io
import json
import os
import pickle
import pickletools
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import paddlelike
import torchlike

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = r'''
import json, sys
mode, lib, path = sys.argv[1:4]
if lib == "torchlike":
    import torchlike as torch
else:
    import torch  # real torch, or torchlike under `python -m torchlike`
nn = torch.nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU())
        self.fc = nn.Linear(2 * 4 * 4, 3)
        self.emb = nn.Embedding(5, 3)
        self.lstm = nn.LSTM(3, 4)

    def forward(self, x, idx):
        e, _ = self.lstm(self.emb(idx))
        return self.fc(self.body(x).flatten(1)), e


def probe(m):
    """Outputs in eval mode, then in train mode (which moves the running stats last)."""
    x = torch.arange(72.0).reshape(2, 1, 6, 6) / 36 - 1
    idx = torch.tensor([[1, 2], [3, 4]])
    out = []
    for training in (False, True):
        m.train(training)
        out += [t.detach().numpy().tolist() for t in m(x, idx)]
    return out


if mode == "save":
    torch.manual_seed(0)
    m = Net()
    m(torch.arange(72.0).reshape(2, 1, 6, 6).cos(), torch.tensor([[0, 1]]))  # BN stats move
    torch.save(m, path)
else:
    m = torch.load(path, weights_only=False)
print(json.dumps({"type": f"{type(m).__module__}.{type(m).__qualname__}", "repr": repr(m),
                  "keys": list(m.state_dict()), "training": m.training, "out": probe(m)}))
'''

# how each side runs the script: (python arguments before the script, the script's lib)
RUNNERS = {
    "torch": ([], "torch"),
    "dropin": (["-m", "torchlike"], "torch"),
    "direct": ([], "torchlike"),
}


def _run(runner: str, mode: str, path, folder) -> dict:
    if runner == "torch":
        pytest.importorskip("torch")
    script = os.path.join(folder, "whole_model.py")
    with open(script, "w") as f:
        f.write(SCRIPT)
    pre, lib = RUNNERS[runner]
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    proc = subprocess.run([sys.executable, *pre, script, mode, lib, str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """runner -> (the file it saved, what the saving script printed after saving)."""
    folder = tmp_path_factory.mktemp("whole")
    out = {}
    for runner in RUNNERS:
        path = folder / f"{runner}.pt"
        try:
            out[runner] = (path, _run(runner, "save", path, folder))
        except pytest.skip.Exception:
            pass
    return out, folder


def _close(a, b) -> None:
    for x, y in zip(a, b, strict=True):
        x, y = np.asarray(x), np.asarray(y)
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-6 * max(1.0, np.abs(y).max()))


@pytest.mark.parametrize("loader", RUNNERS)
@pytest.mark.parametrize("saver", RUNNERS)
def test_a_whole_model_loads_everywhere_and_computes_the_same(saver, loader, saved):
    files, folder = saved
    if saver not in files:
        pytest.skip("real torch is not installed")
    path, want = files[saver]
    got = _run(loader, "load", path, folder)
    assert got["type"] == "__main__.Net"
    assert got["repr"] == want["repr"]
    assert got["keys"] == want["keys"]
    assert got["training"] is True
    _close(got["out"], want["out"])


def _globals(data: bytes) -> set:
    """The (module, name) pairs a torch archive's pickle names."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        pkl = z.read(next(n for n in z.namelist() if n.endswith("/data.pkl")))
    return {tuple(arg.split(" ", 1)) for op, arg, _ in pickletools.genops(pkl)
            if op.name == "GLOBAL"}


@pytest.mark.parametrize("saver", ["dropin", "direct"])
def test_our_pickle_names_what_real_torchs_names(saver, saved):
    files, _ = saved
    if "torch" not in files:
        pytest.skip("real torch is not installed")
    with open(files["torch"][0], "rb") as f:
        want = _globals(f.read())
    with open(files[saver][0], "rb") as f:
        got = _globals(f.read())
    assert ("torch.nn.modules.rnn", "LSTM") in want
    assert got == want


# ------------------------------------------------------------------ in one process
def _model(nn):
    return nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(),
                         nn.Linear(8, 3))


def test_torchlike_saves_a_whole_model_beside_real_torch():
    """Real torch imported in the same process holds torch.nn.modules.*: pickle must still
    name our classes so, and find ours when loading (a PicklingError before)."""
    pytest.importorskip("torch")
    torchlike.manual_seed(0)
    m = _model(torchlike.nn)
    buf = io.BytesIO()
    torchlike.save(m, buf)
    buf.seek(0)
    back = torchlike.load(buf, weights_only=False)
    assert type(back) is torchlike.nn.Sequential and repr(back) == repr(m)
    x = torchlike.arange(32.0).reshape(2, 1, 4, 4)
    np.testing.assert_allclose(back(x).detach().numpy(), m(x).detach().numpy())


def test_real_torch_computes_what_we_do_with_our_saved_model():
    torch = pytest.importorskip("torch")
    torchlike.manual_seed(0)
    m = _model(torchlike.nn).eval()
    buf = io.BytesIO()
    torchlike.save(m, buf)
    buf.seek(0)
    real = torch.load(buf, weights_only=False)
    assert type(real) is torch.nn.Sequential and repr(real) == repr(m)
    assert vars(real).keys() == vars(m).keys()
    x = np.arange(32.0, dtype="float32").reshape(2, 1, 4, 4) / 8
    want = m(torchlike.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(real(torch.from_numpy(x)).detach().numpy(), want, rtol=1e-5,
                               atol=1e-6)


def test_we_compute_what_real_torch_does_with_its_saved_model():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    real = _model(torch.nn)
    real(torch.randn(3, 1, 4, 4))  # moves the running stats
    real.eval()
    buf = io.BytesIO()
    torch.save(real, buf)
    buf.seek(0)
    m = torchlike.load(buf, weights_only=False)
    assert type(m) is torchlike.nn.Sequential and repr(m) == repr(real)
    assert not m.training and not m[1].training
    x = np.arange(32.0, dtype="float32").reshape(2, 1, 4, 4) / 8
    want = real(torch.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(m(torchlike.from_numpy(x)).detach().numpy(), want, rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(m[1].running_var.numpy(), real[1].running_var.numpy(),
                               rtol=1e-6)


def test_a_layer_holding_a_function_moves_both_ways():
    """TransformerEncoderLayer keeps F.relu (an engine function): pickled by torch's name."""
    torch = pytest.importorskip("torch")
    torchlike.manual_seed(0)
    ours = torchlike.nn.TransformerEncoderLayer(4, 2, 8).eval()
    buf = io.BytesIO()
    torchlike.save(ours, buf)
    assert (b"ctorch.nn.functional\nrelu\n" in
            zipfile.ZipFile(buf).read("archive/data.pkl"))
    buf.seek(0)
    real = torch.load(buf, weights_only=False)
    x = np.linspace(-1, 1, 12, dtype="float32").reshape(3, 1, 4)
    want = ours(torchlike.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(real(torch.from_numpy(x)).detach().numpy(), want, rtol=1e-5,
                               atol=1e-6)
    buf = io.BytesIO()
    torch.save(real, buf)
    buf.seek(0)
    back = torchlike.load(buf, weights_only=False)
    assert back.activation is torchlike.nn.functional.relu
    np.testing.assert_allclose(back(torchlike.from_numpy(x)).detach().numpy(), want)


def test_weights_only_refuses_a_whole_model_as_real_torch_does():
    torch = pytest.importorskip("torch")
    buf = io.BytesIO()
    torch.save(_model(torch.nn), buf)
    errors = []
    for lib in (torch, torchlike):
        buf.seek(0)
        with pytest.raises(Exception) as info:
            lib.load(buf)
        errors.append((type(info.value), str(info.value)))
    assert errors[0] == errors[1]
    assert errors[1][0] is pickle.UnpicklingError
    assert "GLOBAL torch.nn.modules.container.Sequential was not an allowed" in errors[1][1]


OBJECTS = {
    "set": {1, 2}, "frozenset": frozenset([3]), "bytes": b"ab\xff",
    "bytearray": bytearray(b"x"), "Counter": collections.Counter("aab"), "slice": slice(1, 2),
    "complex": 1 + 2j, "range": range(3),
}


@pytest.mark.parametrize("name", OBJECTS)
def test_weights_only_accepts_and_refuses_the_globals_real_torch_does(name):
    """(a protocol-2 pickle names builtins as __builtin__: a set was refused before)"""
    torch = pytest.importorskip("torch")
    buf = io.BytesIO()
    torch.save({"v": OBJECTS[name]}, buf)
    outcomes = []
    for lib in (torch, torchlike):
        buf.seek(0)
        try:
            outcomes.append(repr(lib.load(buf)))
        except pickle.UnpicklingError as e:
            outcomes.append(str(e))
    assert outcomes[0] == outcomes[1]


def _pickle_naming(module: str, name: str) -> bytes:
    """A torch archive whose pickle is the global ``module.name`` itself."""
    buf = io.BytesIO()
    torchlike.save({}, buf)
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
        records = [(n, z.read(n)) for n in z.namelist()]
    pkl = b"\x80\x02c" + f"{module}\n{name}\n".encode() + b"."
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for n, data in records:
            z.writestr(n, pkl if n.endswith("/data.pkl") else data)
    return out.getvalue()


def test_a_torch_class_we_lack_is_named_on_load():
    with pytest.raises(NotImplementedError,
                       match=r"torchlike does not implement torch\.nn\.modules\.linear\.Nope"):
        torchlike.load(io.BytesIO(_pickle_naming("torch.nn.modules.linear", "Nope")),
                       weights_only=False)
    with pytest.raises(NotImplementedError, match=r"torch\.nn\.modules\.nope\.Linear"):
        torchlike.load(io.BytesIO(_pickle_naming("torch.nn.modules.nope", "Linear")),
                       weights_only=False)
    got = torchlike.load(io.BytesIO(_pickle_naming("torch.nn.modules.sparse", "Embedding")),
                         weights_only=False)
    assert got is torchlike.nn.Embedding


def _layer_classes():
    return [c for c in vars(torchlike.nn).values()
            if isinstance(c, type) and issubclass(c, torchlike.nn.Module)]


def test_every_layer_class_is_where_its_module_says():
    """pickle's look-up: the torchlike module mirroring __module__ holds the class."""
    from janusgrad.host.dropin import shim_object
    for cls in _layer_classes():
        assert cls.__module__.startswith("torch.nn.modules."), cls
        assert shim_object(cls.__module__, cls.__qualname__, "torchlike") is cls


def test_layer_classes_claim_real_torchs_modules():
    torch = pytest.importorskip("torch")
    for cls in _layer_classes():
        real = getattr(torch.nn, cls.__name__, None)
        if real is not None:
            assert cls.__module__ == real.__module__, cls


def test_a_layer_has_torchs_attributes_in_torchs_order():
    torch = pytest.importorskip("torch")
    for make in (lambda nn: nn.Linear(2, 3), lambda nn: nn.LSTM(3, 4),
                 lambda nn: nn.BatchNorm2d(2)):
        ours, real = make(torchlike.nn), make(torch.nn)
        theirs = [k for k in vars(real) if k not in ("_flat_weights", "_flat_weight_refs")]
        assert list(vars(ours)) == theirs


def test_a_pickle_without_some_stores_gets_them_empty():
    m = torchlike.nn.Linear(2, 3)
    state = m.__getstate__()
    del state["_forward_hooks"], state["_non_persistent_buffers_set"]
    fresh = torchlike.nn.Linear.__new__(torchlike.nn.Linear)
    fresh.__setstate__(state)
    assert fresh._forward_hooks == {} and fresh._non_persistent_buffers_set == set()
    assert fresh(torchlike.ones(1, 2)).shape == (1, 3)


# ------------------------------------------------------------------ paddle
def _paddle_save_outcome(lib, obj, path):
    try:
        lib.save(obj, str(path))
    except Exception as e:  # noqa: BLE001 - the outcome is compared
        return type(e).__name__, str(e), os.path.getsize(path) if path.exists() else None
    return None


LAYER_CASES = {
    "layer": lambda nn: nn.Linear(2, 3),
    "in a dict": lambda nn: {"m": nn.Linear(2, 3)},
    "in a list": lambda nn: [nn.ReLU()],
    "nested": lambda nn: {"a": [nn.Sequential(nn.Linear(2, 2), nn.ReLU())]},
}


@pytest.mark.parametrize("case", LAYER_CASES)
def test_paddlelike_refuses_to_save_a_layer(case, tmp_path):
    got = _paddle_save_outcome(paddlelike, LAYER_CASES[case](paddlelike.nn),
                               tmp_path / "m.pdparams")
    assert got == ("ValueError", "paddle do not support saving `paddle.nn.Layer` object.", 0)


@pytest.mark.parametrize("case", LAYER_CASES)
def test_paddle_refuses_to_save_a_layer_so(case, tmp_path):
    paddle = pytest.importorskip("paddle")
    want = _paddle_save_outcome(paddle, LAYER_CASES[case](paddle.nn), tmp_path / "p.pdparams")
    got = _paddle_save_outcome(paddlelike, LAYER_CASES[case](paddlelike.nn),
                               tmp_path / "m.pdparams")
    assert got == want


def test_paddlelike_still_saves_a_layers_state(tmp_path):
    layer = paddlelike.nn.Linear(2, 3)
    paddlelike.save(layer.state_dict(), str(tmp_path / "s.pdparams"))
    back = paddlelike.load(str(tmp_path / "s.pdparams"))
    np.testing.assert_array_equal(back["weight"].numpy(), layer.weight.numpy())
