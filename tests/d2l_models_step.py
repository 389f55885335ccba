"""One training step of each model class of the D2L book's ``d2l`` package (1.0.3), driven
the book's way (``d2l.Trainer.fit`` over a ``d2l.DataModule``), for tests/test_d2l_models.py.

    python d2l_models_step.py MODE OUT D2L_DIR CASE[,CASE...]

Run twice with the same arguments but MODE: first under real torch (``torch``), which
saves each model's initial ``state_dict`` with ``torch.save``; then under
``python -m torchlike`` (``torchlike``), which loads that file into the same model before
training.  Each run trains one epoch of two identical synthetic batches (so the second
loss is the loss after one SGD step on the first) and writes, per case, an ``.npz`` of the
two losses, the gradients the optimizer stepped on first, and the ``state_dict`` after
training; or an ``.err`` with the traceback.  Each case then trains again in float64 from
the same (float32) initial state and batch (``MODE_f64_CASE.npz``): each run's float32
error, measured against it, bounds the comparison of the float32 results.  The classes
the package lacks but the book defines in its notebooks on top of the package (BNLeNet,
ResNet, LSTM) are written here as the book writes them.  Dropout is 0 everywhere so both
runs are deterministic.
"""
import os
import sys
import time
import traceback
import zlib

import numpy as np

MODE, OUT, D2L_DIR, CASES = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(",")
sys.path[:0] = [os.path.join(D2L_DIR, "stubs"), os.path.join(D2L_DIR, "src")]

try:
    import torchvision  # noqa: F401
except NotImplementedError:  # the runner serves torchvision, and the dialect has none yet
    import importlib.util
    _spec = importlib.util.spec_from_file_location(
        "torchvision", os.path.join(D2L_DIR, "stubs", "torchvision", "__init__.py"))
    sys.modules["torchvision"] = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(sys.modules["torchvision"])

import d2l.torch as d2l  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

assert torch.__name__ == ("torchlike" if MODE == "torchlike" else "torch"), torch.__name__
if MODE == "torch":
    torch.set_num_threads(1)  # the machine is shared; torchlike runs numpy at 1 thread

VOCAB, STEPS, BATCH, HIDDEN, CLASSES = 12, 6, 4, 16, 5


# ---- classes the book defines in its notebooks, as it defines them ----------------------
class BNLeNet(d2l.Classifier):
    """LeNet with batch normalisation (D2L 8.5)."""

    def __init__(self, lr=0.1, num_classes=10):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(
            nn.LazyConv2d(6, kernel_size=5), nn.LazyBatchNorm2d(),
            nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
            nn.LazyConv2d(16, kernel_size=5), nn.LazyBatchNorm2d(),
            nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
            nn.Flatten(), nn.LazyLinear(120), nn.LazyBatchNorm1d(),
            nn.Sigmoid(), nn.LazyLinear(84), nn.LazyBatchNorm1d(),
            nn.Sigmoid(), nn.LazyLinear(num_classes))


class ResNet(d2l.Classifier):
    """ResNet (D2L 8.6), over the package's ``d2l.Residual`` blocks."""

    def b1(self):
        return nn.Sequential(
            nn.LazyConv2d(64, kernel_size=7, stride=2, padding=3),
            nn.LazyBatchNorm2d(), nn.ReLU(),
            nn.MaxPool2d(kernel_size=3, stride=2, padding=1))


@d2l.add_to_class(ResNet)
def block(self, num_residuals, num_channels, first_block=False):
    blk = []
    for i in range(num_residuals):
        if i == 0 and not first_block:
            blk.append(d2l.Residual(num_channels, use_1x1conv=True, strides=2))
        else:
            blk.append(d2l.Residual(num_channels))
    return nn.Sequential(*blk)


@d2l.add_to_class(ResNet)
def __init__(self, arch, lr=0.1, num_classes=10):  # noqa: N807 - the book's idiom
    super(ResNet, self).__init__()
    self.save_hyperparameters()
    self.net = nn.Sequential(self.b1())
    for i, b in enumerate(arch):
        self.net.add_module(f'b{i+2}', self.block(*b, first_block=(i == 0)))
    self.net.add_module('last', nn.Sequential(
        nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(),
        nn.LazyLinear(num_classes)))
    self.net.apply(d2l.init_cnn)


class LSTM(d2l.RNN):
    """The concise LSTM (D2L 10.1)."""

    def __init__(self, num_inputs, num_hiddens):
        d2l.Module.__init__(self)
        self.save_hyperparameters()
        self.rnn = nn.LSTM(num_inputs, num_hiddens)

    def forward(self, inputs, H_C=None):
        return self.rnn(inputs, H_C)


class Net(d2l.Classifier):
    """A classifier over a package class that is a block, not a model: ``body`` maps the
    batch's inputs to features, a LazyLinear maps them to class scores per position."""

    def __init__(self, body, call, lr=0.1, num_classes=CLASSES, embed=False):
        super().__init__()
        self.save_hyperparameters(ignore=["body", "call"])
        self.body, self.call = body, call
        self.embedding = nn.Embedding(VOCAB, HIDDEN) if embed else None
        self.out = nn.LazyLinear(num_classes)

    def forward(self, X, *args):
        if self.embedding is not None:
            X = self.embedding(X)
        return self.out(self.call(self.body, X, *args))


class OneBatch(d2l.DataModule):
    """Synthetic data: the same batch twice, so the second step's loss is the loss after
    one update on the first."""

    def __init__(self, tensors):
        super().__init__()
        self.save_hyperparameters()
        self.batch_size = len(tensors[0])

    def get_dataloader(self, train):
        if not train:
            return None
        return [tuple(self.tensors)] * 2


# ---- the cases ---------------------------------------------------------------------------
def rng(name):
    return np.random.RandomState(zlib.crc32(name.encode()))


def images(name, c, h, w, n=BATCH):
    r = rng(name)
    return [torch.tensor(r.rand(n, c, h, w).astype(np.float32)),
            torch.tensor(r.randint(0, 10, n).astype(np.int64))]


def tokens(name, valid_lens=None, classes=VOCAB):
    """(X tokens (B, T)[, valid_lens], Y targets (B, T))."""
    r = rng(name)
    X = torch.tensor(r.randint(0, VOCAB, (BATCH, STEPS)).astype(np.int64))
    Y = torch.tensor(r.randint(0, classes, (BATCH, STEPS)).astype(np.int64))
    if valid_lens == 1:
        return [X, torch.tensor(r.randint(1, STEPS + 1, BATCH).astype(np.int64)), Y]
    if valid_lens == 2:
        return [X, torch.tensor(r.randint(1, STEPS + 1, (BATCH, STEPS)).astype(np.int64)), Y]
    return [X, Y]


def self_attention(body, X, valid_lens):
    return body(X, X, X, valid_lens)


def make(name):
    """(model, batch, Trainer kwargs, inputs for apply_init or None)."""
    clip = {"gradient_clip_val": 1}
    if name == "LeNet":
        data = images(name, 1, 28, 28)
        return d2l.LeNet(lr=0.1), data, {}, d2l.init_cnn
    if name == "BNLeNet":
        data = images(name, 1, 28, 28)
        return BNLeNet(lr=0.1), data, {}, d2l.init_cnn
    if name == "ResNet":  # the book's ResNet class on a small architecture
        data = images(name, 1, 32, 32)
        return ResNet(((1, 64), (1, 128)), lr=0.05), data, {}, None
    if name == "Residual":
        body = nn.Sequential(d2l.Residual(6, use_1x1conv=True), d2l.Residual(6),
                             d2l.Residual(8, use_1x1conv=True, strides=2),
                             nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten())
        return Net(body, lambda b, X: b(X), num_classes=10), images(name, 3, 8, 8), {}, None
    if name == "resnet18":  # the package's function (chapter 13), full width
        model = Net(d2l.resnet18(10, 1), lambda b, X: b(X), lr=0.01, num_classes=10)
        return model, images(name, 1, 16, 16), {}, None
    if name == "RNNLMScratch":
        rnn = d2l.RNNScratch(num_inputs=VOCAB, num_hiddens=HIDDEN)
        return d2l.RNNLMScratch(rnn, vocab_size=VOCAB, lr=1), tokens(name), clip, None
    if name == "RNNLM":
        rnn = d2l.RNN(num_inputs=VOCAB, num_hiddens=HIDDEN)
        return d2l.RNNLM(rnn, vocab_size=VOCAB, lr=1), tokens(name), clip, None
    if name == "GRU":  # two layers (D2L 10.3)
        gru = d2l.GRU(num_inputs=VOCAB, num_hiddens=HIDDEN, num_layers=2)
        return d2l.RNNLM(gru, vocab_size=VOCAB, lr=1), tokens(name), clip, None
    if name == "LSTM":
        lstm = LSTM(num_inputs=VOCAB, num_hiddens=HIDDEN)
        return d2l.RNNLM(lstm, vocab_size=VOCAB, lr=1), tokens(name), clip, None
    if name == "Seq2SeqEncoder":
        enc = d2l.Seq2SeqEncoder(VOCAB, embed_size=8, num_hiddens=HIDDEN, num_layers=2)
        model = Net(enc, lambda b, X: b(X)[0].swapaxes(0, 1), num_classes=CLASSES)
        return model, tokens(name, classes=CLASSES), clip, None
    if name == "DotProductAttention":
        model = Net(d2l.DotProductAttention(dropout=0), self_attention, embed=True)
        return model, tokens(name, valid_lens=1, classes=CLASSES), {}, None
    if name == "AdditiveAttention":
        model = Net(d2l.AdditiveAttention(num_hiddens=8, dropout=0), self_attention,
                    embed=True)
        return model, tokens(name, valid_lens=2, classes=CLASSES), {}, None
    if name == "MultiHeadAttention":
        model = Net(d2l.MultiHeadAttention(HIDDEN, num_heads=4, dropout=0), self_attention,
                    embed=True)
        return model, tokens(name, valid_lens=1, classes=CLASSES), {}, None
    if name == "PositionalEncoding":
        model = Net(d2l.PositionalEncoding(HIDDEN, dropout=0), lambda b, X: b(X), embed=True)
        return model, tokens(name, classes=CLASSES), {}, None
    if name == "PositionWiseFFN":
        model = Net(d2l.PositionWiseFFN(32, HIDDEN), lambda b, X: b(X), embed=True)
        return model, tokens(name, classes=CLASSES), {}, None
    if name == "AddNorm":
        model = Net(d2l.AddNorm(HIDDEN, dropout=0), lambda b, X: b(X, X.tanh()), embed=True)
        return model, tokens(name, classes=CLASSES), {}, None
    if name == "TransformerEncoderBlock":
        blk = d2l.TransformerEncoderBlock(HIDDEN, 32, num_heads=4, dropout=0)
        model = Net(blk, lambda b, X, v: b(X, v), embed=True)
        return model, tokens(name, valid_lens=1, classes=CLASSES), {}, None
    if name == "TransformerEncoder":
        enc = d2l.TransformerEncoder(VOCAB, HIDDEN, 32, num_heads=4, num_blks=2, dropout=0)
        model = Net(enc, lambda b, X, v: b(X, v))
        return model, tokens(name, valid_lens=1, classes=CLASSES), {}, None
    raise KeyError(name)


def arr(t):
    return t.detach().cpu().numpy().copy()


def widen(model):
    """What the book's classes compute in float32 whatever the default dtype, in float64
    for the wide run: RNNLMScratch's one-hots (exactly), PositionalEncoding's table (as
    the book computes it; in float32 it differs between the frameworks' sin and cos)."""
    if hasattr(model, "one_hot"):
        model.one_hot = lambda X, one_hot=model.one_hot: one_hot(X).double()
    for m in model.modules():
        if isinstance(m, d2l.PositionalEncoding):
            _, max_len, num_hiddens = m.P.shape
            X = torch.arange(max_len, dtype=torch.float64).reshape(-1, 1) / torch.pow(
                10000, torch.arange(0, num_hiddens, 2, dtype=torch.float64) / num_hiddens)
            m.P = torch.zeros((1, max_len, num_hiddens), dtype=torch.float64)
            m.P[:, :, 0::2] = torch.sin(X)
            m.P[:, :, 1::2] = torch.cos(X)


def run(name, wide=False):
    """One case; ``wide``: in float64 (the default dtype while it builds and trains, the
    float32 checkpoint and batch widened exactly)."""
    torch.manual_seed(0)
    model, batch, trainer_kw, init = make(name)
    model.board.display = False
    if wide:
        batch = [b.double() if b.is_floating_point() else b for b in batch]
        widen(model)
    # materialise the lazy layers (the book's apply_init); BatchNorm's statistics of this
    # forward are overwritten below by the loaded state (the one real torch's first saved)
    model.apply_init(batch[:-1], init)
    ckpt = os.path.join(OUT, f"{name}.pt")
    if MODE == "torch" and not wide:
        torch.save(model.state_dict(), ckpt)
    elif os.path.exists(ckpt):
        missing = model.load_state_dict(torch.load(ckpt))
        assert not missing.missing_keys and not missing.unexpected_keys, missing
    if wide:
        model.double()

    losses, grads = [], []
    training_step = model.training_step

    def recording_training_step(b):
        loss = training_step(b)
        losses.append(loss.item())
        return loss
    model.training_step = recording_training_step
    configure = model.configure_optimizers

    def recording_configure():
        optim = configure()
        step = optim.step

        def recording_step(*a, **k):
            grads.append({n: arr(p.grad) for n, p in model.named_parameters()
                          if p.grad is not None})
            return step(*a, **k)
        optim.step = recording_step
        return optim
    model.configure_optimizers = recording_configure

    d2l.Trainer(max_epochs=1, **trainer_kw).fit(model, OneBatch(batch))
    result = {"loss": np.array(losses)}
    result.update({f"grad|{k}": v for k, v in grads[0].items()})
    result.update({f"state|{k}": arr(v) for k, v in model.state_dict().items()})
    np.savez(os.path.join(OUT, f"{MODE}{'_f64' if wide else ''}_{name}.npz"), **result)


for case in CASES:
    for wide in (False, True):
        tag = f"{MODE}{'_f64' if wide else ''}"
        try:
            start = time.perf_counter()
            if wide:
                torch.set_default_dtype(torch.float64)
            run(case, wide)
            print(f"{case} ({tag}): {time.perf_counter() - start:.2f} s")
        except Exception:
            with open(os.path.join(OUT, f"{tag}_{case}.err"), "w") as f:
                f.write(traceback.format_exc())
        finally:
            torch.set_default_dtype(torch.float32)
print("done")
