"""Gradients made with create_graph=True are linked as each framework links them (issue 14
§4; janusgrad.core.links): whether the gradient requires grad and is a leaf, and what a backward
through it leaves in x.grad (None, zeros or a value), against the real frameworks."""
import numpy as np
import pytest

from tests.tolerance import assert_kernels_close

# y = f(x, c) with c a constant tensor of x's shape (numbers where the op takes one)
TORCH_CASES = {
    "relu": "F.relu(x)", "abs": "torch.abs(x)", "exp": "torch.exp(x)", "tanh": "torch.tanh(x)",
    "square": "x * x", "mul_number": "x * 2.0", "add_tensor": "x + c", "mul_tensor": "x * c",
    "div_tensor": "x / c", "maximum": "torch.maximum(x, c)", "amax": "x.amax()",
    "max_dim": "x.max(0).values", "where": "torch.where(x > 0, x, 2 * x)",
    "clamp": "x.clamp(-0.5, 0.5)", "sum": "x", "pow2": "x ** 2", "copysign": "torch.copysign(x, c)",
    "relu_of_mul": "F.relu(x * c)", "norm1": "x.norm(1)", "sort": "x.sort().values",
    "hardtanh": "F.hardtanh(x)", "relu6": "F.relu6(x)", "threshold": "F.threshold(x, 0.1, 0.0)",
    "hardshrink": "F.hardshrink(x)", "softshrink": "F.softshrink(x)", "elu": "F.elu(x)",
    "silu": "F.silu(x)",
}
NAMED = {TORCH_CASES[k] for k in ("relu", "abs", "copysign", "hardtanh", "relu6", "threshold",
                                   "hardshrink", "softshrink")}
PADDLE_CASES = {
    "relu": "F.relu(x)", "abs": "paddle.abs(x)", "exp": "paddle.exp(x)", "tanh": "paddle.tanh(x)",
    "square": "x * x", "mul_number": "x * 2.0", "div_number": "x / 2", "rdiv_number": "2.0 / x",
    "add_tensor": "x + c", "sub_tensor": "x - c", "mul_tensor": "x * c", "c_mul": "c * x",
    "div_tensor": "x / c", "c_div": "c / x", "mul_0d": "x * paddle.to_tensor(2.0)",
    "maximum": "paddle.maximum(x, c)", "sum": "x", "mean": "x.mean()", "pow3": "x ** 3",
    "reshape_mul": "x.reshape([3, 1]) * c.reshape([3, 1])", "matmul": "x @ c",
    "tanh_of_mul": "(x * c).tanh()", "mul_mul": "(x * c) * c",
}


def _run_torch(torch, expr):
    F = torch.nn.functional  # noqa: F841 - read by expr
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    c = torch.tensor([1.5, 2.0, -0.5])  # noqa: F841
    (gx,) = torch.autograd.grad(eval(expr).sum(), [x], create_graph=True)  # noqa: S307
    out = {"requires_grad": gx.requires_grad, "is_leaf": gx.is_leaf}
    if gx.requires_grad:
        gx.sum().backward()
        out["x.grad"] = None if x.grad is None else x.grad.detach().numpy(force=True)
        if expr in NAMED:  # the link's own node (other nodes' names: not this class)
            out["node"] = type(gx.grad_fn).__name__
    return out


def _run_paddle(paddle, expr):
    F = paddle.nn.functional  # noqa: F841 - read by expr
    x = paddle.to_tensor([0.5, -1.0, 2.0], stop_gradient=False)
    c = paddle.to_tensor([1.5, 2.0, -0.5])  # noqa: F841
    (gx,) = paddle.grad(eval(expr).sum(), [x], create_graph=True)  # noqa: S307
    out = {"stop_gradient": gx.stop_gradient, "is_leaf": gx.is_leaf}
    gx.sum().backward()
    out["x.grad"] = None if x.grad is None else x.grad.numpy()
    return out


def _same(real, ours):
    assert real.keys() == ours.keys()
    for k in real:
        if k == "x.grad" and real[k] is not None and ours[k] is not None:
            assert_kernels_close(ours[k], real[k], err_msg=k)
        else:
            assert real[k] == ours[k] if not isinstance(real[k], np.ndarray) else False, \
                (k, real[k], ours[k])


@pytest.mark.parametrize("case", sorted(TORCH_CASES))
def test_create_graph_links_match_torch(case):
    torch = pytest.importorskip("torch")
    import torchlike
    _same(_run_torch(torch, TORCH_CASES[case]), _run_torch(torchlike, TORCH_CASES[case]))


@pytest.mark.parametrize("case", sorted(PADDLE_CASES))
def test_create_graph_links_match_paddle(case):
    paddle = pytest.importorskip("paddle")
    import paddlelike
    _same(_run_paddle(paddle, PADDLE_CASES[case]), _run_paddle(paddlelike, PADDLE_CASES[case]))
