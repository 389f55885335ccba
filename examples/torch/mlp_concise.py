"""Concise multilayer perceptron (D2L 5.3): nn.Sequential, CrossEntropyLoss, SGD, cosine rate.

    python mlp_concise.py [--epochs 15] [--lr 0.3] [--plot curves.png]
"""
import torch
from d2l_lite import load_data_digits, parse_args, plot_history, train_ch3
from torch import nn


def init_weights(m):
    if type(m) == nn.Linear:  # noqa: E721 - the lesson compares types
        nn.init.normal_(m.weight, std=0.01)


def main():
    args = parse_args(__doc__.splitlines()[0], epochs=15, lr=0.3)
    torch.manual_seed(args.seed)
    train_iter, test_iter = load_data_digits(args.batch_size)

    net = nn.Sequential(nn.Flatten(),
                        nn.Linear(64, 256),
                        nn.ReLU(),
                        nn.Linear(256, 10))
    net.apply(init_weights)
    print(net)

    loss = nn.CrossEntropyLoss(reduction='none')
    trainer = torch.optim.SGD(net.parameters(), lr=args.lr)
    # the rate decays to zero over the run, so the last epoch's accuracy is a settled one
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(trainer, args.epochs)
    history = train_ch3(net, train_iter, test_iter, loss, args.epochs, trainer, scheduler)
    if args.plot:
        plot_history(history, args.plot, "concise MLP")


if __name__ == "__main__":
    main()
