"""torch.save/torch.load: files move both ways between torchlike and real torch 2.13."""
from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest

import torchlike
from torchlike import nn as jnn

torch = pytest.importorskip("torch")


def _net(nn):
    return nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))


def _trained(lib):
    lib.manual_seed(0)
    net = _net(lib.nn)
    opt = lib.optim.Adam(net.parameters(), lr=0.01)
    net(lib.ones(5, 3)).sum().backward()
    opt.step()
    return net, opt


def _same(a, b):
    """Nested structures equal, tensors by dtype, shape and values."""
    if hasattr(a, "numpy") and hasattr(b, "numpy"):
        assert str(a.dtype) == str(b.dtype) and tuple(a.shape) == tuple(b.shape)
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())
        return
    assert type(a).__name__ == type(b).__name__
    if isinstance(a, dict):
        assert list(a) == list(b)
        for k in a:
            _same(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    else:
        assert a == b


def test_torchlike_state_dict_loads_in_real_torch(tmp_path):
    net, opt = _trained(torchlike)
    torchlike.save(net.state_dict(), tmp_path / "model.pt")
    torchlike.save(opt.state_dict(), tmp_path / "opt.pt")
    sd = torch.load(tmp_path / "model.pt", weights_only=True)
    _same(sd, net.state_dict())
    real = _net(torch.nn)
    assert repr(real.load_state_dict(sd)) == "<All keys matched successfully>"
    osd = torch.load(tmp_path / "opt.pt", weights_only=True)
    _same(osd, opt.state_dict())
    real_opt = torch.optim.Adam(real.parameters(), lr=0.01)
    real_opt.load_state_dict(osd)


def test_real_torch_state_dict_loads_in_torchlike(tmp_path):
    net, opt = _trained(torch)
    torch.save(net.state_dict(), tmp_path / "model.pt")
    torch.save(opt.state_dict(), tmp_path / "opt.pt")
    sd = torchlike.load(tmp_path / "model.pt")
    _same(sd, net.state_dict())
    ours = _net(jnn)
    assert repr(ours.load_state_dict(sd)) == "<All keys matched successfully>"
    assert repr(sd) == repr(net.state_dict())
    osd = torchlike.load(tmp_path / "opt.pt", weights_only=True)
    _same(osd, opt.state_dict())
    torchlike.optim.Adam(ours.parameters(), lr=0.01).load_state_dict(osd)


OBJECTS = {
    "tensors": lambda t: {"f32": t.arange(6.0).reshape(2, 3), "f64": t.ones(2, dtype=t.float64),
                          "i64": t.arange(4), "i32": t.tensor([1, -2], dtype=t.int32),
                          "bool": t.tensor([True, False]), "scalar": t.tensor(2.5),
                          "empty": t.zeros(0, 3)},
    "python": lambda t: [1, 2.5, "text", None, (True, 3), {"k": [1, 2]}],
    "shape and dtype": lambda t: (t.Size([2, 3]), t.float32, t.int64),
    "transposed view": lambda t: t.arange(6.0).reshape(2, 3).T,
    "grad leaf": lambda t: t.ones(2, requires_grad=True),
    "parameter": lambda t: t.nn.Parameter(t.ones(2)),
}


@pytest.mark.parametrize("name", OBJECTS)
def test_round_trips_both_ways(name, tmp_path):
    ours, real = OBJECTS[name](torchlike), OBJECTS[name](torch)
    buf = io.BytesIO()
    torchlike.save(ours, buf)
    buf.seek(0)
    loaded_real = torch.load(buf, weights_only=True)
    _same(loaded_real, real)
    buf = io.BytesIO()
    torch.save(real, buf)
    buf.seek(0)
    loaded_ours = torchlike.load(buf)
    _same(loaded_ours, ours)
    assert repr(loaded_ours) == repr(loaded_real)


def test_saved_records_are_aligned_like_torch(tmp_path):
    import zipfile
    torchlike.save({"w": torchlike.ones(3)}, tmp_path / "w.pt")
    with zipfile.ZipFile(tmp_path / "w.pt") as z:
        names = z.namelist()
        assert names[0] == "w/data.pkl" and "w/version" in names and "w/byteorder" in names
        for info in z.infolist():
            assert info.compress_type == zipfile.ZIP_STORED
            if "/data/" in info.filename:
                start = info.header_offset + 30 + len(info.filename) + len(info.extra)
                assert start % 64 == 0


def test_weights_only_refuses_unknown_globals(tmp_path):
    import pickle
    torch.save({"net": torch.nn.Linear(2, 1)}, tmp_path / "m.pt")
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        torchlike.load(tmp_path / "m.pt")


# ------------------------------------------------------------------ dtypes, byte order, views
DTYPES = ["int8", "uint8", "int16", "int32", "int64", "bool", "float16", "float32", "float64"]
VALUES = [200, 1, -56, 0, 3]  # 200 and -56 tell int8 from uint8 apart


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_moves_both_ways(dtype):
    """Our save -> real load and real save -> our load keep dtype and values (a swap of
    two storage names, int8's and uint8's say, passes our own round trip but not this)."""
    values = np.array(VALUES).astype(dtype)
    buf = io.BytesIO()
    torchlike.save({"t": torchlike.from_numpy(values.copy())}, buf)
    buf.seek(0)
    real = torch.load(buf, weights_only=True)["t"]
    assert str(real.dtype) == f"torch.{dtype}"
    np.testing.assert_array_equal(real.numpy(), values)
    buf = io.BytesIO()
    torch.save({"t": torch.from_numpy(values.copy())}, buf)
    buf.seek(0)
    ours = torchlike.load(buf)["t"]
    assert str(ours.dtype) == f"torch.{dtype}"
    np.testing.assert_array_equal(ours.numpy(), values)


def test_a_bfloat16_storage_loads_as_its_float32_values():
    """torchlike has no bfloat16: a real bfloat16 tensor loads widened, exactly."""
    want = torch.tensor([1.5, -2.0, 3.140625, 1e30], dtype=torch.bfloat16)
    buf = io.BytesIO()
    torch.save({"t": want, "view": want[1:]}, buf)
    buf.seek(0)
    got = torchlike.load(buf)
    assert got["t"].dtype == torchlike.float32
    np.testing.assert_array_equal(got["t"].numpy(), want.float().numpy())
    np.testing.assert_array_equal(got["view"].numpy(), want[1:].float().numpy())


def test_a_big_endian_array_is_saved_little_endian(tmp_path):
    ours = torchlike.from_numpy(np.arange(3, dtype=">f4"))
    torchlike.save(ours, tmp_path / "be.pt")
    np.testing.assert_array_equal(torch.load(tmp_path / "be.pt").numpy(), [0.0, 1.0, 2.0])
    back = torchlike.load(tmp_path / "be.pt")
    np.testing.assert_array_equal(back.numpy(), [0.0, 1.0, 2.0])
    assert back.dtype == torchlike.float32


def test_real_views_with_an_offset_and_a_shared_storage_load():
    base = torch.arange(6.0)
    buf = io.BytesIO()
    torch.save({"tail": base[2:], "both": (base[1:4], base.view(2, 3).T)}, buf)
    buf.seek(0)
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:  # one storage for all three
        assert sum("/data/" in n for n in z.namelist()) == 1
    got = torchlike.load(buf)
    assert got["tail"].tolist() == [2.0, 3.0, 4.0, 5.0]
    assert got["both"][0].tolist() == [1.0, 2.0, 3.0]
    assert got["both"][1].tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
