"""A small Transformer encoder (D2L 11.7 in paddle) reverses sequences of digits, token by token.

    python transformer_reverse.py [--epochs 10] [--train-size 4000] [--plot curves.png]

The data are made at run time: random sequences of digits 0-9 (fixed length); the target
at each position is the digit at the mirrored position. Every position is a 10-way
classification, so chance is 10% per-token accuracy; getting it right needs attention to
look at the other end of the sequence, which the positional encoding makes possible.
"""
import argparse
import math

import d2l_paddle as d2l
import numpy as np
import paddle
from paddle import nn


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--lr", type=float, default=0.003)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--train-size", type=int, default=4000)
    parser.add_argument("--test-size", type=int, default=500)
    parser.add_argument("--seq-len", type=int, default=8)
    parser.add_argument("--plot", metavar="FILE.png", help="write the training curves here")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    return parser.parse_args()


def reverse_data(n, seq_len, vocab_size=10, seed=0):
    """n random digit sequences and their reversals, as (int64 tokens, int64 targets)."""
    X = np.random.RandomState(seed).randint(0, vocab_size, size=(n, seq_len)).astype("int64")
    return [paddle.to_tensor(X), paddle.to_tensor(X[:, ::-1].copy())]


class PositionalEncoding(nn.Layer):
    """Positional encoding (D2L 11.6.3)."""

    def __init__(self, num_hiddens, dropout, max_len=1000):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        # Create a long enough P
        self.P = paddle.zeros((1, max_len, num_hiddens))
        X = paddle.arange(max_len, dtype=paddle.float32).reshape((-1, 1)) / paddle.pow(
            paddle.to_tensor([10000.0]),
            paddle.arange(0, num_hiddens, 2, dtype=paddle.float32) / num_hiddens)
        self.P[:, :, 0::2] = paddle.sin(X)
        self.P[:, :, 1::2] = paddle.cos(X)

    def forward(self, X):
        X = X + self.P[:, :X.shape[1], :]
        return self.dropout(X)


class TransformerTagger(nn.Layer):
    """Embedding, positional encoding, a Transformer encoder and a per-token linear head."""

    def __init__(self, vocab_size, num_hiddens, num_heads, num_layers, ffn_num_hiddens,
                 dropout=0.0):
        super().__init__()
        self.num_hiddens = num_hiddens
        self.embedding = nn.Embedding(vocab_size, num_hiddens)
        self.pos_encoding = PositionalEncoding(num_hiddens, dropout)
        layer = nn.TransformerEncoderLayer(num_hiddens, num_heads, ffn_num_hiddens, dropout)
        self.encoder = nn.TransformerEncoder(layer, num_layers)
        self.head = nn.Linear(num_hiddens, vocab_size)

    def forward(self, X):
        # Embeddings are scaled by sqrt(d) before the positional encoding is added (D2L 11.7);
        # paddle's Embedding starts XavierUniform, so scaled they match the encoding's size
        X = self.pos_encoding(self.embedding(X) * math.sqrt(self.num_hiddens))
        Y = self.head(self.encoder(X))  # (batch, steps, vocab)
        # Classes on axis 1, as the loss (axis=1) and the accuracy's argmax(axis=1) expect
        return Y.transpose([0, 2, 1])


args = parse_args()
d2l.set_seed(args.seed)
vocab_size = 10
train_iter = d2l.load_array(reverse_data(args.train_size, args.seq_len, vocab_size, args.seed),
                            args.batch_size)
test_iter = d2l.load_array(reverse_data(args.test_size, args.seq_len, vocab_size, args.seed + 1),
                           args.batch_size, is_train=False)

net = TransformerTagger(vocab_size, num_hiddens=32, num_heads=2, num_layers=2,
                        ffn_num_hiddens=64)
print(net)

loss = nn.CrossEntropyLoss(reduction="none", axis=1)  # one loss per token
trainer = paddle.optimizer.Adam(learning_rate=args.lr, parameters=net.parameters())

history = d2l.train_ch3(net, train_iter, test_iter, loss, args.epochs, trainer, quiet=args.quiet)
print(f"test acc {history[-1][2]:.4f}")
if args.plot:
    d2l.plot_curves(history, args.plot, "Transformer encoder, reversing digits")
