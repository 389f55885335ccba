"""Cases both compile frontends' tests run (tests/test_compile_torch.py, _paddle.py): a
function of two tensors and an MLP's training steps, compiled, against our eager run (bit
for bit: same kernels, same order) and the real framework's compiled run (to tolerances).
Everything framework-specific comes in as arguments; values are read with
``t.detach().numpy()``, which every framework here has."""
from __future__ import annotations

import inspect

import numpy as np

from .tolerance import assert_kernels_close


def params(fn) -> list:
    """(name, kind, default) of each parameter: a signature without its annotations."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


def two_tensor_fn(x, y):
    return (x * y).sin() + x.exp() / (1 + y * y)


def _np(t):
    return t.detach().numpy()


def check_two_tensor_fn(ours, theirs, leaf, real_leaf, calls: int = 3) -> None:
    """``ours`` (compiled two_tensor_fn) against eager and ``theirs`` (the real framework's)
    on new inputs each call, forward and gradients; ``leaf``/``real_leaf`` make a
    grad-requiring tensor from an array."""
    for seed in range(calls):
        rng = np.random.default_rng(seed)
        arrays = [rng.standard_normal((3, 4)) for _ in range(2)]
        xs, es, ts = ([make(a) for a in arrays] for make in (leaf, leaf, real_leaf))
        out, want, t = ours(*xs), two_tensor_fn(*es), theirs(*ts)
        for r in (out, want, t):
            r.sum().backward()
        assert np.array_equal(_np(out), _np(want))
        assert_kernels_close(_np(out), _np(t))
        for x, e, r in zip(xs, es, ts):
            assert np.array_equal(_np(x.grad), _np(e.grad))
            assert_kernels_close(_np(x.grad), _np(r.grad))


def check_training_steps(model, twin, real_model, tensor, real_tensor, steps: int = 4) -> None:
    """``model`` (compiled), ``twin`` (the same weights, eager) and ``real_model`` take
    ``steps`` steps without clearing gradients (they accumulate, as eager ones do); the
    last step's batch has a new size (a new trace)."""
    rng = np.random.default_rng(3)
    for step in range(steps):
        x = rng.standard_normal((5 if step < steps - 1 else 2, 4)).astype(np.float32)
        out, want, t = model(tensor(x)), twin(tensor(x)), real_model(real_tensor(x))
        assert np.array_equal(_np(out), _np(want))
        assert_kernels_close(_np(out), _np(t), n=8)
        for r in (out, want, t):
            (r * r).mean().backward()
        for p, q, r in zip(model.parameters(), twin.parameters(), real_model.parameters()):
            assert np.array_equal(_np(p.grad), _np(q.grad))
            assert_kernels_close(_np(p.grad), _np(r.grad), n=10)
