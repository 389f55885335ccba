"""paddlelike.nn against real paddle 3.3.1: layers, losses, initializers, Layer API, misuse."""
import warnings

import numpy as np
import pytest

import paddlelike

paddle = pytest.importorskip("paddle")

RNG = np.random.default_rng(0)


def _both(fn):
    """fn(module) run with real paddle and with paddlelike."""
    return fn(paddle), fn(paddlelike)


def _close(a, b, tol=1e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


def _forward_and_grad(make_layer, x, *more):
    """Output and d(sum(out * weights))/dx for the layer made by make_layer(module)."""
    def run(m):
        layer = make_layer(m)
        xt = m.to_tensor(x, stop_gradient=False)
        out = layer(xt, *[m.to_tensor(v) for v in more])
        w = np.linspace(-1, 1, out.size).reshape(out.shape).astype(out.numpy().dtype) \
            if out.size > 1 else np.ones(out.shape, "float32")
        (out * m.to_tensor(w)).sum().backward()
        return out.numpy(), xt.grad.numpy(), repr(layer)
    return _both(run)


X = RNG.standard_normal((4, 6)).astype("float32")


@pytest.mark.parametrize("name,args", [
    ("ReLU", ()), ("Sigmoid", ()), ("Tanh", ()), ("GELU", ()), ("GELU", (True,)),
    ("Softmax", ()), ("Softmax", (0,)), ("LogSoftmax", ()), ("LogSoftmax", (0,)),
    ("Flatten", ()), ("Identity", ()), ("Dropout", (0.0,)),
])
def test_activation_layers(name, args):
    (a, ga, ra), (b, gb, rb) = _forward_and_grad(lambda m: getattr(m.nn, name)(*args), X)
    _close(a, b)
    _close(ga, gb)
    assert ra == rb


def test_linear_forward_backward_and_repr():
    W = RNG.standard_normal((6, 3)).astype("float32")

    def make(m):
        layer = m.nn.Linear(6, 3)
        layer.weight.set_value(W)
        return layer
    (a, ga, ra), (b, gb, rb) = _forward_and_grad(make, X)
    _close(a, b)
    _close(ga, gb)
    assert ra == rb == "Linear(in_features=6, out_features=3, dtype=float32)"


def test_linear_defaults_match_paddle():
    def probe(m):
        m.seed(1)
        layer = m.nn.Linear(300, 200)
        w = layer.weight.numpy()
        return (layer.weight.shape, layer.bias.numpy().tolist() == [0.0] * 200,
                layer.weight.stop_gradient, round(float(np.abs(w).max()), 2),
                round(float(w.std()), 2), type(layer.weight).__name__,
                m.nn.Linear(2, 3, bias_attr=False).bias)
    assert probe(paddle) == probe(paddlelike)


def test_dropout_training_statistics_and_eval():
    def probe(m):
        m.seed(0)
        d = m.nn.Dropout(0.3)
        x = m.ones([200, 200])
        y = d(x).numpy()
        d.eval()
        return (round(float((y == 0).mean()), 1), sorted(set(np.round(y, 4).ravel().tolist())),
                d(x).numpy().min(), repr(d))
    assert probe(paddle) == probe(paddlelike)


def test_sequential_layerlist_and_repr():
    def build(m):
        net = m.nn.Sequential(m.nn.Linear(4, 8), m.nn.ReLU(), m.nn.Linear(8, 1))
        ll = m.nn.LayerList([m.nn.ReLU(), m.nn.Tanh()])
        ll.append(m.nn.Sigmoid())
        net2 = m.nn.Sequential(("a", m.nn.ReLU()), ("b", m.nn.Flatten()))
        return (repr(net), repr(ll), repr(net2), len(net), len(ll), type(net[0]).__name__,
                type(net[-1]).__name__, [type(x).__name__ for x in net],
                type(net2["b"]).__name__, repr(net[1:]))
    a, b = _both(build)
    assert a == b


class _Regression:
    @staticmethod
    def build(m):
        class MLP(m.nn.Layer):
            def __init__(self):
                super().__init__()
                self.hidden = m.nn.Linear(3, 4)
                self.out = m.nn.Linear(4, 2)
                self.scale = self.create_parameter([2], is_bias=True)
                self.register_buffer("steps", m.zeros([1]))
                self.register_buffer("tmp", m.zeros([1]), persistable=False)
                self.blocks = m.nn.LayerList([m.nn.ReLU()])

            def forward(self, x):
                return self.out(m.nn.functional.relu(self.hidden(x))) * self.scale
        return MLP()


def test_layer_api():
    def probe(m):
        net = _Regression.build(m)
        sd = net.state_dict()
        out = {
            "repr": repr(net),
            "sd": [(k, list(v.shape)) for k, v in sd.items()],
            "named_params": [(k, list(p.shape), p.stop_gradient)
                             for k, p in net.named_parameters()],
            "n_params": len(net.parameters()),
            "sublayers": [type(s).__name__ for s in net.sublayers()],
            "named_sublayers": [k for k, _ in net.named_sublayers()],
            "children": [type(c).__name__ for c in net.children()],
            "buffers": [k for k, _ in net.named_buffers()],
            "training": net.training,
        }
        net.eval()
        out["eval"] = [s.training for s in net.sublayers(include_self=True)]
        net.train()
        out["train"] = net.hidden.training
        seen = []
        net.apply(lambda layer: seen.append(type(layer).__name__))
        out["apply"] = seen
        x = m.ones([2, 3])
        net(x).sum().backward()
        out["grad_before"] = net.hidden.weight.grad is not None
        net.clear_gradients()
        out["cleared"] = float(np.abs(net.hidden.weight.grad.numpy()).sum())
        net.clear_gradients(set_to_zero=False)
        out["none"] = net.hidden.weight.grad is None
        sub = net.add_sublayer("extra", m.nn.Tanh())
        out["added"] = (type(sub).__name__, "extra" in dict(net.named_children()))
        return out
    a, b = _both(probe)
    assert a == b


def test_set_state_dict_round_trip_and_missing_unexpected():
    def probe(m):
        src = m.nn.Linear(3, 2)
        dst = m.nn.Linear(3, 2)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r1 = dst.set_state_dict(src.state_dict())
            same = np.array_equal(dst.weight.numpy(), src.weight.numpy())
            r2 = dst.set_state_dict({"weight": src.weight.numpy()})
            r3 = dst.set_state_dict({"weight": src.weight.numpy(), "bias": src.bias.numpy(),
                                     "extra": np.ones(2)})
            r4 = dst.set_state_dict({"weight": np.ones((2, 3), "float32"),
                                     "bias": src.bias.numpy()})
        msgs = [str(x.message) for x in w if issubclass(x.category, UserWarning)
                and "Skip" in str(x.message)]
        return same, r1, r2, r3, r4, msgs
    assert _both(probe)[0] == _both(probe)[1]


def test_parameter_and_state_dict_printing():
    def probe(m):
        layer = m.nn.Linear(2, 1)
        layer.weight.set_value(np.array([[0.5], [-1.25]], "float32"))
        return repr(layer.weight), repr(layer.state_dict()), str(layer.bias * 2)
    a, b = _both(probe)
    assert a == b


def test_create_parameter_and_param_attr():
    def probe(m):
        w = m.create_parameter([3, 4], "float32",
                               default_initializer=m.nn.initializer.Constant(0.5))
        attr = m.ParamAttr(initializer=m.nn.initializer.Constant(2.0), learning_rate=0.5,
                           trainable=False)
        layer = m.nn.Linear(2, 2, weight_attr=attr)
        return (w.numpy().tolist(), w.stop_gradient, layer.weight.numpy().tolist(),
                layer.weight.stop_gradient, layer.weight.trainable,
                layer.weight.optimize_attr["learning_rate"])
    a, b = _both(probe)
    assert a == b


def test_initializer_call_only_constructs():
    """``Normal(m.weight, std=..)`` (the chapters' misuse) leaves the weight alone."""
    def probe(m):
        layer = m.nn.Linear(2, 2, weight_attr=m.ParamAttr(
            initializer=m.nn.initializer.Constant(1.0)))
        init = m.nn.initializer.Normal(layer.weight, std=0.01)
        m.nn.initializer.XavierUniform(layer.weight)
        return type(init).__name__, layer.weight.numpy().tolist()
    a, b = _both(probe)
    assert a == b


@pytest.mark.parametrize("name,kw,shape", [
    ("Normal", {"mean": 1.0, "std": 2.0}, (300, 200)),
    ("Uniform", {"low": -0.5, "high": 2.0}, (300, 200)),
    ("Constant", {"value": 3.0}, (30, 20)),
    ("XavierUniform", {}, (300, 200)),
    ("XavierNormal", {}, (300, 200)),
    ("XavierUniform", {"gain": 2.0}, (640, 100)),
    ("KaimingUniform", {}, (300, 200)),
    ("KaimingNormal", {}, (300, 200)),
    ("KaimingNormal", {"mode": "fan_out"}, (300, 200)),
    ("KaimingUniform", {"nonlinearity": "leaky_relu", "negative_slope": 0.2}, (300, 200)),
    ("XavierNormal", {}, (16, 8, 3, 3)),
])
def test_initializer_statistics(name, kw, shape):
    def probe(m):
        m.seed(3)
        p = m.create_parameter(list(shape), "float32",
                               default_initializer=getattr(m.nn.initializer, name)(**kw))
        a = p.numpy()
        return a.mean(), a.std(), a.min(), a.max()
    (ma, sa, loa, hia), (mb, sb, lob, hib) = _both(probe)
    scale = max(sa, 1e-3)
    n = float(np.prod(shape))
    assert abs(ma - mb) < 6 * scale / n ** 0.5 + 1e-6  # six standard errors
    assert abs(sa - sb) < 6 * scale / (2 * n) ** 0.5 + 1e-6
    if "Uniform" in name or name == "Constant":
        assert abs(loa - lob) < 0.02 * scale + 1e-6 and abs(hia - hib) < 0.02 * scale + 1e-6


# ---------------------------------------------------------------- losses
P = RNG.standard_normal((5, 4)).astype("float32")
T = RNG.standard_normal((5, 4)).astype("float32")
LABELS = np.array([0, 3, 1, 2, 3], "int64")
SOFT = np.abs(RNG.standard_normal((5, 4))).astype("float32")
SOFT /= SOFT.sum(1, keepdims=True)
W4 = np.array([1.0, 2.0, 0.5, 3.0], "float32")


def _loss_case(loss_fn, x, *others):
    def run(m):
        xt = m.to_tensor(x, stop_gradient=False)
        out = loss_fn(m)(xt, *[m.to_tensor(o) for o in others])
        g = np.linspace(0.5, 1.5, out.size).reshape(out.shape).astype("float32") \
            if out.ndim else np.float32(1.0)
        (out * m.to_tensor(g)).sum().backward()
        return out.numpy(), list(out.shape), xt.grad.numpy()
    (a, sa, ga), (b, sb, gb) = _both(run)
    assert sa == sb
    _close(a, b)
    _close(ga, gb)


REDUCTIONS = ["mean", "sum", "none"]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name,kw", [("MSELoss", {}), ("L1Loss", {}), ("SmoothL1Loss", {}),
                                     ("SmoothL1Loss", {"delta": 0.5}),
                                     ("SmoothL1Loss", {"delta": 0.5, "is_huber": False})])
def test_regression_losses(name, kw, reduction):
    _loss_case(lambda m: getattr(m.nn, name)(reduction=reduction, **kw), P, T)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("kw,label", [
    ({}, LABELS), ({}, LABELS[:, None]),
    ({"weight": W4}, LABELS), ({"weight": W4}, LABELS[:, None]),
    ({"ignore_index": 3}, LABELS), ({"ignore_index": 3, "weight": W4}, LABELS),
    ({"ignore_index": -100}, np.array([0, -100, 1, 2, 3], "int64")),
    ({"soft_label": True}, SOFT), ({"soft_label": True, "weight": W4}, SOFT),
    ({"label_smoothing": 0.1}, LABELS), ({"label_smoothing": 0.2, "weight": W4}, LABELS),
    ({"use_softmax": False}, LABELS),
])
def test_cross_entropy(kw, label, reduction):
    x = P if kw.get("use_softmax", True) is not False else np.abs(P) + 0.1

    def make(m):
        kw2 = {k: (m.to_tensor(v) if k == "weight" else v) for k, v in kw.items()}
        return m.nn.CrossEntropyLoss(reduction=reduction, **kw2)
    _loss_case(make, x, label)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_class_axis_1(reduction):
    x = RNG.standard_normal((2, 4, 3)).astype("float32")
    lab = np.array([[0, 3, 1], [2, 2, 0]], "int64")
    _loss_case(lambda m: m.nn.CrossEntropyLoss(reduction=reduction, axis=1), x, lab)


def test_cross_entropy_functional_matches():
    _loss_case(lambda m: (lambda x, y: m.nn.functional.cross_entropy(x, y)), P, LABELS)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_loss(reduction, weighted):
    logp = np.log(SOFT)

    def make(m):
        return m.nn.NLLLoss(weight=m.to_tensor(W4) if weighted else None, reduction=reduction)
    _loss_case(make, logp, LABELS)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_bce_losses(reduction, weighted):
    probs = 1 / (1 + np.exp(-P))
    target = (T > 0).astype("float32")
    wt = np.linspace(0.5, 2, 4).astype("float32")

    def bce(m):
        return m.nn.BCELoss(weight=m.to_tensor(wt) if weighted else None, reduction=reduction)

    def bcel(m):
        return m.nn.BCEWithLogitsLoss(weight=m.to_tensor(wt) if weighted else None,
                                      reduction=reduction,
                                      pos_weight=m.to_tensor(wt[::-1].copy()) if weighted
                                      else None)
    _loss_case(bce, probs.astype("float32"), target)
    _loss_case(bcel, P, target)


def test_loss_reprs():
    def probe(m):
        return [repr(m.nn.MSELoss()), repr(m.nn.CrossEntropyLoss()), repr(m.nn.L1Loss()),
                repr(m.nn.BCELoss()), repr(m.nn.NLLLoss())]
    a, b = _both(probe)
    assert a == b


# ---------------------------------------------------------------- misuse
def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)
    return None


def test_linear_wrong_in_features():
    a, b = _both(lambda m: _error(lambda: m.nn.Linear(4, 3)(m.ones([2, 5]))))
    assert a == b and a[0] == "ValueError"


@pytest.mark.parametrize("bad", [4, -1])
def test_cross_entropy_label_out_of_range(bad):
    a, b = _both(lambda m: _error(lambda: m.nn.CrossEntropyLoss()(
        m.ones([2, 4]), m.to_tensor([0, bad]))))
    assert a == b and a[0] == "IndexError"


def test_nll_label_out_of_range():
    a, b = _both(lambda m: _error(lambda: m.nn.functional.nll_loss(
        m.ones([2, 3]), m.to_tensor([0, 3]))))
    assert a == b


def test_cross_entropy_wrong_weight_length():
    a, b = _both(lambda m: _error(lambda: m.nn.functional.cross_entropy(
        m.ones([2, 3]), m.to_tensor([0, 1]), weight=m.ones([4]))))
    assert a == b


def _misuse_cases(m):
    layer = m.nn.Linear(2, 3)

    def assign_tensor_to_parameter():
        layer.weight = m.ones([2, 3])

    def assign_int_to_sublayer():
        layer.sub = m.nn.ReLU()
        layer.sub = 3

    class NoInit(m.nn.Layer):
        def __init__(self):
            self.lin = m.nn.Linear(2, 2)

    return [
        assign_tensor_to_parameter, assign_int_to_sublayer, NoInit,
        lambda: m.nn.Sequential(m.nn.ReLU())[3],
        lambda: m.nn.LayerList([m.nn.ReLU()])[3],
        lambda: layer.nonexistent,
        lambda: layer.add_sublayer("x", 3),
        lambda: layer.register_buffer("b", 3),
        lambda: layer.add_parameter("a.b", None),
        lambda: m.nn.Linear(2, 3)(m.ones([2, 2], dtype="float64")),
        lambda: m.nn.MSELoss()(m.ones([2, 3]), m.ones([3, 3])),
        lambda: m.nn.MSELoss(reduction="bad"),
        lambda: m.nn.CrossEntropyLoss(reduction="bad")(m.ones([2, 3]), m.to_tensor([0, 1])),
        lambda: m.nn.CrossEntropyLoss()(m.ones([2, 3]), m.to_tensor([[[0]], [[1]]])),
        lambda: m.nn.Dropout(1.5)(m.ones([2])),
        lambda: m.optimizer.SGD(learning_rate="a", parameters=layer.parameters()),
        lambda: m.optimizer.SGD(learning_rate=0.1, parameters=layer.weight),
        lambda: m.optimizer.SGD(learning_rate=0.1, parameters={"params": []}),
    ]


@pytest.mark.parametrize("case", range(18))
def test_layer_and_optimizer_misuse(case):
    a, b = _both(lambda m: _error(_misuse_cases(m)[case]))
    assert a == b and a is not None


def test_class_paths_print_like_paddle():
    def probe(m):
        return [str(type(x)) for x in (
            m.nn.Linear(2, 2), m.nn.Sequential(), m.nn.ReLU(), m.nn.MSELoss(),
            m.nn.Linear(2, 2).weight, m.optimizer.Adam(parameters=[]),
            m.io.DataLoader(m.io.TensorDataset([m.ones([2])])), m.ParamAttr(),
            m.nn.initializer.Normal(), m.nn.ClipGradByNorm(1.0))]
    a, b = _both(probe)
    assert a == b


def test_deepcopy_dtype_and_no_bias():
    def probe(m):
        import copy
        net = m.nn.Sequential(m.nn.Linear(2, 2), m.nn.ReLU())
        twin = copy.deepcopy(net)
        same_values = np.array_equal(twin[0].weight.numpy(), net[0].weight.numpy())
        suffix = twin[0].weight.name.split(".", 1)[1]
        net.to(dtype="float64")
        nobias = m.nn.Linear(3, 1, bias_attr=False)
        return (repr(twin), type(twin[0].weight).__name__, twin[0].weight is net[0].weight,
                same_values, suffix.startswith("w_0_deepcopy_"), str(net[0].weight.dtype),
                nobias.bias, [n for n, _ in nobias.named_parameters()],
                list(nobias.state_dict().keys()))
    a, b = _both(probe)
    assert a == b


def test_container_edits_keep_order():
    """Assigning to a position keeps it in place; insert/del renumber; errors by paddle."""
    def build(m):
        ll = m.nn.LayerList([m.nn.ReLU(), m.nn.Tanh()])
        ll[0] = m.nn.Sigmoid()
        ll.insert(1, m.nn.Flatten())
        del ll[-1]
        seq = m.nn.Sequential(m.nn.ReLU(), m.nn.Tanh())
        seq[0] = m.nn.Sigmoid()
        seq.extend([m.nn.ReLU()])
        out = [repr(ll), list(ll._sub_layers), repr(seq), repr(seq[1:])]
        for bad in (lambda: ll[5], lambda: ll.__delitem__(-4), lambda: seq[9]):
            try:
                bad()
            except IndexError as e:
                out.append(str(e))
        return out
    a, b = _both(build)
    assert a == b
