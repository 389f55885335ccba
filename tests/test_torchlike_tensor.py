"""Tensor protocol, metadata objects, flags and grad modes: torchlike against torch 2.13."""
import pytest

import torchlike

torch = pytest.importorskip("torch")


def outcome(fn, mod):
    try:
        r = fn(mod)
    except Exception as e:  # noqa: BLE001 - the exception is the result compared
        return type(e).__name__, str(e)
    return "ok", repr(r)


def _leaf(t):
    return t.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)


def _accumulate(t):
    x = _leaf(t)
    (x * x).sum().backward()
    g = x.grad
    (x * 2).sum().backward()
    return g is x.grad, x.grad


def _retain(t):
    x = _leaf(t)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    return x.grad


def _grad_flags(t):
    x = _leaf(t)
    (x * 2).sum().backward()
    return x.grad.requires_grad, x.grad.is_leaf, x.grad.grad_fn


def _no_grad_flags(t):
    x = _leaf(t)
    with t.no_grad():
        y = 2 * x
    return y.requires_grad, y.grad_fn, y.is_leaf


def _no_grad_update(t):
    x = _leaf(t)
    with t.no_grad():
        x -= 0.1
    return x, x.is_leaf


def _iadd_identity(t):
    x = t.tensor([1.0, 2.0])
    before = id(x)
    x += t.tensor([1.0, 1.0])
    return id(x) == before, x


def _setitem(t):
    z = t.tensor([0.0, 0.0, 0.0])
    z[:] = t.tensor([1.0, 2.0, 3.0]) * 2
    z[0] = 7
    return z


def _nonleaf_inplace(t):
    x = _leaf(t)
    y = x * 1
    y += 1
    y *= 2
    y[0] = 0.0
    y.sum().backward()
    return x.grad, type(y.grad_fn).__name__


def _next_functions(t):
    x = _leaf(t)
    y = (x * 2) * x
    nf = y.grad_fn.next_functions
    return (type(nf[0][0]).__name__, nf[0][1], type(nf[1][0]).__name__,
            nf[1][0].variable is x, nf[0][0].next_functions[1], y.grad_fn.name())


def _set_grad_enabled(t):
    t.set_grad_enabled(False)
    a = t.is_grad_enabled()
    t.set_grad_enabled(True)
    with t.set_grad_enabled(False):
        b = t.is_grad_enabled()
    return a, b, t.is_grad_enabled(), repr(t.set_grad_enabled(True))


def _detach_shares(t):
    x = _leaf(t)
    d = x.detach()
    d[0] = 10.0
    return x, d.requires_grad, d.is_leaf


def _backward_gradient(t):
    x = _leaf(t)
    (x * x).backward(t.tensor([1.0, 0.0, 0.0, 1.0]))
    return x.grad


def _autograd_backward(t):
    x = _leaf(t)
    t.autograd.backward([(x * x).sum(), (x * 3).sum()])
    return x.grad


CASES = {
    "shape": lambda t: t.tensor([[1.0, 2.0]]).shape,
    "size": lambda t: (t.tensor([[1.0, 2.0]]).size(), t.tensor([[1.0, 2.0]]).size(-1)),
    "Size ops": lambda t: (t.Size([2, 3])[1:], (1,) + t.Size([2]), t.Size([2]) + (3,),
                           t.Size([2, 3]) == (2, 3), t.Size([2, 3]) == [2, 3],
                           t.Size([2, 3]).numel(), str(t.Size([]))),
    "list plus Size": lambda t: [1] + t.Size([2]),
    "dims": lambda t: (t.tensor([[1.0]]).dim(), t.tensor([[1.0]]).ndim,
                       t.tensor([[1.0, 2.0]]).numel(), len(t.tensor([[1.0], [2.0]]))),
    "dtypes": lambda t: (t.float32, t.float, t.double, t.long, t.int, t.bool, t.half,
                         t.uint8, t.int8, t.int16, t.float is t.float32, str(t.int64),
                         t.get_default_dtype(), t.float32.is_floating_point,
                         t.int64.is_floating_point, t.float64.itemsize),
    "dtype inference": lambda t: [t.tensor(v).dtype for v in
                                  (1, 1.0, True, [1, 2], [1.0, 2], [1, 2.5], [True, False])],
    "device": lambda t: (t.tensor([1.0]).device, str(t.tensor([1.0]).device),
                         t.device("cpu"), t.tensor([1.0]).is_cuda),
    "type()": lambda t: (t.tensor([1.0]).type(), t.tensor([1]).type(),
                         t.tensor([1], dtype=t.int32).type(), t.tensor([True]).type()),
    "casts": lambda t: (t.tensor([1.7, -1.2]).long(), t.tensor([1, 0]).bool(),
                        t.tensor([1, 2]).float(), t.tensor([1.5]).double(),
                        t.tensor([1.5]).to(t.float64), t.tensor([1.5]).type(t.int32),
                        t.tensor([2]).to(t.tensor([1.0]))),
    "item": lambda t: (t.tensor([3.5]).item(), t.tensor(2).item(), t.tensor(True).item(),
                       t.tensor([0.1, 0.2]).sum().item(), float(t.tensor([[2.0]])),
                       int(t.tensor(3.7)), t.tensor([1.0, 2.0]).tolist()),
    "format": lambda t: (f"{t.tensor(2.5)}", f"{t.tensor(2.5):f}", f"{t.tensor(2.5):.3f}",
                         f"{t.tensor([2.5])}", f"{t.tensor(3)}"),
    "index protocol": lambda t: [10, 20, 30][t.tensor(1)],
    "bool": lambda t: (bool(t.tensor([0.0])), bool(t.tensor(2))),
    "iter": lambda t: list(t.tensor([[1.0, 2.0], [3.0, 4.0]])),
    "numpy": lambda t: t.tensor([1.0, 2.0]).numpy().tolist(),
    "promotion": lambda t: [(r.dtype, r) for r in (
        t.tensor([1, 2]) + 1.5, t.tensor([1, 2]) / 2, t.tensor([1, 2]) // 2,
        t.tensor([1, 2]) ** 2, 2 ** t.tensor([1, 2]), t.tensor([True]) + 1,
        t.tensor([1, 2]) + t.tensor([1.0, 2.0]), t.tensor([1.0], dtype=t.float64) + 1.0,
        t.tensor([1, 2], dtype=t.int32) * 2.5, t.tensor([True]) + t.tensor([True]))],
    "comparisons": lambda t: (t.tensor([1, 2, 3]) == t.tensor([1, 0, 3]),
                              t.tensor([1.0, 2.0]) > 1, t.tensor([1.0, 2.0]) <= 1.5,
                              t.tensor([1.0]) != t.tensor([2.0])),
    "logic": lambda t: (~t.tensor([True, False]), t.tensor([True]) & t.tensor([False]),
                        t.tensor([True]) | t.tensor([False]), ~t.tensor([1, 2])),
    "accumulate": _accumulate,
    "retain_graph": _retain,
    "grad flags": _grad_flags,
    "no_grad flags": _no_grad_flags,
    "no_grad update": _no_grad_update,
    "iadd identity": _iadd_identity,
    "setitem": _setitem,
    "non-leaf in-place": _nonleaf_inplace,
    "next_functions": _next_functions,
    "set_grad_enabled": _set_grad_enabled,
    "detach shares": _detach_shares,
    "backward(gradient)": _backward_gradient,
    "autograd.backward": _autograd_backward,
    "allclose/equal/isclose": lambda t: (
        t.allclose(t.tensor([1.0, 2.0]), t.tensor([1.0, 2.0000001])),
        t.allclose(t.tensor([1.0]), t.tensor([1.1])), t.equal(t.tensor([1, 2]), t.tensor([1, 2])),
        t.equal(t.tensor([1, 2]), t.tensor([1, 3])),
        t.isclose(t.tensor([1.0, float("nan")]), t.tensor([1.0, float("nan")]), equal_nan=True)),
    "is_tensor": lambda t: (t.is_tensor(t.tensor(1.0)), t.is_tensor(1.0)),
    "max with dim": lambda t: t.max(t.tensor([[1.0, 3.0], [2.0, 0.0]]), 1),
    "shape of reductions": lambda t: (t.tensor([1.0, 2.0]).sum().shape,
                                      t.tensor([[1.0, 2.0]]).max().shape,
                                      t.tensor([1.0, 2.0])[0].shape),
}


@pytest.mark.parametrize("name", list(CASES))
def test_same_as_torch(name):
    fn = CASES[name]
    assert outcome(fn, torchlike) == outcome(fn, torch)


def test_hash_is_identity():
    x = torchlike.tensor([1.0])
    assert hash(x) == id(x)
    assert {x: 1}[x] == 1


def test_grad_fn_repr_names_the_class():
    y = torchlike.tensor([1.0], requires_grad=True) * 2
    assert repr(y.grad_fn).startswith("<MulBackward0 object at 0x")


FACTORIES = {
    "zeros": lambda t: (t.zeros(2, 3), t.zeros((2,)), t.zeros([1, 2], dtype=t.int32),
                        t.zeros(size=(2,))),
    "ones": lambda t: (t.ones(2, 2, requires_grad=True), t.ones(()), t.ones(2, dtype=t.bool)),
    "empty shape": lambda t: (t.empty(2, 3).shape, t.empty(0).dtype),
    "full": lambda t: (t.full((2,), 1.5), t.full((2,), 3), t.full((1,), True),
                       t.full((2,), 2, dtype=t.float64)),
    "arange": lambda t: (t.arange(4), t.arange(4.0), t.arange(0, 1, 0.25), t.arange(1, 10, 3),
                         t.arange(5, dtype=t.float32), t.arange(-1.5, 1.5, 0.5)),
    "linspace": lambda t: (t.linspace(0, 1, 5), t.linspace(-2, 2, 4), t.linspace(0, 1, 1)),
    "eye": lambda t: (t.eye(2), t.eye(2, 3), t.eye(2, 2, requires_grad=True)),
    "likes": lambda t: (t.zeros_like(t.tensor([1, 2])), t.ones_like(t.tensor([[1.0]])),
                        t.full_like(t.tensor([1.0, 2.0]), 7),
                        t.ones_like(t.tensor([1.0]), dtype=t.float64),
                        t.empty_like(t.tensor([1, 2])).shape),
    "random shapes": lambda t: [(r.shape, r.dtype, r.requires_grad) for r in (
        t.rand(2, 3), t.randn(4), t.randn(size=(), requires_grad=True), t.randn((2, 2)),
        t.randint(0, 5, (3,)), t.randint(5, (2, 2)), t.normal(0.0, 1.0, size=(3,)),
        t.rand_like(t.tensor([1.0, 2.0])), t.randn_like(t.tensor([[1.0]])),
        t.normal(t.zeros(3), 1.0))],
    "int factory requires grad": lambda t: t.zeros(2, dtype=t.int64, requires_grad=True),
    "as_tensor/from_numpy": lambda t: (t.as_tensor([1, 2]), t.as_tensor([1.0], dtype=t.float64)),
    "new_*": lambda t: (t.tensor([1.0]).new_zeros(2), t.tensor([1]).new_ones((2,)),
                        t.tensor([1.0], dtype=t.float64).new_tensor([1, 2]),
                        t.tensor([1]).new_full((2,), 5)),
    "Tensor ctor": lambda t: (t.Tensor([1, 2]), t.Tensor(2, 3).shape),
}


@pytest.mark.parametrize("name", list(FACTORIES))
def test_factories_as_torch(name):
    fn = FACTORIES[name]
    assert outcome(fn, torchlike) == outcome(fn, torch)


def test_manual_seed_repeats_draws():
    torchlike.manual_seed(3)
    a = torchlike.randn(5)
    torchlike.manual_seed(3)
    assert torchlike.equal(a, torchlike.randn(5))


def _warnings_of(fn, mod):
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(mod)
    return repr(result), [(w.category.__name__, str(w.message)) for w in caught]


@pytest.mark.parametrize("probe", [
    lambda t: (lambda x: ((x * 2) * (x * 2)).sum().backward() or (x * 2).grad)(
        t.tensor([0.0, 1.0], requires_grad=True)),
    lambda t: (lambda x: (x * x).sum().backward() or x.grad)(
        t.tensor([0.0, 1.0], requires_grad=True)),
    lambda t: t.tensor(t.tensor([1.0, 2.0])),
])
def test_same_warnings_as_torch(probe):
    assert _warnings_of(probe, torchlike) == _warnings_of(probe, torch)


def _grad_of_a_big_sum_then_in_place(t):
    """sum's gradient over many elements is a broadcast in the engine; .grad must still be a
    tensor of its own that zero_/add_/mul_ write into, as torch's is."""
    x = t.ones(5000, requires_grad=True)
    x.sum().backward()
    x.grad.zero_()
    (x * 3).sum().backward()
    x.grad.mul_(2)
    x.grad[0] = 7.0
    return x.grad[:3], x.grad.sum()


def test_the_grad_of_a_big_sum_takes_in_place_changes_as_in_torch():
    assert outcome(_grad_of_a_big_sum_then_in_place, torchlike) == \
        outcome(_grad_of_a_big_sum_then_in_place, torch)
