"""Concise linear regression (D2L 3.3): nn.Linear, nn.MSELoss, optim.SGD, DataLoader.

    python linear_regression_concise.py [--epochs 3] [--lr 0.03] [--plot curves.png]
"""
import torch
from d2l_lite import load_array, parse_args, plot_history
from torch import nn
from tqdm import tqdm


def synthetic_data(w, b, num_examples):
    """Generate y = Xw + b + noise."""
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


def main():
    args = parse_args(__doc__.splitlines()[0], epochs=3, lr=0.03, batch_size=10)
    torch.manual_seed(args.seed)
    true_w = torch.tensor([2, -3.4])
    true_b = 4.2
    features, labels = synthetic_data(true_w, true_b, 1000)
    data_iter = load_array((features, labels), args.batch_size)
    print(next(iter(data_iter)))

    net = nn.Sequential(nn.Linear(2, 1))
    net[0].weight.data.normal_(0, 0.01)
    net[0].bias.data.fill_(0)
    loss = nn.MSELoss()
    trainer = torch.optim.SGD(net.parameters(), lr=args.lr)
    print(net)

    history = {"train loss": []}
    for epoch in range(args.epochs):
        bar = tqdm(data_iter, desc=f"epoch {epoch + 1}", leave=False)
        for X, y in bar:
            l = loss(net(X), y)
            trainer.zero_grad()
            l.backward()
            trainer.step()
            bar.set_postfix(loss=f"{float(l):.6f}")
        l = loss(net(features), labels)
        print(f'epoch {epoch + 1}, loss {l:f}')
        history["train loss"].append(float(l))

    w = net[0].weight.data
    print('error in estimating w:', true_w - w.reshape(true_w.shape))
    b = net[0].bias.data
    print('error in estimating b:', true_b - b)
    if args.plot:
        plot_history(history, args.plot, "concise linear regression")


if __name__ == "__main__":
    main()
