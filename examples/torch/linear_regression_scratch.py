"""Linear regression from scratch (D2L 3.2), on synthetic data.

    python linear_regression_scratch.py [--epochs 3] [--lr 0.03] [--plot curves.png]
"""
import random

import torch
from d2l_lite import parse_args, plot_history
from tqdm import tqdm


def synthetic_data(w, b, num_examples):
    """Generate y = Xw + b + noise."""
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    # The examples are read at random, in no particular order
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]


def linreg(X, w, b):
    """The linear regression model."""
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    """Squared loss."""
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):
    """Minibatch stochastic gradient descent."""
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


def main():
    args = parse_args(__doc__.splitlines()[0], epochs=3, lr=0.03, batch_size=10)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    true_w = torch.tensor([2, -3.4])
    true_b = 4.2
    features, labels = synthetic_data(true_w, true_b, 1000)
    print('features:', features[0], '\nlabel:', labels[0])

    w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    net, loss = linreg, squared_loss
    history = {"train loss": []}
    for epoch in range(args.epochs):
        total, count = 0.0, 0
        bar = tqdm(data_iter(args.batch_size, features, labels), desc=f"epoch {epoch + 1}",
                   total=(len(features) + args.batch_size - 1) // args.batch_size, leave=False)
        for X, y in bar:
            l = loss(net(X, w, b), y)  # Minibatch loss in `X` and `y`
            # Compute gradient on `l` with respect to [`w`, `b`]
            l.sum().backward()
            sgd([w, b], args.lr, args.batch_size)  # Update parameters using their gradient
            total += float(l.sum())
            count += len(y)
            bar.set_postfix(loss=f"{total / count:.6f}")
        with torch.no_grad():
            train_l = loss(net(features, w, b), labels)
            print(f'epoch {epoch + 1}, loss {float(train_l.mean()):f}')
            history["train loss"].append(float(train_l.mean()))
    print(f'error in estimating w: {true_w - w.reshape(true_w.shape)}')
    print(f'error in estimating b: {true_b - b}')
    if args.plot:
        plot_history(history, args.plot, "linear regression from scratch")


if __name__ == "__main__":
    main()
