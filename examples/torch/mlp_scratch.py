"""Multilayer perceptron from scratch (D2L 5.2), on scikit-learn's 8x8 digits.

    python mlp_scratch.py [--epochs 15] [--lr 0.3] [--plot curves.png]
"""
import torch
from d2l_lite import load_data_digits, parse_args, plot_history, train_ch3
from torch import nn

num_inputs, num_outputs, num_hiddens = 64, 10, 256


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


def main():
    args = parse_args(__doc__.splitlines()[0], epochs=15, lr=0.3)
    torch.manual_seed(args.seed)
    train_iter, test_iter = load_data_digits(args.batch_size)

    W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens, requires_grad=True) * 0.01)
    b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
    W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs, requires_grad=True) * 0.01)
    b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))
    params = [W1, b1, W2, b2]

    def net(X):
        X = X.reshape((-1, num_inputs))
        H = relu(X @ W1 + b1)  # Here '@' stands for matrix multiplication
        return (H @ W2 + b2)

    loss = nn.CrossEntropyLoss(reduction='none')
    updater = torch.optim.SGD(params, lr=args.lr)
    history = train_ch3(net, train_iter, test_iter, loss, args.epochs, updater)
    if args.plot:
        plot_history(history, args.plot, "MLP from scratch")


if __name__ == "__main__":
    main()
