"""LeNet (D2L 7.6) on scikit-learn's digits: each 8x8 image is upsampled to 28x28 (every pixel
repeated 3x3, then a 2-pixel zero border), the input LeNet-5 was built for; the book's layers
with ReLU in place of its sigmoids (which learn too slowly on 1,347 images), trained with SGD,
momentum and weight decay on the training images plus copies shifted by 2 pixels each way.

    python lenet_digits.py [--epochs 8] [--lr 0.03] [--batch-size 32] [--plot curves.png]
"""
import numpy as np
import torch
from d2l_lite import digits_arrays, load_array, parse_args, plot_history, train_ch3
from torch import nn


def upsample(X):
    """(n, 8, 8) -> (n, 1, 28, 28): nearest-neighbour x3, then zero padding of 2."""
    X = X.repeat(3, axis=1).repeat(3, axis=2)
    return np.pad(X, ((0, 0), (2, 2), (2, 2)))[:, None].astype(np.float32)


def shifted_copies(X, y, step=2):
    """X with four more copies moved ``step`` pixels up, down, left and right (the zero
    border keeps every digit whole): a fixed augmentation of the small training set."""
    Xs = [X] + [np.roll(X, s, axis=a) for a in (2, 3) for s in (-step, step)]
    return np.concatenate(Xs), np.concatenate([y] * len(Xs))


def load_data_digits_28(batch_size):
    X_train, y_train, X_test, y_test = digits_arrays()
    X_train, y_train = shifted_copies(upsample(X_train), y_train)
    train = (torch.tensor(X_train), torch.tensor(y_train))
    test = (torch.tensor(upsample(X_test)), torch.tensor(y_test))
    return load_array(train, batch_size), load_array(test, batch_size, is_train=False)


def lenet():
    return nn.Sequential(
        nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.ReLU(),
        nn.AvgPool2d(kernel_size=2, stride=2),
        nn.Conv2d(6, 16, kernel_size=5), nn.ReLU(),
        nn.AvgPool2d(kernel_size=2, stride=2),
        nn.Flatten(),
        nn.Linear(16 * 5 * 5, 120), nn.ReLU(),
        nn.Linear(120, 84), nn.ReLU(),
        nn.Linear(84, 10))


def init_cnn(m):
    if type(m) in (nn.Linear, nn.Conv2d):  # D2L initialises LeNet with Xavier
        nn.init.xavier_uniform_(m.weight)


def main():
    args = parse_args(__doc__.splitlines()[0], epochs=8, lr=0.03)
    torch.manual_seed(args.seed)
    net = lenet()
    net.apply(init_cnn)
    X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
    for layer in net:
        X = layer(X)
        print(layer.__class__.__name__, 'output shape: \t', X.shape)

    train_iter, test_iter = load_data_digits_28(args.batch_size)
    loss = nn.CrossEntropyLoss(reduction='none')
    trainer = torch.optim.SGD(net.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(trainer, args.epochs)
    history = train_ch3(net, train_iter, test_iter, loss, args.epochs, trainer, scheduler)
    if args.plot:
        plot_history(history, args.plot, "LeNet on digits")


if __name__ == "__main__":
    main()
