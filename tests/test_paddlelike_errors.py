"""Bad input: paddlelike raises paddle 3.3.1's exception types with its exact messages,
and follows paddle's autograd policy (seeding, clearing, flags)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import paddlelike

paddle = pytest.importorskip("paddle")


def raised(fn):
    """(exception type name, message) with paddle's per-process tensor names normalised."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        msg = re.sub(r"(generated_tensor|eager_tmp)_\d+", "<name>", str(e))
        return type(e).__name__, msg
    return None


def same_error(make):
    ours = raised(lambda: make(paddlelike))
    theirs = raised(lambda: make(paddle))
    assert theirs is not None
    assert ours == theirs


def _leaf(m, values=(1.0, 2.0)):
    return m.to_tensor(list(values), stop_gradient=False)


BACKWARD_TWICE = {
    "sum": lambda m, x: (x * x).sum(),
    "scale": lambda m, x: x * 2,
    "scale_r": lambda m, x: 3 + x,
    "dot": lambda m, x: m.dot(x, x),
    "multiply": lambda m, x: x * x,
    "add": lambda m, x: x + x,
    "subtract": lambda m, x: x - x,
    "divide": lambda m, x: x / x,
    "mean": lambda m, x: x.mean(),
    "exp": lambda m, x: m.exp(x),
    "pow": lambda m, x: x ** 2,
    "matmul": lambda m, x: m.matmul(x.reshape([1, 2]), x.reshape([2, 1])),
    "reshape": lambda m, x: x.reshape([2, 1]),
    "tanh": lambda m, x: m.tanh(x),
}


@pytest.mark.parametrize("name", sorted(BACKWARD_TWICE))
def test_backward_twice_names_the_node(name):
    def make(m):
        x = _leaf(m)
        y = BACKWARD_TWICE[name](m, x)
        y.backward()
        y.backward()
    same_error(make)


@pytest.mark.parametrize("name", ["sum", "scale", "multiply", "exp"])
def test_grad_fn_names(name):
    ours = BACKWARD_TWICE[name](paddlelike, _leaf(paddlelike)).grad_fn.name()
    theirs = BACKWARD_TWICE[name](paddle, _leaf(paddle)).grad_fn.name()
    assert ours == theirs


def test_grad_fn_of_leaves():
    for m in (paddlelike, paddle):
        # (paddle also gives to_tensor(..., stop_gradient=True) an accumulation node and
        # .grad tensors none; paddlelike cannot tell those leaves apart from others)
        assert _leaf(m).grad_fn.name() == "GradNodeAccumulation"
        with m.no_grad():
            assert (_leaf(m) * 2).grad_fn is None


def test_retain_graph_accumulates():
    for m in (paddlelike, paddle):
        x = _leaf(m)
        y = (x * x).sum()
        y.backward(retain_graph=True)
        y.backward()
        assert x.grad.numpy().tolist() == [4.0, 8.0]


@pytest.mark.parametrize("dtypes", [("float32", "int64"), ("int32", "int64"), ("bool", "float32"),
                                    ("int64", "float64"), ("float64", "bool")])
def test_promotion_errors(dtypes):
    def make(m):
        a = m.to_tensor(np.ones(3, dtypes[0]))
        b = m.to_tensor(np.ones(3, dtypes[1]))
        return a + b
    same_error(make)
    same_error(lambda m: make(m) * 1)


def test_float_promotion_allowed():
    for m in (paddlelike, paddle):
        a = m.to_tensor(np.ones(2, "float32")) + m.to_tensor(np.ones(2, "float64"))
        assert str(a.dtype) == "paddle.float64"
        assert str((m.to_tensor([1, 2]) / 2).dtype) == "paddle.float32"
        assert str((m.to_tensor([1, 2]) * 2.5).dtype) == "paddle.float32"
        assert str((m.to_tensor([1, 2]) // 2).dtype) == "paddle.int64"


@pytest.mark.parametrize("shapes", [([2], [3]), ([2, 3], [4]), ([2, 3], [4, 3]), ([4], [2, 3]),
                                    ([5, 2, 3], [4, 1, 3]), ([2, 3], [2, 3, 4])])
def test_broadcast_errors(shapes):
    same_error(lambda m: m.ones(shapes[0]) + m.ones(shapes[1]))
    same_error(lambda m: m.ones(shapes[0]) * m.ones(shapes[1]))


@pytest.mark.parametrize("shapes", [([2, 3], [4, 5]), ([3], [4]), ([2, 2, 3], [3, 3, 4]),
                                    ([2, 3], [4]), ([2, 5, 3], [4]), ([2], [2, 5, 3]),
                                    ([2, 3, 4], [3, 5, 6])])
def test_matmul_errors(shapes):
    same_error(lambda m: m.matmul(m.ones(shapes[0]), m.ones(shapes[1])))


def test_matmul_transpose_error_and_mm():
    same_error(lambda m: m.matmul(m.ones([2, 3]), m.ones([3, 4]), transpose_y=True))
    same_error(lambda m: m.mm(m.ones([2, 3]), m.ones([2, 3])))
    same_error(lambda m: m.ones([2, 3]) @ m.ones([2, 3]))


def test_dot_shape_error():
    same_error(lambda m: m.dot(m.ones([2]), m.ones([3])))


@pytest.mark.parametrize("shape", [[4], [-1, 4], [5, -1], [7]])
def test_reshape_errors(shape):
    same_error(lambda m: m.reshape(m.ones([2, 3]), shape))


def test_scalar_conversions():
    same_error(lambda m: float(m.to_tensor([1.0, 2.0])))
    same_error(lambda m: float(m.to_tensor([1.0])))
    same_error(lambda m: int(m.to_tensor([1.0, 2.0])))
    same_error(lambda m: int(m.to_tensor([[3]])))
    same_error(lambda m: bool(m.to_tensor([1.0, 2.0])))
    same_error(lambda m: len(m.to_tensor(1.0)))
    same_error(lambda m: format(m.to_tensor([1.0]), ".2f"))
    same_error(lambda m: m.to_tensor([1.0, 2.0]).item())
    for m in (paddlelike, paddle):
        assert float(m.to_tensor(2.5)) == 2.5 and int(m.to_tensor(3)) == 3
        assert bool(m.to_tensor([1.0])) is True and len(m.to_tensor([[1, 2]])) == 1
        assert m.to_tensor([1.5]).item() == 1.5 and m.to_tensor([[1, 2]]).tolist() == [[1, 2]]


def test_keyword_errors():
    same_error(lambda m: m.ones([2, 3]).sum(keepdims=True))
    same_error(lambda m: m.sum(m.ones([2, 3]), keepdims=True))
    same_error(lambda m: m.ones([2, 3]).mean(keepdims=True))
    for m in (paddlelike, paddle):
        assert m.ones([2, 3]).sum(dim=0, keepdim=True).shape == [1, 3]
        assert m.ones([2, 3]).mean(dim=1).shape == [2]


def test_inplace_on_grad_leaf():
    def setitem(m):
        x = _leaf(m)
        x[0] = 5.0
    same_error(setitem)

    def zero(m):
        _leaf(m).zero_()
    same_error(zero)


def test_inplace_allowed_without_grad():
    for m in (paddlelike, paddle):
        x = m.to_tensor([1.0, 2.0, 3.0])
        x[1] = 7.0
        x[m.to_tensor([True, False, False])] = 0.0
        assert x.numpy().tolist() == [0.0, 7.0, 3.0]
        with m.no_grad():
            w = _leaf(m)
            w[0] = 4.0
            assert w.numpy().tolist() == [4.0, 2.0]


def test_augmented_assignment_is_out_of_place():
    for m in (paddlelike, paddle):
        x = _leaf(m)
        x0 = x
        x += 1
        assert x is not x0 and not x.is_leaf and x0.numpy().tolist() == [1.0, 2.0]
        with m.no_grad():
            w = _leaf(m)
            w0 = w
            w -= 0.5
        assert w is not w0 and w.stop_gradient and w0.numpy().tolist() == [1.0, 2.0]


def test_set_value_updates_parameter():
    for m in (paddlelike, paddle):
        w = _leaf(m)
        w.set_value(m.to_tensor([5.0, 6.0]))
        assert w.numpy().tolist() == [5.0, 6.0] and w.is_leaf and not w.stop_gradient


def test_seed_shape_errors():
    def leaf_seed(m):
        _leaf(m).backward(m.to_tensor([[1.0, 2.0]]))
    same_error(leaf_seed)

    def node_seed(m):
        x = _leaf(m)
        (x * x).backward(m.to_tensor([1.0, 2.0, 3.0]))
    same_error(node_seed)


def test_non_scalar_backward_seeds_ones():
    for m in (paddlelike, paddle):
        x = m.to_tensor([0.0, 1.0, 2.0, 3.0], stop_gradient=False)
        (x * x).backward()
        assert x.grad.numpy().tolist() == [0.0, 2.0, 4.0, 6.0]
        x2 = m.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
        (x2 * x2).backward()
        assert x2.grad.numpy().tolist() == [[2.0, 4.0], [6.0, 8.0]]
        x3 = m.to_tensor([0.0, 1.0, 2.0, 3.0], stop_gradient=False)
        (x3 * x3).backward(m.to_tensor([1.0, 0.0, 0.0, 1.0]))
        assert x3.grad.numpy().tolist() == [0.0, 0.0, 0.0, 6.0]
        x4 = m.to_tensor([1.0, 2.0], stop_gradient=False)
        (x4 * x4).backward(m.to_tensor([1, 2]))  # an int seed is accepted
        assert x4.grad.numpy().tolist() == [2.0, 8.0]


def test_autograd_backward_lists():
    for m in (paddlelike, paddle):
        x = _leaf(m)
        m.autograd.backward([x * x, x * 3], [m.to_tensor([1.0, 1.0]), None])
        assert x.grad.numpy().tolist() == [5.0, 7.0]
        m.autograd.backward(x.sum(), m.to_tensor(2.0))
        assert x.grad.numpy().tolist() == [7.0, 9.0]


def test_backward_without_grad_is_silent():
    for m in (paddlelike, paddle):
        t = m.arange(4.0)
        assert t.backward() is None and t.grad is None
        x = _leaf(m)
        m.autograd.backward([m.to_tensor([1.0]).sum(), (x * 2).sum()])
        assert x.grad.numpy().tolist() == [2.0, 2.0]


def test_integer_leaf_gradients():
    for m in (paddlelike, paddle):
        xi = m.to_tensor([1, 2, 3, 4], stop_gradient=False)
        assert not xi.stop_gradient
        (xi * 2).sum().backward()
        assert repr(xi.grad).startswith("Tensor(shape=[4], dtype=int64")
        assert xi.grad.numpy().tolist() == [2, 2, 2, 2]
        xf = m.to_tensor([1, 2, 3, 4], stop_gradient=False)
        (xf * 2.5).sum().backward()
        assert str(xf.grad.dtype) == "paddle.int64" and xf.grad.numpy().tolist() == [2] * 4


def test_clear_grad_semantics():
    for m in (paddlelike, paddle):
        a = _leaf(m)
        a.clear_grad()
        assert a.grad is None
        a.clear_gradient()
        assert a.grad is None
        (a * a).sum().backward()
        a.clear_grad()
        assert repr(a.grad) == ("Tensor(shape=[2], dtype=float32, place=Place(cpu), "
                                "stop_gradient=False,\n       [0., 0.])")
        (a * 3).sum().backward()
        assert a.grad.numpy().tolist() == [3.0, 3.0]
        a.clear_gradient(False)
        assert a.grad is None
        b = _leaf(m)
        b.sum().backward()
        b.clear_grad()  # the grad of a sum is a broadcast: must still be zeroable
        assert b.grad.numpy().tolist() == [0.0, 0.0]


def test_grad_flags():
    for m in (paddlelike, paddle):
        x = _leaf(m)
        y = x * 2
        assert (y.stop_gradient, y.is_leaf, x.is_leaf) == (False, False, True)
        (y * x).sum().backward()
        assert (x.grad.stop_gradient, x.grad.is_leaf) == (False, True)
        assert y.grad is None
        assert m.ones([2]).stop_gradient and not m.ones([2]).requires_grad
        with m.no_grad():
            z = x * 2
        assert (z.stop_gradient, z.is_leaf, z.grad_fn) == (True, True, None)
        d = (x * x).detach()
        assert d.stop_gradient and d.is_leaf
        w = m.randn([3, 2]) * 0.01
        w.stop_gradient = False
        assert w.is_leaf and not w.stop_gradient
        r = _leaf(m)
        r.requires_grad = False
        assert r.stop_gradient
        assert _leaf(m).numpy().tolist() == [1.0, 2.0]


def test_stop_gradient_on_non_leaf_cuts():
    for m in (paddlelike, paddle):
        x = _leaf(m)
        y = x * 2
        y.stop_gradient = True
        assert not y.is_leaf
        (y * x).sum().backward()
        assert x.grad.numpy().tolist() == [2.0, 4.0]


def test_grad_mode_switches():
    for m in (paddlelike, paddle):
        x = _leaf(m)
        assert m.is_grad_enabled()

        @m.no_grad()
        def f(v):
            return v * 2
        assert f(x).stop_gradient and m.is_grad_enabled()
        m.set_grad_enabled(False)
        assert not m.is_grad_enabled()
        m.set_grad_enabled(True)
        with m.set_grad_enabled(False):
            assert not m.is_grad_enabled()
            with m.enable_grad():
                assert not (x * 2).stop_gradient
        assert m.is_grad_enabled()
        assert m.autograd.no_grad is m.no_grad if m is paddlelike else True


def test_shape_object():
    for m in (paddlelike, paddle):
        s = m.ones([3, 4]).shape
        assert s == [3, 4] and s == (3, 4) and repr([1, 1] + s) == "paddle.Size([1, 1, 3, 4])"
        assert repr((1, 1) + s) == "paddle.Size([1, 1, 3, 4])" and repr(s[1:]) == "paddle.Size([4])"
        assert repr(s + [5]) == "paddle.Size([3, 4, 5])" and isinstance(s, list)
        t = m.ones([3, 4])
        assert (t.ndim, t.size, t.dim(), int(t.numel())) == (2, 12, 2, 12)
        assert repr(m.reshape(t, [2, 6]).shape) == "paddle.Size([2, 6])"
        assert repr(t.reshape(2, 6).shape) == repr(t.reshape((2, 6)).shape)


@pytest.mark.parametrize("key", [5, -5, (slice(None), 7), (1, -9)], ids=str)
def test_index_out_of_range(key):
    same_error(lambda m: m.arange(12.0).reshape([3, 4])[key])


def test_index_select_out_of_range():
    same_error(lambda m: m.index_select(m.arange(12.0).reshape([3, 4]), m.to_tensor([7])))


def _setitem_graph(m):
    x = m.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = x * 2
    y[0] = 5.0
    v = m.to_tensor([7.0], stop_gradient=False)
    y[1:2] = v
    (y * y).sum().backward()
    return repr(y), repr(x.grad), repr(v.grad)


def test_setitem_on_non_leaf_records():
    assert _setitem_graph(paddlelike) == _setitem_graph(paddle)


def _indexing(m):
    a = m.arange(12.0).reshape([3, 4])
    b = m.zeros([2, 3])
    b[:, 1] = m.to_tensor([5.0, 6.0])
    b[0] = 1
    b[b == 0] = 2.5
    return [repr(v) for v in (a[[0, 2]], a[:, [1, 3]], a[..., 1], a[None, 0], a[a > 5],
                              a[m.to_tensor([True, False, True])], a[1, 2], a[-1],
                              a[m.to_tensor(1)], b, list(m.to_tensor([1, 2])))]


def test_indexing_forms():
    assert _indexing(paddlelike) == _indexing(paddle)


MISUSE = {
    "concat_shapes": lambda m: m.concat([m.ones([2, 3]), m.ones([3, 2])]),
    "concat_axis": lambda m: m.concat([m.ones([2, 3]), m.ones([2, 3])], axis=2),
    "stack_shapes": lambda m: m.stack([m.ones([2, 3]), m.ones([3, 2])]),
    "split_uneven": lambda m: m.split(m.ones([5]), 2),
    "expand": lambda m: m.expand(m.ones([2, 3]), [3, 3]),
    "sum_axis": lambda m: m.ones([2, 3]).sum(axis=2),
    "mean_axis": lambda m: m.ones([2, 3]).mean(axis=5),
    "max_axis": lambda m: m.ones([2, 3]).max(axis=2),
    "min_neg_axis": lambda m: m.min(m.ones([2, 3]), axis=-3),
    "sum_neg_axis": lambda m: m.ones([2, 3]).sum(axis=-3),
    "amax_axis": lambda m: m.amax(m.ones([2, 3]), axis=2),
    "norm_axis": lambda m: m.norm(m.ones([2, 3]), axis=2),
    "cumsum_axis": lambda m: m.cumsum(m.ones([2, 3]), axis=2),
    "cumsum_neg_axis": lambda m: m.cumsum(m.ones([2, 3]), axis=-3),
    "unsqueeze": lambda m: m.ones([2, 3]).unsqueeze(5),
    "squeeze": lambda m: m.ones([2, 3]).squeeze(4),
    "flatten": lambda m: m.flatten(m.ones([2, 3]), 3),
    "mv": lambda m: m.mv(m.ones([2, 3]), m.ones([2])),
    "bmm": lambda m: m.bmm(m.ones([2, 2, 3]), m.ones([2, 2, 3])),
    "argmax_axis": lambda m: m.ones([2, 3]).argmax(axis=3),
    "softmax_axis": lambda m: m.nn.functional.softmax(m.ones([2]), axis=3),
    "to_tensor_str": lambda m: m.to_tensor("abc"),
    "arange_step0": lambda m: m.arange(0, 5, 0),
    "randint_range": lambda m: m.randint(5, 2, [2]),
}


@pytest.mark.parametrize("name", sorted(MISUSE))
def test_misuse(name):
    same_error(MISUSE[name])
