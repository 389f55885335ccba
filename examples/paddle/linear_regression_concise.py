"""Linear regression, concise (D2L 3.3 in paddle): TensorDataset/DataLoader,
nn.Linear with initializers, nn.MSELoss and optimizer.SGD."""
import d2l_paddle as d2l
import numpy as np
import paddle
from paddle import nn
from tqdm import tqdm


def synthetic_data(w, b, num_examples):
    """y = Xw + b + noise."""
    X = paddle.normal(0, 1, (num_examples, len(w)))
    y = paddle.matmul(X, w) + b
    y += paddle.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


args = d2l.parse_args(__doc__, epochs=3)
d2l.set_seed(args.seed)

true_w = paddle.to_tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 1000)

batch_size = 10
data_iter = d2l.load_array((features, labels), batch_size)
print(next(iter(data_iter)))

weight_attr = paddle.ParamAttr(initializer=paddle.nn.initializer.Normal(0, 0.01))
bias_attr = paddle.ParamAttr(initializer=None)
net = nn.Sequential(nn.Linear(2, 1, weight_attr=weight_attr, bias_attr=bias_attr))
print(net)

loss = nn.MSELoss()
trainer = paddle.optimizer.SGD(learning_rate=0.03, parameters=net.parameters())

num_epochs = args.epochs
history = []
for epoch in range(num_epochs):
    bar = tqdm(data_iter, desc=f"epoch {epoch + 1}", disable=args.quiet, ncols=90)
    for X, y in bar:
        l = loss(net(X), y)
        trainer.clear_grad()
        l.backward()
        trainer.step()
        bar.set_postfix(loss=f"{float(l):.5f}", refresh=False)
    l = loss(net(features), labels)
    history.append((float(l),))
    tqdm.write(f"epoch {epoch + 1}, loss: {float(l):f}")

w = net[0].weight
print("error in estimating w", true_w - w.reshape(true_w.shape))
b = net[0].bias
print("error in estimating b", true_b - b)
assert np.abs((true_w - w.reshape(true_w.shape)).numpy()).max() < 0.05
if args.plot:
    d2l.plot_curves(history, args.plot, "linear regression (concise)", names=("loss",))
