"""The few helpers the D2L lessons keep in their `d2l` package, for the digits examples.

Imported by the examples next to it; uses only the public torch API, so it runs on
real PyTorch and on janusgrad (`python -m torchlike example.py`) alike.
"""
import argparse

import numpy as np
import torch
from sklearn.datasets import load_digits
from tqdm import tqdm


def parse_args(description, epochs, lr, batch_size=32):
    """--epochs, --lr, --batch-size and --plot FILE.png, with each lesson's defaults."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--lr", type=float, default=lr)
    parser.add_argument("--batch-size", type=int, default=batch_size)
    parser.add_argument("--plot", metavar="FILE.png", help="write the training curves here")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


def digits_arrays(test_fraction=0.25, seed=0):
    """scikit-learn's 1,797 8x8 digits, pixels scaled to [0, 1], split once (fixed seed)."""
    digits = load_digits()
    X = (digits.images / 16.0).astype(np.float32)  # (n, 8, 8)
    y = digits.target.astype(np.int64)
    order = np.random.RandomState(seed).permutation(len(y))
    n_test = int(len(y) * test_fraction)
    test, train = order[:n_test], order[n_test:]
    return X[train], y[train], X[test], y[test]


def load_array(data_arrays, batch_size, is_train=True):
    """A PyTorch data iterator (d2l.load_array)."""
    dataset = torch.utils.data.TensorDataset(*data_arrays)
    return torch.utils.data.DataLoader(dataset, batch_size, shuffle=is_train)


def load_data_digits(batch_size):
    """Train and test iterators over the digits (the role of d2l.load_data_fashion_mnist)."""
    X_train, y_train, X_test, y_test = digits_arrays()
    train = (torch.tensor(X_train), torch.tensor(y_train))
    test = (torch.tensor(X_test), torch.tensor(y_test))
    return load_array(train, batch_size), load_array(test, batch_size, is_train=False)


class Accumulator:
    """For accumulating sums over n variables."""

    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


def accuracy(y_hat, y):
    """Compute the number of correct predictions."""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


def evaluate_accuracy(net, data_iter):
    """Compute the accuracy for a model on a dataset."""
    if isinstance(net, torch.nn.Module):
        net.eval()  # Set the model to evaluation mode
    metric = Accumulator(2)  # No. of correct predictions, no. of predictions
    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]


def train_epoch_ch3(net, train_iter, loss, updater, desc):
    """Train a model for one epoch, with a progress bar showing loss and accuracy."""
    if isinstance(net, torch.nn.Module):
        net.train()
    metric = Accumulator(3)  # Sum of training loss, sum of training accuracy, no. of examples
    bar = tqdm(train_iter, desc=desc, leave=False)
    for X, y in bar:
        y_hat = net(X)
        l = loss(y_hat, y)
        if isinstance(updater, torch.optim.Optimizer):
            updater.zero_grad()
            l.mean().backward()
            updater.step()
        else:
            l.sum().backward()
            updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
        bar.set_postfix(loss=f"{metric[0] / metric[2]:.3f}", acc=f"{metric[1] / metric[2]:.3f}")
    return metric[0] / metric[2], metric[1] / metric[2]


def train_ch3(net, train_iter, test_iter, loss, num_epochs, updater, scheduler=None):
    """Train a model; returns the per-epoch history (train loss, train acc, test acc).
    A learning-rate ``scheduler`` (if any) is stepped once per epoch."""
    history = {"train loss": [], "train acc": [], "test acc": []}
    for epoch in range(num_epochs):
        train_loss, train_acc = train_epoch_ch3(net, train_iter, loss, updater,
                                                f"epoch {epoch + 1}/{num_epochs}")
        if scheduler is not None:
            scheduler.step()
        test_acc = evaluate_accuracy(net, test_iter)
        history["train loss"].append(train_loss)
        history["train acc"].append(train_acc)
        history["test acc"].append(test_acc)
        tqdm.write(f"epoch {epoch + 1}: loss {train_loss:.3f}, train acc {train_acc:.3f}, "
                   f"test acc {test_acc:.3f}")
    print(f"loss {train_loss:.3f}, train acc {train_acc:.3f}, test acc {test_acc:.3f}")
    return history


def plot_history(history, path, title):
    """Write the per-epoch curves to an image file."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.5))
    epochs = range(1, len(next(iter(history.values()))) + 1)
    for name, values in history.items():
        ax.plot(epochs, values, label=name, marker="o" if len(values) < 30 else None)
    ax.set_xlabel("epoch")
    ax.set_title(title)
    ax.grid(True)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    print(f"curves written to {path}")
