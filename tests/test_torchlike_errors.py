"""Bad input through torchlike raises torch 2.13's exception type and message."""
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
    return t.tensor([0.0, 1.0, 2.0, 3.0], requires_grad=True)


def _twice(t):
    x = _leaf(t)
    y = (x * x).sum()
    y.backward()
    y.backward()


def _twice_no_saved(t):
    x = _leaf(t)
    y = (x * 2).sum()
    y.backward()
    y.backward()


def _inplace(t):
    x = _leaf(t)
    x.add_(1)


def _iadd(t):
    x = _leaf(t)
    x += 1


def _setitem(t):
    x = _leaf(t)
    x[0] = 5.0


def _zero(t):
    _leaf(t).zero_()


def _nonleaf_flag(t):
    (_leaf(t) * 2).requires_grad_(False)


def _nonleaf_attr(t):
    y = _leaf(t) * 2
    y.requires_grad = False


def _int_attr(t):
    x = t.tensor([1, 2])
    x.requires_grad = True


def _no_grad_update(t):
    x = _leaf(t)
    with t.no_grad():
        x -= 0.1
    return x


def _int_iadd_float(t):
    i = t.tensor([1, 2, 3])
    i += 1.5


def _bad_broadcast_inplace(t):
    x = t.tensor([1.0, 2.0, 3.0, 4.0])
    x += t.tensor([[1.0] * 4] * 3)


CASES = {
    "backward twice": _twice,
    "backward twice, nothing saved": _twice_no_saved,
    "non-scalar backward": lambda t: (_leaf(t) * _leaf(t)).backward(),
    "2-D non-scalar backward": lambda t: (_leaf(t).reshape(2, 2) * 2).backward(),
    "wrong-shape gradient": lambda t: (_leaf(t) * 2).backward(t.tensor([1.0, 1.0, 1.0])),
    "wrong-shape 2-D gradient": lambda t: (_leaf(t) * 2).backward(t.tensor([[1.0, 1.0]] * 2)),
    "int requires_grad ctor": lambda t: t.tensor([1, 2], requires_grad=True),
    "int requires_grad_": lambda t: t.tensor([1, 2]).requires_grad_(),
    "int requires_grad attr": _int_attr,
    "in-place method on leaf": _inplace,
    "augmented assignment on leaf": _iadd,
    "item assignment on leaf": _setitem,
    "zero_ on leaf": _zero,
    "no_grad update of leaf": _no_grad_update,
    "non-leaf requires_grad_(False)": _nonleaf_flag,
    "non-leaf requires_grad = False": _nonleaf_attr,
    "numpy on requires_grad": lambda t: _leaf(t).numpy(),
    "backward without grad": lambda t: t.tensor([0.0, 1.0]).sum().backward(),
    "matmul 2-D mismatch": lambda t: t.tensor([[1.0] * 3] * 2) @ t.tensor([[1.0] * 3] * 2),
    "matmul 1-D mismatch": lambda t: t.tensor([1.0] * 3) @ t.tensor([1.0] * 4),
    "matmul mat-vec": lambda t: t.tensor([[1.0] * 3] * 2) @ t.tensor([1.0] * 4),
    "matmul vec-mat": lambda t: t.tensor([1.0] * 3) @ t.tensor([[1.0] * 2] * 4),
    "matmul 0-d": lambda t: t.tensor(2.0) @ t.tensor([1.0] * 3),
    "matmul dtypes": lambda t: t.tensor([[1.0]]) @ t.tensor([[1]]),
    "dot dtypes": lambda t: t.dot(t.tensor([1.0, 2.0]), t.tensor([1, 2])),
    "dot 2-D": lambda t: t.dot(t.tensor([[1.0]]), t.tensor([[1.0]])),
    "broadcast mismatch": lambda t: t.tensor([1.0, 2.0]) + t.tensor([1.0, 2.0, 3.0]),
    "broadcast mismatch 2-D": lambda t: t.tensor([[1.0] * 3] * 2) * t.tensor([[1.0] * 3] * 4),
    "int in-place with float": _int_iadd_float,
    "in-place broadcast to bigger": _bad_broadcast_inplace,
    "int mean": lambda t: t.tensor([1, 2, 3]).mean(),
    "item of many": lambda t: t.tensor([1.0, 2.0]).item(),
    "float of many": lambda t: float(t.tensor([1.0, 2.0])),
    "bool of many": lambda t: bool(t.tensor([1.0, 2.0])),
    "len of 0-d": lambda t: len(t.tensor(1.0)),
    "index of float": lambda t: t.tensor(2.0).__index__(),
    "format of vector": lambda t: format(t.tensor([1.0]), ".2f"),
    "format of 0-d": lambda t: format(t.tensor(2.5), ".3f"),
    "t of 3-D": lambda t: t.tensor([[[1.0]]]).t(),
    "reshape invalid": lambda t: t.tensor([1.0, 2.0, 3.0]).reshape(2, 2),
    "view invalid": lambda t: t.tensor([1.0, 2.0, 3.0]).view(-1, 2),
    "dim out of range": lambda t: t.tensor([[1.0]]).transpose(0, 3),
    "size out of range": lambda t: t.tensor([[1.0]]).size(2),
    "mm of vector": lambda t: t.mm(t.tensor([1.0]), t.tensor([[1.0]])),
    "bmm of matrix": lambda t: t.bmm(t.tensor([[1.0]]), t.tensor([[1.0]])),
    "outer of matrix": lambda t: t.outer(t.tensor([[1.0]]), t.tensor([1.0])),
}

_O = "t.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])"
_V = "t.tensor([1.0, 2.0, 3.0])"
for _probe in [
    f"{_V}.expand(4)", f"{_O}.expand(3, 3)", f"{_V}[5]", f"{_O}[1, 5]", f"{_V}[0, 0]",
    f"{_V}[1.5]", f"{_O}.sum(5)", f"{_O}.sum((0, 0))", f"{_O}.mean(-3)",
    f"{_V}.index_select(0, t.tensor([5]))", f"{_V}.index_select(0, t.tensor([[0]]))",
    f"{_O}.gather(1, t.tensor([0]))", f"{_O}.gather(1, t.tensor([[5]]))",
    f"{_V}.masked_select(t.tensor([1, 0, 1]))", f"t.cat([{_O}, {_O}.t()], 1)",
    f"t.cat([{_O}, {_V}])", f"t.stack([{_V}, {_O}])", "t.cat([t.tensor(1.0)])",
    f"{_V}.split([2, 2])", f"{_O}[[0, 5]]", f"{_V}.transpose(0, 1)", "t.cat([])",
    "t.stack([])", f"{_V}.flip(0, 0)", f"{_V}.view(2, -1)", f"{_O}.unsqueeze(3)",
    f"{_O}.squeeze(2)", f"{_O}.flatten(0, 2)", f"{_O}.permute(0, 2)", f"{_V}.softmax(1)",
]:
    CASES[_probe] = eval("lambda t: " + _probe)  # noqa: S307 - test table


@pytest.mark.parametrize("name", list(CASES))
def test_same_error_as_torch(name):
    fn = CASES[name]
    assert outcome(fn, torchlike) == outcome(fn, torch)
