"""torch's numpy-style keyword aliases (issue 15 item 5): ``axis=`` for ``dim=`` and
``keepdims=`` for ``keepdim=``, everywhere real torch takes them."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import torchlike


def _public_callables():
    import torchlike.nn.functional as F

    for owner, prefix in ((torchlike, "torch."), (torchlike.Tensor, "Tensor."),
                          (F, "torch.nn.functional.")):
        for name in dir(owner):
            obj = getattr(owner, name)
            if not name.startswith("_") and callable(obj) and not isinstance(obj, type):
                yield prefix + name, obj


def test_every_function_with_dim_or_keepdim_takes_the_numpy_alias():
    lacking = []
    for label, fn in _public_callables():
        try:
            ps = inspect.signature(fn).parameters
        except (TypeError, ValueError):
            continue
        if any(p.kind is p.VAR_KEYWORD for p in ps.values()):
            continue
        for name, alias in (("dim", "axis"), ("keepdim", "keepdims")):
            if name in ps and alias not in ps:
                lacking.append(f"{label} ({name} without {alias})")
    assert lacking == []


torch = pytest.importorskip("torch")


def _x(m):
    return m.tensor(np.arange(24.0).reshape(2, 3, 4) % 7 - 3)


def _i(m):
    return m.tensor([[[0], [2], [1]], [[1], [0], [2]]])


# (label, call with the given module and x): each made with axis=/keepdims= only
CALLS = {
    "stack": lambda m, x: m.stack([x, x], axis=1),
    "cat": lambda m, x: m.cat([x, x], axis=2),
    "concat": lambda m, x: m.concat([x, x], axis=0),
    "sum": lambda m, x: m.sum(x, axis=0),
    "sum_method_keepdims": lambda m, x: x.sum(axis=0, keepdims=True),
    "mean": lambda m, x: m.mean(x, axis=(0, 2), keepdims=True),
    "prod": lambda m, x: m.prod(x, axis=1),
    "amax": lambda m, x: m.amax(x, axis=1, keepdims=True),
    "max": lambda m, x: m.max(x, axis=1, keepdims=True).values,
    "min_method": lambda m, x: x.min(axis=2).indices,
    "argmax": lambda m, x: m.argmax(x, axis=1, keepdims=True),
    "argmin": lambda m, x: x.argmin(axis=2),
    "std": lambda m, x: m.std(x, axis=1),
    "var": lambda m, x: x.var(axis=2, keepdims=True),
    "logsumexp": lambda m, x: m.logsumexp(x, axis=1),
    "softmax": lambda m, x: m.softmax(x, axis=1),
    "log_softmax": lambda m, x: x.log_softmax(axis=2),
    "cumsum": lambda m, x: m.cumsum(x, axis=1),
    "cumprod": lambda m, x: x.cumprod(axis=2),
    "all": lambda m, x: m.all(x > -3, axis=1),
    "any": lambda m, x: (x > 2).any(axis=0, keepdims=True),
    "flip": lambda m, x: m.flip(x, [0]),
    "squeeze": lambda m, x: m.squeeze(x[:1], axis=0),
    "unsqueeze": lambda m, x: x.unsqueeze(axis=1),
    "chunk": lambda m, x: m.chunk(x, 2, axis=2)[1],
    "narrow": lambda m, x: m.narrow(x, axis=2, start=1, length=2),
    "select": lambda m, x: x.select(axis=1, index=2),
    "unbind": lambda m, x: m.unbind(x, axis=1)[0],
    "tensor_split": lambda m, x: x.tensor_split(2, axis=1)[0],
    "repeat_interleave": lambda m, x: m.repeat_interleave(x, 2, axis=1),
    "gather": lambda m, x: x.gather(axis=2, index=_i(m)),
    "take_along_dim": lambda m, x: m.take_along_dim(x, _i(m), axis=2),
    "scatter": lambda m, x: x.scatter(axis=2, index=_i(m), src=x),
    "sort": lambda m, x: m.sort(x, axis=1).values,
    "argsort": lambda m, x: x.argsort(axis=2),
    "topk": lambda m, x: m.topk(x, 2, axis=2).values,
    "size": lambda m, x: m.tensor(x.size(axis=2)),
    "index_select": lambda m, x: m.index_select(x, axis=1, index=m.tensor([2, 0])),
    "median": lambda m, x: m.median(x, axis=2).values,
    "transpose_dims": lambda m, x: m.transpose(x, 0, 2),
}


@pytest.mark.parametrize("label", sorted(CALLS))
def test_alias_call_matches_real_torch(label):
    call = CALLS[label]
    try:
        want = call(torch, _x(torch))
    except (TypeError, RuntimeError) as e:  # real torch refuses: so must we
        with pytest.raises(type(e)):
            call(torchlike, _x(torchlike))
        return
    got = call(torchlike, _x(torchlike))
    assert tuple(got.shape) == tuple(want.shape)
    assert str(got.dtype) == str(want.dtype)
    np.testing.assert_allclose(np.asarray(got.tolist(), dtype=float),
                               np.asarray(want.tolist(), dtype=float), rtol=1e-6)


def test_both_a_name_and_its_alias_is_an_error():
    x = torchlike.ones(2, 3)
    with pytest.raises(TypeError):
        torchlike.chunk(x, 2, dim=0, axis=1)
