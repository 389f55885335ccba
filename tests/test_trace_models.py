"""Compiled models of D2L's chapters against eager, bit for bit: an MLP, LeNet, a
convolution with batch norm (training and evaluation mode), a GRU, a Transformer encoder
layer (evaluation mode) and, in paddle's dialect, LeNet with batch norm.  Each trains three
SGD steps eagerly and compiled from the same initial weights; the weights and buffers after
each step must be equal, and the compiled model must have replayed (one trace, then
replays: no graph break)."""
from __future__ import annotations

import numpy as np
import pytest

import paddlelike as paddle
import torchlike as torch

F32 = np.float32


def _mlp():
    nn = torch.nn
    net = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))
    return net, (8, 1, 8, 8)


def _lenet():
    nn = torch.nn
    return nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.Sigmoid(), nn.AvgPool2d(2),
                         nn.Conv2d(4, 6, 3), nn.Sigmoid(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.Linear(6, 10)), (8, 1, 8, 8)


def _conv_bn_train():  # (running statistics updated in place: the replay does it too)
    nn = torch.nn
    return nn.Sequential(nn.Conv2d(1, 3, 3), nn.BatchNorm2d(3), nn.ReLU(), nn.Flatten(),
                         nn.Linear(108, 10)), (8, 1, 8, 8)


def _conv_bn_eval():
    nn = torch.nn
    net = nn.Sequential(nn.Conv2d(1, 3, 3), nn.BatchNorm2d(3), nn.ReLU(), nn.Flatten(),
                        nn.Linear(108, 10))
    net.eval()
    return net, (8, 1, 8, 8)


class _GruHead(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = torch.nn.GRU(5, 7, num_layers=2)
        self.out = torch.nn.Linear(7, 10)

    def forward(self, x):
        y, _ = self.rnn(x)
        return self.out(y[-1])


class _EncoderHead(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = torch.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.1)
        self.out = torch.nn.Linear(8, 10)

    def forward(self, x):
        return self.out(self.enc(x).mean(0))


def _gru():
    return _GruHead(), (6, 8, 5)


def _encoder():
    net = _EncoderHead()
    net.eval()
    return net, (6, 8, 8)


@pytest.mark.parametrize("build", [_mlp, _lenet, _conv_bn_train, _conv_bn_eval, _gru,
                                   _encoder],
                         ids=["mlp", "lenet", "conv_bn_train", "conv_bn_eval", "gru",
                              "encoder_eval"])
def test_torch_models_train_like_eager(build):
    torch.manual_seed(0)
    eager, shape = build()
    torch.manual_seed(0)
    net, _ = build()
    compiled = torch.compile(net)
    opts = [torch.optim.SGD(m.parameters(), lr=0.1) for m in (eager, net)]
    rng = np.random.default_rng(0)
    for _ in range(3):
        x = torch.tensor(rng.standard_normal(shape).astype(F32))
        y = torch.tensor(rng.integers(0, 10, 8))
        for model, opt in zip((eager, compiled), opts):
            opt.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
    for (k, p), q in zip(eager.state_dict().items(), net.state_dict().values()):
        np.testing.assert_array_equal(p.numpy(), q.numpy(), err_msg=k)
        assert p.version == q.version, k  # (buffers moved as often as eagerly)
    stats = compiled.forward.stats if hasattr(compiled.forward, "stats") else None
    assert stats is not None and stats["breaks"] == [] and stats["replays"] == 2, stats


def test_paddle_lenet_with_batch_norm_trains_like_eager():
    nn = paddle.nn

    def build():
        paddle.seed(0)
        return nn.Sequential(nn.Conv2D(1, 4, 3, padding=1), nn.BatchNorm2D(4), nn.Sigmoid(),
                             nn.AvgPool2D(2), nn.Conv2D(4, 6, 3), nn.Sigmoid(),
                             nn.MaxPool2D(2), nn.Flatten(), nn.Linear(6, 10))

    eager, net = build(), build()
    compiled = paddle.jit.to_static(net)
    opts = [paddle.optimizer.SGD(learning_rate=0.1, parameters=m.parameters())
            for m in (eager, net)]
    rng = np.random.default_rng(0)
    for _ in range(3):
        x = paddle.to_tensor(rng.standard_normal((8, 1, 8, 8)).astype(F32))
        y = paddle.to_tensor(rng.integers(0, 10, 8))
        for model, opt in zip((eager, compiled), opts):
            opt.clear_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
    for (k, p), q in zip(eager.state_dict().items(), net.state_dict().values()):
        np.testing.assert_array_equal(p.numpy(), q.numpy(), err_msg=k)
    stats = compiled.forward.stats
    assert stats["breaks"] == [] and stats["replays"] == 2, stats
