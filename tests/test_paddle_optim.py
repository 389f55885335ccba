"""paddlelike.optimizer against real paddle 3.3.1: 5 steps from the same weights agree to
1e-5; schedulers; state dicts; param groups; misuse."""
import numpy as np
import pytest

import paddlelike

paddle = pytest.importorskip("paddle")

RNG = np.random.default_rng(0)
W = RNG.standard_normal((3, 2)).astype("float32")
B = RNG.standard_normal(2).astype("float32")
X = RNG.standard_normal((5, 3)).astype("float32")


def _train(m, name, kw, weight_decay=None, clip=None, scheduler=False, groups=False):
    layer = m.nn.Linear(3, 2)
    layer.weight.set_value(W)
    layer.bias.set_value(B)
    extra = {}
    if weight_decay is not None:
        extra["weight_decay"] = (m.regularizer.L2Decay(0.05) if weight_decay == "L2"
                                 else weight_decay)
    if clip is not None:
        extra["grad_clip"] = getattr(m.nn, clip)(0.5)
    lr = m.optimizer.lr.StepDecay(0.1, 2, 0.5) if scheduler else 0.1
    params = layer.parameters()
    if groups:
        params = [{"params": [layer.weight], "weight_decay": 0.1, "learning_rate": 0.5},
                  {"params": [layer.bias]}]
    opt = getattr(m.optimizer, name)(learning_rate=lr, parameters=params, **kw, **extra)
    for _ in range(5):
        (layer(m.to_tensor(X)) ** 2).sum().backward()
        opt.step()
        opt.clear_grad()
        if scheduler:
            lr.step()
    return layer.weight.numpy(), layer.bias.numpy(), opt


CASES = [
    ("SGD", {}), ("Momentum", {}), ("Momentum", {"momentum": 0.8, "use_nesterov": True}),
    ("Adam", {}), ("Adam", {"beta1": 0.8, "beta2": 0.99, "epsilon": 1e-6}),
    ("Adam", {"amsgrad": True}), ("AdamW", {}), ("AdamW", {"weight_decay": 0.1}),
    ("RMSProp", {}), ("RMSProp", {"centered": True, "momentum": 0.5, "rho": 0.9}),
    ("Adagrad", {}), ("Adagrad", {"initial_accumulator_value": 0.1, "epsilon": 1e-4}),
]


# AdamW's weight_decay is its decoupled coefficient (a case of its own), not a regularizer
FIVE_STEP_CASES = [(name, kw, wd, clip) for name, kw in CASES
                   for wd in ([None] if name == "AdamW" else [None, 0.01, "L2"])
                   for clip in (None, "ClipGradByNorm", "ClipGradByGlobalNorm")]


@pytest.mark.parametrize("name,kw,weight_decay,clip", FIVE_STEP_CASES)
def test_five_steps_agree(name, kw, weight_decay, clip):
    wa, ba, _ = _train(paddle, name, kw, weight_decay, clip)
    wb, bb, _ = _train(paddlelike, name, kw, weight_decay, clip)
    np.testing.assert_allclose(wa, wb, atol=1e-5, rtol=1e-5)
    np.testing.assert_allclose(ba, bb, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("name,kw", CASES)
def test_scheduler_param_groups_and_state_dict(name, kw):
    groups = name != "AdamW"
    wa, ba, oa = _train(paddle, name, kw, scheduler=True, groups=groups)
    wb, bb, ob = _train(paddlelike, name, kw, scheduler=True, groups=groups)
    np.testing.assert_allclose(wa, wb, atol=1e-5, rtol=1e-5)
    np.testing.assert_allclose(ba, bb, atol=1e-5, rtol=1e-5)
    sa, sb = oa.state_dict(), ob.state_dict()
    # parameter names differ by their counters (linear_N); compare what follows
    strip = lambda k: k.split(".", 1)[-1]  # noqa: E731
    assert [strip(k) for k in sa] == [strip(k) for k in sb]
    for ka, kb in zip(sa, sb):
        if ka == "LR_Scheduler":
            assert sa[ka] == sb[kb]
        else:
            np.testing.assert_allclose(sa[ka].numpy(), sb[kb].numpy(), atol=1e-5, rtol=1e-5)
    assert oa.get_lr() == ob.get_lr()


def _resume(m, fresh: bool):
    """Train 2 steps, take the optimizer's state, load it into an optimizer (a fresh one
    or the same one) and train 3 more steps."""
    layer = m.nn.Linear(3, 2)
    layer.weight.set_value(W)
    layer.bias.set_value(B)
    opt = m.optimizer.Adam(learning_rate=0.1, parameters=layer.parameters())
    for i in range(5):
        if i == 2:
            state = opt.state_dict()
            if fresh:
                opt = m.optimizer.Adam(learning_rate=0.1, parameters=layer.parameters())
            opt.set_state_dict(state)
        (layer(m.to_tensor(X)) ** 2).sum().backward()
        opt.step()
        opt.clear_grad()
    return layer.weight.numpy()


def test_set_state_dict_resumes():
    np.testing.assert_allclose(_resume(paddlelike, False), _resume(paddle, False), atol=1e-5)


def test_fresh_optimizer_names_its_accumulators_anew():
    """paddle names accumulators uniquely (``..._moment1_1`` for a second optimizer), so a
    state dict from another optimizer in the same process is refused at the next step."""
    def run(m):
        try:
            _resume(m, True)
        except AssertionError as e:
            return str(e).split("_moment1")[-1]
        return None
    assert run(paddle) == run(paddlelike) == "_1 should in state dict"


@pytest.mark.parametrize("make", [
    lambda m: m.optimizer.lr.StepDecay(0.5, step_size=3, gamma=0.5),
    lambda m: m.optimizer.lr.ExponentialDecay(0.5, gamma=0.9),
    lambda m: m.optimizer.lr.CosineAnnealingDecay(0.5, T_max=4, eta_min=0.01),
    lambda m: m.optimizer.lr.CosineAnnealingDecay(0.5, T_max=3),
])
def test_schedulers(make):
    def run(m):
        s = make(m)
        out = []
        for _ in range(12):
            out.append((s(), s.last_epoch))
            s.step()
        s.step(2)
        out.append((s(), s.last_epoch))
        return out, s.state_dict()
    (a, sa), (b, sb) = run(paddle), run(paddlelike)
    np.testing.assert_allclose([x for x, _ in a], [x for x, _ in b], rtol=1e-12)
    assert [e for _, e in a] == [e for _, e in b]
    assert sa.keys() == sb.keys()


def test_minimize_and_clear_grad():
    def run(m):
        layer = m.nn.Linear(3, 2)
        layer.weight.set_value(W)
        opt = m.optimizer.SGD(learning_rate=0.1, parameters=layer.parameters())
        loss = (layer(m.to_tensor(X)) ** 2).sum()
        loss.backward()
        opt.minimize(loss)
        opt.clear_grad()
        zero = float(np.abs(layer.weight.grad.numpy()).sum())
        (layer(m.to_tensor(X)) ** 2).sum().backward()
        opt.clear_grad(set_to_zero=False)
        return layer.weight.numpy(), zero, layer.weight.grad is None
    (wa, za, na), (wb, zb, nb) = run(paddle), run(paddlelike)
    np.testing.assert_allclose(wa, wb, atol=1e-5)
    assert (za, na) == (zb, nb)


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize("name", ["SGD", "Momentum", "Adam", "AdamW"])
def test_optimizer_without_parameters(name):
    a = _error(lambda: getattr(paddle.optimizer, name)(learning_rate=0.1))
    b = _error(lambda: getattr(paddlelike.optimizer, name)(learning_rate=0.1))
    assert a == b and a[0] == "AttributeError"


def test_optimizer_with_empty_parameter_list():
    a, b = (_error(lambda m=m: m.optimizer.SGD(learning_rate=0.1, parameters=[]).step())
            for m in (paddle, paddlelike))
    assert a == b == ("IndexError", "list index out of range")


def test_same_parameter_in_two_groups():
    def run(m):
        layer = m.nn.Linear(2, 2)
        return _error(lambda: m.optimizer.SGD(parameters=[
            {"params": [layer.weight]}, {"params": [layer.weight]}]))
    assert run(paddle) == run(paddlelike)


def test_set_lr_with_scheduler_refused():
    def run(m):
        layer = m.nn.Linear(2, 2)
        opt = m.optimizer.SGD(learning_rate=m.optimizer.lr.StepDecay(0.1, 2),
                              parameters=layer.parameters())
        return _error(lambda: opt.set_lr(0.5))
    assert run(paddle) == run(paddlelike)
