"""The few "d2l" helpers these lessons use, written for paddle.

Data: scikit-learn's bundled handwritten digits (1,797 8x8 images, no download),
pixels scaled to [0, 1], split 80/20 with a fixed numpy seed.  Training shows a
tqdm bar per epoch with the running loss and accuracy; ``plot_curves`` writes
the loss/accuracy curves with matplotlib.
"""
import argparse

import numpy as np
import paddle
from tqdm import tqdm


def parse_args(description, epochs):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--plot", metavar="FILE.png", help="write the training curves here")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    return parser.parse_args()


def set_seed(seed):
    paddle.seed(seed)
    np.random.seed(seed)  # paddle.io.DataLoader shuffles with numpy's generator


def load_digits_arrays(test_fraction=0.2, seed=0):
    """(X_train, y_train, X_test, y_test) as numpy arrays (float32 pixels, int64 labels)."""
    from sklearn.datasets import load_digits
    digits = load_digits()
    X = (digits.data / 16.0).astype("float32")
    y = digits.target.astype("int64")
    order = np.random.RandomState(seed).permutation(len(X))
    n_test = int(len(X) * test_fraction)
    test, train = order[:n_test], order[n_test:]
    return X[train], y[train], X[test], y[test]


def load_array(data_arrays, batch_size, is_train=True):
    """A paddle DataLoader over tensors."""
    dataset = paddle.io.TensorDataset(data_arrays)
    return paddle.io.DataLoader(dataset, batch_size=batch_size, shuffle=is_train,
                                return_list=True)


def load_data_digits(batch_size, seed=0):
    X_train, y_train, X_test, y_test = load_digits_arrays(seed=seed)
    train = load_array([paddle.to_tensor(X_train), paddle.to_tensor(y_train)], batch_size)
    test = load_array([paddle.to_tensor(X_test), paddle.to_tensor(y_test)], batch_size,
                      is_train=False)
    return train, test


class Accumulator:
    """Sums over n variables."""

    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


def accuracy(y_hat, y):
    """The number of correct predictions."""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.astype(y.dtype) == y
    return float(cmp.astype(y.dtype).sum())


def evaluate_accuracy(net, data_iter):
    """Accuracy of ``net`` (a Layer or a function) on a dataset."""
    if isinstance(net, paddle.nn.Layer):
        net.eval()
    metric = Accumulator(2)
    with paddle.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]


def train_epoch_ch3(net, train_iter, loss, updater, desc="", quiet=False):
    """One epoch; returns (mean loss, accuracy) over the training set."""
    if isinstance(net, paddle.nn.Layer):
        net.train()
    metric = Accumulator(3)
    bar = tqdm(train_iter, desc=desc, disable=quiet, ncols=90)
    for X, y in bar:
        y_hat = net(X)
        l = loss(y_hat, y)
        if isinstance(updater, paddle.optimizer.Optimizer):
            updater.clear_grad()
            l.mean().backward()
            updater.step()
        else:
            l.sum().backward()
            updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
        bar.set_postfix(loss=f"{metric[0] / metric[2]:.4f}", acc=f"{metric[1] / metric[2]:.3f}",
                        refresh=False)
    return metric[0] / metric[2], metric[1] / metric[2]


def train_ch3(net, train_iter, test_iter, loss, num_epochs, updater, quiet=False):
    """Train and report per epoch; returns the history of (loss, train acc, test acc)."""
    history = []
    for epoch in range(num_epochs):
        train_loss, train_acc = train_epoch_ch3(net, train_iter, loss, updater,
                                                desc=f"epoch {epoch + 1}/{num_epochs}",
                                                quiet=quiet)
        test_acc = evaluate_accuracy(net, test_iter)
        history.append((train_loss, train_acc, test_acc))
        tqdm.write(f"epoch {epoch + 1}: loss {train_loss:.4f}, train acc {train_acc:.3f}, "
                   f"test acc {test_acc:.3f}")
    return history


def plot_curves(history, path, title, names=("loss", "train acc", "test acc")):
    """Loss/accuracy curves per epoch, written to ``path``."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    epochs = range(1, len(history) + 1)
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for i, name in enumerate(names):
        ax.plot(epochs, [h[i] for h in history], label=name)
    ax.set_xlabel("epoch")
    ax.set_title(title)
    ax.grid(True)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
