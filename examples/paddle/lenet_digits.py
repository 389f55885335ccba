"""LeNet (D2L 7.6 in paddle) on scikit-learn's digits: each 8x8 image is upsampled to 28x28
(every pixel repeated 3x3, then a 2-pixel zero border), the input LeNet-5 was built for; the
book's layers with ReLU in place of its sigmoids (which learn too slowly on 1,437 images),
trained with SGD, momentum and weight decay on the training images plus copies shifted by 2
pixels each way."""
import d2l_paddle as d2l
import numpy as np
import paddle
from paddle import nn


def upsample(X):
    """(n, 64) -> (n, 1, 28, 28): nearest-neighbour x3, then zero padding of 2."""
    X = X.reshape(-1, 8, 8).repeat(3, axis=1).repeat(3, axis=2)
    return np.pad(X, ((0, 0), (2, 2), (2, 2)))[:, None].astype("float32")


def shifted_copies(X, y, step=2):
    """X with four more copies moved ``step`` pixels up, down, left and right (the zero
    border keeps every digit whole): a fixed augmentation of the small training set."""
    Xs = [X] + [np.roll(X, s, axis=a) for a in (2, 3) for s in (-step, step)]
    return np.concatenate(Xs), np.concatenate([y] * len(Xs))


def load_data_digits_28(batch_size):
    X_train, y_train, X_test, y_test = d2l.load_digits_arrays()
    X_train, y_train = shifted_copies(upsample(X_train), y_train)
    train = d2l.load_array([paddle.to_tensor(X_train), paddle.to_tensor(y_train)], batch_size)
    test = d2l.load_array([paddle.to_tensor(upsample(X_test)), paddle.to_tensor(y_test)],
                          batch_size, is_train=False)
    return train, test


args = d2l.parse_args(__doc__, epochs=8)
d2l.set_seed(args.seed)

net = nn.Sequential(
    nn.Conv2D(1, 6, kernel_size=5, padding=2), nn.ReLU(),
    nn.AvgPool2D(kernel_size=2, stride=2),
    nn.Conv2D(6, 16, kernel_size=5), nn.ReLU(),
    nn.AvgPool2D(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.ReLU(),
    nn.Linear(120, 84), nn.ReLU(),
    nn.Linear(84, 10))
X = paddle.rand(shape=(1, 1, 28, 28), dtype="float32")
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, "output shape: \t", X.shape)

batch_size, lr, num_epochs = 32, 0.03, args.epochs
loss = nn.CrossEntropyLoss(reduction="none")
scheduler = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=lr, T_max=num_epochs)
trainer = paddle.optimizer.Momentum(learning_rate=scheduler, momentum=0.9,
                                    parameters=net.parameters(), weight_decay=5e-4)
train_iter, test_iter = load_data_digits_28(batch_size)
history = []
for epoch in range(num_epochs):  # d2l.train_ch3, with the rate stepped once per epoch
    train_loss, train_acc = d2l.train_epoch_ch3(net, train_iter, loss, trainer,
                                                desc=f"epoch {epoch + 1}/{num_epochs}",
                                                quiet=args.quiet)
    scheduler.step()
    test_acc = d2l.evaluate_accuracy(net, test_iter)
    history.append((train_loss, train_acc, test_acc))
    d2l.tqdm.write(f"epoch {epoch + 1}: loss {train_loss:.4f}, train acc {train_acc:.3f}, "
                   f"test acc {test_acc:.3f}")
print(f"test acc {history[-1][2]:.4f}")
if args.plot:
    d2l.plot_curves(history, args.plot, "LeNet on digits")
