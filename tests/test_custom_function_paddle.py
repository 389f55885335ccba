"""paddle.autograd.PyLayer in paddlelike against real paddle 3.3.1: each scenario runs with
both modules and must observe the same values, gradients, node names and error texts.

Where paddle 3.3.1 crashes (a second backward through a PyLayer, with or without
retain_graph) or passes a wrong gradient on unchecked, paddlelike is tested on its own.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import paddlelike

_ADDR = re.compile(r"0x[0-9a-f]+")
_NAME = re.compile(r"generated_tensor_\d+")


def _err(fn) -> str:
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type and text are what is compared
        return _NAME.sub("generated_tensor_N", f"{type(e).__name__}: {e}")
    return "no error"


def _show(v) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    if hasattr(v, "numpy") and hasattr(v, "stop_gradient"):
        # float32 transcendental results may differ in the last bit between the two
        return f"T({v.shape}, {v.dtype}, {np.round(np.asarray(v.numpy()), 5).tolist()})"
    return _ADDR.sub("0x?", str(v)).replace("paddlelike", "paddle")


SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


def _x(m, values=(1.0, 2.0)):
    return m.to_tensor(list(values), stop_gradient=False)


@scenario
def saved_output_and_node_name(m, out):
    class Exp(m.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            out.append((m.is_grad_enabled(), type(ctx).__name__))
            r = m.exp(x)
            ctx.save_for_backward(r)
            return r

        @staticmethod
        def backward(ctx, g):
            (r,) = ctx.saved_tensor()
            out.append(m.is_grad_enabled())
            return g * r

    x = _x(m)
    y = Exp.apply(x)
    out += [y, y.grad_fn.name(), [f.name() for f in y.grad_fn.next_functions]]
    y.sum().backward()
    out.append(x.grad)  # values only: paddle flags this grad as backward returned it


@scenario
def several_outputs_and_non_tensor_output(m, out):
    class Two(m.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, k):
            ctx.k = k
            return x * k, m.sin(x), 7

        @staticmethod
        def backward(ctx, ga, gb, *rest):
            out.append((ga, gb, len(rest)))
            return ga * ctx.k + gb

    x = _x(m)
    a, b, c = Two.apply(x, 3.0)
    out += [a.grad_fn.name(), b.grad_fn.name(), c, b, str(a)]
    a.sum().backward()
    out.append(x.grad)


@scenario
def unused_output_gets_zeros(m, out):
    class TwoT(m.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, w):
            return x * 2, w * 3

        @staticmethod
        def backward(ctx, ga, gb):
            out.append((ga, gb, ga.stop_gradient, gb.stop_gradient))  # zeros are made here
            return ga * 2, gb * 3

    x, w = _x(m), _x(m, (3.0, 4.0))
    a, b = TwoT.apply(x, w)
    a.sum().backward()
    out += [x.grad, w.grad]


@scenario
def materialize_grads_off(m, out):
    class NoMat(m.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            out.append((ga, gb))
            return ga * 2

    x = _x(m)
    a, b = NoMat.apply(x)
    a.sum().backward()
    out.append(x.grad)


@scenario
def non_differentiable_output(m, out):
    class ND(m.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            idx = m.argmax(x)
            ctx.mark_non_differentiable(idx)
            return y, idx

        @staticmethod
        def backward(ctx, gy, gi):
            out.append((gy, gi))
            return gy * 2

    x = _x(m)
    y, i = ND.apply(x)
    out += [i.stop_gradient, y.stop_gradient]
    y.sum().backward()
    out.append(x.grad)


@scenario
def double_backward(m, out):
    class Cube(m.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensor()
            return g * 3 * x ** 2

    x = _x(m)
    y = Cube.apply(x)
    (gx,) = m.grad(y.sum(), x, create_graph=True)
    out += [gx, gx.stop_gradient]
    gx.sum().backward()
    out.append(x.grad)


@scenario
def tensor_inputs_positional_and_keyword(m, out):
    class KW(m.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, n, w=None):
            return x * w * n

        @staticmethod
        def backward(ctx, g):
            return g * 2, g * 3

    x, w = _x(m), _x(m, (3.0, 4.0))
    KW.apply(x, 2, w=w).sum().backward()
    out += [x.grad, w.grad]


@scenario
def returned_input(m, out):
    class Ident(m.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 5

    x = _x(m)
    a = x * 1
    y = Ident.apply(a)
    out += [y is a, y.grad_fn.name(), a.inplace_version]
    y.sum().backward()
    out.append(x.grad)
    out.append(_err(lambda: Ident.apply(_x(m))))
    c = m.ones([2])
    y = Ident.apply(c)
    out += [y is c, y.stop_gradient]


@scenario
def saved_values(m, out):
    class SaveMixed(m.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3, None)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            out.append(ctx.saved_tensor())
            return g

    class NoSave(m.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            out.append(ctx.saved_tensor())
            return g

    SaveMixed.apply(_x(m)).sum().backward()
    NoSave.apply(_x(m)).sum().backward()


@scenario
def no_graph_without_grad(m, out):
    class Sq(m.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, g):
            return g

    x = _x(m)
    with m.no_grad():
        y = Sq.apply(x)
    out += [y.stop_gradient, y.grad_fn]
    z = Sq.apply(m.to_tensor([1.0]))
    out += [z.stop_gradient, z.grad_fn]


def _bad(m, backward, inputs):
    class Bad(m.autograd.PyLayer):
        @staticmethod
        def forward(ctx, *args):
            return args[0] * 2

    Bad.backward = staticmethod(backward)
    return lambda: Bad.apply(*inputs(m)).sum().backward()


@scenario
def returned_gradient_errors(m, out):
    two = lambda m: (_x(m), _x(m))  # noqa: E731
    one = lambda m: (_x(m),)  # noqa: E731
    cases = [
        (lambda ctx, g: g, two),
        (lambda ctx, g: (g, g, g), one),
        (lambda ctx, g: 3.0, one),
        (lambda ctx, g: [g, g], two),
        (lambda ctx, g: (g, g), lambda m: (_x(m), m.ones([2]))),
        (lambda ctx, g: (g, g, g), lambda m: (_x(m), 3, _x(m))),
    ]
    for bwd, inputs in cases:
        out.append(_err(_bad(m, bwd, inputs)))


@scenario
def returned_gradients_accepted(m, out):
    def run(bwd, n):
        xs = [_x(m) for _ in range(n)]
        _bad(m, bwd, lambda m: xs)()
        out.append([x.grad for x in xs])

    run(lambda ctx, g: (g, None), 2)
    run(lambda ctx, g: (g,), 1)
    run(lambda ctx, g: None, 1)


@scenario
def misuse(m, out):
    class NoBackward(m.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    class NoForward(m.autograd.PyLayer):
        @staticmethod
        def backward(ctx, g):
            return g

    class NotTensor(m.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return 3

        @staticmethod
        def backward(ctx, g):
            return g

    out.append(_err(lambda: NoForward.apply(_x(m))))
    out.append(_err(lambda: NotTensor.apply(_x(m))))
    out.append("NotImplementedError" in _err(lambda: NoBackward.apply(_x(m)).sum().backward()))
    out += [m.autograd.Function is m.autograd.PyLayer, type(m.autograd.PyLayerContext()).__name__,
            m.autograd.PyLayer.__name__]


@scenario
def hooks_and_grad_of_outputs(m, out):
    class Split(m.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2, x * x

        @staticmethod
        def backward(ctx, ga, gb):
            (x,) = ctx.saved_tensor()
            return ga * 2 + gb * 2 * x

    x = _x(m, (1.0, 3.0))
    a, b = Split.apply(x)
    (a.sum() + (b * b).sum()).backward()
    out.append(x.grad)
    a, b = Split.apply(x)
    out.append(m.grad((a * b).sum(), [b, x]))


def test_hook_on_an_output_applies():
    """paddle 3.3.1 skips a hook registered on a PyLayer output; paddlelike runs it."""
    class Twice(paddlelike.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            return ga * 2 + gb * 3

    x = _x(paddlelike)
    a, b = Twice.apply(x)
    a.register_hook(lambda g: g * 10)
    (a.sum() + b.sum()).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [23.0, 23.0])


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_matches_paddle(name):
    paddle = pytest.importorskip("paddle")
    got, want = [], []
    SCENARIOS[name](paddlelike, got)
    SCENARIOS[name](paddle, want)
    assert [_show(v) for v in got] == [_show(v) for v in want]


# -- where real paddle crashes or misbehaves: the right answer or a clear error ----------
class _Save(paddlelike.autograd.PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensor()
        return 2 * g * x


def test_second_backward_is_a_clear_error():
    x = _x(paddlelike)
    y = _Save.apply(x)
    y.backward()
    with pytest.raises(SystemError, match="TensorWrappers of GradNodePyLayer__Save do not exist"):
        y.backward()


def test_second_backward_with_retain_graph_gives_the_right_answer():
    x = _x(paddlelike, (1.0, -3.0))
    y = _Save.apply(x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [4.0, -12.0])


def test_gradient_of_the_wrong_shape_is_refused():
    err = _err(_bad(paddlelike, lambda ctx, g: paddlelike.ones([3]), lambda m: (_x(m),)))
    assert err.startswith("ValueError: (InvalidArgument) GradNodePyLayer_Bad's backward function "
                          "returned a gradient of shape [3] at 0 position")


def test_gradient_dtype_follows_the_input():
    x = _x(paddlelike)
    _bad(paddlelike, lambda ctx, g: g.astype("float64"), lambda m: (x,))()
    assert str(x.grad.dtype) == "paddle.float32"


def test_not_inplace_input_returned_stays_connected():
    class Ident(paddlelike.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_not_inplace(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 5

    x = _x(paddlelike)
    y = Ident.apply(x)
    assert y is not x and y.grad_fn.name() == "GradNodePyLayer_Ident"
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [5.0, 5.0])
