"""The activations and losses family against real torch and paddle where torch's OpInfo does not
reach: module and layer reprs and defaults, torch's namespace forms (torch.selu, torch.kl_div
with an int reduction ...), gradients at the kinks torch defines, paddle's own names and
defaults (hardsigmoid's slope, thresholded_relu, prelu's data_format, rrelu in training),
and the inputs paddle's kernels give no gradient (BCE and kl_div labels, the variance)."""
import numpy as np
import pytest

X = np.array([[-3.0, -1.5, -0.5, 0.0], [0.25, 0.5, 1.0, 3.0], [-6.0, 6.0, 2.5, -2.0]])


def _np(t):
    return None if t is None else t.detach().numpy() if hasattr(t, "detach") else t.numpy()


# ---------------------------------------------------------------- torch
@pytest.fixture(scope="module")
def tt():
    torch = pytest.importorskip("torch")
    import torchlike
    return torch, torchlike


TORCH_MODULES = [
    ("ELU", ()), ("ELU", (2.0, True)), ("SELU", (True,)), ("CELU", (1.5,)), ("GLU", (0,)),
    ("Hardswish", (True,)), ("Hardsigmoid", (True,)), ("Hardtanh", (-2, 3)),
    ("Hardtanh", (-2.0, 3.0, True)), ("ReLU6", (True,)), ("SiLU", ()), ("Mish", (True,)),
    ("Softsign", ()), ("Softshrink", (0.3,)), ("Hardshrink", ()), ("Tanhshrink", ()),
    ("Threshold", (0.1, 20)), ("LogSigmoid", ()), ("Softmin", (1,)), ("PReLU", (3, 0.5)),
    ("RReLU", (0.1, 0.3, True)), ("CosineSimilarity", (0,)), ("PairwiseDistance", (3.0,)),
    ("Bilinear", (2, 3, 4)), ("Bilinear", (2, 3, 4, False)), ("SoftMarginLoss", ()),
    ("MarginRankingLoss", (0.5,)), ("MultiMarginLoss", (2,)), ("MultiLabelMarginLoss", ()),
    ("MultiLabelSoftMarginLoss", ()), ("TripletMarginLoss", ()),
    ("TripletMarginWithDistanceLoss", ()), ("CosineEmbeddingLoss", ()), ("GaussianNLLLoss", ()),
    ("HingeEmbeddingLoss", ()), ("PoissonNLLLoss", ()), ("KLDivLoss", ()),
]


@pytest.mark.parametrize("name,args", TORCH_MODULES)
def test_torch_module_repr_and_options(tt, name, args):
    torch, tl = tt
    ref, sub = _same_module(torch, tl, name, args)
    for k, v in vars(ref).items():
        if not k.startswith("_") and isinstance(v, (bool, int, float, str)):
            assert getattr(sub, k) == v, k


def _same_module(ref_lib, sub_lib, name, args):
    """The module ``name(*args)`` of both: same repr, class module, parameter names and
    shapes."""
    ref, sub = getattr(ref_lib.nn, name)(*args), getattr(sub_lib.nn, name)(*args)
    assert repr(sub) == repr(ref)
    assert type(sub).__module__ == type(ref).__module__
    assert [n for n, _ in sub.named_parameters()] == [n for n, _ in ref.named_parameters()]
    for (_, p), (_, q) in zip(sub.named_parameters(), ref.named_parameters()):
        assert list(p.shape) == list(q.shape)
    return ref, sub


def _torch_pair(tt, name, arrays, args=(), kwargs=None, grad=True):
    out = []
    for lib in tt:
        fn = lib
        for part in name.split("."):
            fn = getattr(fn, part)
        ins = [lib.tensor(a, dtype=lib.float64, requires_grad=grad and a.dtype.kind == "f")
               for a in arrays]
        y = fn(*ins, *args, **(kwargs or {}))
        gs = lib.autograd.grad(y.sum(), [t for t in ins if t.requires_grad],
                               allow_unused=True) if grad else ()
        out.append((_np(y), [_np(g) for g in gs]))
    (e, eg), (g, gg) = out
    np.testing.assert_allclose(g, e, rtol=1e-7, atol=1e-9)
    for a, b in zip(gg, eg):
        if b is None:
            assert a is None or not np.any(a)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-7, atol=1e-9)


A = np.random.default_rng(0).normal(size=(3, 4))
B = np.random.default_rng(1).normal(size=(3, 4))
SIGNS = np.array([1.0, -1.0, 1.0])


@pytest.mark.parametrize("name,arrays,args", [
    ("selu", [X], ()), ("celu", [X], (1.5,)), ("threshold", [X], (0.5, -2.0)),
    ("rrelu", [X], (0.1, 0.3)), ("hardshrink", [X], (0.5,)),
    ("prelu", [X], ()), ("cosine_similarity", [A, B], ()),
    ("pairwise_distance", [A, B], (3.0,)), ("pdist", [A], ()),
    ("kl_div", [-np.abs(A), np.abs(B)], (2,)), ("kl_div", [A, B], (0,)),
    ("cosine_embedding_loss", [A, B, SIGNS], (0.1, 0)),
    ("hinge_embedding_loss", [A, np.array([1.0, -1.0, 1.0, -1.0])], (1.0, 2)),
    ("margin_ranking_loss", [A, B, np.sign(A)], (0.2, 1)),
    ("poisson_nll_loss", [A, np.abs(B) * 2], (True, True, 1e-8, 1)),
    ("triplet_margin_loss", [A, B, A[::-1].copy()], (1.0, 2, 1e-6, True, 0)),
    ("nn.functional.hardtanh", [X], (-0.5, 1.0)),  # the kinks torch defines
    ("nn.functional.relu6", [X], ()), ("nn.functional.hardswish", [X], ()),
    ("nn.functional.hardsigmoid", [X], ()), ("nn.functional.elu", [X], (0.7,)),
    ("nn.functional.softshrink", [X], (0.5,)), ("nn.functional.threshold", [X], (0.25, 9.0)),
])
def test_torch_namespace_and_kinks(tt, name, arrays, args):
    if name == "prelu":
        arrays = [X, np.array([0.1, 0.2, 0.3, 0.4])]
    _torch_pair(tt, name, arrays, args)


def test_torch_inplace_forms_and_methods(tt):
    torch, tl = tt
    for lib in tt:
        x = lib.tensor(X.copy())
        assert lib.selu_(x) is x
        assert lib.threshold_(x, 0.0, -1.0) is x
    e, g = torch.tensor(X.copy()), tl.tensor(X.copy())
    torch.celu_(e, 2.0), tl.celu_(g, 2.0)
    np.testing.assert_allclose(_np(g), _np(e))
    np.testing.assert_allclose(_np(tl.tensor(X).hardshrink(1.0)),
                               _np(torch.tensor(X).hardshrink(1.0)))


def test_torch_rrelu_training_draws_slopes(tt):
    _, tl = tt
    x = tl.tensor(-np.ones((200, 50)))
    y = _np(tl.nn.functional.rrelu(x, 0.1, 0.3, training=True))
    assert y.shape == (200, 50)
    assert np.all(-y >= 0.1) and np.all(-y <= 0.3) and np.std(y) > 0.03
    assert np.allclose(_np(tl.nn.functional.rrelu(tl.tensor(X), 0.1, 0.3)),
                       np.where(X > 0, X, 0.2 * X))


def test_torch_softmin_default_dim_and_kl_div_batchmean(tt):
    torch, tl = tt
    for shape in [(4,), (2, 3), (2, 3, 4)]:
        a = np.arange(np.prod(shape), dtype=float).reshape(shape) / 7
        with pytest.warns(UserWarning):
            e = torch.nn.functional.softmin(torch.tensor(a))
        with pytest.warns(UserWarning):
            g = tl.nn.functional.softmin(tl.tensor(a))
        np.testing.assert_allclose(_np(g), _np(e))
    _torch_pair(tt, "nn.functional.kl_div", [-np.abs(A), np.abs(B)],
                kwargs={"reduction": "batchmean"})


# ---------------------------------------------------------------- paddle
@pytest.fixture(scope="module")
def pp():
    paddle = pytest.importorskip("paddle")
    import paddlelike
    return paddle, paddlelike


PADDLE_LAYERS = [
    ("ELU", ()), ("ELU", (2.0, "e")), ("SELU", ()), ("CELU", (1.5,)), ("GLU", (0,)),
    ("Hardswish", ()), ("Hardsigmoid", ()), ("Hardtanh", (-2, 3)), ("ReLU6", ()),
    ("Silu", ()), ("Swish", ("s",)), ("Mish", ()), ("Softsign", ()), ("Softshrink", (0.3,)),
    ("Hardshrink", ()), ("Tanhshrink", ()), ("ThresholdedReLU", (0.1, 2.0)),
    ("LogSigmoid", ()), ("PReLU", (3, 0.5)), ("PReLU", (3, 0.5, None, "NHWC")),
    ("RReLU", (0.1, 0.3)), ("CosineSimilarity", (0,)), ("PairwiseDistance", (3.0, 1e-5, True)),
    ("Bilinear", (2, 3, 4)), ("SoftMarginLoss", ()), ("MarginRankingLoss", (0.5,)),
    ("MultiMarginLoss", (2,)), ("MultiLabelMarginLoss", ()), ("MultiLabelSoftMarginLoss", ()),
    ("TripletMarginLoss", ()), ("TripletMarginWithDistanceLoss", ()),
    ("CosineEmbeddingLoss", ()), ("GaussianNLLLoss", ()), ("HingeEmbeddingLoss", ()),
    ("PoissonNLLLoss", ()), ("KLDivLoss", ()),
]


@pytest.mark.parametrize("name,args", PADDLE_LAYERS)
def test_paddle_layer_repr(pp, name, args):
    _same_module(*pp, name, args)


def _paddle_pair(pp, name, arrays, kwargs=None, grads=True):
    out = []
    for lib in pp:
        fn = lib
        for part in name.split("."):
            fn = getattr(fn, part)
        ins = [lib.to_tensor(a, stop_gradient=not grads or a.dtype.kind != "f") for a in arrays]
        y = fn(*ins, **(kwargs or {}))
        gs = []
        if grads:
            y.sum().backward()
            gs = [None if t.grad is None else t.grad.numpy() for t in ins]
        out.append((y.numpy(), gs))
    (e, eg), (g, gg) = out
    np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-7)
    for a, b in zip(gg, eg):
        if b is None:
            assert a is None or not np.any(a)
        else:
            assert a is not None
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name,arrays,kwargs", [
    ("nn.functional.hardsigmoid", [X], {}), ("nn.functional.hardsigmoid", [X],
                                             {"slope": 0.2, "offset": 0.3}),
    ("nn.functional.hardswish", [X], {}), ("nn.functional.swish", [X], {}),
    ("nn.functional.silu", [X], {}), ("nn.functional.log_sigmoid", [X], {}),
    ("nn.functional.logsigmoid", [X], {}), ("nn.functional.mish", [X], {}),
    ("nn.functional.thresholded_relu", [X], {"threshold": 0.3, "value": -1.0}),
    ("nn.functional.selu", [X], {"scale": 1.5, "alpha": 0.5}),
    ("nn.functional.hardtanh", [X], {"min": -0.5, "max": 2.0}),
    ("nn.functional.softshrink", [X], {"threshold": 0.4}),
    ("nn.functional.hardshrink", [X], {"threshold": 0.4}),
    ("nn.functional.hardshrink", [X], {"threshold": 0.5}),  # (bounds kept, unlike torch)
    ("nn.functional.softshrink", [X], {"threshold": 0.5}),
    ("nn.functional.relu6", [X], {}), ("nn.functional.celu", [X], {"alpha": 2.0}),
    ("nn.functional.rrelu", [X], {"training": False}),
    ("nn.functional.prelu", [X.reshape(3, 2, 2), np.array([0.1, 0.2])],
     {"data_format": "NHWC"}),
    ("nn.functional.prelu", [X, np.array([0.1, 0.2, 0.3, 0.4])], {}),
    ("nn.functional.cosine_similarity", [A, B], {"axis": 0}),
    ("nn.functional.normalize", [A], {"p": 3, "axis": 0}),
    ("nn.functional.pairwise_distance", [A, B], {"p": 1.0, "keepdim": True}),
    ("pdist", [A], {}), ("nn.functional.pdist", [A], {"p": 1.0}),
    ("nn.functional.cosine_embedding_loss", [A[0], B[0], np.array([-1])], {"margin": -0.5}),
    ("nn.functional.hinge_embedding_loss", [A, np.array([[1.0, -1.0, 0.0, 2.0]] * 3)], {}),
    ("nn.functional.kl_div", [-np.abs(A), np.abs(B)], {"reduction": "batchmean"}),
    ("nn.functional.kl_div", [A, B], {"log_target": True, "reduction": "sum"}),
    ("nn.functional.binary_cross_entropy", [1 / (1 + np.exp(-A)), np.abs(B) / 3], {}),
    ("nn.functional.binary_cross_entropy_with_logits", [A, np.abs(B) / 3, np.abs(A)], {}),
    ("nn.functional.gaussian_nll_loss", [A, B, np.abs(A) + 0.1], {"full": True}),
    ("nn.functional.poisson_nll_loss", [A, np.abs(B) * 2], {"full": True}),
    ("nn.functional.multi_label_margin_loss", [A, np.array([[1, 0, -1, 2]] * 3)], {}),
])
def test_paddle_functional(pp, name, arrays, kwargs):
    _paddle_pair(pp, name, arrays, kwargs)


def test_paddle_rrelu_training_draws_slopes(pp):
    _, pl = pp
    y = pl.nn.functional.rrelu(pl.to_tensor(-np.ones((200, 50))), 0.1, 0.3).numpy()
    assert np.all(-y >= 0.1) and np.all(-y <= 0.3) and np.std(y) > 0.03


@pytest.mark.parametrize("name", ["MarginRankingLoss", "CosineEmbeddingLoss",
                                  "TripletMarginLoss", "TripletMarginWithDistanceLoss",
                                  "GaussianNLLLoss", "PoissonNLLLoss",
                                  "MultiLabelSoftMarginLoss"])
def test_paddle_loss_layer_refuses_a_bad_reduction(pp, name):
    paddle, pl = pp
    with pytest.raises(ValueError) as e:
        getattr(paddle.nn, name)(reduction="bad")
    with pytest.raises(ValueError) as g:
        getattr(pl.nn, name)(reduction="bad")
    assert str(g.value) == str(e.value)


@pytest.mark.parametrize("call", [
    lambda m, x: m.nn.functional.celu(x, 0.0),
    lambda m, x: m.nn.functional.hardtanh(m.tensor([True])),
    lambda m, x: m.nn.functional.glu(x[0, :3]),
    lambda m, x: m.nn.functional.softshrink(x, -1.5),
    lambda m, x: m.nn.functional.hardtanh(x, 2.0, 1.0),
    lambda m, x: m.nn.functional.prelu(x, m.ones(3, dtype=x.dtype)),
])
def test_torch_errors(tt, call):
    errors = []
    for lib in tt:
        with pytest.raises(Exception) as e:
            call(lib, lib.tensor(X))
        errors.append((type(e.value), str(e.value)))
    assert errors[1] == errors[0]
