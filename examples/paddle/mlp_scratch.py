"""Multilayer perceptron from scratch (D2L 5.2 in paddle): parameters, ReLU and the
network written by hand, on scikit-learn's handwritten digits."""
import d2l_paddle as d2l
import paddle
from paddle import nn

args = d2l.parse_args(__doc__, epochs=20)
d2l.set_seed(args.seed)

batch_size = 32
train_iter, test_iter = d2l.load_data_digits(batch_size)

num_inputs, num_outputs, num_hiddens = 64, 10, 256

W1 = paddle.randn([num_inputs, num_hiddens]) * 0.1
W1.stop_gradient = False
b1 = paddle.zeros([num_hiddens])
b1.stop_gradient = False
W2 = paddle.randn([num_hiddens, num_outputs]) * 0.1
W2.stop_gradient = False
b2 = paddle.zeros([num_outputs])
b2.stop_gradient = False

params = [W1, b1, W2, b2]


def relu(X):
    a = paddle.zeros_like(X)
    return paddle.maximum(X, a)


def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X @ W1 + b1)  # "@" is matrix multiplication
    return H @ W2 + b2


loss = nn.CrossEntropyLoss(reduction="none")
updater = paddle.optimizer.SGD(learning_rate=0.1, parameters=params)

history = d2l.train_ch3(net, train_iter, test_iter, loss, args.epochs, updater,
                        quiet=args.quiet)
print(f"test acc {history[-1][2]:.4f}")
if args.plot:
    d2l.plot_curves(history, args.plot, "MLP (scratch)")
