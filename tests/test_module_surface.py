"""The module-level surface scripts touch before any op (issue 15 item 4), each held
against the real framework: __version__, default dtype, print options, assert_close's
messages, finfo/iinfo, promotion queries, broadcast_shapes, DLPack exchange."""
from __future__ import annotations

import numpy as np
import pytest

import paddlelike
import torchlike

torch = pytest.importorskip("torch")


@pytest.fixture
def default_dtype_restored():
    yield
    torchlike.set_default_dtype(torchlike.float32)
    torch.set_default_dtype(torch.float32)


@pytest.fixture
def printoptions_restored():
    yield
    torchlike.set_printoptions(profile="default")
    torch.set_printoptions(profile="default")


def _t(mod, name):
    return getattr(mod, name)


# ---------------------------------------------------------------- torch
def test_torch_version_is_the_mirrored_release_and_janusgrad_stays_reachable():
    import janusgrad

    assert str(torchlike.__version__).split("+")[0] == str(torch.__version__).split("+")[0]
    assert torchlike.__version__ >= "2.0" and torchlike.__version__ < (3, 0)
    assert isinstance(torchlike.__version__, str)
    assert torchlike.version.__version__ == torchlike.__version__
    assert torchlike.version.janusgrad == janusgrad.__version__


@pytest.mark.parametrize("name", ["float64", "float32", "float16"])
def test_torch_default_dtype_drives_factories_and_promotion(name, default_dtype_restored):
    for mod in (torch, torchlike):
        mod.set_default_dtype(getattr(mod, name))
    for make in (lambda m: m.ones(2), lambda m: m.zeros(2, 3), lambda m: m.rand(2),
                 lambda m: m.tensor([1.5, 2.0]), lambda m: m.tensor(1.5),
                 lambda m: m.arange(3) * 1.5, lambda m: m.full((2,), 1.5),
                 lambda m: m.arange(0.0, 3.0), lambda m: m.nn.Linear(2, 2).weight):
        assert str(make(torchlike).dtype) == str(make(torch).dtype)
    assert str(torchlike.get_default_dtype()) == str(torch.get_default_dtype())


def test_torch_default_dtype_refuses_non_floats(default_dtype_restored):
    with pytest.raises(TypeError, match="only floating-point types"):
        torch.set_default_dtype(torch.int32)
    with pytest.raises(TypeError, match="only floating-point types"):
        torchlike.set_default_dtype(torchlike.int32)
    assert torchlike.get_default_dtype() is torchlike.float32


@pytest.mark.parametrize("opts", [dict(precision=2), dict(sci_mode=True),
                                  dict(precision=6, sci_mode=False), dict(profile="short"),
                                  dict(threshold=5, edgeitems=1), dict(linewidth=30),
                                  dict(profile="full")])
def test_torch_set_printoptions(opts, printoptions_restored):
    values = [[1.23456789, -2.5, 1000.125], [0.001, 3.0, 7.77777]]
    big = [float(i) / 3 for i in range(40)]
    torch.set_printoptions(**opts)
    torchlike.set_printoptions(**opts)
    for data in (values, big, [1.0, 2.0]):
        assert repr(torchlike.tensor(data)) == repr(torch.tensor(data))
    assert torchlike.get_printoptions() == {
        k: getattr(torch._tensor_str.PRINT_OPTS, k)
        for k in ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")}


_CLOSE_CASES = [
    (lambda m: (m.tensor([1., 2., 3.]), m.tensor([1., 2.5, 3.])), {}),
    (lambda m: (m.tensor([[1., 2.], [3., 4.]]), m.tensor([[1., 2.5], [3., 4.1]])), {}),
    (lambda m: (m.tensor([1, 2, 3]), m.tensor([1, 4, 3])), {}),
    (lambda m: (m.tensor([1., 2.]), m.tensor([1., 2., 3.])), {}),
    (lambda m: (m.tensor([1., 2.]), m.tensor([1., 2.], dtype=m.float64)), {}),
    (lambda m: (1.0, 1.1), {}),
    (lambda m: (m.tensor(1.0), m.tensor(1.5)), {}),
    (lambda m: (m.tensor([float("nan")]), m.tensor([float("nan")])), {}),
    (lambda m: (m.tensor([float("nan")]), m.tensor([float("nan")])), dict(equal_nan=True)),
    (lambda m: (m.tensor([1., 2.]), m.tensor([1., 2.1])), dict(msg="custom")),
    (lambda m: (m.tensor([0., 2.]), m.tensor([1., 2.])), {}),
    (lambda m: (m.tensor([1., 2.]), m.tensor([1., 2.])), dict(rtol=0.1)),
    (lambda m: ([1., 2.], [1., 2.5]), {}),
    (lambda m: (m.tensor([1., 2.]), m.tensor([1., 2.1])), dict(rtol=0, atol=0)),
    (lambda m: (m.tensor([1., 2.]), m.tensor([1., 2.1])), dict(rtol=0.1, atol=0)),
    (lambda m: (m.tensor([True]), m.tensor([False])), {}),
    (lambda m: ((m.tensor([1., 2.]), m.tensor([3.])), (m.tensor([1., 2.]), m.tensor([3.5]))),
     {}),
]


def _outcome(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the outcome is compared
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize("case", range(len(_CLOSE_CASES)))
def test_torch_testing_assert_close_messages(case):
    make, kw = _CLOSE_CASES[case]
    want = _outcome(lambda: torch.testing.assert_close(*make(torch), **kw))
    got = _outcome(lambda: torchlike.testing.assert_close(*make(torchlike), **kw))
    assert got == want


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_torch_finfo(name):
    ours, real = torchlike.finfo(getattr(torchlike, name)), torch.finfo(getattr(torch, name))
    for attr in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution"):
        assert getattr(ours, attr) == getattr(real, attr), attr
    assert str(ours.dtype) == str(real.dtype)
    assert repr(ours) == repr(real)
    assert repr(torchlike.finfo()) == repr(torch.finfo())


@pytest.mark.parametrize("name", ["uint8", "int8", "int16", "int32", "int64"])
def test_torch_iinfo(name):
    ours, real = torchlike.iinfo(getattr(torchlike, name)), torch.iinfo(getattr(torch, name))
    assert (ours.bits, ours.max, ours.min, ours.dtype) == (real.bits, real.max, real.min,
                                                           real.dtype)
    assert repr(ours) == repr(real)


def test_torch_finfo_iinfo_refuse_the_other_kind():
    for mod in (torch, torchlike):
        with pytest.raises(TypeError):
            mod.finfo(mod.int32)
        with pytest.raises(TypeError):
            mod.iinfo(mod.float32)
        with pytest.raises(TypeError):
            mod.iinfo(mod.bool)


_DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def test_torch_promote_types_and_can_cast_on_every_pair():
    for a in _DTYPES:
        for b in _DTYPES:
            ta, tb, la, lb = (getattr(torch, a), getattr(torch, b), getattr(torchlike, a),
                              getattr(torchlike, b))
            assert str(torchlike.promote_types(la, lb)) == str(torch.promote_types(ta, tb))
            assert torchlike.can_cast(la, lb) == torch.can_cast(ta, tb), (a, b)


@pytest.mark.parametrize("make", [
    lambda m: (m.ones(2, dtype=m.int32), 1.5), lambda m: (m.ones(2, dtype=m.int32), 2),
    lambda m: (m.ones(2, dtype=m.int32), m.tensor(1.5, dtype=m.float64)),
    lambda m: (m.ones(2, dtype=m.float16), m.ones(2, dtype=m.float64)),
    lambda m: (m.ones(2, dtype=m.bool), True), lambda m: (m.ones(2, dtype=m.uint8), -1),
    lambda m: (m.tensor(1, dtype=m.int8), m.ones(2, dtype=m.uint8))])
def test_torch_result_type(make):
    assert str(torchlike.result_type(*make(torchlike))) == str(torch.result_type(*make(torch)))


@pytest.mark.parametrize("shapes", [((2, 1), (3,)), ((1,), ()), (2, (3, 1)), ((5, 1, 4), (3, 1)),
                                    ((2, 3), (4,)), ((2, 3), (3, 3))])
def test_torch_broadcast_shapes(shapes):
    assert _outcome(lambda: print(torchlike.broadcast_shapes(*shapes))) == _outcome(
        lambda: print(torch.broadcast_shapes(*shapes)))
    try:
        want = torch.broadcast_shapes(*shapes)
    except RuntimeError:
        return
    got = torchlike.broadcast_shapes(*shapes)
    assert tuple(got) == tuple(want) and type(got) is torchlike.Size


def test_torch_small_queries():
    t = torchlike.ones(2, 3)
    assert torchlike.is_tensor(t) and not torchlike.is_tensor(np.ones(2))
    assert torchlike.numel(t) == 6
    a, b = torchlike.broadcast_tensors(torchlike.ones(2, 1), torchlike.ones(3))
    assert tuple(a.shape) == tuple(b.shape) == (2, 3)


# ---------------------------------------------------------------- DLPack
def test_dlpack_shares_memory_with_numpy_both_ways():
    a = np.arange(4.0)
    for mod in (torchlike, paddlelike):
        t = mod.from_dlpack(a)
        b = np.from_dlpack(t)
        assert np.shares_memory(a, b)
        again = mod.utils.dlpack.from_dlpack(mod.utils.dlpack.to_dlpack(t))
        assert np.shares_memory(np.from_dlpack(again), a)
    t = torchlike.from_dlpack(a)
    t.add_(1)
    assert a.tolist() == [1.0, 2.0, 3.0, 4.0]


def test_dlpack_exchange_with_real_torch_without_a_copy():
    ours = torchlike.arange(6.0).reshape(2, 3)
    real = torch.from_dlpack(ours)
    assert real.tolist() == ours.tolist() and str(real.dtype) == "torch.float32"
    real.mul_(2)
    assert ours.tolist() == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]
    real2 = torch.utils.dlpack.from_dlpack(torchlike.utils.dlpack.to_dlpack(ours))
    assert real2.data_ptr() == real.data_ptr()
    back = torchlike.from_dlpack(torch.arange(3, dtype=torch.int64))
    assert back.tolist() == [0, 1, 2] and back.dtype is torchlike.int64
    src = torch.ones(3)
    mine = torchlike.utils.dlpack.from_dlpack(src)
    src.add_(1)
    assert mine.tolist() == [2.0, 2.0, 2.0]
    p = paddlelike.from_dlpack(src)
    assert p.tolist() == [2.0, 2.0, 2.0]
    assert torch.from_dlpack(paddlelike.ones([2])).tolist() == [1.0, 1.0]


def test_dlpack_refuses_a_tensor_that_requires_grad_like_torch():
    for mod in (torch, torchlike):
        with pytest.raises(BufferError, match="require gradient"):
            mod.ones(2, requires_grad=True).__dlpack__()
    assert torchlike.ones(2).__dlpack_device__() == torch.ones(2).__dlpack_device__()


# ---------------------------------------------------------------- paddle
paddle = None


@pytest.fixture
def real_paddle():
    global paddle
    paddle = pytest.importorskip("paddle")
    yield paddle
    paddle.set_default_dtype("float32")
    paddlelike.set_default_dtype("float32")


def test_paddle_version(real_paddle):
    assert paddlelike.__version__ == real_paddle.__version__
    assert paddlelike.version.full_version == real_paddle.version.full_version
    real_paddle.disable_signal_handler()
    assert paddlelike.disable_signal_handler() is None


@pytest.mark.parametrize("name", ["float64", "float16", "float32"])
def test_paddle_default_dtype(real_paddle, name):
    for mod in (real_paddle, paddlelike):
        mod.set_default_dtype(name)
    for make in (lambda m: m.ones([2]), lambda m: m.to_tensor(1.5),
                 lambda m: m.to_tensor([1.5, 2.0]), lambda m: m.to_tensor([1, 2]),
                 lambda m: m.full([2], 1.5), lambda m: m.rand([2]), lambda m: m.zeros([2])):
        assert str(make(paddlelike).dtype) == str(make(real_paddle).dtype)
    assert paddlelike.get_default_dtype() == real_paddle.get_default_dtype()
    for mod in (real_paddle, paddlelike):
        with pytest.raises(TypeError, match="set_default_dtype only supports"):
            mod.set_default_dtype("int32")


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "uint8", "int8", "int16",
                                  "int32", "int64"])
def test_paddle_finfo_iinfo(real_paddle, name):
    kind = "finfo" if name.startswith("float") else "iinfo"
    ours = getattr(paddlelike, kind)(getattr(paddlelike, name))
    real = getattr(real_paddle, kind)(getattr(real_paddle, name))
    attrs = ("bits", "max", "min") + (("eps", "tiny", "smallest_normal", "resolution")
                                      if kind == "finfo" else ())
    for attr in attrs:
        assert getattr(ours, attr) == pytest.approx(getattr(real, attr), rel=1e-6), attr
    assert repr(ours) == repr(real)


def test_paddle_dlpack_with_real_paddle(real_paddle):
    ours = paddlelike.to_tensor([1.0, 2.0])
    theirs = real_paddle.utils.dlpack.from_dlpack(paddlelike.utils.dlpack.to_dlpack(ours))
    assert theirs.tolist() == [1.0, 2.0]
    back = paddlelike.utils.dlpack.from_dlpack(real_paddle.utils.dlpack.to_dlpack(theirs))
    assert back.tolist() == [1.0, 2.0]
