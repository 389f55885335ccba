"""Character-level GRU language model (D2L 10.2, concise, in paddle) on text this script
builds at run time from the docstrings of Python's standard library (lower-cased, letters
and spaces): random-offset minibatches of 35 characters, one-hot inputs, Adam with gradient
clipping (ClipGradByGlobalNorm); reports perplexity on the training text and on a held-out
tenth, and samples a continuation.

    python char_gru.py [--epochs 20] [--lr 0.01] [--batch-size 32] [--hiddens 256]
                       [--chars 60000] [--plot curves.png]
"""
import argparse
import importlib
import inspect
import math
import random
import re

import paddle
from paddle import nn
from paddle.nn import functional as F
from tqdm import tqdm

MODULES = ["argparse", "ast", "bisect", "calendar", "collections", "contextlib", "csv",
           "dataclasses", "datetime", "decimal", "difflib", "email", "enum", "fractions",
           "functools", "heapq", "inspect", "io", "itertools", "json", "logging", "os",
           "pathlib", "pickle", "queue", "random", "re", "shutil", "socket", "statistics",
           "string", "subprocess", "tarfile", "textwrap", "threading", "typing", "unittest",
           "urllib.parse", "zipfile"]


def stdlib_text(max_chars):
    """The docstrings of MODULES and of their public classes and functions, as one string of
    lower-case letters and single spaces."""
    pieces, seen = [], set()
    for name in MODULES:
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        objs = [mod] + [getattr(mod, a, None) for a in sorted(dir(mod)) if not a.startswith("_")]
        for obj in objs:
            if not (inspect.ismodule(obj) or inspect.isclass(obj) or inspect.isroutine(obj)):
                continue
            doc = inspect.getdoc(obj)
            if doc and doc not in seen:
                seen.add(doc)
                pieces.append(doc)
    text = re.sub("[^a-z]+", " ", " ".join(pieces).lower())
    if len(text) < 1000:
        raise SystemExit("too little docstring text (is Python running with -OO?)")
    return text[:max_chars]


class Vocab:
    """Characters <-> indices (D2L's Vocab, for a character corpus)."""

    def __init__(self, text):
        self.idx_to_token = sorted(set(text))
        self.token_to_idx = {t: i for i, t in enumerate(self.idx_to_token)}

    def __len__(self):
        return len(self.idx_to_token)

    def __getitem__(self, tokens):
        return [self.token_to_idx[t] for t in tokens]

    def to_tokens(self, indices):
        return "".join(self.idx_to_token[int(i)] for i in indices)


def seq_data_iter_random(corpus, batch_size, num_steps):
    """Minibatches of subsequences from a random offset (D2L 9.3)."""
    corpus = corpus[random.randint(0, num_steps - 1):]
    num_subseqs = (len(corpus) - 1) // num_steps
    initial_indices = list(range(0, num_subseqs * num_steps, num_steps))
    random.shuffle(initial_indices)
    for i in range(0, batch_size * (num_subseqs // batch_size), batch_size):
        starts = initial_indices[i:i + batch_size]
        X = [corpus[j:j + num_steps] for j in starts]
        Y = [corpus[j + 1:j + 1 + num_steps] for j in starts]
        yield paddle.to_tensor(X), paddle.to_tensor(Y)


class RNNModel(nn.Layer):
    """A recurrent layer, then a linear output layer over the vocabulary (D2L 9.6)."""

    def __init__(self, rnn_layer, vocab_size):
        super().__init__()
        self.rnn = rnn_layer
        self.vocab_size = vocab_size
        self.num_hiddens = self.rnn.hidden_size
        self.linear = nn.Linear(self.num_hiddens, self.vocab_size)

    def forward(self, inputs, state):
        X = F.one_hot(inputs.T, self.vocab_size)  # time major: (num_steps, batch, vocab)
        Y, state = self.rnn(X, state)
        output = self.linear(Y.reshape((-1, Y.shape[-1])))
        return output, state

    def begin_state(self, batch_size=1):
        return paddle.zeros(shape=[self.rnn.num_layers, batch_size, self.num_hiddens])


def predict(prefix, num_preds, net, vocab):
    """Greedy continuation of ``prefix`` (D2L's predict_ch8)."""
    state = net.begin_state(batch_size=1)
    outputs = vocab[prefix[0]]

    def get_input():
        return paddle.to_tensor([outputs[-1]]).reshape((1, 1))
    for y in prefix[1:]:  # warm-up period
        _, state = net(get_input(), state)
        outputs.append(vocab[y][0])
    for _ in range(num_preds):
        y, state = net(get_input(), state)
        outputs.append(int(y.argmax(axis=1).item()))
    return vocab.to_tokens(outputs)


def perplexity(net, corpus, num_steps, batch_size):
    """exp(mean cross-entropy) over consecutive windows of ``corpus`` (no training)."""
    loss, n = 0.0, 0
    batch_size = max(1, min(batch_size, (len(corpus) - num_steps) // num_steps))
    with paddle.no_grad():
        for X, Y in seq_data_iter_random(corpus, batch_size, num_steps):
            y_hat, _ = net(X, net.begin_state(batch_size=X.shape[0]))
            y = Y.T.reshape([-1])
            loss += float(F.cross_entropy(y_hat, y, reduction="sum"))
            n += y.shape[0]
    return math.exp(loss / n)


def train_epoch(net, corpus, loss, updater, batch_size, num_steps, desc):
    """One pass over random minibatches; returns the training perplexity."""
    net.train()
    total, n = 0.0, 0
    batches = list(seq_data_iter_random(corpus, batch_size, num_steps))
    bar = tqdm(batches, desc=desc, leave=False)
    for X, Y in bar:
        state = net.begin_state(batch_size=X.shape[0])  # random sampling: a fresh state
        y = Y.T.reshape([-1])
        y_hat, state = net(X, state)
        l = loss(y_hat, y).mean()
        updater.clear_grad()
        l.backward()
        updater.step()  # clips the gradients' global norm to 1 first
        total += float(l) * y.shape[0]
        n += y.shape[0]
        bar.set_postfix(ppl=f"{math.exp(total / n):.2f}")
    return math.exp(total / n)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--hiddens", type=int, default=256)
    parser.add_argument("--chars", type=int, default=60000)
    parser.add_argument("--plot", metavar="FILE.png", help="write the perplexity curves here")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    paddle.seed(args.seed)
    random.seed(args.seed)

    text = stdlib_text(args.chars)
    vocab = Vocab(text)
    split = len(text) * 9 // 10
    train_corpus, held_out = vocab[text[:split]], vocab[text[split:]]
    print(f"{len(text)} characters of docstrings, vocabulary of {len(vocab)}: "
          f"{''.join(vocab.idx_to_token)!r}")

    num_steps = 35
    gru_layer = nn.GRU(len(vocab), args.hiddens, time_major=True)
    net = RNNModel(gru_layer, len(vocab))
    print(net)
    loss = nn.CrossEntropyLoss(reduction="none")
    updater = paddle.optimizer.Adam(learning_rate=args.lr, parameters=net.parameters(),
                                    grad_clip=nn.ClipGradByGlobalNorm(1.0))
    history = {"train perplexity": [], "held-out perplexity": []}
    for epoch in range(args.epochs):
        ppl = train_epoch(net, train_corpus, loss, updater, args.batch_size, num_steps,
                          f"epoch {epoch + 1}/{args.epochs}")
        net.eval()
        val = perplexity(net, held_out, num_steps, args.batch_size)
        history["train perplexity"].append(ppl)
        history["held-out perplexity"].append(val)
        tqdm.write(f"epoch {epoch + 1}: perplexity {ppl:.2f}, held-out perplexity {val:.2f}")
    print(f"perplexity {ppl:.2f}, held-out perplexity {val:.2f}")
    print(predict("return the ", 50, net, vocab))
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(5, 3.5))
        for name, values in history.items():
            ax.plot(range(1, len(values) + 1), values, label=name)
        ax.set_xlabel("epoch")
        ax.set_ylabel("perplexity")
        ax.set_title("character GRU on stdlib docstrings")
        ax.grid(True)
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot)
        plt.close(fig)
        print(f"curves written to {args.plot}")


if __name__ == "__main__":
    main()
