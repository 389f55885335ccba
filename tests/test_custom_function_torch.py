"""torch.autograd.Function in torchlike against real torch 2.13: each scenario runs with both
modules and must observe the same values, gradients, printed forms and error texts."""
from __future__ import annotations

import re
import warnings

import pytest

import torchlike

torch = pytest.importorskip("torch")

_ADDR = re.compile(r"0x[0-9a-f]+")


def _err(fn) -> str:
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type and text are what is compared
        return f"{type(e).__name__}: {e}"
    return "no error"


def _show(v) -> str:
    return _ADDR.sub("0x?", repr(v)).replace("torchlike", "torch")


SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


@scenario
def saved_output_and_grad_fn(m, out):
    class Exp(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            r = x.exp()
            ctx.save_for_backward(r)
            return r

        @staticmethod
        def backward(ctx, g):
            (r,) = ctx.saved_tensors
            return g * r

    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = Exp.apply(x)
    out += [y, y.grad_fn, type(y.grad_fn).__name__, y.grad_fn.name(), y.grad_fn.needs_input_grad,
            y.grad_fn.saved_tensors, y.grad_fn.next_functions,
            isinstance(y.grad_fn, m.autograd.function.FunctionCtx)]
    y.sum().backward()
    out.append(x.grad)
    out.append(_err(lambda: y.sum().backward()))
    out.append(_err(lambda: y.grad_fn.saved_tensors))


@scenario
def retain_graph_twice(m, out):
    class Sq(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * g * x

    x = m.tensor([1.0, -3.0], requires_grad=True)
    y = Sq.apply(x).sum()
    y.backward(retain_graph=True)
    y.backward()
    out.append(x.grad)


@scenario
def nothing_saved_runs_twice(m, out):
    class Double(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = m.tensor([1.0], requires_grad=True)
    y = Double.apply(x).sum()
    y.backward()
    out.append(_err(lambda: y.backward()))
    out.append(x.grad)


@scenario
def several_outputs_and_non_tensor_output(m, out):
    seen = []

    class Two(m.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            seen.append((m.is_grad_enabled(), type(ctx).__name__, ctx.needs_input_grad))
            ctx.k = k
            return x * k, x.sin(), 7

        @staticmethod
        def backward(ctx, ga, gb, gc):
            seen.append((ga, gb, gc, m.is_grad_enabled()))
            return ga * ctx.k + gb, None

    x = m.tensor([1.0, 2.0], requires_grad=True)
    a, b, c = Two.apply(x, 3.0)
    out += [a, b, c, a.grad_fn.name(), b.grad_fn.name(), a.grad_fn is b.grad_fn]
    a.sum().backward(retain_graph=True)
    out += [x.grad.clone()]
    (a.sum() + 2 * b.sum()).backward()
    out += [x.grad, seen]


@scenario
def materialize_grads_off(m, out):
    seen = []

    class Two(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            seen.append((ga, gb))
            return ga * 2 if ga is not None else gb * 3

    x = m.tensor([1.0, 2.0], requires_grad=True)
    a, b = Two.apply(x)
    b.sum().backward()
    out += [seen, x.grad]


@scenario
def non_differentiable_outputs(m, out):
    seen = []

    class ND(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            idx = x.argmax()
            v = x.max()
            ctx.mark_non_differentiable(idx)
            return v, idx, x * 1

        @staticmethod
        def backward(ctx, gv, gi, gx):
            seen.append((gv, gi, gx))
            return gx + gv

    x = m.tensor([1.0, 2.0], requires_grad=True)
    v, i, z = ND.apply(x)
    out += [v, i, z, i.requires_grad, i.grad_fn]
    (v + z.sum()).backward()
    out += [seen, x.grad]

    class ND2(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            ctx.mark_non_differentiable(y)
            return y

        @staticmethod
        def backward(ctx, g):
            return g

    y = ND2.apply(x)
    out += [y, y.requires_grad, _err(lambda: y.sum().backward())]


@scenario
def needs_input_grad_and_grad_mode(m, out):
    seen = []

    class NIG(m.autograd.Function):
        @staticmethod
        def forward(ctx, a, b, n):
            seen.append(("fwd", ctx.needs_input_grad))
            return a + b

        @staticmethod
        def backward(ctx, g):
            seen.append(("bwd", ctx.needs_input_grad))
            return g, g, None

    x = m.tensor([1.0, 2.0], requires_grad=True)
    w = m.ones(2)
    NIG.apply(x, w, 3).sum().backward()
    with m.no_grad():
        r = NIG.apply(x, w, 3)
    out += [r, r.grad_fn]
    r = NIG.apply(w, w, 3)
    out += [r, r.grad_fn, seen, x.grad, w.grad]


@scenario
def setup_context_style(m, out):
    seen = []

    class Mul(m.autograd.Function):
        @staticmethod
        def forward(x, y, scale=1.0):
            seen.append(m.is_grad_enabled())
            return x * y * scale

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, y, scale = inputs
            seen.append((len(inputs), scale, type(output).__name__))
            ctx.scale = scale
            ctx.save_for_backward(x, y)

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * y * ctx.scale, g * x * ctx.scale, None

    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = m.tensor([5.0, 6.0], requires_grad=True)
    r = Mul.apply(x, y)
    r.sum().backward()
    r2 = Mul.apply(x, y, scale=2.0)
    out += [r, r2, x.grad, y.grad, seen]


@scenario
def double_backward(m, out):
    class Cube(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x ** 2

    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = Cube.apply(x)
    (gx,) = m.autograd.grad(y.sum(), x, create_graph=True)
    out.append(gx)
    gx.sum().backward()
    out.append(x.grad)


@scenario
def once_differentiable(m, out):
    class CubeOD(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        @m.autograd.function.once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x ** 2

    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = CubeOD.apply(x)
    (gx,) = m.autograd.grad(y.sum(), x, create_graph=True)
    out += [gx, gx.requires_grad]
    y = CubeOD.apply(x)
    (gx,) = m.autograd.grad((y * y).sum(), x, create_graph=True)
    out += [gx, gx.grad_fn]
    out.append(_err(lambda: gx.sum().backward()))


@scenario
def mark_dirty(m, out):
    class Dirty(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = m.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    b = Dirty.apply(a)
    out += [b is a, a, a.grad_fn.name()]
    b.sum().backward()
    out.append(x.grad)
    leaf = m.ones(2, requires_grad=True)
    out.append(_err(lambda: Dirty.apply(leaf)))


@scenario
def input_returned_as_is(m, out):
    class Ident(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 5

    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = Ident.apply(x)
    out += [y is x, y, x]
    y.sum().backward()
    out.append(x.grad)


@scenario
def return_structures_and_kwargs(m, out):
    class Tup(m.autograd.Function):
        @staticmethod
        def forward(ctx, x, scale=2.0):
            return (x * scale,)

        @staticmethod
        def backward(ctx, g):
            return g

    class NotTensor(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return 3

        @staticmethod
        def backward(ctx, g):
            return g

    x = m.tensor([1.0, 2.0], requires_grad=True)
    out += [Tup.apply(x), Tup.apply(x, scale=3.0), NotTensor.apply(x)]


def _bad(m, backward, inputs=1):
    class Bad(m.autograd.Function):
        @staticmethod
        def forward(ctx, *args):
            return args[0] * 2

    Bad.backward = staticmethod(backward)
    x = m.tensor([1.0, 2.0], requires_grad=True)
    args = [x, x, 3.0][:inputs]
    return lambda: Bad.apply(*args).sum().backward(), x


@scenario
def returned_gradient_errors(m, out):
    cases = [
        (lambda ctx, g: g, 2),
        (lambda ctx, g: (g, g, g), 1),
        (lambda ctx, g: 3.0, 1),
        (lambda ctx, g: [g, g], 2),
        (lambda ctx, g: m.ones(3), 1),
        (lambda ctx, g: m.ones(1), 1),
        (lambda ctx, g: (g, g, g), 3),
    ]
    for bwd, n in cases:
        run, _ = _bad(m, bwd, n)
        out.append(_err(run))


@scenario
def returned_gradients_accepted(m, out):
    cases = [
        (lambda ctx, g: (g, None, None), 1),
        (lambda ctx, g: m.ones(2, 2), 1),
        (lambda ctx, g: None, 1),
        (lambda ctx, g: g.double(), 1),
        (lambda ctx, g: (g, None, None), 3),
    ]
    for bwd, n in cases:
        run, x = _bad(m, bwd, n)
        run()
        out.append(x.grad)


@scenario
def missing_methods_and_misuse(m, out):
    class NoBackward(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    class NoForward(m.autograd.Function):
        @staticmethod
        def backward(ctx, g):
            return g

    class SaveInt(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    class SaveNone(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, None)
            out.append(ctx.saved_tensors)  # nothing to read during forward
            return x * 2

        @staticmethod
        def backward(ctx, g):
            out.append(ctx.saved_tensors)
            out.append(_err(lambda: ctx.materialize_grads))
            return g

    x = m.tensor([1.0, 2.0], requires_grad=True)
    out.append(_err(lambda: NoBackward.apply(x).sum().backward()))
    out.append(_err(lambda: NoForward.apply(x)))
    out.append(_err(lambda: SaveInt.apply(x)))
    SaveNone.apply(x).sum().backward()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out.append(_err(lambda: SaveNone()(x)))
    out.append([str(w.message) for w in caught])


@scenario
def saved_tensor_modified_in_place(m, out):
    class S(m.autograd.Function):
        @staticmethod
        def forward(ctx, x, w):
            ctx.save_for_backward(x, w)
            return x * w

        @staticmethod
        def backward(ctx, g):
            x, w = ctx.saved_tensors
            return g * w, g * x

    class SO(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            r = x.exp()
            ctx.save_for_backward(r)
            return r

        @staticmethod
        def backward(ctx, g):
            (r,) = ctx.saved_tensors
            return g * r

    x = m.tensor([1.0, 2.0], requires_grad=True)

    def constant():
        w = m.ones(2)
        y = S.apply(x, w)
        w.add_(1)
        y.sum().backward()

    def non_leaf():
        h = x * 2
        y = S.apply(h, m.ones(2))
        h.mul_(2)
        y.sum().backward()

    def output():
        y = SO.apply(x)
        y.add_(1)
        y.sum().backward()

    out += [_err(constant), _err(non_leaf), _err(output)]


@scenario
def hooks_retain_grad_and_grad_of_outputs(m, out):
    class Split(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2, x * x

        @staticmethod
        def backward(ctx, ga, gb):
            (x,) = ctx.saved_tensors
            return ga * 2 + gb * 2 * x

    x = m.tensor([1.0, 3.0], requires_grad=True)
    a, b = Split.apply(x)
    a.register_hook(lambda g: g * 10)
    b.retain_grad()
    (a.sum() + (b * b).sum()).backward()
    out += [x.grad, b.grad, a.grad_fn.next_functions]
    a, b = Split.apply(x)
    z = (a * b).sum()
    out.append(m.autograd.grad(z, [b, x]))


@scenario
def gradcheck_of_a_custom_function(m, out):
    class Cube(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x ** 2

    class Wrong(Cube):
        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 2 * x ** 2

    x = m.tensor([0.5, -1.25], dtype=m.float64, requires_grad=True)
    out.append(m.autograd.gradcheck(Cube.apply, (x,)))
    out.append(m.autograd.gradgradcheck(Cube.apply, (x,)))
    out.append(m.autograd.gradcheck(Wrong.apply, (x,), raise_exception=False))


@scenario
def anomaly_nan_in_custom_backward(m, out):
    class NaNBack(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    x = m.tensor([1.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with m.autograd.detect_anomaly():
            y = NaNBack.apply(x).sum()
            out.append(_err(lambda: y.backward()))


@scenario
def vjp_instead_of_backward_and_named_outputs(m, out):
    import collections
    Pair = collections.namedtuple("Pair", "double triple")

    class ByVjp(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return Pair(x * 2, x * 3)

        @staticmethod
        def vjp(ctx, ga, gb):
            return ga * 2 + gb * 3

    x = m.tensor([1.0, 2.0], requires_grad=True)
    p = ByVjp.apply(x)
    out += [type(p).__name__, p]
    (p[0] + p[1]).sum().backward()
    out.append(x.grad)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_matches_torch(name):
    got, want = [], []
    SCENARIOS[name](torchlike, got)
    SCENARIOS[name](torch, want)
    assert [_show(v) for v in got] == [_show(v) for v in want]
