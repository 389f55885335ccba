"""Workloads A-H and the MLP epoch, written once per API style.

``TorchStyle`` runs unchanged on real torch and on torchlike, ``PaddleStyle`` on real paddle
and on paddlelike (that the same code runs on both is the point of the project); ``NumpyStyle``
is the hand-written limit: the same arithmetic with the backward pass written out by hand.

Every workload is a class with ``run()`` (one timed iteration: forward and backward),
``grads()`` (numpy arrays to check against the numpy version) and, where the issue asks for it,
``run_nograd()`` (forward only, without recording).  Inputs come from a seeded numpy generator,
so every system sees the same numbers.

``compiled=True`` (A, C and the MLP epoch, for ``python -m benchmarks --compile``) runs the same
code through the framework's compiler, spelled as its users spell it: ``torch.compile`` or
``paddle.jit.to_static`` (``_FrameworkStyle.compile``).
"""
from __future__ import annotations

import numpy as np

F32 = np.float32
CHAIN_OPS = 10  # ops per chain block (A, B and the cost curve)
A_SIZE = 4  # elements of workload A's tensor
MLP_SIZES = (784, 256, 10)  # C
DEEP_LAYERS, DEEP_WIDTH, DEEP_BATCH = 20, 1024, 64  # E
SCALAR_MUL, SCALAR_ADD = 0.99999, 1e-5  # D: y*c, y+d, keeps y and its gradient of order one


def chain_input(n: int) -> np.ndarray:
    return np.random.default_rng(0).uniform(-1.0, 1.0, n).astype(F32)


def mlp_data(batch: int, sizes=MLP_SIZES):
    rng = np.random.default_rng(1)
    d_in, d_hid, d_out = sizes
    x = rng.standard_normal((batch, d_in)).astype(F32)
    labels = rng.integers(0, d_out, batch).astype(np.int64)
    w1 = (rng.standard_normal((d_in, d_hid)) / np.sqrt(d_in)).astype(F32)
    b1 = np.zeros(d_hid, F32)
    w2 = (rng.standard_normal((d_hid, d_out)) / np.sqrt(d_hid)).astype(F32)
    b2 = np.zeros(d_out, F32)
    return x, labels, [w1, b1, w2, b2]


def deep_data():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((DEEP_BATCH, DEEP_WIDTH)).astype(F32)
    ws = [(rng.standard_normal((DEEP_WIDTH, DEEP_WIDTH)) / np.sqrt(DEEP_WIDTH)).astype(F32)
          for _ in range(DEEP_LAYERS)]
    return x, ws


LR = 0.01


# ====================================================================== framework styles
class _FrameworkStyle:
    """What differs between torch and paddle spellings; the workloads below use only this."""

    device = None  # None: the framework's default; "cuda": torch's GPU (set by the worker)
    backend = None  # torch.compile's backend; None: its default (inductor)

    def __init__(self, module) -> None:
        self.m = module

    def sync(self) -> None:
        """Wait for the device: GPU kernels run asynchronously, a timing must include them."""


class TorchStyle(_FrameworkStyle):
    def param(self, a):
        return self.m.tensor(a, requires_grad=True, device=self.device)

    def const(self, a):
        return self.m.tensor(a, device=self.device)

    def numpy(self, t):
        return t.detach().cpu().numpy()

    def sync(self) -> None:
        if self.device is not None:
            self.m.cuda.synchronize()

    def clear(self, t) -> None:
        t.grad = None

    def no_grad(self):
        return self.m.no_grad()

    def relu(self, t):
        return self.m.relu(t)

    def log_softmax(self, t):
        return self.m.log_softmax(t, dim=1)

    def arange(self, n):
        return self.m.arange(n, device=self.device)

    def sgd(self, p) -> None:
        p.sub_(LR * p.grad)

    def grad(self, out, x, create_graph):
        return self.m.autograd.grad(out, x, create_graph=create_graph)[0]

    def compile(self, fn):
        return self.m.compile(fn) if self.backend is None else self.m.compile(
            fn, backend=self.backend)

    def optimizer(self, params, lr: float):
        return self.m.optim.SGD(params, lr=lr)

    def zero_grad(self, opt) -> None:
        opt.zero_grad()

    def argmax1(self, t):
        return t.argmax(dim=1)

    def set_linear(self, layer, w, b) -> None:
        """A Linear's parameters from ``w`` [in, out] (torch keeps [out, in]) and ``b``."""
        with self.m.no_grad():
            layer.weight.copy_(self.const(np.ascontiguousarray(w.T)))
            layer.bias.copy_(self.const(b))

    def get_linear(self, layer) -> list:
        return [self.numpy(layer.weight).T, self.numpy(layer.bias)]


class PaddleStyle(_FrameworkStyle):
    def param(self, a):
        return self.m.to_tensor(a, stop_gradient=False)

    def const(self, a):
        return self.m.to_tensor(a)

    def numpy(self, t):
        return t.detach().numpy()

    def clear(self, t) -> None:
        t.clear_gradient(False)

    def no_grad(self):
        return self.m.no_grad()

    def relu(self, t):
        return self.m.nn.functional.relu(t)

    def log_softmax(self, t):
        return self.m.nn.functional.log_softmax(t, axis=1)

    def arange(self, n):
        return self.m.arange(n)

    def sgd(self, p) -> None:
        p.subtract_(LR * p.grad)

    def grad(self, out, x, create_graph):
        return self.m.grad(out, x, create_graph=create_graph)[0]

    def compile(self, fn):
        return self.m.jit.to_static(fn)

    def optimizer(self, params, lr: float):
        return self.m.optimizer.SGD(learning_rate=lr, parameters=params)

    def zero_grad(self, opt) -> None:
        opt.clear_grad()

    def argmax1(self, t):
        return t.argmax(axis=1)

    def set_linear(self, layer, w, b) -> None:
        """A Linear's parameters from ``w`` [in, out] (paddle's own layout) and ``b``."""
        layer.weight.set_value(w)
        layer.bias.set_value(b)

    def get_linear(self, layer) -> list:
        return [self.numpy(layer.weight), self.numpy(layer.bias)]


def _block(m, y, x):
    """The ten elementwise ops of workload A, the same in torch and paddle spelling."""
    y = y * 0.9
    y = y + 0.1
    y = m.sin(y)
    y = y * x
    y = y - 0.2
    y = m.tanh(y)
    y = y * y
    y = y + x
    y = m.exp(y)
    y = y / 2.0
    return y


def chain_fn(m, blocks: int):
    """A's forward as a function of x (what ``--compile`` compiles)."""
    def forward(x):
        y = x
        for _ in range(blocks):
            y = _block(m, y, x)
        return y.sum()
    return forward


class Chain:
    """A, B, the cost curve: ``ops`` elementwise ops on ``size`` elements, then sum."""

    def __init__(self, style, size: int, ops: int = CHAIN_OPS, compiled: bool = False) -> None:
        self.s, self.m = style, style.m
        self.fn = chain_fn(self.m, ops // CHAIN_OPS)
        if compiled:
            self.fn = style.compile(self.fn)
        self.x = style.param(chain_input(size))

    def forward(self):
        return self.fn(self.x)

    def run(self) -> None:
        self.s.clear(self.x)
        self.forward().backward()

    def run_nograd(self) -> None:
        with self.s.no_grad():
            self.forward()

    def grads(self) -> list:
        self.run()
        return [self.s.numpy(self.x.grad)]


def mlp_loss_fn(style):
    """C's loss as a function of its inputs and parameters (what ``--compile`` compiles: C is
    written on bare tensors, and a function of them is what compiles it without a Module)."""
    m = style.m

    def loss(x, rows, labels, w1, b1, w2, b2):
        h = style.relu(m.matmul(x, w1) + b1)
        logp = style.log_softmax(m.matmul(h, w2) + b2)
        return -logp[rows, labels].mean()
    return loss


class Mlp:
    """C: one SGD step of a 784-256-10 relu MLP with a cross-entropy loss."""

    def __init__(self, style, batch: int = 256, sizes=MLP_SIZES, compiled: bool = False) -> None:
        self.s, self.m = style, style.m
        x, labels, params = mlp_data(batch, sizes)
        self.x, self.labels = style.const(x), style.const(labels)
        self.rows = style.arange(batch)
        self.params = [style.param(p) for p in params]
        self.loss_fn = mlp_loss_fn(style)
        if compiled:
            self.loss_fn = style.compile(self.loss_fn)

    def loss(self):
        return self.loss_fn(self.x, self.rows, self.labels, *self.params)

    def run(self) -> None:
        for p in self.params:
            self.s.clear(p)
        self.loss().backward()
        with self.s.no_grad():
            for p in self.params:
                self.s.sgd(p)

    def grads(self) -> list:
        for p in self.params:
            self.s.clear(p)
        self.loss().backward()
        return [self.s.numpy(p.grad) for p in self.params]


# ---------------------------------------------------------------- G: LeNet-5 (conv part)
def lenet_data(batch: int = 256):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((batch, 1, 28, 28)).astype(F32)
    labels = rng.integers(0, 10, batch).astype(np.int64)
    shapes = [(6, 1, 5, 5), (6,), (16, 6, 5, 5), (16,), (400, 120), (120,), (120, 84), (84,),
              (84, 10), (10,)]
    params = []
    for sh in shapes:
        fan_in = int(np.prod(sh[1:])) if len(sh) == 4 else sh[0]
        params.append((rng.uniform(-1, 1, sh) / np.sqrt(fan_in)).astype(F32)
                      if len(sh) > 1 else np.zeros(sh, F32))
    return x, labels, params


class LeNet:
    """G: one SGD step of D2L's LeNet-5 (sigmoid, 2x2 average pooling), batch 256."""

    def __init__(self, style, batch: int = 256) -> None:
        self.s, self.m = style, style.m
        x, labels, params = lenet_data(batch)
        self.x, self.labels = style.const(x), style.const(labels)
        self.rows = style.arange(batch)
        self.params = [style.param(p) for p in params]
        torch_like = isinstance(style, TorchStyle)
        self.F = self.m.nn.functional
        self.sig = self.m.sigmoid if torch_like else self.F.sigmoid
        self.pool_axes = {"dim": (3, 5)} if torch_like else {"axis": [3, 5]}

    def _pool(self, h):
        n, c, hh, ww = h.shape
        return h.reshape([n, c, hh // 2, 2, ww // 2, 2]).mean(**self.pool_axes)

    def loss(self):
        m, F, sig = self.m, self.F, self.sig
        w1, b1, w2, b2, w3, b3, w4, b4, w5, b5 = self.params
        h = self._pool(sig(F.conv2d(self.x, w1, b1, padding=2)))
        h = self._pool(sig(F.conv2d(h, w2, b2)))
        h = h.reshape([h.shape[0], 400])
        h = sig(m.matmul(h, w3) + b3)
        h = sig(m.matmul(h, w4) + b4)
        logp = self.s.log_softmax(m.matmul(h, w5) + b5)
        return -logp[self.rows, self.labels].mean()

    run = Mlp.run
    grads = Mlp.grads


class ScalarChain:
    """D: ``ops`` chained ops on a 0-d tensor (alternately y*c and y+d)."""

    def __init__(self, style, ops: int = 100_000) -> None:
        self.s = style
        self.pairs = ops // 2
        self.x = style.param(np.array(0.5, F32))

    def run(self) -> None:
        self.s.clear(self.x)
        y = self.x
        for _ in range(self.pairs):
            y = y * SCALAR_MUL
            y = y + SCALAR_ADD
        y.backward()

    def grads(self) -> list:
        self.run()
        return [self.s.numpy(self.x.grad)]


class Deep:
    """E: forward and backward of a 20-layer 1024-wide tanh MLP, batch 64."""

    def __init__(self, style) -> None:
        self.s, self.m = style, style.m
        x, ws = deep_data()
        self.x = style.const(x)
        self.ws = [style.param(w) for w in ws]

    def run(self) -> None:
        for w in self.ws:
            self.s.clear(w)
        h = self.x
        for w in self.ws:
            h = self.m.tanh(self.m.matmul(h, w))
        h.sum().backward()

    def drop(self) -> None:
        for w in self.ws:
            self.s.clear(w)

    def grads(self) -> list:
        self.run()
        return [self.s.numpy(w.grad) for w in self.ws]


class ThirdDerivative:
    """F: d^3/dx^3 of sum(sin(x)) through create_graph, 1000 elements."""

    def __init__(self, style, size: int = 1000) -> None:
        self.s, self.m = style, style.m
        self.x = style.param(chain_input(size))

    def run(self):
        s, x = self.s, self.x
        g1 = s.grad(self.m.sin(x).sum(), x, True)
        g2 = s.grad(g1.sum(), x, True)
        return s.grad(g2.sum(), x, False)

    def grads(self) -> list:
        return [self.s.numpy(self.run())]


# ====================================================================== H: LSTM language model
LSTM_VOCAB, LSTM_HIDDEN, LSTM_STEPS, LSTM_BATCH, LSTM_LAYERS = 28, 256, 35, 32, 2
LSTM_SMOKE = (28, 16, 5, 4, 2)  # the same shapes' kinds, small


def lstm_data(vocab, hidden, steps, batch, layers):
    """Tokens [batch, steps], targets [steps * batch] (time-major, as D2L flattens Y.T), and
    the parameters in torch's layout: per layer (W_ih [4H, I], W_hh [4H, H], b_ih, b_hh),
    then the head's W [V, H] and b [V]; uniform(-1/sqrt(H), 1/sqrt(H)) as both frameworks."""
    rng = np.random.default_rng(4)
    tokens = rng.integers(0, vocab, (batch, steps)).astype(np.int64)
    targets = rng.integers(0, vocab, (steps * batch,)).astype(np.int64)
    k = 1.0 / np.sqrt(hidden)

    def u(*shape):
        return rng.uniform(-k, k, shape).astype(F32)
    params = []
    for layer in range(layers):
        size_in = vocab if layer == 0 else hidden
        params += [u(4 * hidden, size_in), u(4 * hidden, hidden), u(4 * hidden), u(4 * hidden)]
    params += [u(vocab, hidden), u(vocab)]
    return tokens, targets, params


class LstmLM(Mlp):
    """H: one SGD step of D2L's concise LSTM language model: one-hot inputs, nn.LSTM (2 layers,
    hidden 256), a Linear head on the flattened outputs, cross-entropy, SGD."""

    def __init__(self, style, sizes) -> None:
        self.s, self.m = style, style.m
        vocab, hidden, _, _, layers = sizes
        self.vocab = vocab
        tokens, targets, params = lstm_data(*sizes)
        torch_like = isinstance(style, TorchStyle)
        nn = self.m.nn
        if torch_like:
            self.rnn = nn.LSTM(vocab, hidden, layers)
            self.head = nn.Linear(hidden, vocab)
            if style.device is not None:
                self.rnn.to(style.device)
                self.head.to(style.device)
        else:
            self.rnn = nn.LSTM(vocab, hidden, num_layers=layers, time_major=True)
            self.head = nn.Linear(hidden, vocab)
        names = [f"{w}_l{i}" for i in range(layers)
                 for w in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
        self.params = [getattr(self.rnn, n) for n in names] + [self.head.weight, self.head.bias]
        # paddle's Linear keeps W as [in, out]: the head's weight is set (and read) transposed
        self.transposed = None if torch_like else self.head.weight
        with style.no_grad():
            for p, a in zip(self.params, params):
                a = a.T if p is self.transposed else a
                if torch_like:
                    p.copy_(style.const(a))
                else:
                    p.set_value(a)
        self.tokens, self.targets = style.const(tokens), style.const(targets)

    def loss(self):
        m = self.m
        F = m.nn.functional
        if isinstance(self.s, TorchStyle):
            x = F.one_hot(self.tokens.T, self.vocab).to(m.float32)
        else:
            x = F.one_hot(self.tokens.T, self.vocab)
        y, _ = self.rnn(x)
        out = self.head(y.reshape((-1, y.shape[-1])))
        return F.cross_entropy(out, self.targets)

    def grads(self) -> list:
        return [g.T if p is self.transposed else g
                for p, g in zip(self.params, super().grads())]


# ====================================================================== the D2L MLP's epoch
EPOCH_EXAMPLES, EPOCH_SMOKE = 60_000, 600  # Fashion-MNIST's training set; smoke: 3 batches
EPOCH_BATCH, EPOCH_LR = 256, 0.1  # D2L's Fashion-MNIST settings
EPOCH_SIZES = (784, 256, 10)


def epoch_data(examples: int):
    """Fashion-MNIST-shaped synthetic data: images [N, 1, 28, 28] in [0, 1), labels from a
    fixed random linear teacher (learnable, so many epochs of training stay finite), and the
    MLP's parameters ([in, out] weights ~ N(0, 0.01) as D2L's init_weights, zero biases)."""
    rng = np.random.default_rng(5)
    d_in, d_hid, d_out = EPOCH_SIZES
    x = rng.random((examples, 1, 28, 28), dtype=F32)
    teacher = rng.standard_normal((d_in, d_out)).astype(F32)
    scores = x.reshape(examples, d_in) @ teacher - 0.5 * teacher.sum(axis=0)
    labels = scores.argmax(axis=1).astype(np.int64)
    params = [(rng.standard_normal((d_in, d_hid)) * 0.01).astype(F32), np.zeros(d_hid, F32),
              (rng.standard_normal((d_hid, d_out)) * 0.01).astype(F32), np.zeros(d_out, F32)]
    return x, labels, params


def epoch_checked(batches: list) -> list:
    """The steps whose result is checked against numpy: the first two batches and the ragged
    last one (over a whole epoch, rounding differences flip relu units and the parameters of
    every system, real torch too, drift about 1% from numpy's while the loss agrees)."""
    return batches[:2] + batches[-1:]


class MlpEpoch:
    """One training epoch of D2L's concise MLP (examples/*/mlp_concise.py) on Fashion-MNIST's
    shapes: nn.Sequential(Flatten, Linear(784, 256), ReLU, Linear(256, 10)),
    CrossEntropyLoss(reduction='none'), SGD at 0.1, batch 256 (the last one ragged), and
    train_epoch_ch3's per-batch metrics (the loss sum and the correct count, read as floats).
    The batches are tensors already (the data loader is not timed). ``compiled``: the net is
    ``torch.compile(net)`` / ``paddle.jit.to_static(net)``; the loss and the step stay eager,
    as in the example."""

    def __init__(self, style, examples: int, compiled: bool = False) -> None:
        self.s, self.m = style, style.m
        x, labels, params = epoch_data(examples)
        nn = self.m.nn
        net = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
        self.linears = (net[1], net[3])
        style.set_linear(net[1], *params[:2])
        style.set_linear(net[3], *params[2:])
        self.loss = nn.CrossEntropyLoss(reduction="none")
        self.trainer = style.optimizer(net.parameters(), EPOCH_LR)
        self.net = style.compile(net) if compiled else net
        self.batches = [(style.const(x[i:i + EPOCH_BATCH]), style.const(labels[i:i + EPOCH_BATCH]))
                        for i in range(0, examples, EPOCH_BATCH)]

    def run(self, batches=None) -> tuple:
        s = self.s
        loss_sum = correct = 0.0
        for x, y in self.batches if batches is None else batches:
            y_hat = self.net(x)
            l = self.loss(y_hat, y)  # noqa: E741 - D2L's name
            s.zero_grad(self.trainer)
            l.mean().backward()
            self.trainer.step()
            loss_sum += float(l.sum())
            correct += float((s.argmax1(y_hat) == y).sum())
        return loss_sum, correct

    def grads(self) -> list:
        """The parameters after the checked steps, and their loss sum."""
        loss_sum, _ = self.run(epoch_checked(self.batches))
        return [a for layer in self.linears for a in self.s.get_linear(layer)] + [
            np.array(loss_sum)]


# ====================================================================== numpy by hand
class NumpyStyle:
    """Marker style: the workloads below are the hand-written numpy limit."""

    m = np


class NpChain:
    def __init__(self, style, size: int, ops: int = CHAIN_OPS) -> None:
        self.blocks = ops // CHAIN_OPS
        self.x = chain_input(size)

    def run_nograd(self):
        x = self.x
        y = x
        for _ in range(self.blocks):
            y = np.exp(np.tanh(np.sin(y * 0.9 + 0.1) * x - 0.2) ** 2 + x) / 2.0
        return y.sum()

    def run(self):
        x = self.x
        y = x
        tape = []
        for _ in range(self.blocks):
            a = y * 0.9
            a += 0.1
            s = np.sin(a)
            t = s * x
            t -= 0.2
            t = np.tanh(t)
            e = t * t
            e += x
            e = np.exp(e)
            y = e / 2.0
            tape.append((a, s, t, e))
        y.sum()
        gx = np.zeros_like(x)
        g = np.full_like(x, 0.5)  # d sum / d y, through the last /2
        for i, (a, s, t, e) in enumerate(reversed(tape)):
            if i:
                g *= 0.5
            g *= e
            gx += g
            g *= t
            g *= 2.0
            g *= 1.0 - t * t
            gx += g * s
            g *= x
            g *= np.cos(a)
            g *= 0.9
        gx += g
        return gx

    def grads(self) -> list:
        return [self.run()]


def np_mlp_grads(x, rows, labels, params, metrics: list | None = None) -> list:
    """The relu MLP's gradients of -mean(log_softmax(...)[rows, labels]); with ``metrics``,
    the batch's loss sum and correct count are added into metrics[0] and metrics[1]."""
    w1, b1, w2, b2 = params
    z = x @ w1
    z += b1
    h = np.maximum(z, 0.0)
    o = h @ w2
    o += b2
    if metrics is not None:
        metrics[1] += float((o.argmax(axis=1) == labels).sum())
    o -= o.max(axis=1, keepdims=True)
    p = np.exp(o)
    total = p.sum(axis=1, keepdims=True)
    if metrics is not None:
        metrics[0] += float((np.log(total[:, 0]) - o[rows, labels]).sum())
    p /= total
    # loss = -mean(log p[rows, labels]); its gradient wrt o is (p - onehot) / batch
    p[rows, labels] -= 1.0
    p /= len(labels)
    gw2 = h.T @ p
    gb2 = p.sum(axis=0)
    gh = p @ w2.T
    gh *= z > 0
    gw1 = x.T @ gh
    gb1 = gh.sum(axis=0)
    return [gw1, gb1, gw2, gb2]


def np_sgd(params, grads, lr: float) -> None:
    for p, g in zip(params, grads):
        g *= lr
        p -= g


class NpMlp:
    def __init__(self, style, batch: int = 256, sizes=MLP_SIZES) -> None:
        self.x, self.labels, self.params = mlp_data(batch, sizes)
        self.rows = np.arange(batch)

    def step_grads(self):
        return np_mlp_grads(self.x, self.rows, self.labels, self.params)

    def run(self) -> None:
        np_sgd(self.params, self.step_grads(), LR)

    def grads(self) -> list:
        return self.step_grads()


_SCRATCH: dict = {}


def _scratch(name: str, shape, zero: bool = False):
    """A buffer kept between steps (a hand-written step can reuse its memory: freshly
    allocated large arrays cost this machine thousands of page faults a step)."""
    a = _SCRATCH.get(name)
    if a is None or a.shape != shape:
        a = _SCRATCH[name] = np.zeros(shape, F32)
    elif zero:
        a[...] = 0.0
    return a


def _np_im2col(x, k: int, pad: int, name: str):
    """x (N, C, H, W) -> columns (N, C*k*k, L*L), stride 1: one copy of a strided view."""
    from numpy.lib.stride_tricks import as_strided
    n, c, h, _ = x.shape
    if pad:
        xp = _scratch(name + "pad", (n, c, h + 2 * pad, h + 2 * pad))  # (border stays 0)
        xp[:, :, pad:pad + h, pad:pad + h] = x
        x, h = xp, h + 2 * pad
    out = h - k + 1
    s = x.strides
    cols = _scratch(name, (n, c, k, k, out, out))
    cols[...] = as_strided(x, cols.shape, s[:2] + s[2:] + s[2:])
    return cols.reshape(n, c * k * k, out * out)


def _np_conv(x, w, b, pad, name):
    """y = w * x + b by im2col and one batched product."""
    n, o, k = x.shape[0], w.shape[0], w.shape[2]
    cols = _np_im2col(x, k, pad, name)
    y = np.matmul(w.reshape(o, -1), cols)
    y += b[:, None]
    side = int(round(cols.shape[2] ** 0.5))
    return y.reshape(n, o, side, side)


def _np_sigmoid_(z):
    """sigmoid in place."""
    np.negative(z, out=z)
    np.exp(z, out=z)
    z += 1.0
    return np.reciprocal(z, out=z)


def _np_pool(s):
    """2x2 average pooling, stride 2."""
    p = s[:, :, ::2, ::2] + s[:, :, 1::2, ::2]
    p += s[:, :, ::2, 1::2]
    p += s[:, :, 1::2, 1::2]
    p *= 0.25
    return p


def _np_unpool_sig(g, s):
    """The gradient through the pooling (each input gets a quarter) and the sigmoid
    (times s * (1 - s)) that made ``s``."""
    out = np.empty(s.shape, F32)
    g = g * 0.25
    for i in (0, 1):
        for j in (0, 1):
            out[:, :, i::2, j::2] = g
    t = 1.0 - s
    t *= s
    out *= t
    return out


def _np_conv_grads(g, x, w, pad, name):
    """The gradients of w and b from the output gradient g (N, O, L, L) and the input x,
    whose columns are made again (as the engine does: faster here than keeping the
    forward's, see RESULTS.md)."""
    n, o = g.shape[:2]
    cols = _np_im2col(x, w.shape[2], pad, name)
    gm = g.reshape(n, o, -1)
    gw = np.matmul(cols, gm.transpose(0, 2, 1)).sum(axis=0).T.reshape(w.shape)
    return gw, gm.sum(axis=(0, 2))


def _np_conv_input_grad(g, w, side: int):
    """The gradient of the (unpadded) input: w^T times g (one product per output row),
    batch innermost, col2im."""
    n, o, out = g.shape[0], g.shape[1], g.shape[2]
    c, k = w.shape[1], w.shape[2]
    gt = np.moveaxis(g, 0, -1).reshape(o, out, out * n).transpose(1, 0, 2)
    cols = np.matmul(w.reshape(o, -1).T, gt).reshape(out, c, k * k, out, n)
    buf = _scratch("col2im", (c, side, side, n), zero=True)
    for i in range(k):
        for j in range(k):
            buf[:, i:i + out, j:j + out] += cols[:, :, i * k + j].swapaxes(0, 1)
    return np.ascontiguousarray(np.moveaxis(buf, -1, 0))


class NpLeNet:
    """G by hand: the same im2col + GEMM convolutions as the engine's, no autograd."""

    def __init__(self, style, batch: int = 256) -> None:
        self.x, self.labels, self.params = lenet_data(batch)
        self.rows = np.arange(batch)

    def step_grads(self):
        w1, b1, w2, b2, w3, b3, w4, b4, w5, b5 = self.params
        n = len(self.labels)
        z1 = _np_conv(self.x, w1, b1, 2, "cols1")
        s1 = _np_sigmoid_(z1)
        p1 = _np_pool(s1)
        z2 = _np_conv(p1, w2, b2, 0, "cols2")
        s2 = _np_sigmoid_(z2)
        p2 = _np_pool(s2).reshape(n, 400)
        z3 = p2 @ w3
        z3 += b3
        s3 = _np_sigmoid_(z3)
        z4 = s3 @ w4
        z4 += b4
        s4 = _np_sigmoid_(z4)
        o = s4 @ w5
        o += b5
        o -= o.max(axis=1, keepdims=True)
        p = np.exp(o)
        p /= p.sum(axis=1, keepdims=True)
        p[self.rows, self.labels] -= 1.0
        p /= n
        gw5, gb5 = s4.T @ p, p.sum(axis=0)
        g = p @ w5.T
        g *= s4 * (1 - s4)
        gw4, gb4 = s3.T @ g, g.sum(axis=0)
        g = g @ w4.T
        g *= s3 * (1 - s3)
        gw3, gb3 = p2.T @ g, g.sum(axis=0)
        g = _np_unpool_sig((g @ w3.T).reshape(n, 16, 5, 5), s2)
        gw2, gb2 = _np_conv_grads(g, p1, w2, 0, "cols2")
        g = _np_unpool_sig(_np_conv_input_grad(g, w2, 14), s1)
        gw1, gb1 = _np_conv_grads(g, self.x, w1, 2, "cols1")
        return [gw1, gb1, gw2, gb2, gw3, gb3, gw4, gb4, gw5, gb5]

    run = NpMlp.run
    grads = NpMlp.grads


class NpMlpEpoch:
    """The MLP epoch by hand: np_mlp_grads and SGD per batch, with the same metrics."""

    def __init__(self, style, examples: int) -> None:
        x, self.labels, self.params = epoch_data(examples)
        self.x = x.reshape(examples, -1)

        self.batches = [(self.x[i:i + EPOCH_BATCH], self.labels[i:i + EPOCH_BATCH])
                        for i in range(0, examples, EPOCH_BATCH)]

    def run(self, batches=None) -> tuple:
        metrics = [0.0, 0.0]
        for x, y in self.batches if batches is None else batches:
            np_sgd(self.params, np_mlp_grads(x, np.arange(len(y)), y, self.params, metrics),
                   EPOCH_LR)
        return tuple(metrics)

    def grads(self) -> list:
        loss_sum, _ = self.run(epoch_checked(self.batches))
        return [p.copy() for p in self.params] + [np.array(loss_sum)]


class NpScalarChain:
    def __init__(self, style, ops: int = 100_000) -> None:
        self.pairs = ops // 2
        self.x = np.float32(0.5)

    def run(self):
        c, d = F32(SCALAR_MUL), F32(SCALAR_ADD)
        y = self.x
        for _ in range(self.pairs):  # forward (the values are not needed by the backward)
            y = y * c
            y = y + d
        g = F32(1.0)
        for _ in range(self.pairs):
            g = g * c
        return g

    def grads(self) -> list:
        return [np.asarray(self.run())]


class NpDeep:
    def __init__(self, style) -> None:
        self.x, self.ws = deep_data()
        self.gws = None

    def run(self) -> None:
        self.gws = None
        hs = [self.x]
        for w in self.ws:
            hs.append(np.tanh(hs[-1] @ w))
        g = np.ones_like(hs[-1])
        gws = [None] * len(self.ws)
        for i in range(len(self.ws) - 1, -1, -1):
            h = hs.pop()
            g *= 1.0 - h * h
            del h
            gws[i] = hs[-1].T @ g
            g = g @ self.ws[i].T
        self.gws = gws

    def drop(self) -> None:
        self.gws = None

    def grads(self) -> list:
        self.run()
        return list(self.gws)


class NpThirdDerivative:
    def __init__(self, style, size: int = 1000) -> None:
        self.x = chain_input(size)

    def run(self):
        return -np.cos(self.x)

    def grads(self) -> list:
        return [self.run()]


class NpLstmLM(NpMlp):
    """H by hand: the same step in numpy, forward and back-propagation through time written
    out, as fast as numpy allows: the gate activations gate-major ([4, B, H] per step, so every
    elementwise op runs on contiguous memory), the three sigmoids and the tanh as ONE tanh over
    the block (sigmoid(z) = 0.5 tanh(z / 2) + 0.5), out= buffers, one matrix product per step
    each way, and dW_hh, dW_ih, dx as one product each over the whole sequence."""

    def __init__(self, style, sizes) -> None:
        vocab, hidden, steps, batch, layers = sizes
        self.sizes = sizes
        tokens, self.targets, self.params = lstm_data(*sizes)
        self.onehot = np.zeros((steps * batch, vocab), F32)
        self.onehot[np.arange(steps * batch), tokens.T.reshape(-1)] = 1.0
        self.rows = np.arange(steps * batch)

    @staticmethod
    def layer_forward(x, w_ih, w_hh, b, steps):
        """x [T*B, I] -> (hs [T+1, B, H] with hs[0] = 0, acts [T, 4, B, H], cs, tcs)."""
        n = w_hh.shape[1]
        batch = x.shape[0] // steps
        half = np.array([0.5, 0.5, 1.0, 0.5], F32).reshape(4, 1, 1)
        shift = np.array([0.5, 0.5, 0.0, 0.5], F32).reshape(4, 1, 1)
        # the i, f, o pre-activations halved once, in the weights and the input projection
        xw = (x @ w_ih.T).reshape(steps, batch, 4, n)
        xw += b.reshape(4, n)
        xw *= half.reshape(4, 1)
        wg = w_hh.reshape(4, n, n).transpose(0, 2, 1) * half
        acts = np.empty((steps, 4, batch, n), F32)
        hs = np.zeros((steps + 1, batch, n), F32)
        cs = np.zeros((steps + 1, batch, n), F32)
        tcs = np.empty((steps, batch, n), F32)
        tmp = np.empty((batch, n), F32)
        for t in range(steps):
            a = acts[t]
            np.matmul(hs[t], wg, out=a)
            a += xw[t].transpose(1, 0, 2)
            np.tanh(a, out=a)
            a *= half
            a += shift
            c = cs[t + 1]
            np.multiply(a[1], cs[t], out=c)
            np.multiply(a[0], a[2], out=tmp)
            c += tmp
            np.tanh(c, out=tcs[t])
            np.multiply(a[3], tcs[t], out=hs[t + 1])
        return hs, acts, cs, tcs

    @staticmethod
    def layer_backward(x, w_ih, w_hh, cache, g_h, need_dx):
        """g_h [T, B, H]: (dW_ih, dW_hh, db, dx [T*B, I])."""
        hs, acts, cs, tcs = cache
        steps, batch, n = g_h.shape
        dz = np.empty((steps, batch, 4 * n), F32)
        dh = np.zeros((batch, n), F32)
        dc = np.zeros((batch, n), F32)
        up = np.empty((4, batch, n), F32)  # what multiplies each gate's derivative
        slope = np.empty((4, batch, n), F32)  # each activation's derivative
        u = np.empty((batch, n), F32)
        for t in range(steps - 1, -1, -1):
            a = acts[t]
            i, f, g, o = a
            tc = tcs[t]
            np.subtract(1.0, a, out=slope)  # s (1 - s) for i, f, o; 1 - g^2 for g
            slope *= a
            np.multiply(g, g, out=slope[2])
            np.subtract(1.0, slope[2], out=slope[2])
            dh += g_h[t]
            np.multiply(tc, tc, out=u)  # dc += dh o (1 - tanh(c)^2)
            np.subtract(1.0, u, out=u)
            u *= o
            u *= dh
            dc += u
            np.multiply(dc, g, out=up[0])
            np.multiply(dc, cs[t], out=up[1])
            np.multiply(dc, i, out=up[2])
            np.multiply(dh, tc, out=up[3])
            up *= slope
            dc *= f
            zt = dz[t]
            zt.reshape(batch, 4, n)[...] = up.transpose(1, 0, 2)
            np.matmul(zt, w_hh, out=dh)
        flat = dz.reshape(steps * batch, 4 * n)
        gw_hh = flat.T @ hs[:-1].reshape(steps * batch, n)
        gw_ih = flat.T @ x
        gb = flat.sum(0)
        dx = flat @ w_ih if need_dx else None
        return gw_ih, gw_hh, gb, dx

    def step_grads(self) -> list:
        vocab, hidden, steps, batch, layers = self.sizes
        ps = self.params
        x = self.onehot
        caches = []
        for layer in range(layers):
            w_ih, w_hh, b_ih, b_hh = ps[4 * layer:4 * layer + 4]
            cache = self.layer_forward(x, w_ih, w_hh, b_ih + b_hh, steps)
            caches.append((x, cache))
            x = cache[0][1:].reshape(steps * batch, hidden)
        w_o, b_o = ps[-2:]
        flat = x
        o = flat @ w_o.T
        o += b_o
        o -= o.max(axis=1, keepdims=True)
        p = np.exp(o)
        p /= p.sum(axis=1, keepdims=True)
        p[self.rows, self.targets] -= 1.0
        p /= steps * batch
        grads = [p.T @ flat, p.sum(0)]
        g_h = p @ w_o
        for layer in range(layers - 1, -1, -1):
            w_ih, w_hh = ps[4 * layer:4 * layer + 2]
            xin, cache = caches[layer]
            gw_ih, gw_hh, gb, g_h = self.layer_backward(
                xin, w_ih, w_hh, cache, g_h.reshape(steps, batch, hidden), layer > 0)
            grads = [gw_ih, gw_hh, gb, gb.copy()] + grads
        return grads

# ====================================================================== the table
COMPILED = ("A", "C", "mlp_epoch")  # the workloads with a compiled variant


def build(style, name: str, smoke: bool = False, compiled: bool = False):
    """Workload ``name`` (A, A_nograd, B, C, D, E, F, G, H, mlp_epoch, curve<N>, loop) for
    ``style``; ``compiled``: its compiled variant (A, C, mlp_epoch; the numpy limit has none)."""
    numpy = isinstance(style, NumpyStyle)
    if compiled and name not in COMPILED:
        raise ValueError(f"workload {name!r} has no compiled variant")
    kw = {"compiled": True} if compiled and not numpy else {}
    if name in ("A", "A_nograd"):
        return (NpChain if numpy else Chain)(style, A_SIZE, **kw)
    if name == "B":
        return (NpChain if numpy else Chain)(style, 40_000 if smoke else 4_000_000)
    if name.startswith("curve"):
        return (NpChain if numpy else Chain)(style, A_SIZE, int(name[5:]))
    if name == "C":
        return (NpMlp if numpy else Mlp)(style, 256, **kw)
    if name == "mlp_epoch":
        return (NpMlpEpoch if numpy else MlpEpoch)(style, EPOCH_SMOKE if smoke else
                                                   EPOCH_EXAMPLES, **kw)
    if name == "loop":  # the small model whose memory must stay flat over 10,000 steps
        return (NpMlp if numpy else Mlp)(style, 16, (64, 32, 10))
    if name == "D":
        return (NpScalarChain if numpy else ScalarChain)(style, 1_000 if smoke else 100_000)
    if name == "E":
        return (NpDeep if numpy else Deep)(style)
    if name == "F":
        return (NpThirdDerivative if numpy else ThirdDerivative)(style)
    if name == "G":
        return (NpLeNet if numpy else LeNet)(style, 16 if smoke else 256)
    if name == "H":
        sizes = LSTM_SMOKE if smoke else (LSTM_VOCAB, LSTM_HIDDEN, LSTM_STEPS, LSTM_BATCH,
                                          LSTM_LAYERS)
        return (NpLstmLM if numpy else LstmLM)(style, sizes)
    raise ValueError(f"unknown workload {name!r}")
