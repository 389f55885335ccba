"""Multilayer perceptron, concise (D2L 5.2 in paddle): nn.Sequential, CrossEntropyLoss, SGD,
on scikit-learn's handwritten digits."""
import d2l_paddle as d2l
import paddle
from paddle import nn

args = d2l.parse_args(__doc__, epochs=20)
d2l.set_seed(args.seed)

net = nn.Sequential(nn.Flatten(),
                    nn.Linear(64, 256),
                    nn.ReLU(),
                    nn.Linear(256, 10))

print(net)  # paddle's Linear starts with XavierUniform weights and zero biases

batch_size, lr, num_epochs = 32, 0.1, args.epochs
loss = nn.CrossEntropyLoss(reduction="none")
trainer = paddle.optimizer.SGD(learning_rate=lr, parameters=net.parameters())

train_iter, test_iter = d2l.load_data_digits(batch_size)
history = d2l.train_ch3(net, train_iter, test_iter, loss, num_epochs, trainer, quiet=args.quiet)
print(f"test acc {history[-1][2]:.4f}")
if args.plot:
    d2l.plot_curves(history, args.plot, "MLP (concise)")
