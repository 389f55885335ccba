"""Concise softmax regression (D2L 3.7): nn.Flatten + nn.Linear, CrossEntropyLoss, SGD.

    python softmax_regression_concise.py [--epochs 10] [--lr 0.5] [--plot curves.png]
"""
import torch
from d2l_lite import load_data_digits, parse_args, plot_history, train_ch3
from torch import nn


def init_weights(m):
    if type(m) == nn.Linear:  # noqa: E721 - the lesson compares types
        nn.init.normal_(m.weight, std=0.01)


def main():
    args = parse_args(__doc__.splitlines()[0], epochs=10, lr=0.5)
    torch.manual_seed(args.seed)
    train_iter, test_iter = load_data_digits(args.batch_size)

    # PyTorch does not implicitly reshape the inputs. Thus we define the flatten
    # layer to reshape the inputs before the linear layer in our network
    net = nn.Sequential(nn.Flatten(), nn.Linear(64, 10))
    net.apply(init_weights)
    print(net)

    loss = nn.CrossEntropyLoss(reduction='none')
    trainer = torch.optim.SGD(net.parameters(), lr=args.lr)
    history = train_ch3(net, train_iter, test_iter, loss, args.epochs, trainer)
    if args.plot:
        plot_history(history, args.plot, "concise softmax regression")


if __name__ == "__main__":
    main()
