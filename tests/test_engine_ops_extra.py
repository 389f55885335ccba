"""Engine op behaviour the property table does not cover: errors and their facts,
dtypes, gradients at special points (zeros, ties), views, factories."""
from __future__ import annotations

import math

import numpy as np
import pytest

from janusgrad import Dialect, Tensor
from janusgrad.core.autograd import run_backward
from janusgrad.ops import creation, index, linalg, reduce, shape

from .gradcheck import check_first_order, check_second_order


class Refused(Exception):
    def __init__(self, op, message, info):
        super().__init__(f"{op}: {message}")
        self.op, self.info = op, info


class RecordingDialect(Dialect):
    def invalid(self, op, message, **info):
        return Refused(op, message, info)


class T(Tensor):
    __slots__ = ()
    dialect = RecordingDialect()


def t(values, dtype=np.float64, requires_grad=False):
    return T(np.array(values, dtype=dtype), requires_grad=requires_grad)


def grad_of(fn, x, seed=None):
    x = T(np.array(x, dtype=np.float64), requires_grad=True)
    out = fn(x)
    s = np.ones(out.array.shape) if seed is None else seed
    (g,) = run_backward([out], [Tensor(s)], inputs=[x], accumulate=False)
    return g.array


# ---------------------------------------------------------------- errors carry facts
def test_mm_shape_mismatch_names_both_shapes():
    with pytest.raises(Refused) as e:
        linalg.mm(t(np.ones((2, 3))), t(np.ones((4, 5))))
    assert e.value.op == "mm"
    assert e.value.info["a_shape"] == (2, 3) and e.value.info["b_shape"] == (4, 5)


@pytest.mark.parametrize("fn,a,b", [
    (linalg.dot, (2, 2), (2,)), (linalg.mm, (3,), (3, 2)), (linalg.bmm, (2, 2), (2, 2)),
    (linalg.mv, (2, 2), (2, 2)), (linalg.outer, (2, 2), (2,))])
def test_linalg_rank_errors(fn, a, b):
    with pytest.raises(Refused) as e:
        fn(t(np.ones(a)), t(np.ones(b)))
    assert e.value.info["a_shape"] == a and e.value.info["b_shape"] == b


def test_bmm_batch_mismatch():
    with pytest.raises(Refused) as e:
        linalg.bmm(t(np.ones((2, 2, 3))), t(np.ones((3, 3, 2))))
    assert e.value.op == "bmm" and e.value.info["b_shape"] == (3, 3, 2)


def test_getitem_out_of_range_reports_index_size_axis():
    x = t(np.ones((4, 3)))
    with pytest.raises(Refused) as e:
        index.getitem(x, 5)
    assert e.value.op == "index"
    assert {k: e.value.info[k] for k in ("index", "size", "axis")} == \
        {"index": 5, "size": 4, "axis": 0}
    with pytest.raises(Refused) as e:
        index.getitem(x, (slice(None), t([0, -4], np.int64)))
    assert (e.value.info["index"], e.value.info["size"], e.value.info["axis"]) == (-4, 3, 1)


def test_getitem_too_many_indices_and_bad_mask():
    x = t(np.ones(3))
    with pytest.raises(Refused) as e:
        index.getitem(x, (0, 0))
    assert e.value.info["ndim"] == 1 and e.value.info["count"] == 2
    with pytest.raises(Refused) as e:
        index.getitem(x, t([True, False], bool))
    assert e.value.info["mask_shape"] == (2,) and e.value.info["shape"] == (3,)
    with pytest.raises(Refused) as e:
        index.getitem(x, 1.5)
    assert e.value.info["key_type"] == "float"


def test_gather_refuses_out_of_range_and_negative_indices():
    x = t(np.ones((2, 4)))
    for bad in (4, -1):
        with pytest.raises(Refused) as e:
            index.gather(x, 1, t([[0, bad]], np.int64))
        assert (e.value.info["index"], e.value.info["size"], e.value.info["axis"]) == \
            (bad, 4, 1)
        assert e.value.info["caller"] == "gather"


def test_axis_out_of_range_goes_through_invalid_axis():
    with pytest.raises(Refused) as e:
        reduce.sum(t(np.ones((2, 3))), axis=2)
    assert e.value.op == "axis" and e.value.info == {"caller": "sum", "axis": 2, "ndim": 2}
    with pytest.raises(Refused):
        shape.concatenate([t(np.ones(2))], axis=1)
    with pytest.raises(Refused) as e:
        reduce.sum(t(np.ones(2)), axis=(0, -1))
    assert e.value.info["repeated"]


def test_concatenate_and_stack_mismatches():
    with pytest.raises(Refused) as e:
        shape.concatenate([t(np.ones((2, 3))), t(np.ones((2, 4)))], axis=0)
    info = e.value.info
    assert (info["expected"], info["got"], info["index"], info["dim"]) == (3, 4, 1, 1)
    with pytest.raises(Refused) as e:
        shape.concatenate([t(np.ones((2, 3))), t(np.ones(3))])
    assert (e.value.info["a_ndim"], e.value.info["b_ndim"]) == (2, 1)
    with pytest.raises(Refused) as e:
        shape.stack([t(np.ones(2)), t(np.ones(3))])
    assert e.value.info["b_shape"] == (3,) and e.value.info["index"] == 1


def test_split_sizes_must_add_up():
    with pytest.raises(Refused) as e:
        shape.split(t(np.ones(5)), [2, 2])
    assert e.value.info["size"] == 5 and e.value.info["sizes"] == [2, 2]


def test_concatenate_promotes_dtypes():
    out = shape.concatenate([t([1, 2], np.int64), t([0.5], np.float32)])
    assert out.array.dtype == np.float32 and out.array.tolist() == [1.0, 2.0, 0.5]


# ---------------------------------------------------------------- dtypes
def test_argmax_argmin_are_int64_without_graph():
    x = t([[1.0, 5.0, 2.0], [7.0, 0.0, 7.0]], requires_grad=True)
    out = reduce.argmax(x, axis=1)
    assert out.array.dtype == np.int64 and out.array.tolist() == [1, 0]
    assert not out.requires_grad
    assert reduce.argmax(x).array.tolist() == 3
    assert reduce.argmin(x, axis=0, keepdims=True).array.tolist() == [[0, 1, 0]]
    assert reduce.argmax(x, keepdims=True).array.shape == (1, 1)


def test_integer_reductions_accumulate_in_int64():
    assert reduce.sum(t([100, 100], np.int8)).array.dtype == np.int64
    p = reduce.prod(t([100, 100, 100], np.int16))
    assert p.array.dtype == np.int64 and int(p.array) == 1_000_000
    assert reduce.cumsum(t([True, True, False], bool), 0).array.tolist() == [1, 2, 2]
    assert reduce.cumsum(t([True], bool), 0).array.dtype == np.int64


@pytest.mark.parametrize("fn", [reduce.mean, reduce.var, reduce.std, reduce.norm,
                                reduce.logsumexp])
def test_integer_inputs_give_default_float(fn):
    assert fn(t([1, 2, 4], np.int64)).array.dtype == np.float32


def test_softmax_refuses_integer_inputs():
    # both frameworks' softmax kernels are floating only (issue 22 §3): no silent cast
    with pytest.raises(Exception, match="floating point"):
        reduce.softmax(t([1, 2, 4], np.int64), 0)


@pytest.mark.parametrize("whole, along", [(reduce.max, reduce.amax), (reduce.min, reduce.amin)])
def test_whole_max_min_share_ties_as_amax_amin_but_send_the_gradient_to_nan(whole, along):
    ties = [[1.0, 3.0, 3.0], [0.0, 3.0, -1.0]]
    np.testing.assert_array_equal(grad_of(whole, ties), grad_of(along, ties))
    with_nan = [1.0, np.nan, 3.0]
    np.testing.assert_array_equal(grad_of(whole, with_nan), [0.0, 1.0, 0.0])
    assert np.isnan(grad_of(along, with_nan)).all()


# ---------------------------------------------------------------- gradients at special points
def test_prod_gradient_with_one_zero_per_slice():
    g = grad_of(lambda x: reduce.prod(x, axis=1), [[2.0, 0.0, 3.0], [1.0, 2.0, 4.0]])
    np.testing.assert_allclose(g, [[0.0, 6.0, 0.0], [8.0, 4.0, 2.0]])


def test_prod_gradient_with_two_zeros_is_zero():
    g = grad_of(reduce.prod, [0.0, 2.0, 0.0])
    np.testing.assert_allclose(g, [0.0, 0.0, 0.0])


@pytest.mark.parametrize("values", [[0.0, 2.0, 3.0], [0.0, 0.0, 3.0, 1.5], [0.0, 0.0, 0.0],
                                    [1e-200, 2.0, 3.0], [1e-200, 1e-180, 2.0]])
def test_prod_first_and_second_order_at_zeros(values):
    rng = np.random.default_rng(0)
    a = np.array(values)
    check_first_order(reduce.prod, [a], {}, (0,), rng, 1e-6, 1e-5)
    check_second_order(reduce.prod, [a], {}, (0,), rng, 1e-6, 1e-5)
    b = np.stack([a, a[::-1] + 1.0])
    check_second_order(reduce.prod, [b], {"axis": 1}, (0,), rng, 1e-6, 1e-5)


def test_amax_ties_share_the_gradient():
    g = grad_of(reduce.amax, [1.0, 3.0, 3.0, 2.0])
    np.testing.assert_allclose(g, [0.0, 0.5, 0.5, 0.0])
    g = grad_of(lambda x: reduce.amin(x, axis=0), [[1.0, 2.0], [1.0, 0.0], [1.0, 5.0]])
    np.testing.assert_allclose(g, [[1 / 3, 0.0], [1 / 3, 1.0], [1 / 3, 0.0]])


@pytest.mark.parametrize("ord", [2, "fro", 3, 1.5, 0.5, 1, math.inf])
def test_norm_gradient_at_zero_vector_is_zero(ord):
    g = grad_of(lambda x: reduce.norm(x, ord), [0.0, 0.0, 0.0])
    assert np.all(g == 0.0)


def test_norm_second_order_at_zero_is_finite():
    x = T(np.zeros(3), requires_grad=True)
    out = reduce.norm(x)
    (g,) = run_backward([out], [Tensor(np.ones(()))], retain_graph=True, create_graph=True,
                        inputs=[x], accumulate=False)
    assert np.all(np.isfinite(g.array))


def test_var_with_too_large_correction_is_inf_like_torch():
    x = t([1.0, 2.0], requires_grad=True)
    v = reduce.var(x, correction=3)
    assert math.isinf(float(v.array))
    assert math.isnan(float(reduce.std(t([1.0]), correction=1).array))


def test_getitem_repeated_indices_accumulate():
    g = grad_of(lambda x: index.getitem(x, t([0, 0, 2, 0], np.int64)), [1.0, 2.0, 3.0])
    np.testing.assert_allclose(g, [3.0, 0.0, 1.0])
    g = grad_of(lambda x: index.gather(x, 1, t([[1, 1], [0, 1]], np.int64)),
                [[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(g, [[0.0, 2.0], [1.0, 1.0]])


# ---------------------------------------------------------------- getitem forms
def test_basic_getitem_is_a_view_and_full_int_index_is_0d():
    x = t(np.arange(6.0).reshape(2, 3))
    row = index.getitem(x, 1)
    assert np.shares_memory(row.array, x.array)
    one = index.getitem(x, (1, 2))
    assert one.array.shape == () and isinstance(one.array, np.ndarray)
    assert np.shares_memory(one.array, x.array)
    assert index.getitem(x, (None, Ellipsis, slice(None, None, -1))).array.tolist() == \
        [[[2.0, 1.0, 0.0], [5.0, 4.0, 3.0]]]


def test_getitem_tensor_keys():
    x = t(np.arange(6.0).reshape(2, 3))
    assert index.getitem(x, t([True, False], bool)).array.tolist() == [[0.0, 1.0, 2.0]]
    assert index.getitem(x, t([1, 0], np.uint8)).array.tolist() == [[0.0, 1.0, 2.0]]  # a mask
    assert index.getitem(x, (slice(None), t(2, np.int64))).array.tolist() == [2.0, 5.0]
    assert index.getitem(x, [1, 1]).array.shape == (2, 3)
    assert index.getitem(x, []).array.shape == (0, 3)
    assert index.getitem(x, (slice(None), [[0, 2]])).array.shape == (2, 1, 2)


def test_index_select_and_masked_select():
    x = t(np.arange(6.0).reshape(2, 3))
    assert index.index_select(x, 1, t([2, 0, 2], np.int64)).array.tolist() == \
        [[2.0, 0.0, 2.0], [5.0, 3.0, 5.0]]
    assert index.index_select(x, 0, t(1, np.int64)).array.shape == (1, 3)
    assert index.masked_select(x, t([True, False, True], bool)).array.tolist() == \
        [0.0, 2.0, 3.0, 5.0]


def test_take_along_axis_broadcasts_the_index():
    x = t(np.arange(6.0).reshape(2, 3))
    out = index.take_along_axis(x, t([[2], [1]], np.int64), 1)
    assert out.array.tolist() == [[2.0], [4.0]]
    out = index.take_along_axis(x, t([[0, 1, 0]], np.int64), 0)
    assert out.array.tolist() == [[0.0, 4.0, 2.0]]


# ---------------------------------------------------------------- factories
def test_factories_return_the_given_class_and_dtypes():
    assert type(creation.zeros(T, (2, 3))) is T
    assert creation.zeros(T, 3).array.dtype == np.float32
    assert creation.full(T, (2,), 1.5).array.dtype == np.float32
    assert creation.full(T, (2,), 3).array.dtype == np.int64
    assert creation.full(T, (2,), True).array.dtype == np.bool_
    assert creation.arange(T, 5).array.dtype == np.int64
    assert creation.arange(T, 0, 1, 0.25).array.tolist() == [0.0, 0.25, 0.5, 0.75]
    assert creation.arange(T, 5, 0, -2).array.tolist() == [5, 3, 1]
    assert creation.arange(T, 1, 2.5).array.tolist() == [1.0, 2.0]
    assert creation.eye(T, 2, 3).array.tolist() == [[1, 0, 0], [0, 1, 0]]
    assert creation.linspace(T, 0, 1, 5).array.tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    x = creation.ones(T, (2, 2), np.float64)
    assert creation.zeros_like(x).array.dtype == np.float64
    assert creation.full_like(x, 7).array.tolist() == [[7.0, 7.0], [7.0, 7.0]]
    with pytest.raises(Refused):
        creation.arange(T, 0, 5, 0)
    with pytest.raises(Refused):
        creation.arange(T, 0, 5, -1)


def test_random_factories_follow_the_seed():
    creation.seed(3)
    a = creation.randn(T, (3,))
    creation.seed(3)
    assert np.array_equal(creation.randn(T, (3,)).array, a.array)
    r = creation.randint(T, 2, 5, (100,))
    assert r.array.dtype == np.int64 and r.array.min() >= 2 and r.array.max() < 5
    u = creation.uniform(T, (100,), -1.0, 1.0)
    assert u.array.dtype == np.float32 and u.array.min() >= -1 and u.array.max() < 1
    n = creation.normal(T, t([0.0, 100.0], np.float32), 1.0)
    assert n.array.shape == (2,) and n.array.dtype == np.float32 and n.array[1] > 50
    g = creation.Generator(5)
    assert np.array_equal(creation.rand(T, 4, generator=g).array,
                          creation.rand(T, 4, generator=creation.Generator(5)).array)


def test_arange_and_linspace_are_bit_exact_with_torch():
    """Bit for bit with torch's vectorized kernels, which fuse the multiply-add of each
    value as we do; torch's scalar build (``ATEN_CPU_CAPABILITY=default``) rounds the
    product first: one rounding more."""
    torch = pytest.importorskip("torch")
    fused = torch.backends.cpu.get_cpu_capability() != "DEFAULT"
    rng = np.random.default_rng(1)
    for _ in range(50):
        a = float(rng.uniform(-10, 10))
        step = float(rng.uniform(0.01, 3)) * (1 if rng.random() < 0.5 else -1)
        b = a + float(rng.uniform(0, 30)) * math.copysign(1, step)
        n = int(rng.integers(1, 300))
        for td, nd in ((torch.float32, np.float32), (torch.float64, np.float64)):
            for ours, theirs in ((creation.arange(T, a, b, step, nd).array,
                                  torch.arange(a, b, step, dtype=td).numpy()),
                                 (creation.linspace(T, a, b, n, nd).array,
                                  torch.linspace(a, b, n, dtype=td).numpy())):
                if fused:
                    assert np.array_equal(ours, theirs)
                else:  # (the product's rounding, and the sum's rounding may move)
                    scale = abs(a) + abs(b) + abs(step)
                    np.testing.assert_allclose(ours, theirs, rtol=0,
                                               atol=2 * np.finfo(nd).eps * scale)


# ---------------------------------------------------------------- against torch
def test_reductions_and_gradients_match_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(2)
    a = rng.standard_normal((3, 4))
    a[0, 1] = 0.0
    cases = [
        (lambda x: reduce.prod(x, 1), lambda x: x.prod(1)),
        (lambda x: reduce.var(x, 0), lambda x: x.var(0)),
        (lambda x: reduce.std(x, (0, 1), correction=0), lambda x: x.std((0, 1), correction=0)),
        (lambda x: reduce.norm(x, 3, 1), lambda x: torch.linalg.vector_norm(x, 3, 1)),
        (lambda x: reduce.norm(x, math.inf), lambda x: torch.linalg.vector_norm(x, math.inf)),
        (lambda x: reduce.logsumexp(x, 1), lambda x: x.logsumexp(1)),
        (lambda x: reduce.softmax(x, 0), lambda x: x.softmax(0)),
        (lambda x: reduce.log_softmax(x, 1), lambda x: x.log_softmax(1)),
        (lambda x: reduce.cumsum(x, 1), lambda x: x.cumsum(1)),
        (lambda x: shape.tile(x, (2, 1, 2)), lambda x: x.repeat(2, 1, 2)),
    ]
    for ours, theirs in cases:
        seed = None
        tx = torch.tensor(a, requires_grad=True)
        tout = theirs(tx)
        seed = rng.standard_normal(tuple(tout.shape))
        tout.backward(torch.tensor(seed))
        x = T(a.copy(), requires_grad=True)
        out = ours(x)
        np.testing.assert_allclose(out.array, tout.detach().numpy(), rtol=1e-12, atol=1e-12)
        (g,) = run_backward([out], [Tensor(seed)], inputs=[x], accumulate=False)
        np.testing.assert_allclose(g.array, tx.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_concatenate_skips_legacy_empty_vectors_like_torch():
    out = shape.concatenate([t(np.ones((2, 3))), t([]), t(np.zeros((1, 3)))])
    assert out.array.shape == (3, 3)
    assert shape.concatenate([t([]), t([1.0])]).array.tolist() == [1.0]


def test_gather_with_0d_index_into_a_vector():
    out = index.gather(t([1.0, 2.0, 3.0]), 0, t(2, np.int64))
    assert out.array.shape == () and float(out.array) == 3.0


def test_max_along_sends_the_gradient_to_the_indexed_element_only():
    x = t([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]], requires_grad=True)
    values, idx = reduce.max_along(x, 1)
    assert values.array.tolist() == [3.0, 2.0] and idx.array.tolist() == [1, 0]
    assert idx.array.dtype == np.int64
    g = grad_of(lambda x: reduce.max_along(x, 1)[0], x.array)
    np.testing.assert_allclose(g, [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    v, i = reduce.min_along(x, 0, keepdims=True)
    assert v.array.shape == (1, 3) and i.array.tolist() == [[0, 1, 1]]
