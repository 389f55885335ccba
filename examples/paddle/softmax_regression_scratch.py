"""Softmax regression from scratch (D2L 3.6 in paddle) on scikit-learn's handwritten
digits: softmax, cross-entropy and minibatch SGD written by hand."""
import d2l_paddle as d2l
import paddle

args = d2l.parse_args(__doc__, epochs=10)
d2l.set_seed(args.seed)

batch_size = 32
train_iter, test_iter = d2l.load_data_digits(batch_size)

num_inputs, num_outputs = 64, 10
W = paddle.normal(0, 0.01, shape=(num_inputs, num_outputs))
b = paddle.zeros(shape=(num_outputs,))
W.stop_gradient = False
b.stop_gradient = False


def softmax(X):
    X_exp = paddle.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition  # broadcasting divides each row by its sum


def net(X):
    return softmax(paddle.matmul(X.reshape((-1, W.shape[0])), W) + b)


def cross_entropy(y_hat, y):
    return - paddle.log(y_hat[[i for i in range(len(y_hat))], y.squeeze()])


def sgd(params, lr, batch_size):
    """Minibatch stochastic gradient descent."""
    with paddle.no_grad():
        for i, param in enumerate(params):
            param -= lr * params[i].grad / batch_size
            params[i].set_value(param)
            params[i].clear_gradient()


lr = 0.5


def updater(batch_size):
    return sgd([W, b], lr, batch_size)


print(f"accuracy of the untrained model: {d2l.evaluate_accuracy(net, test_iter):.3f}")
history = d2l.train_ch3(net, train_iter, test_iter, cross_entropy, args.epochs, updater,
                        quiet=args.quiet)
print(f"test acc {history[-1][2]:.4f}")
if args.plot:
    d2l.plot_curves(history, args.plot, "softmax regression (scratch)")
