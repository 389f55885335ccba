"""Softmax regression from scratch (D2L 3.6), on scikit-learn's 8x8 digits.

    python softmax_regression_scratch.py [--epochs 10] [--lr 0.5] [--plot curves.png]
"""
import torch
from d2l_lite import load_data_digits, parse_args, plot_history, train_ch3

num_inputs = 64
num_outputs = 10
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition  # The broadcasting mechanism is applied here


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


def cross_entropy(y_hat, y):
    return - torch.log(y_hat[range(len(y_hat)), y])


def sgd(params, lr, batch_size):
    """Minibatch stochastic gradient descent."""
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


def main():
    args = parse_args(__doc__.splitlines()[0], epochs=10, lr=0.5)
    torch.manual_seed(args.seed)
    with torch.no_grad():
        W.copy_(torch.normal(0, 0.01, size=(num_inputs, num_outputs)))
    train_iter, test_iter = load_data_digits(args.batch_size)

    def updater(batch_size):
        return sgd([W, b], args.lr, batch_size)

    history = train_ch3(net, train_iter, test_iter, cross_entropy, args.epochs, updater)
    if args.plot:
        plot_history(history, args.plot, "softmax regression from scratch")


if __name__ == "__main__":
    main()
