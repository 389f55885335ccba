"""Softmax regression, concise (D2L 3.7 in paddle): nn.Flatten + nn.Linear,
nn.CrossEntropyLoss(reduction='none') and optimizer.SGD, on scikit-learn's digits."""
import d2l_paddle as d2l
import paddle
from paddle import nn

args = d2l.parse_args(__doc__, epochs=10)
d2l.set_seed(args.seed)

batch_size = 32
train_iter, test_iter = d2l.load_data_digits(batch_size)

# paddle initialises through ParamAttr at construction
weight_attr = paddle.ParamAttr(initializer=nn.initializer.Normal(mean=0.0, std=0.01))
net = nn.Sequential(nn.Flatten(), nn.Linear(64, 10, weight_attr=weight_attr))
print(net)

loss = nn.CrossEntropyLoss(reduction="none")
trainer = paddle.optimizer.SGD(learning_rate=0.5, parameters=net.parameters())

history = d2l.train_ch3(net, train_iter, test_iter, loss, args.epochs, trainer,
                        quiet=args.quiet)
print(f"test acc {history[-1][2]:.4f}")
if args.plot:
    d2l.plot_curves(history, args.plot, "softmax regression (concise)")
