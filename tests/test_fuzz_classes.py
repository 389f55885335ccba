"""Divergence classes the random-program fuzzer found (issue 14 §4), each against the
real framework: views made under no_grad (torch), reshape to its own shape (paddle),
integer gradients meeting in one backward (paddle)."""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
paddle = pytest.importorskip("paddle")
import paddlelike  # noqa: E402
import torchlike  # noqa: E402

TORCH_VIEWS = {
    "unsqueeze": lambda x: x.unsqueeze(0), "slice": lambda x: x[1:],
    "reshape": lambda x: x.reshape(3), "view": lambda x: x.view(3, 1),
    "expand": lambda x: x.expand(2, 3), "transpose": lambda x: x.reshape(3, 1).t(),
    "detach": lambda x: x.detach(), "mul": lambda x: x * 2, "select": lambda x: x[0],
}


@pytest.mark.parametrize("name", sorted(TORCH_VIEWS))
def test_torch_views_under_no_grad_keep_requires_grad(name):
    out = []
    for m in (torch, torchlike):
        x = m.ones(3, requires_grad=True)
        with m.no_grad():
            v = TORCH_VIEWS[name](x)
        out.append((v.requires_grad, v.is_leaf, v.grad_fn is None))
    assert out[1] == out[0]


@pytest.mark.parametrize("shape", [[2, 3], [6], [-1, 3], [2, -1], [3, 2], [0, 3]])
@pytest.mark.parametrize("nograd", [False, True])
def test_paddle_reshape_to_its_own_shape_is_the_input(shape, nograd):
    out = []
    for m in (paddle, paddlelike):
        x = m.ones([2, 3])
        x.stop_gradient = False
        if nograd:
            with m.no_grad():
                r = m.reshape(x, shape)
        else:
            r = m.reshape(x, shape)
        out.append((r is x, r.is_leaf, r.stop_gradient, x.reshape(shape) is x))
    assert out[1] == out[0]


@pytest.mark.parametrize("dtype", ["int64", "int32"])
@pytest.mark.parametrize("prog", ["x + x", "x * 2", "x * x", "(x + 1) * x"])
def test_paddle_integer_gradients_that_meet_raise_as_in_paddle(dtype, prog):
    out = []
    for m in (paddle, paddlelike):
        x = m.to_tensor([1, 2], dtype=dtype, stop_gradient=False)
        try:
            eval(prog, {"x": x}).sum().backward()  # noqa: S307 - fixed test text
            out.append(("ok", x.grad.numpy().tolist()))
        except Exception as e:  # noqa: BLE001 - compared
            out.append((type(e).__name__, str(e)))
    assert out[1] == out[0]


def test_torch_no_grad_view_gathers_no_grad():
    out = []
    for m in (torch, torchlike):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = m.exp(x)
        with m.no_grad():
            v, w = y.reshape(-1), x[0:]
        (v * 2).sum().backward(retain_graph=True)
        (w * 3).sum().backward()
        out.append((v.grad, w.grad, x.grad))
    assert out[1] == out[0]



def test_torch_grad_wrt_a_no_grad_view_is_none():
    out = []
    for m in (torch, torchlike):
        x = m.tensor([0.0, 1.0], requires_grad=True)
        with m.no_grad():
            v = x[1:]
        (g,) = m.autograd.grad((v * 2).sum(), [v], allow_unused=True)
        out.append(g)
    assert out[1] is None and out[0] is None


def test_paddle_grad_with_one_input_twice_raises_as_in_paddle():
    out = []
    for m in (paddle, paddlelike):
        x = m.to_tensor([1.0, 2.0], stop_gradient=False)
        try:
            m.grad(m.exp(x).sum(), [x, m.reshape(x, [2])])
            out.append("ok")
        except Exception as e:  # noqa: BLE001 - compared
            out.append((type(e).__name__, str(e).split("tensor ")[0]))
    assert out[1] == out[0]


def test_paddle_names_grad_tensor_and_target_as_paddle_does():
    """paddle counts generated_tensor_N (tensors made from data) and eager_tmp_N (op
    results) apart: two shape errors in a row name eager_tmp_K and eager_tmp_K+1."""
    import re
    out = []
    for m in (paddle, paddlelike):
        nums = []
        for _ in range(2):
            x = m.to_tensor([1.0, 2.0], stop_gradient=False)
            try:
                (x * 2).backward(m.to_tensor([1.0, 2.0, 3.0]))
            except AssertionError as e:
                nums.append(int(re.search(r"eager_tmp_(\d+)", str(e)).group(1)))
        out.append(nums[1] - nums[0])
    assert out[1] == out[0]


@pytest.mark.parametrize("expr", ["x ** 2", "x ** 3.0", "x ** e", "torch.pow(x, 2)"])
def test_torch_pow_keeps_its_output_only_for_the_exponent_gradient(expr):
    # torch's pow saves its result only where the exponent needs a gradient: changing the
    # result in place afterwards is legal with a number exponent, an error with a tensor
    out = []
    for m in (torch, torchlike):
        x = m.tensor([0.5, 1.5], requires_grad=True)
        e = m.tensor(2.0, requires_grad=True)  # noqa: F841 - read by expr
        y = eval(expr, {"torch": m, "x": x, "e": e})  # noqa: S307
        y.mul_(2.0)
        try:
            y.sum().backward()
            out.append(x.grad.tolist())
        except RuntimeError as err:
            out.append(type(err).__name__)
    assert out[1] == out[0]


@pytest.mark.parametrize("dims", [((2,), ()), ((), (2,)), ((2,), (1,))])
def test_paddle_backward_of_a_promoted_integer_operand(dims):
    # paddle promotes int64 * float32 when one side is 0-d; the backward's own arithmetic
    # (float gradient times the int operand, both with dimensions) must not be refused
    out = []
    for m in (paddle, paddlelike):
        a = m.to_tensor([1, 2] if dims[0] else 3, dtype="int64", stop_gradient=False)
        b = m.to_tensor([1.5] * dims[1][0] if dims[1] else 1.5, dtype="float32",
                        stop_gradient=False)
        try:
            y = a * b
        except Exception as err:  # noqa: BLE001 - the type is compared
            out.append(type(err).__name__)
            continue
        ga, gb = m.grad(y.sum(), [a, b], allow_unused=True)
        out.append((str(ga.dtype), ga.numpy().tolist(), str(gb.dtype), gb.numpy().tolist()))
    assert out[1] == out[0]


# ---- issue 22 §4: what the fuzzer's Tensor methods, unused grad inputs and mixed-dtype
# lists found
def _outcome(f):
    try:
        r = f()
    except Exception as e:  # noqa: BLE001 - compared
        return type(e).__name__, str(e)
    return "ok", str(r.dtype), r.numpy().tolist()


MIXED = {
    "concat": lambda m, a, b: m.concat([a, b]), "stack": lambda m, a, b: m.stack([a, b]),
    "add_n": lambda m, a, b: m.add_n([a, b]), "matmul": lambda m, a, b: m.matmul(a, b),
    "mm": lambda m, a, b: m.mm(a, b), "dot": lambda m, a, b: m.dot(a[0], b[0]),
    "bmm": lambda m, a, b: m.bmm(a.unsqueeze(0), b.unsqueeze(0)), "@": lambda m, a, b: a @ b,
    "stack_shapes": lambda m, a, b: m.stack([a, b[:1]]),
    "concat_shapes": lambda m, a, b: m.concat([a, b[:, :1]]),
}


@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32"),
                                    ("float32", "int64"), ("int64", "float32"),
                                    ("float64", "int32")])
@pytest.mark.parametrize("op", sorted(MIXED))
def test_paddle_mixed_dtypes_as_in_paddle(op, dtypes):
    if op == "bmm" and dtypes[1].startswith("int"):
        pytest.skip("paddle has no integer bmm kernel (a missing kernel: not reproduced)")
    out = [_outcome(lambda m=m: MIXED[op](m, m.ones([2, 2], dtypes[0]),
                                          m.ones([2, 2], dtypes[1])))
           for m in (paddle, paddlelike)]
    assert out[1] == out[0]


@pytest.mark.parametrize("call", ["m.concat([])", "m.stack([])", "m.add_n([])",
                                  "m.concat(())", "m.ones([2]).concat()",
                                  "m.ones([2]).stack()", "m.add_n(m.ones([2]))",
                                  "m.broadcast_tensors(m.ones([2]))"])
def test_paddle_list_arguments_as_in_paddle(call):
    out = [_outcome(lambda m=m: eval(call, {"m": m})) for m in (paddle, paddlelike)]  # noqa: S307
    assert out[1] == out[0]


@pytest.mark.parametrize("call", ["m.cat([])", "m.stack([])", "m.softmax(x)", "x.softmax()",
                                  "x.log_softmax()", "m.log_softmax(x)",
                                  "m.nn.functional.softmax(x)", "x.softmax(0)"])
def test_torch_empty_lists_and_softmax_dim_as_in_torch(call):
    out = []
    for m in (torch, torchlike):
        x = m.tensor([1.0, 2.0])
        out.append(_outcome(lambda m=m, x=x: eval(call, {"m": m, "x": x})))  # noqa: S307
    assert out[1][0] == out[0][0] and out[1][1] == out[0][1]


@pytest.mark.parametrize("allow", [True, False])
@pytest.mark.parametrize("make", ["data", "data_int", "leaf_unused", "stop_set_on_op_result"])
def test_paddle_grad_of_a_tensor_without_gradient_as_in_paddle(make, allow):
    out = []
    for m in (paddle, paddlelike):
        w = m.to_tensor([1.0, 2.0], stop_gradient=False)
        if make == "data":
            u = m.to_tensor([1.0, 2.0])
        elif make == "data_int":
            u = m.to_tensor([1, 2])
        elif make == "leaf_unused":
            u = m.to_tensor([1.0, 2.0], stop_gradient=False)
        else:
            u = m.sin(w)
            u.stop_gradient = True
        out.append(_outcome(lambda m=m, w=w, u=u: m.grad((w * 2).sum(), [w, u],
                                                          allow_unused=allow)[1] or w))
    assert out[1] == out[0]


def test_paddle_grad_of_an_op_result_without_gradient_is_none_not_a_crash():
    # paddle fails here (SystemError: (Fatal) There is no grad op for inputs); the answer
    # is defined (unused: None) and janusgrad gives it (tests/fuzz/program.py)
    w = paddlelike.to_tensor([1.0, 2.0], stop_gradient=False)
    u = w.detach()
    assert paddlelike.grad((w * 2).sum(), [w, u], allow_unused=True)[1] is None
    with pytest.raises(ValueError, match="1-th input does not appear"):
        paddlelike.grad((w * 2).sum(), [w, u])


METHODS = ["x.float()", "x.double()", "x.half()", "x.int()", "x.long()", "x.short()",
           "x.char()", "x.byte()", "x.bool()", "x.float32()", "x.float64()", "x.int8()",
           "x.int16()", "x.int32()", "x.int64()", "x.uint8()", "x.float16()", "x.type_as(i)",
           "x.softmax()", "x.softmax(0)", "x.softmax(dim=-1)", "m.softmax(x, 1)",
           "x.softmax(1, dtype='float64')", "x.div(y)", "m.div(x, y)", "x.sub(y)",
           "x.mul(y)", "m.mul(x, y)", "x.eq(y)", "x.ne(y)", "x.lt(y)", "x.le(y)", "x.gt(y)",
           "x.ge(y)", "m.gt(x, y)", "x.clamp(0.5, 1.5)", "m.clamp(x, 0.5)", "x.reverse(0)",
           "x.swapaxes(0, 1)", "x.swapdims([1, 0])", "x.true_divide(y)", "x.negative()",
           "x.matrix_transpose()", "x.add_n()", "x.atleast_3d()", "x.block_diag()",
           "x.take_along_dim(i.reshape([2, 1]), 1)", "x.is_floating_point()",
           "i.is_integer()", "x.is_complex()", "x.is_empty()", "x.rank()",
           "x.split_with_sizes([1, 1])[1]", "x.unstack()[1]", "x.unstack(1)[0]",
           "x.new_empty([3]).shape", "x.float() is x", "x.type_as(x) is x"]


@pytest.mark.parametrize("call", METHODS)
def test_paddle_tensor_methods_as_in_paddle(call):
    out = []
    for m in (paddle, paddlelike):
        # (a cast to an integer dtype keeps paddle's gradient flag: a documented
        # difference, tests/fuzz/program.py; those calls convert a tensor without one)
        to_int = any(k in call for k in ("int", "long", "short", "char", "byte", "bool",
                                         "type_as(i)"))
        x = m.to_tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], stop_gradient=to_int)
        y = m.to_tensor([[1.0, 2.0, -1.0], [0.5, 3.0, 4.0]])
        i = m.to_tensor([1, 0])
        r = eval(call, {"m": m, "x": x, "y": y, "i": i})  # noqa: S307
        if isinstance(r, (bool, list)) or not hasattr(r, "numpy"):
            out.append(r)
        else:
            out.append((str(r.dtype), r.shape, r.stop_gradient, r.is_leaf,
                        np.round(r.numpy().astype("float64"), 6).tolist()))
    assert out[1] == out[0]


def test_paddle_tensor_methods_differentiate():
    out = []
    for m in (paddle, paddlelike):
        x = m.to_tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], stop_gradient=False)
        y = (x.softmax(1) * x.double().float().negative().clamp(-1.0, 1.0)).sum()
        y = y + m.add_n([x, x * 2]).div(x * x + 1).sum()
        y.backward()
        out.append(np.round(x.grad.numpy(), 5).tolist())
    assert out[1] == out[0]
