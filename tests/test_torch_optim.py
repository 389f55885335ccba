"""torch.optim in torchlike against real torch 2.13: five steps from the same weights agree
to 1e-5; state_dict; schedulers' learning-rate sequences; gradient clipping."""
from __future__ import annotations

import math

import numpy as np
import pytest

import torchlike
from torchlike import nn as jnn

from .tolerance import assert_kernels_close

torch = pytest.importorskip("torch")

OPTIMIZERS = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.3, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.05, "momentum": 0.8, "nesterov": True}),
    ("SGD", {"lr": 0.1, "maximize": True}),
    ("Adam", {}),
    ("Adam", {"lr": 0.01, "betas": (0.8, 0.9), "weight_decay": 0.1}),
    ("Adam", {"lr": 0.01, "amsgrad": True}),
    ("AdamW", {"lr": 0.01}),
    ("AdamW", {"lr": 0.01, "weight_decay": 0.5, "amsgrad": True}),
    ("RMSprop", {}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.5, "centered": True, "weight_decay": 0.1}),
    ("RMSprop", {"lr": 0.01, "alpha": 0.9, "momentum": 0.3}),
    ("Adagrad", {}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.1,
                 "initial_accumulator_value": 0.5}),
]


def _models():
    torch.manual_seed(0)
    ref = torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.Tanh(), torch.nn.Linear(5, 3))
    ours = jnn.Sequential(jnn.Linear(4, 5), jnn.Tanh(), jnn.Linear(5, 3))
    ours.load_state_dict({k: torchlike.tensor(v.numpy()) for k, v in ref.state_dict().items()})
    return ref, ours


def _step(lib, model, opt, x, y):
    opt.zero_grad()
    loss = lib.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()


@pytest.mark.parametrize("case", OPTIMIZERS, ids=[f"{n}{o}" for n, o in OPTIMIZERS])
def test_five_steps_agree_with_torch(case):
    name, opts = case
    ref, ours = _models()
    opt_ref = getattr(torch.optim, name)(ref.parameters(), **opts)
    opt_ours = getattr(torchlike.optim, name)(ours.parameters(), **opts)
    rng = np.random.default_rng(0)
    for _ in range(5):
        x = rng.normal(size=(8, 4)).astype(np.float32)
        y = rng.integers(0, 3, size=8)
        _step(torch, ref, opt_ref, torch.tensor(x), torch.tensor(y))
        _step(torchlike, ours, opt_ours, torchlike.tensor(x), torchlike.tensor(y))
    for (n, a), (m, b) in zip(ref.named_parameters(), ours.named_parameters()):
        assert n == m
        np.testing.assert_allclose(b.detach().numpy(), a.detach().numpy(), rtol=1e-5,
                                   atol=1e-5)
    sd_ref, sd_ours = opt_ref.state_dict(), opt_ours.state_dict()
    assert sd_ours["param_groups"] == sd_ref["param_groups"]
    assert sd_ours["state"].keys() == sd_ref["state"].keys()
    for k in sd_ref["state"]:
        assert list(sd_ours["state"][k]) == list(sd_ref["state"][k])
        for key, v in sd_ref["state"][k].items():
            np.testing.assert_allclose(sd_ours["state"][k][key].numpy(), v.numpy(), rtol=1e-4,
                                       atol=1e-6)
    assert repr(opt_ours) == repr(opt_ref)


def test_param_groups_and_state_dict_round_trip():
    ref, ours = _models()
    groups = lambda m: [{"params": m[0].parameters()},  # noqa: E731
                        {"params": m[2].parameters(), "lr": 0.5}]
    opt_ref = torch.optim.SGD(groups(ref), lr=0.1, momentum=0.9)
    opt_ours = torchlike.optim.SGD(groups(ours), lr=0.1, momentum=0.9)
    x = np.ones((2, 4), np.float32)
    y = np.array([0, 2])
    _step(torch, ref, opt_ref, torch.tensor(x), torch.tensor(y))
    _step(torchlike, ours, opt_ours, torchlike.tensor(x), torchlike.tensor(y))
    assert repr(opt_ours) == repr(opt_ref)
    assert opt_ours.state_dict()["param_groups"] == opt_ref.state_dict()["param_groups"]
    # a fresh optimiser loaded from the state continues exactly like the original
    saved = opt_ours.state_dict()
    again = torchlike.optim.SGD(groups(ours), lr=0.1, momentum=0.9)
    again.load_state_dict(saved)
    assert again.state_dict()["param_groups"] == saved["param_groups"]
    _step(torch, ref, opt_ref, torch.tensor(x), torch.tensor(y))
    _step(torchlike, ours, again, torchlike.tensor(x), torchlike.tensor(y))
    for a, b in zip(ref.parameters(), ours.parameters()):
        np.testing.assert_allclose(b.detach().numpy(), a.detach().numpy(), rtol=1e-5,
                                   atol=1e-6)


def test_load_state_dict_group_mismatch_like_torch():
    def build(t):
        a = t.nn.Parameter(t.ones(2))
        b = t.nn.Parameter(t.ones(2))
        o = t.optim.SGD([a, b], lr=0.1)
        return o, t.optim.SGD([{"params": [a]}, {"params": [b]}], lr=0.1), t.optim.SGD([a],
                                                                                       lr=0.1)

    for which in (1, 2):
        errs = []
        for t in (torch, torchlike):
            o = build(t)
            try:
                o[which].load_state_dict(o[0].state_dict())
            except ValueError as e:
                errs.append(str(e))
        assert len(errs) == 2 and errs[0] == errs[1]


def test_zero_grad_set_to_none_default():
    p = jnn.Parameter(torchlike.ones(2))
    opt = torchlike.optim.SGD([p], lr=0.1)
    (p * 2).sum().backward()
    opt.zero_grad(set_to_none=False)
    assert (p.grad.numpy() == 0).all()
    opt.zero_grad()
    assert p.grad is None


SCHEDULERS = [
    ("StepLR", {"step_size": 3, "gamma": 0.5}),
    ("StepLR", {"step_size": 1, "gamma": 0.1}),
    ("ExponentialLR", {"gamma": 0.9}),
    ("CosineAnnealingLR", {"T_max": 5}),
    ("CosineAnnealingLR", {"T_max": 4, "eta_min": 0.01}),
]


@pytest.mark.parametrize("case", SCHEDULERS, ids=[f"{n}{o}" for n, o in SCHEDULERS])
def test_scheduler_sequence_matches_torch(case):
    name, opts = case
    seqs = []
    for t in (torch, torchlike):
        p = t.nn.Parameter(t.ones(1))
        opt = t.optim.SGD([{"params": [p]}, {"params": [t.nn.Parameter(t.ones(1))],
                                              "lr": 0.3}], lr=0.1)
        sched = getattr(t.optim.lr_scheduler, name)(opt, **opts)
        seq = [sched.get_last_lr()]
        for _ in range(12):
            opt.step()
            sched.step()
            seq.append(sched.get_last_lr())
        seqs.append((seq, [g["lr"] for g in opt.param_groups], sched.state_dict()["last_epoch"]))
    (ref, ref_lrs, ref_epoch), (ours, our_lrs, our_epoch) = seqs
    assert ref_epoch == our_epoch
    np.testing.assert_allclose(np.array(ours), np.array(ref), rtol=1e-12, atol=1e-15)
    assert our_lrs == pytest.approx(ref_lrs, rel=1e-12)


@pytest.mark.parametrize("norm_type", [2.0, 1.0, math.inf])
@pytest.mark.parametrize("max_norm", [0.1, 100.0])
def test_clip_grad_norm_matches_torch(norm_type, max_norm):
    ref, ours = _models()
    x = np.random.default_rng(0).normal(size=(8, 4)).astype(np.float32)
    ref(torch.tensor(x)).pow(2).sum().backward()
    ours(torchlike.tensor(x)).pow(2).sum().backward()
    a = torch.nn.utils.clip_grad_norm_(ref.parameters(), max_norm, norm_type)
    b = jnn.utils.clip_grad_norm_(ours.parameters(), max_norm, norm_type)
    # two kernels (torch's and ours) sum 8 samples x 5 units per gradient element and
    # the norm over 38 elements: float32 rounding scaled to the arrays' magnitudes
    assert_kernels_close(b.numpy(), a.numpy(), n=38)
    for p, q in zip(ref.parameters(), ours.parameters()):
        assert_kernels_close(q.grad.numpy(), p.grad.numpy(), n=40)
