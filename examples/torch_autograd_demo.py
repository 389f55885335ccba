"""Automatic differentiation, D2L style (after "Dive into Deep Learning", section 2.5).

Plain PyTorch code: run it with real torch (`python torch_autograd_demo.py`) or on
janusgrad (`python -m torchlike torch_autograd_demo.py`); both print the same.
"""
import torch

# y = 2 x.x, differentiated with respect to a column vector x
x = torch.tensor([0.0, 1.0, 2.0, 3.0])
x.requires_grad_(True)
print(x.grad)                     # no gradient yet
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)            # dy/dx = 4x

# gradients accumulate: clear them before the next function
x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)

# backward of a non-scalar: sum first (equivalently, pass a gradient of ones)
x.grad.zero_()
y = x * x
y.sum().backward()
print(x.grad)

# detaching: treat u as a constant
x.grad.zero_()
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u)
x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)


# Python control flow: the graph is whatever ran
def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c


a = torch.tensor(0.75, requires_grad=True)
d = f(a)
d.backward()
print(a.grad == d / a)            # f is linear in a: its slope is d / a

# the recorded graph and no_grad
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
loss = (w @ torch.tensor([1.0, 1.0])).pow(2).mean()
print(loss)
print(type(loss.grad_fn).__name__)
loss.backward()
print(w.grad)
with torch.no_grad():
    print((w * 2).requires_grad)
