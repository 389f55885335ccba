"""Linear regression from scratch (D2L 3.2 in paddle): synthetic data, minibatch
iterator, model, squared loss and minibatch SGD written by hand."""
import random

import d2l_paddle as d2l
import paddle
from tqdm import tqdm


def synthetic_data(w, b, num_examples):
    """y = Xw + b + noise."""
    X = paddle.normal(0, 1, (num_examples, len(w)))
    y = paddle.matmul(X, w) + b
    y += paddle.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)  # the examples are read in random order
    for i in range(0, num_examples, batch_size):
        batch_indices = paddle.to_tensor(indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]


def linreg(X, w, b):
    """The linear regression model."""
    return paddle.matmul(X, w) + b


def squared_loss(y_hat, y):
    """Squared loss."""
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):
    """Minibatch stochastic gradient descent."""
    with paddle.no_grad():
        for i, param in enumerate(params):
            param -= lr * params[i].grad / batch_size
            params[i].set_value(param)
            params[i].clear_gradient()


args = d2l.parse_args(__doc__, epochs=3)
d2l.set_seed(args.seed)
random.seed(args.seed)

true_w = paddle.to_tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 1000)
print("features:", features[0], "\nlabel:", labels[0])

w = paddle.normal(0, 0.01, shape=(2, 1))
b = paddle.zeros(shape=[1])
w.stop_gradient = False  # paddle tensors do not track gradients unless told to
b.stop_gradient = False

lr, num_epochs, batch_size = 0.03, args.epochs, 10
net, loss = linreg, squared_loss
history = []
for epoch in range(num_epochs):
    bar = tqdm(list(data_iter(batch_size, features, labels)), desc=f"epoch {epoch + 1}",
               disable=args.quiet, ncols=90)
    for X, y in bar:
        l = loss(net(X, w, b), y)
        l.sum().backward()
        sgd([w, b], lr, batch_size)
        bar.set_postfix(loss=f"{float(l.mean()):.5f}", refresh=False)
    with paddle.no_grad():
        train_l = float(loss(net(features, w, b), labels).mean())
    history.append((train_l,))
    tqdm.write(f"epoch {epoch + 1}, loss {train_l:f}")

print(f"error in estimating w: {true_w - w.reshape(true_w.shape)}")
print(f"error in estimating b: {true_b - b}")
if args.plot:
    d2l.plot_curves(history, args.plot, "linear regression (scratch)", names=("loss",))
