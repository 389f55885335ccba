"""paddle.save / paddle.load: files move both ways between paddlelike and real paddle 3.3."""
import pickle

import numpy as np
import pytest

import paddlelike

from .tolerance import assert_kernels_close

paddle = pytest.importorskip("paddle")

RNG = np.random.default_rng(0)


def _net(m):
    return m.nn.Sequential(m.nn.Linear(4, 3), m.nn.ReLU(), m.nn.Linear(3, 2))


def _randomise(net):
    for p in net.parameters():
        p.set_value(RNG.standard_normal(p.shape).astype("float32"))


@pytest.mark.parametrize("src,dst", [(paddlelike, paddle), (paddle, paddlelike)])
def test_state_dict_round_trip(tmp_path, src, dst):
    a = _net(src)
    _randomise(a)
    path = tmp_path / "net.pdparams"
    src.save(a.state_dict(), str(path))
    loaded = dst.load(str(path))
    assert list(loaded) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert all(type(v).__name__ == "Tensor" and v.stop_gradient for v in loaded.values())
    b = _net(dst)
    missing, unexpected = b.set_state_dict(loaded)
    assert missing == [] and unexpected == []
    for k, v in loaded.items():  # the stored values: bit for bit
        want = a.state_dict()[k].numpy()
        np.testing.assert_array_equal(np.asarray(v.numpy()), want)
    x = RNG.standard_normal((2, 4)).astype("float32")
    # the forwards: two kernels (paddle's and ours), equal up to float32 rounding
    assert_kernels_close(b(dst.to_tensor(x)).numpy(), a(src.to_tensor(x)).numpy(), n=4)


def test_file_layout_matches_paddle(tmp_path):
    """Both write a protocol-4 pickle of arrays plus the structured-name table."""
    layouts = []
    for m in (paddle, paddlelike):
        net = _net(m)
        path = tmp_path / f"{m.__name__}.pdparams"
        m.save(net.state_dict(), str(path))
        raw = path.read_bytes()
        obj = pickle.loads(raw)
        table = obj.pop("StructuredToParameterName@@")
        layouts.append((raw[:2], {k: (type(v).__name__, str(v.dtype), v.shape)
                                  for k, v in obj.items()},
                        list(table), [n.split(".", 1)[1] for n in table.values()]))
    assert layouts[0] == layouts[1]


@pytest.mark.parametrize("src,dst", [(paddlelike, paddle), (paddle, paddlelike)])
def test_optimizer_state_round_trip(tmp_path, src, dst):
    net = src.nn.Linear(3, 2)
    sched = src.optimizer.lr.StepDecay(0.1, 2)
    opt = src.optimizer.Adam(learning_rate=sched, parameters=net.parameters())
    net(src.ones([4, 3])).sum().backward()
    opt.step()
    sched.step()
    path = tmp_path / "opt.pdopt"
    src.save(opt.state_dict(), str(path))
    loaded = dst.load(str(path))
    want = opt.state_dict()
    assert list(loaded) == list(want)
    assert loaded["LR_Scheduler"] == want["LR_Scheduler"]
    for k, v in want.items():
        if k != "LR_Scheduler":
            np.testing.assert_array_equal(loaded[k].numpy(), v.numpy())


@pytest.mark.parametrize("src,dst", [(paddlelike, paddle), (paddle, paddlelike)])
def test_tensors_and_nested_objects(tmp_path, src, dst):
    t = src.to_tensor([1.5, -2.0])
    obj = {"a": t, "n": 3, "l": [src.ones([2], dtype="int64"), "text"], "t": (t, 1.0)}
    src.save(t, str(tmp_path / "t.pd"))
    src.save(obj, str(tmp_path / "o.pd"))
    lt = dst.load(str(tmp_path / "t.pd"))
    lo = dst.load(str(tmp_path / "o.pd"))
    assert type(lt).__name__ == "Tensor" and lt.numpy().tolist() == [1.5, -2.0]
    assert lo["n"] == 3 and lo["l"][1] == "text" and lo["t"][1] == 1.0
    assert lo["l"][0].numpy().dtype == np.int64
    assert isinstance(lo["t"], tuple)
    arr = dst.load(str(tmp_path / "o.pd"), return_numpy=True)
    assert isinstance(arr["a"], np.ndarray)


def test_load_prints_like_paddle(tmp_path):
    net = paddle.nn.Linear(2, 1)
    net.weight.set_value(np.array([[0.5], [-1.0]], "float32"))
    paddle.save(net.state_dict(), str(tmp_path / "n.pdparams"))
    assert repr(paddlelike.load(str(tmp_path / "n.pdparams"))) == \
        repr(paddle.load(str(tmp_path / "n.pdparams")))


def test_save_bad_protocol(tmp_path):
    def run(m):
        try:
            m.save({"a": m.ones([1])}, str(tmp_path / "x.pd"), protocol=5)
        except Exception as e:  # noqa: BLE001
            return type(e).__name__, str(e)
    assert run(paddle) == run(paddlelike)


DTYPES = ["int8", "uint8", "int16", "int32", "int64", "bool", "float16", "float32", "float64"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_moves_both_ways(tmp_path, dtype):
    values = np.array([200, 1, -56, 0, 3]).astype(dtype)
    paddlelike.save({"t": paddlelike.to_tensor(values)}, str(tmp_path / "ours.pdparams"))
    real = paddle.load(str(tmp_path / "ours.pdparams"))["t"]
    assert str(real.dtype) == f"paddle.{dtype}"
    np.testing.assert_array_equal(real.numpy(), values)
    paddle.save({"t": paddle.to_tensor(values)}, str(tmp_path / "real.pdparams"))
    ours = paddlelike.load(str(tmp_path / "real.pdparams"))["t"]
    assert str(ours.dtype) == f"paddle.{dtype}"
    np.testing.assert_array_equal(ours.numpy(), values)


def test_a_bfloat16_tensor_loads_as_its_float32_values(tmp_path):
    """paddle saves bfloat16 as uint16 bit patterns; paddlelike has no bfloat16 and widens
    them, exactly (return_numpy keeps the bits, as paddle does)."""
    want = paddle.to_tensor([1.5, -2.0, 3.140625], dtype="bfloat16")
    paddle.save({"t": want}, str(tmp_path / "bf.pdparams"))
    got = paddlelike.load(str(tmp_path / "bf.pdparams"))["t"]
    assert str(got.dtype) == "paddle.float32"
    np.testing.assert_array_equal(got.numpy(), want.astype("float32").numpy())
    bits = paddlelike.load(str(tmp_path / "bf.pdparams"), return_numpy=True)["t"]
    np.testing.assert_array_equal(bits, paddle.load(str(tmp_path / "bf.pdparams"),
                                                    return_numpy=True)["t"])
