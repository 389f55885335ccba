"""The sorting family (janusgrad.ops.sorting) against real torch and paddle where torch's
OpInfo samples do not look: gradients at ties (to the returned index only, or shared where
the framework shares), cumprod's gradients at zeros (first and second order), the
dialects' return types and one-argument where, and paddle's own signatures (median's
average, TopKRetType, index dtypes, histogram's counts)."""
import numpy as np
import pytest

TIES = [3.0, 1.0, 3.0, 2.0, 1.0, 3.0]
ZEROS = [1.0, 0.0, 2.0, 3.0, 0.0, 4.0]


def _np(t):
    return np.asarray(t.detach().numpy() if hasattr(t, "detach") else t.numpy())


# ------------------------------------------------------------------ torch
TORCH_CASES = {
    "max_dim": lambda t, x: t.max(x, 0)[0],
    "min_dim": lambda t, x: t.min(x, 0).values,
    "max_all": lambda t, x: t.max(x),
    "sort": lambda t, x: t.sort(x, descending=True)[0] * t.arange(6.0, dtype=t.float64),
    "topk": lambda t, x: t.topk(x, 2)[0].sum() * 1.0,
    "kthvalue": lambda t, x: t.kthvalue(x, 2)[0],
    "median": lambda t, x: t.median(x),
    "median_dim": lambda t, x: t.median(x, 0)[0],
    "mode": lambda t, x: t.mode(x)[0],
    "cummax": lambda t, x: t.cummax(x, 0)[0] * t.arange(6.0, dtype=t.float64),
    "cummin": lambda t, x: t.cummin(x, 0)[0] * t.arange(6.0, dtype=t.float64),
}


@pytest.mark.parametrize("case", list(TORCH_CASES))
def test_torch_gradients_at_ties(case):
    torch = pytest.importorskip("torch")
    import torchlike
    grads = []
    for t in (torch, torchlike):
        x = t.tensor(TIES, dtype=t.float64, requires_grad=True)
        TORCH_CASES[case](t, x).sum().backward()
        grads.append(_np(x.grad))
    np.testing.assert_allclose(grads[1], grads[0])


def test_torch_cumprod_gradients_at_zeros():
    torch = pytest.importorskip("torch")
    import torchlike
    got = []
    for t in (torch, torchlike):
        x = t.tensor(ZEROS, dtype=t.float64, requires_grad=True)
        w = t.tensor([0.5, -1.0, 2.0, 1.5, -0.5, 1.0], dtype=t.float64)
        (g,) = t.autograd.grad((t.cumprod(x, 0) * w).sum(), x, create_graph=True)
        (gg,) = t.autograd.grad((g * w).sum(), x)
        got.append((_np(g), _np(gg)))
    for a, b in zip(got[1], got[0]):
        np.testing.assert_allclose(a, b)


TORCH_FORMS = {
    "where_one_arg": lambda t: t.where(t.tensor([[0, 1], [2, 0]])),
    "nonzero_tuple": lambda t: t.nonzero(t.tensor([0.0, 1.0, 2.0]), as_tuple=True),
    "all_uint8": lambda t: t.all(t.tensor([1, 2], dtype=t.uint8)),
    "any_axis_alias": lambda t: t.tensor([[0, 1], [0, 0]]).any(axis=1, keepdims=True),
    "eq_all": lambda t: t.tensor([1.0, 2.0]).eq(t.tensor([1.0, 2.0])).all(),
    "sort_type": lambda t: t.sort(t.tensor([2.0, 1.0])),
    "topk_type": lambda t: t.topk(t.tensor([2.0, 1.0, 3.0]), 2),
    "median_type": lambda t: t.median(t.tensor([[2.0, 1.0, 3.0]]), 1),
    "unique_all": lambda t: t.unique(t.tensor([2, 1, 2, 3]), return_inverse=True,
                                     return_counts=True),
    "bincount_weights": lambda t: t.bincount(t.tensor([1, 1, 3]),
                                             t.tensor([0.5, 0.5, 1.0])),
    "searchsorted_scalar": lambda t: t.searchsorted(t.tensor([1, 3, 5]), 3, right=True),
    "isin_invert": lambda t: t.isin(t.tensor([1, 2, 3]), t.tensor([2]), invert=True),
    "histc_range": lambda t: t.histc(t.tensor([1.0, 2.0, 5.0]), bins=4, min=0, max=3),
    "topk_too_large": lambda t: t.topk(t.tensor([1.0, 2.0]), 3),
}


def _outcome(fn, mod, shown):
    try:
        return ("ok", shown(fn(mod)))
    except Exception as e:  # noqa: BLE001 - the exception type is compared
        return (type(e).__name__,)


@pytest.mark.parametrize("case", list(TORCH_FORMS))
def test_torch_forms(case):
    torch = pytest.importorskip("torch")
    import torchlike
    out = [_outcome(TORCH_FORMS[case], t, repr) for t in (torch, torchlike)]
    assert out[1] == out[0]


# ------------------------------------------------------------------ paddle
PADDLE_CASES = {
    "sort": lambda p, x: p.sort(x, descending=True) * p.arange(6, dtype="float64"),
    "topk": lambda p, x: p.topk(x, 3)[0],
    "kthvalue": lambda p, x: p.kthvalue(x, 5)[0],
    "median_avg": lambda p, x: p.median(x),
    "median_min": lambda p, x: p.median(x, axis=0, mode="min")[0],
    "nanmedian": lambda p, x: p.nanmedian(x),
    "mode": lambda p, x: p.mode(x)[0],
    "cummax": lambda p, x: p.cummax(x)[0] * p.arange(6, dtype="float64"),
    "cummin": lambda p, x: p.cummin(x)[0] * p.arange(6, dtype="float64"),
    "cumprod_zeros": lambda p, x: p.cumprod(x * p.to_tensor(ZEROS, dtype="float64"), 0),
    "max_all": lambda p, x: p.max(x),
}


@pytest.mark.parametrize("case", list(PADDLE_CASES))
def test_paddle_gradients_at_ties(case):
    paddle = pytest.importorskip("paddle")
    import paddlelike
    grads = []
    for p in (paddle, paddlelike):
        x = p.to_tensor(TIES, dtype="float64", stop_gradient=False)
        PADDLE_CASES[case](p, x).sum().backward()
        grads.append(_np(x.grad))
    np.testing.assert_allclose(grads[1], grads[0])


PADDLE_FORMS = {
    "where_one_arg": lambda p: p.where(p.to_tensor([0, 1, 1])),
    "nonzero_tuple": lambda p: p.nonzero(p.to_tensor([0.0, 1.0, 2.0]), as_tuple=True),
    "all_float": lambda p: p.all(p.to_tensor([1.0, 0.0])),
    "any_axes": lambda p: p.any(p.to_tensor([[True, False]]), axis=[0, 1]),
    "topk_type": lambda p: p.topk(p.to_tensor([[1.0, 5, 3], [2, 0, 4]]), 2),
    "median_int": lambda p: p.median(p.to_tensor([1, 2, 3, 4])),
    "median_keepdim": lambda p: p.median(p.to_tensor([[1.0, 2], [3, 4]]), keepdim=True),
    "cummax_dtype": lambda p: p.cummax(p.to_tensor([[1.0, 3], [2, 0]]), dtype="int32"),
    "cumprod_int32": lambda p: p.cumprod(p.to_tensor([1, 2, 3], dtype="int32"), 0),
    "unique_index": lambda p: p.unique(p.to_tensor([2, 1, 2]), return_index=True,
                                       dtype="int32"),
    "histogram": lambda p: p.histogram(p.to_tensor([1.0, 2, 1]), bins=4),
    "histogram_weight": lambda p: p.histogram(p.to_tensor([1.0, 2, 1]), bins=4,
                                              weight=p.to_tensor([1.0, 2, 3])),
    "count_nonzero_keepdim": lambda p: p.count_nonzero(p.to_tensor([[0, 1], [2, 0]]),
                                                       keepdim=True),
    "nonzero_0d": lambda p: p.nonzero(p.to_tensor(3.0)),
}


@pytest.mark.parametrize("case", list(PADDLE_FORMS))
def test_paddle_forms(case):
    paddle = pytest.importorskip("paddle")
    import paddlelike
    out = [_outcome(PADDLE_FORMS[case], p, _parts) for p in (paddle, paddlelike)]
    assert out[1] == out[0]


def _parts(r):
    parts = r if isinstance(r, (tuple, list)) else (r,)
    return type(r).__name__, [(str(t.dtype), list(t.shape), _np(t).tolist()) for t in parts]
