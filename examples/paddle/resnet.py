"""Residual networks (D2L 7.6 in paddle): Residual blocks with nn.BatchNorm2D, global
average pooling (nn.AdaptiveAvgPool2D), on scikit-learn's 8x8 digits.

The images are 8x8, so the stem keeps their size (a 3x3 convolution, no max-pooling) and
three stages of two Residual blocks take 8x8x8 to 2x2x32 before the pooling."""
import d2l_paddle as d2l
import paddle
from paddle import nn
from paddle.nn import functional as F


class Residual(nn.Layer):
    """The Residual block of ResNet models."""

    def __init__(self, input_channels, num_channels, use_1x1conv=False, strides=1):
        super().__init__()
        self.conv1 = nn.Conv2D(input_channels, num_channels, kernel_size=3, padding=1,
                               stride=strides)
        self.conv2 = nn.Conv2D(num_channels, num_channels, kernel_size=3, padding=1)
        if use_1x1conv:
            self.conv3 = nn.Conv2D(input_channels, num_channels, kernel_size=1,
                                   stride=strides)
        else:
            self.conv3 = None
        self.bn1 = nn.BatchNorm2D(num_channels)
        self.bn2 = nn.BatchNorm2D(num_channels)

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


args = d2l.parse_args(__doc__, epochs=6)
d2l.set_seed(args.seed)

b1 = nn.Sequential(nn.Conv2D(1, 8, kernel_size=3, padding=1),
                   nn.BatchNorm2D(8), nn.ReLU())
b2 = nn.Sequential(*resnet_block(8, 8, 2, first_block=True))
b3 = nn.Sequential(*resnet_block(8, 16, 2))
b4 = nn.Sequential(*resnet_block(16, 32, 2))
net = nn.Sequential(b1, b2, b3, b4,
                    nn.AdaptiveAvgPool2D((1, 1)),
                    nn.Flatten(), nn.Linear(32, 10))

X = paddle.rand(shape=(1, 1, 8, 8))
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, 'output shape:\t', X.shape)

batch_size, lr = 32, 0.05
X_train, y_train, X_test, y_test = d2l.load_digits_arrays(seed=args.seed)
# (n, 64) -> (n, 1, 8, 8): one channel
train_iter = d2l.load_array([paddle.to_tensor(X_train.reshape(-1, 1, 8, 8)),
                             paddle.to_tensor(y_train)], batch_size)
test_iter = d2l.load_array([paddle.to_tensor(X_test.reshape(-1, 1, 8, 8)),
                            paddle.to_tensor(y_test)], batch_size, is_train=False)

loss = nn.CrossEntropyLoss(reduction="none")
trainer = paddle.optimizer.SGD(learning_rate=lr, parameters=net.parameters())
history = d2l.train_ch3(net, train_iter, test_iter, loss, args.epochs, trainer,
                        quiet=args.quiet)
print(f"test acc {history[-1][2]:.4f}")
if args.plot:
    d2l.plot_curves(history, args.plot, "ResNet")
