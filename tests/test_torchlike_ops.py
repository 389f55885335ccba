"""Values, gradients and grad_fn names of torch-named ops: torchlike against torch 2.13."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torchlike

torch = pytest.importorskip("torch")

# name -> (function of (module, *tensors), input shapes, value range)
CASES = {
    "add": (lambda t, x, y: x + y, [(3, 4), (4,)], (-2, 2)),
    "radd": (lambda t, x: 1.5 + x, [(3,)], (-2, 2)),
    "sub": (lambda t, x, y: t.sub(x, y, alpha=2), [(3, 1), (1, 4)], (-2, 2)),
    "rsub": (lambda t, x: 1 - x, [(3,)], (-2, 2)),
    "mul": (lambda t, x, y: x * y, [(2, 3), (2, 3)], (-2, 2)),
    "div": (lambda t, x, y: x / y, [(2, 3), (3,)], (0.5, 2)),
    "rdiv": (lambda t, x: 2 / x, [(4,)], (0.5, 2)),
    "pow scalar": (lambda t, x: x ** 3, [(4,)], (-2, 2)),
    "pow tensor": (lambda t, x, y: x ** y, [(4,), (4,)], (0.5, 2)),
    "rpow": (lambda t, x: 2 ** x, [(4,)], (-2, 2)),
    "neg": (lambda t, x: -x, [(4,)], (-2, 2)),
    "exp": (lambda t, x: x.exp(), [(4,)], (-2, 2)),
    "log": (lambda t, x: t.log(x), [(4,)], (0.5, 3)),
    "log1p": (lambda t, x: x.log1p(), [(4,)], (0.5, 3)),
    "sqrt": (lambda t, x: x.sqrt(), [(4,)], (0.5, 3)),
    "rsqrt": (lambda t, x: x.rsqrt(), [(4,)], (0.5, 3)),
    "abs": (lambda t, x: x.abs(), [(4,)], (0.1, 2)),
    "sin": (lambda t, x: t.sin(x), [(4,)], (-2, 2)),
    "tanh": (lambda t, x: x.tanh(), [(4,)], (-2, 2)),
    "sigmoid": (lambda t, x: t.sigmoid(x), [(4,)], (-2, 2)),
    "relu": (lambda t, x: t.relu(x), [(4,)], (0.1, 2)),
    "F.relu": (lambda t, x: t.nn.functional.relu(x - 1), [(4,)], (0.1, 2)),
    "square": (lambda t, x: x.square(), [(4,)], (-2, 2)),
    "clamp": (lambda t, x: x.clamp(-0.5, 0.5), [(6,)], (-2, 2)),
    "clip min": (lambda t, x: t.clip(x, min=0.2), [(6,)], (-2, 2)),
    "where": (lambda t, x, y: t.where(x > 0, x, y), [(6,), (6,)], (-2, 2)),
    "maximum": (lambda t, x, y: t.maximum(x, y), [(6,), (6,)], (-2, 2)),
    "max binary": (lambda t, x, y: t.max(x, y), [(6,), (6,)], (-2, 2)),
    "sum": (lambda t, x: x.sum(), [(3, 4)], (-2, 2)),
    "sum dim": (lambda t, x: x.sum(dim=1, keepdim=True), [(3, 4)], (-2, 2)),
    "sum axis alias": (lambda t, x: x.sum(axis=0, keepdims=True), [(3, 4)], (-2, 2)),
    "sum dims": (lambda t, x: t.sum(x, (0, 2)), [(2, 3, 4)], (-2, 2)),
    "mean": (lambda t, x: x.mean(), [(3, 4)], (-2, 2)),
    "mean dim": (lambda t, x: x.mean(-1), [(3, 4)], (-2, 2)),
    "prod": (lambda t, x: x.prod(1), [(3, 4)], (0.5, 2)),
    "max": (lambda t, x: x.max(), [(3, 4)], (-2, 2)),
    "max dim": (lambda t, x: x.max(dim=1)[0], [(3, 4)], (-2, 2)),
    "min dim": (lambda t, x: t.min(x, 0).values, [(3, 4)], (-2, 2)),
    "amax": (lambda t, x: x.amax(0), [(3, 4)], (-2, 2)),
    "var": (lambda t, x: x.var(), [(3, 4)], (-2, 2)),
    "var dim biased": (lambda t, x: x.var(1, unbiased=False), [(3, 4)], (-2, 2)),
    "std": (lambda t, x: x.std(0), [(3, 4)], (-2, 2)),
    "norm": (lambda t, x: x.norm(), [(3, 4)], (0.1, 2)),
    "norm dim": (lambda t, x: t.norm(x, dim=1), [(3, 4)], (0.1, 2)),
    "logsumexp": (lambda t, x: t.logsumexp(x, 1), [(3, 4)], (-2, 2)),
    "cumsum": (lambda t, x: x.cumsum(0), [(3, 4)], (-2, 2)),
    "softmax": (lambda t, x: t.softmax(x, 1), [(3, 4)], (-2, 2)),
    "F.log_softmax": (lambda t, x: t.nn.functional.log_softmax(x, dim=0), [(3, 4)], (-2, 2)),
    "dot": (lambda t, x, y: t.dot(x, y), [(4,), (4,)], (-2, 2)),
    "mv": (lambda t, x, y: x @ y, [(3, 4), (4,)], (-2, 2)),
    "mm": (lambda t, x, y: t.mm(x, y), [(3, 4), (4, 2)], (-2, 2)),
    "vec-mat": (lambda t, x, y: x @ y, [(4,), (4, 2)], (-2, 2)),
    "bmm": (lambda t, x, y: t.bmm(x, y), [(2, 3, 4), (2, 4, 2)], (-2, 2)),
    "batched matmul": (lambda t, x, y: t.matmul(x, y), [(2, 3, 4), (4, 2)], (-2, 2)),
    "outer": (lambda t, x, y: t.outer(x, y), [(3,), (4,)], (-2, 2)),
    "t": (lambda t, x: x.t(), [(3, 4)], (-2, 2)),
    "T": (lambda t, x: x.T, [(3, 4)], (-2, 2)),
    "reshape": (lambda t, x: x.reshape(4, -1), [(3, 4)], (-2, 2)),
    "view": (lambda t, x: x.view((2, 6)), [(3, 4)], (-2, 2)),
    "flatten": (lambda t, x: x.flatten(), [(2, 3, 4)], (-2, 2)),
    "squeeze": (lambda t, x: x.squeeze(), [(3, 1, 4)], (-2, 2)),
    "squeeze dim": (lambda t, x: x.squeeze(1), [(3, 1, 4)], (-2, 2)),
    "unsqueeze": (lambda t, x: x.unsqueeze(-1), [(3, 4)], (-2, 2)),
    "transpose": (lambda t, x: x.transpose(0, 2), [(2, 3, 4)], (-2, 2)),
    "permute": (lambda t, x: x.permute(2, 0, 1), [(2, 3, 4)], (-2, 2)),
    "expand": (lambda t, x: x.expand(2, 3, 4), [(3, 1)], (-2, 2)),
    "cat": (lambda t, x, y: t.cat([x, y], dim=1), [(2, 3), (2, 2)], (-2, 2)),
    "stack": (lambda t, x, y: t.stack((x, y)), [(2, 3), (2, 3)], (-2, 2)),
    "split": (lambda t, x: x.split(2)[1], [(5, 3)], (-2, 2)),
    "split sizes": (lambda t, x: t.split(x, [1, 4])[1], [(5, 3)], (-2, 2)),
    "chunk": (lambda t, x: x.chunk(3, dim=1)[0], [(2, 5)], (-2, 2)),
    "flip": (lambda t, x: x.flip(0), [(3, 4)], (-2, 2)),
    "repeat": (lambda t, x: x.repeat(2, 1, 3), [(3, 4)], (-2, 2)),
    "select": (lambda t, x: x[1], [(3, 4)], (-2, 2)),
    "slice": (lambda t, x: x[:, 1:3], [(3, 4)], (-2, 2)),
    "index list": (lambda t, x: x[[0, 2, 2]], [(3, 4)], (-2, 2)),
    "index mask": (lambda t, x: x[x > 0], [(3, 4)], (-2, 2)),
    "index_select": (lambda t, x: x.index_select(1, t.tensor([0, 3, 3])), [(3, 4)], (-2, 2)),
    "gather": (lambda t, x: x.gather(1, t.tensor([[0, 1], [2, 2], [3, 0]])), [(3, 4)],
               (-2, 2)),
    "masked_select": (lambda t, x: x.masked_select(x > 0), [(3, 4)], (-2, 2)),
    "double": (lambda t, x: x.double() * 2, [(3,)], (-2, 2)),
    "clone": (lambda t, x: x.clone(), [(3,)], (-2, 2)),
}


def run(mod, fn, arrays):
    xs = [mod.tensor(a.copy(), requires_grad=True) for a in arrays]
    out = fn(mod, *xs)
    name = type(out.grad_fn).__name__ if out.grad_fn is not None else None
    weights = mod.tensor(np.linspace(0.5, 1.5, out.numel()).reshape(tuple(out.shape)),
                         dtype=out.dtype)
    (out * weights).sum().backward()
    grads = [None if x.grad is None else x.grad.numpy() for x in xs]
    return out.detach().numpy(), name, grads


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
@pytest.mark.parametrize("case", list(CASES))
def test_values_gradients_and_node_names(case, seed):
    fn, shapes, (lo, hi) = CASES[case]
    rng = np.random.default_rng(seed)
    arrays = [rng.uniform(lo, hi, s).astype(np.float32) for s in shapes]
    ours, theirs = run(torchlike, fn, arrays), run(torch, fn, arrays)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5, atol=1e-6)
    assert ours[1] == theirs[1]
    for g, h in zip(ours[2], theirs[2]):
        assert (g is None) == (h is None)
        if g is not None:
            np.testing.assert_allclose(g, h, rtol=1e-4, atol=1e-5)
