"""Residual networks (D2L 8.6): Residual blocks with batch normalisation, global average
pooling, on scikit-learn's 8x8 digits.

    python resnet.py [--epochs 6] [--lr 0.1] [--plot curves.png]

The images are 8x8, so the stem keeps their size (a 3x3 convolution, no max-pooling) and
three stages of two Residual blocks take 8x8x8 to 2x2x32 before AdaptiveAvgPool2d.
"""
import torch
from d2l_lite import digits_arrays, load_array, parse_args, plot_history, train_ch3
from torch import nn
from torch.nn import functional as F


class Residual(nn.Module):
    """The Residual block of ResNet models."""

    def __init__(self, input_channels, num_channels, use_1x1conv=False, strides=1):
        super().__init__()
        self.conv1 = nn.Conv2d(input_channels, num_channels, kernel_size=3, padding=1,
                               stride=strides)
        self.conv2 = nn.Conv2d(num_channels, num_channels, kernel_size=3, padding=1)
        if use_1x1conv:
            self.conv3 = nn.Conv2d(input_channels, num_channels, kernel_size=1,
                                   stride=strides)
        else:
            self.conv3 = None
        self.bn1 = nn.BatchNorm2d(num_channels)
        self.bn2 = nn.BatchNorm2d(num_channels)

    def forward(self, X):
        Y = F.relu(self.bn1(self.conv1(X)))
        Y = self.bn2(self.conv2(Y))
        if self.conv3:
            X = self.conv3(X)
        Y += X
        return F.relu(Y)


def resnet_block(input_channels, num_channels, num_residuals, first_block=False):
    blk = []
    for i in range(num_residuals):
        if i == 0 and not first_block:
            blk.append(Residual(input_channels, num_channels, use_1x1conv=True, strides=2))
        else:
            blk.append(Residual(num_channels, num_channels))
    return blk


def resnet(num_classes=10):
    b1 = nn.Sequential(nn.Conv2d(1, 8, kernel_size=3, padding=1),
                       nn.BatchNorm2d(8), nn.ReLU())
    b2 = nn.Sequential(*resnet_block(8, 8, 2, first_block=True))
    b3 = nn.Sequential(*resnet_block(8, 16, 2))
    b4 = nn.Sequential(*resnet_block(16, 32, 2))
    return nn.Sequential(b1, b2, b3, b4,
                         nn.AdaptiveAvgPool2d((1, 1)),
                         nn.Flatten(), nn.Linear(32, num_classes))


def main():
    args = parse_args(__doc__.splitlines()[0], epochs=6, lr=0.1)
    torch.manual_seed(args.seed)
    X_train, y_train, X_test, y_test = digits_arrays()
    # (n, 8, 8) -> (n, 1, 8, 8): one channel
    train_iter = load_array((torch.tensor(X_train[:, None]), torch.tensor(y_train)),
                            args.batch_size)
    test_iter = load_array((torch.tensor(X_test[:, None]), torch.tensor(y_test)),
                           args.batch_size, is_train=False)

    net = resnet()
    X = torch.rand(size=(1, 1, 8, 8))
    for layer in net:
        X = layer(X)
        print(layer.__class__.__name__, 'output shape:\t', X.shape)

    trainer = torch.optim.SGD(net.parameters(), lr=args.lr)
    # the rate decays to zero over the run (BatchNorm's running statistics settle with it)
    history = train_ch3(net, train_iter, test_iter, nn.CrossEntropyLoss(reduction='none'),
                        args.epochs, trainer,
                        torch.optim.lr_scheduler.CosineAnnealingLR(trainer, args.epochs))
    if args.plot:
        plot_history(history, args.plot, "ResNet")


if __name__ == "__main__":
    main()
