"""engine.nn and engine.distributions on a device array type that is not numpy's
(tests/fake_gpu.py).

Layers, losses, initialisers, optimiser steps, collation and distributions run on
FakeGpuArray tensors: every result and every piece of optimiser state stays on the
device, and the numbers equal what the same computation gives on the host (random draws
come from the host generator, so one seed gives the same values on both).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from janusgrad import Tensor
from janusgrad import distributions as D
from janusgrad.array import backend
from janusgrad.core.autograd import backward
from janusgrad.nn import data as ND
from janusgrad.nn import functional as NF
from janusgrad.nn import init as NI
from janusgrad.nn import optim as NO
from janusgrad.nn import variants as NV
from janusgrad.ops import elementwise as E
from janusgrad.ops import reduce as R
from janusgrad.ops import shape as S
from janusgrad.ops.creation import Generator

from .fake_gpu import FakeGpuArray, installed

GPU = backend.Device("gpu", 0)


@pytest.fixture(autouse=True)
def fake_gpu():
    with installed():
        yield


def make(values, device, dtype=np.float32, requires_grad=False) -> Tensor:
    t = Tensor(backend.from_host(np.asarray(values, dtype=dtype), device))
    if requires_grad:
        t.set_requires_grad(True)
    return t


def on_device(t) -> np.ndarray:
    a = t.array if isinstance(t, Tensor) else t
    assert type(a) is FakeGpuArray, f"left the device: {type(a).__name__}"
    return backend.to_host(a)


def on_host(t) -> np.ndarray:
    a = t.array if isinstance(t, Tensor) else t
    assert type(a) is np.ndarray, f"not on the host: {type(a).__name__}"
    return a


RNG = np.random.default_rng(7)
X = RNG.normal(size=(5, 3)).astype(np.float32)
W1 = RNG.normal(size=(4, 3)).astype(np.float32)
B1 = RNG.normal(size=(4,)).astype(np.float32)
W2 = RNG.normal(size=(2, 4)).astype(np.float32)
TARGET = [0, 1, 1, 0, 1]


def _mlp_step(device, rule, steps=2, **hyper):
    """Two optimiser steps of a 2-layer MLP with cross-entropy; the parameters, the
    state and the loss after them."""
    params = [make(a, device, requires_grad=True) for a in (W1, B1, W2)]
    states = [{} for _ in params]
    x = make(X, device)
    for _ in range(steps):
        for p in params:
            p.grad = None
        h = E.relu(NF.linear(x, params[0], params[1]))
        loss = NF.cross_entropy(NF.linear(h, params[2]), TARGET)
        backward([loss])
        for p, state in zip(params, states):
            rule(p, p.grad, state, **hyper)
    return params, states, loss


OPTIMISERS = [
    (NO.sgd, {"lr": 0.1}),
    (NO.sgd, {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    (NO.adam, {"lr": 0.01}),
    (NO.adam, {"lr": 0.01, "amsgrad": True, "weight_decay": 0.1,
               "decoupled_weight_decay": True}),
    (NO.rmsprop, {"lr": 0.01, "momentum": 0.5, "centered": True}),
    (NO.adagrad, {"lr": 0.1, "lr_decay": 0.01}),
]


@pytest.mark.parametrize("rule, hyper", OPTIMISERS,
                         ids=[f"{r.__name__}-{i}" for i, (r, _) in enumerate(OPTIMISERS)])
def test_mlp_step_with_each_optimiser_equals_the_host(rule, hyper):
    dp, ds, dloss = _mlp_step(GPU, rule, **hyper)
    hp, hs, hloss = _mlp_step(backend.CPU, rule, **hyper)
    np.testing.assert_allclose(on_device(dloss), on_host(hloss), rtol=1e-6)
    for d, h in zip(dp, hp):
        np.testing.assert_allclose(on_device(d), on_host(h), rtol=1e-6, atol=1e-7)
    for d, h in zip(ds, hs):
        assert d.keys() == h.keys()
        for k in d:
            if k == "step":  # the step counter stays on the host, as torch keeps it
                assert on_host(d[k]) == on_host(h[k])
            else:
                np.testing.assert_allclose(on_device(d[k]), on_host(h[k]), rtol=1e-6)


def _paddle_style_steps(device, update, **hyper):
    p = backend.from_host(W1.copy(), device)
    state: dict = {}
    for i in range(2):
        g = backend.from_host(np.full_like(W1, 0.1 * (i + 1)) + W1, device)
        update(p, g, state, **hyper)
    return p, state


@pytest.mark.parametrize("update, hyper", [
    (NV.momentum_lr_outside, {"lr": 0.1, "momentum": 0.9, "nesterov": True}),
    (NV.adam_scaled_eps, {"lr": 0.01, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8,
                          "amsgrad": True, "decay_first": 0.01}),
    (NV.rmsprop_eps_inside, {"lr": 0.01, "rho": 0.95, "eps": 1e-6, "momentum": 0.1,
                             "centered": True}),
    (NV.adagrad_eps_outside, {"lr": 0.1, "eps": 1e-6, "initial_accumulator_value": 0.1}),
], ids=["momentum", "adam", "rmsprop", "adagrad"])
def test_array_updates_stay_on_the_device(update, hyper):
    dp, ds = _paddle_style_steps(GPU, update, **hyper)
    hp, hs = _paddle_style_steps(backend.CPU, update, **hyper)
    np.testing.assert_array_equal(on_device(dp), hp)
    for k in hs:
        np.testing.assert_array_equal(on_device(ds[k]), hs[k])


def test_adam_beta_powers_are_fresh_arrays():
    """The running powers are updated in place: they must not be shared constants."""
    p1 = backend.from_host(W1.copy(), GPU)
    p2 = backend.from_host(W1.copy(), GPU)
    s1: dict = {}
    s2: dict = {}
    g = backend.from_host(np.ones_like(W1), GPU)
    NV.adam_scaled_eps(p1, g, s1, 0.1, 0.9, 0.999, 1e-8)
    NV.adam_scaled_eps(p1, g, s1, 0.1, 0.9, 0.999, 1e-8)
    NV.adam_scaled_eps(p2, g, s2, 0.1, 0.9, 0.999, 1e-8)
    np.testing.assert_allclose(on_device(s2["beta1_pow"]), [np.float32(0.9) ** 2])
    np.testing.assert_allclose(on_device(s1["beta1_pow"]), [np.float32(0.9) ** 3])


def test_gradient_clipping_on_the_device():
    grads = [RNG.normal(size=(3, 2)).astype(np.float32), RNG.normal(size=(4,)).astype(np.float32)]

    def run(device, norm_type):
        ps = [make(np.zeros_like(g), device, requires_grad=True) for g in grads]
        for p, g in zip(ps, grads):
            p.grad = make(g, device)
        total = NO.clip_grad_norm(ps, 0.5, norm_type)
        return total, [p.grad for p in ps]

    for norm_type in (2.0, math.inf):
        dt, dg = run(GPU, norm_type)
        ht, hg = run(backend.CPU, norm_type)
        np.testing.assert_array_equal(on_device(dt), on_host(ht))
        for d, h in zip(dg, hg):
            np.testing.assert_array_equal(on_device(d), on_host(h))
    each = NV.clip_each_by_norm([backend.from_host(g, GPU) for g in grads], 0.5)
    whole = NV.clip_by_global_norm([backend.from_host(g, GPU) for g in grads], 0.5)
    for d, h in zip(each, NV.clip_each_by_norm(grads, 0.5)):
        np.testing.assert_array_equal(on_device(d), h)
    for d, h in zip(whole, NV.clip_by_global_norm(grads, 0.5)):
        np.testing.assert_array_equal(on_device(d), h)


# ---------------------------------------------------------------- losses
LOGITS = RNG.normal(size=(4, 3))
LABELS = [2, 0, 1, 2]
WEIGHT = [0.5, 1.0, 2.0]

LOSSES = {
    "cross_entropy": lambda x, y, w: NF.cross_entropy(x, LABELS),
    "cross_entropy_weighted_smoothed": lambda x, y, w: NF.cross_entropy(
        x, LABELS, weight=w, label_smoothing=0.1, ignore_index=0),
    "cross_entropy_probs": lambda x, y, w: NF.cross_entropy(
        x, R.softmax(y, 1), target_is_probs=True, label_smoothing=0.2),
    "nll_sum": lambda x, y, w: NF.nll_loss(R.log_softmax(x, 1), LABELS, w, reduction="sum"),
    "mse": lambda x, y, w: NF.mse_loss(x, y),
    "l1": lambda x, y, w: NF.l1_loss(x, y, "sum"),
    "smooth_l1": lambda x, y, w: NF.smooth_l1_loss(x, y, beta=0.5),
    "huber": lambda x, y, w: NF.huber_loss(x, y, delta=0.7),
    "bce": lambda x, y, w: NF.binary_cross_entropy(E.sigmoid(x), E.sigmoid(y), w),
    "bce_logits": lambda x, y, w: NF.binary_cross_entropy_with_logits(
        x, E.sigmoid(y), pos_weight=w),
    "gelu": lambda x, y, w: R.sum(NF.gelu(x)),
    "gelu_tanh": lambda x, y, w: R.sum(NF.gelu(x, "tanh")),
    "softplus_leaky": lambda x, y, w: R.sum(E.add(NF.softplus(x, 2.0),
                                                  NF.leaky_relu(y, 0.2))),
    "keepdim_ce": lambda x, y, w: NV.keepdim_cross_entropy(x, LABELS, w, label_smoothing=0.1),
    "keepdim_ce_ignore": lambda x, y, w: NV.keepdim_cross_entropy(x, LABELS, ignore_index=1),
    "keepdim_ce_soft": lambda x, y, w: NV.keepdim_cross_entropy(
        x, R.softmax(y, -1), w, soft_label=True),
    "huber_or_smooth_l1": lambda x, y, w: NV.huber_or_smooth_l1(x, y, is_huber=False),
    "nll_zero_when_ignored": lambda x, y, w: NV.nll_mean_zero_when_all_ignored(
        R.log_softmax(x, 1), LABELS, w),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_loss_forward_and_backward_stay_on_the_device(name):
    def run(device):
        x = make(LOGITS, device, np.float64, requires_grad=True)
        y = make(LOGITS[::-1] * 0.5, device, np.float64, requires_grad=True)
        w = make(WEIGHT, device, np.float64, requires_grad=True)
        loss = LOSSES[name](x, y, w)
        backward([R.sum(loss)])
        return loss, [t.grad for t in (x, y, w)]

    dl, dg = run(GPU)
    hl, hg = run(backend.CPU)
    np.testing.assert_allclose(on_device(dl), on_host(hl), rtol=1e-12, atol=1e-14)
    for d, h in zip(dg, hg):
        assert (d is None) == (h is None)
        if d is not None:
            np.testing.assert_allclose(on_device(d), on_host(h), rtol=1e-12, atol=1e-14)


def test_a_target_on_another_device_is_the_dialects_error():
    x = make(LOGITS, GPU)
    with pytest.raises(RuntimeError, match="nll_loss: operands are on different devices"):
        NF.cross_entropy(x, Tensor(np.asarray(LABELS)))
    with pytest.raises(RuntimeError, match="different devices"):
        NF.cross_entropy(x, make(LABELS, GPU, np.int64), weight=make(WEIGHT, backend.CPU))


def test_bad_targets_are_found_on_the_device():
    x = make(LOGITS, GPU)
    assert NF.first_bad_target(3, make([0, 5, -1], GPU, np.int64)) == 5
    assert NV.first_bad_label(make([0, 2, 7], GPU, np.int64), 3, -100) == 7
    with pytest.raises(Exception, match="out of bounds"):
        NF.cross_entropy(x, [0, 1, 3, 0])
    assert NF.outside_unit_interval(make([0.2, 1.5], GPU))


def test_erf_and_lgamma_on_the_device_match_the_c_library():
    xs = np.concatenate([np.linspace(-6, 6, 2001), [0.0, 1e-9, -1e-300, 0.4999, 0.5]])
    np.testing.assert_allclose(on_device(NF.erf_array(backend.from_host(xs, GPU))),
                               [math.erf(v) for v in xs], rtol=2e-15, atol=1e-300)
    ys = np.concatenate([np.linspace(0.01, 40, 2001), np.arange(1.0, 200.0),
                         np.linspace(-4.3, 0.45, 301) + 1e-3])
    np.testing.assert_allclose(on_device(NF.lgamma_array(backend.from_host(ys, GPU))),
                               [math.lgamma(v) for v in ys], rtol=1e-12, atol=1e-13)
    special = on_device(NF.lgamma_array(backend.from_host(np.array([1.0, 2.0, 0.0, -3.0]),
                                                          GPU)))
    assert list(special) == [0.0, 0.0, math.inf, math.inf]
    x = make([0.3, -1.2], GPU, requires_grad=True)
    y = NF.erf(x)
    backward([R.sum(y)])
    np.testing.assert_allclose(on_device(y), [math.erf(0.3), math.erf(-1.2)], rtol=1e-6)
    np.testing.assert_allclose(on_device(x.grad),
                               2 / math.sqrt(math.pi) * np.exp(-np.float32([0.3, -1.2]) ** 2),
                               rtol=1e-6)


def test_dropout_draws_on_the_host_and_masks_on_the_device():
    def run(device):
        x = make(np.ones((4, 5)), device)
        return (NF.dropout(x, 0.4, True, Generator(3)),
                NV.dropout_shared_mask(x, 0.5, (0,), gen=Generator(3)))
    for d, h in zip(run(GPU), run(backend.CPU)):
        np.testing.assert_array_equal(on_device(d), on_host(h))


# ---------------------------------------------------------------- initialisers
INITS = [
    lambda t, g: NI.uniform_(t, -0.5, 0.5, g),
    lambda t, g: NI.normal_(t, 1.0, 2.0, g),
    lambda t, g: NI.constant_(t, 0.25),
    lambda t, g: NI.zeros_(t),
    lambda t, g: NI.ones_(t),
    lambda t, g: NI.eye_(t),
    lambda t, g: NI.xavier_uniform_(t, generator=g),
    lambda t, g: NI.xavier_normal_(t, generator=g),
    lambda t, g: NI.kaiming_uniform_(t, generator=g),
    lambda t, g: NI.kaiming_normal_(t, mode="fan_out", generator=g),
    lambda t, g: NI.trunc_normal_(t, 0.0, 1.0, -0.5, 0.5, g),
    lambda t, g: NV.truncated_normal_(t, 0.0, 0.1, generator=g),
]


@pytest.mark.parametrize("i", range(len(INITS)))
def test_init_in_place_stays_on_the_device(i):
    d = make(np.zeros((3, 4)), GPU, requires_grad=True)
    h = make(np.zeros((3, 4)), backend.CPU, requires_grad=True)
    array = d.array
    version = d._version
    INITS[i](d, Generator(5))
    INITS[i](h, Generator(5))
    assert d.array is array and d._version != version  # written in place
    np.testing.assert_array_equal(on_device(d), on_host(h))


# ---------------------------------------------------------------- data
def test_collation_stacks_device_tensors_and_keeps_host_numbers_on_the_host():
    def stack(ts):
        return S.stack(ts, 0)

    def numbers(vs):
        return Tensor(backend.as_array(np.asarray(vs)))

    batch = [(make([1.0, 2.0], GPU), 3, {"w": make([float(i)], GPU), "name": "s"})
             for i in range(3)]
    xs, ns, d = ND.collate(batch, lambda e: isinstance(e, Tensor), stack, numbers)
    np.testing.assert_array_equal(on_device(xs), [[1.0, 2.0]] * 3)
    np.testing.assert_array_equal(on_host(ns), [3, 3, 3])
    np.testing.assert_array_equal(on_device(d["w"]), [[0.0], [1.0], [2.0]])
    assert d["name"] == ["s", "s", "s"]


# ---------------------------------------------------------------- distributions
def _params(device):
    return (make([[0.0, 1.0], [2.0, -1.0]], device, requires_grad=True),
            make([[1.0, 0.5], [2.0, 0.1]], device, requires_grad=True))


DISTRIBUTIONS = {
    "normal": lambda a, b: D.Normal(a, b),
    "uniform": lambda a, b: D.Uniform(a, E.add(a, b)),
    "categorical_probs": lambda a, b: D.Categorical(probs=b),
    "categorical_logits": lambda a, b: D.Categorical(logits=a),
    "bernoulli_probs": lambda a, b: D.Bernoulli(probs=E.sigmoid(a)),
    "bernoulli_logits": lambda a, b: D.Bernoulli(logits=a),
    "multinomial": lambda a, b: D.Multinomial(4, probs=b),
}


@pytest.mark.parametrize("name", sorted(DISTRIBUTIONS))
def test_distribution_sample_log_prob_and_entropy_on_the_device(name):
    def run(device):
        a, b = _params(device)
        dist = DISTRIBUTIONS[name](a, b)
        sample = dist.sample((3,), Generator(11))
        logp = dist.log_prob(sample)
        ent = dist.entropy()
        backward([E.add(R.sum(logp), R.sum(ent))])
        return [sample, logp, ent, a.grad, b.grad]

    for d, h in zip(run(GPU), run(backend.CPU)):
        assert (d is None) == (h is None)
        if d is not None:
            np.testing.assert_allclose(on_device(d), on_host(h), rtol=1e-6, atol=1e-6)


def test_rsample_keeps_the_reparameterised_path_on_the_device():
    def run(device):
        loc, scale = _params(device)
        s = E.add(D.Normal(loc, scale).rsample((2,), Generator(4)),
                  D.Uniform(loc, E.add(loc, scale)).rsample((2,), Generator(4)))
        backward([R.sum(E.square(s))])
        return [s, loc.grad, scale.grad, D.Categorical(probs=scale).mean]

    for d, h in zip(run(GPU), run(backend.CPU)):
        np.testing.assert_allclose(on_device(d), on_host(h), rtol=1e-6)


VARIANT_DISTRIBUTIONS = {
    "normal": lambda a, b, g: (NV.normal_rsample(a, b, (3,), g), NV.normal_log_prob,
                               NV.normal_entropy(a, b)),
    "uniform": lambda a, b, g: (NV.uniform_rsample(a, E.add(a, b), (3,), g),
                                NV.uniform_open_log_prob, NV.uniform_entropy(a, E.add(a, b))),
}


@pytest.mark.parametrize("name", sorted(VARIANT_DISTRIBUTIONS))
def test_variant_distributions_on_the_device(name):
    def run(device):
        a, b = _params(device)
        sample, log_prob, ent = VARIANT_DISTRIBUTIONS[name](a, b, Generator(2))
        second = b if name == "normal" else E.add(a, b)
        lp = log_prob(a, second, sample)
        outside = NV.uniform_open_log_prob(a, E.add(a, b), E.sub(a, 1.0))
        backward([E.add(R.sum(lp), R.sum(ent))])
        return [sample, lp, ent, outside, a.grad, b.grad]

    for d, h in zip(run(GPU), run(backend.CPU)):
        np.testing.assert_allclose(on_device(d), on_host(h), rtol=1e-6)


def test_variant_discrete_helpers_on_the_device():
    def run(device):
        probs = make([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]], device, requires_grad=True)
        cats = NV.sample_categories(probs, (4,), Generator(9))
        counts = NV.counts_of_draws(cats, 3, np.float32)
        bern = NV.bernoulli_sample(NV.clip_probs_open(probs, 1e-6), (2,), Generator(9))
        lp = NV.multinomial_log_prob(NV.normalized_by_sum(probs), counts)
        ent = NV.multinomial_entropy(probs, 4)
        blp = NV.bernoulli_log_prob(NV.clip_probs_open(probs, 1e-6), bern)
        bent = NV.bernoulli_entropy_label_constant(NV.clip_probs_open(probs, 1e-6))
        taken = NV.take_last_axis(probs, make([2, 0], device, np.int64))
        onehot = NV.one_hot(make([1, 2], device, np.int64), 3, np.float32)
        backward([R.sum(E.add(E.add(R.sum(lp), R.sum(ent)), R.sum(blp)))])
        return [cats, counts, bern, lp, ent, blp, bent, taken, onehot, probs.grad,
                NV.lgamma_const(E.add(counts, 1.0))]

    for d, h in zip(run(GPU), run(backend.CPU)):
        np.testing.assert_allclose(on_device(d), on_host(h), rtol=1e-5, atol=1e-6)
    assert NV.batch_shape_of(*_params(GPU)) == (2, 2)
