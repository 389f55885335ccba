"""Automatic differentiation, D2L style (after "Dive into Deep Learning", section 2.5).

Plain PaddlePaddle code: run it with real paddle (`python paddle_autograd_demo.py`) or
on janusgrad (`python -m paddlelike paddle_autograd_demo.py`); both print the same.
"""
import paddle

# y = 2 x.x, differentiated with respect to a column vector x
x = paddle.to_tensor([0.0, 1.0, 2.0, 3.0])
x.stop_gradient = False
print(x.grad)                     # no gradient yet
y = 2 * paddle.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)            # dy/dx = 4x

# gradients accumulate: clear them before the next function
x.clear_gradient()
y = paddle.sum(x)
y.backward()
print(x.grad)

# backward of a non-scalar: paddle seeds it with ones
x.clear_gradient()
y = x * x
y.backward()
print(x.grad)

# detaching: treat u as a constant
x.clear_gradient()
y = x * x
u = y.detach()
z = u * x
paddle.sum(z).backward()
print(x.grad == u)


# Python control flow: the graph is whatever ran
def f(a):
    b = a * 2
    while paddle.norm(b) < 1000:
        b = b * 2
    if paddle.sum(b) > 0:
        c = b
    else:
        c = 100 * b
    return c


a = paddle.to_tensor(0.75, stop_gradient=False)
d = f(a)
d.backward()
print(a.grad == d / a)            # f is linear in a: its slope is d / a

# no_grad
with paddle.no_grad():
    print((x * 2).stop_gradient)
