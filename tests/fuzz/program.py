"""Random autograd programs as data: a list of steps, each rendered as one line of Python
in the torch or the paddle dialect (``render``), so that the program run and the repro
script printed on a failure are the same text.

A step is a tuple ``(kind, ...)``; values are named ``v0, v1, ...`` in creation order.
The generator tracks each value's shape and dtype so that most programs are valid, and
still draws some that the real framework refuses (mixed dtypes in paddle, in-place on a
leaf, a second backward without retain_graph), whose error type and step are compared.

Left out on purpose, with the reason (known dialect differences, DESIGN.md: we do not
reproduce crashes or missing kernels):
- float16 (paddle has no CPU kernel for most ops here; torch's float16 CPU rounding is
  kernel-specific);
- ops whose domain is not all reals (log, sqrt): the fuzzer's data is any small float,
  and NaN-producing programs compare nothing useful;
- double backward through max/amax/maximum/softmax in paddle (paddle lacks those
  higher-order kernels and raises; janusgrad gives the mathematically right answer), and
  through stack/concat of tensors some of which need no gradient (paddle: ``SystemError:
  (Fatal) Unable to fill empty grad inputs due to empty GradSlotMeta``);
- division by a value near zero: ``div`` divides by ``b * b + 1``;
- paddle.grad of an input with stop_gradient=True that an op made (detach, no_grad, an op
  on data without gradient): paddle fails with ``SystemError: (Fatal) There is no grad op
  for inputs`` even with allow_unused=True, where the gradient is defined (None): janusgrad
  answers as for a tensor made from data (None, or the unused-input error).  Only grad
  inputs that need a gradient or were made from data are drawn in paddle;
- paddle's cast of a tensor that needs a gradient to an integer dtype (type_as an int64
  tensor) keeps stop_gradient=False and passes gradients straight through (a float
  gradient for a step function whose derivative is 0; ``int @ float`` casts so): not
  drawn in paddle;
- paddle.add_n with a leaf that needs a gradient among its inputs: that leaf's ``.grad``
  has is_leaf False (paddle hands add_n's incoming gradient tensor on as it is): not drawn.

Gradients made with create_graph=True are linked as each framework links them (its
derivative formulas read forward operands the value need not depend on: torch's relu and
abs, paddle's multiply and divide; paddle's are all non-leaves): janusgrad.core.links, with the
dialects' tables.  Programs draw backwards through them (``double``).
"""
from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

UNARY = ("exp", "tanh", "sin", "sigmoid", "relu", "abs", "neg", "square")
BINARY = ("add", "sub", "mul", "div", "maximum")
SCALAR = ("mul_f", "add_i", "rsub_f", "pow2", "div_i")
REDUCE = ("sum", "mean", "amax", "max_dim")
VIEWS = ("slice", "reshape", "transpose", "unsqueeze", "expand_dims_view")
INPLACE = ("setitem", "mul_", "tanh_")
# Tensor methods (issue 22 §4): one operand, or two (the second broadcast with the first)
METHODS1 = ("softmax", "float", "double", "clamp", "negative", "swap")
METHODS2 = ("mul", "sub", "div", "type_as", "gt")
JOINS = ("concat", "stack", "add_n")  # lists of tensors, dtypes mixed on purpose
# elements: mostly distinct values, some ties and zeros on purpose (kinks of abs/relu/max)
ELEMENTS = st.one_of(st.sampled_from([0.0, 1.0, -1.0, 0.5]),
                     st.floats(-2.0, 2.0, allow_nan=False, width=32))


class Value:
    __slots__ = ("shape", "kind", "grad", "leaf")

    def __init__(self, shape, kind, grad, leaf):
        self.shape, self.kind, self.grad, self.leaf = tuple(shape), kind, grad, leaf


def _bshape(a, b):
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        return None


@st.composite
def programs(draw, dialect: str, max_steps: int = 10):
    vals: list[Value] = []
    steps: list[tuple] = []
    data_made: set[int] = set()  # the values made from data (the others by an op)

    def leaf(shape=None):
        if shape is None:
            shape = tuple(draw(st.lists(st.integers(1, 3), min_size=0, max_size=3)))
        kind = draw(st.sampled_from(["float32"] * 6 + ["float64", "int64"]))
        if kind == "int64":
            data = draw(st.lists(st.integers(-3, 3), min_size=int(np.prod(shape)),
                                 max_size=int(np.prod(shape))))
            # paddle lets an integer tensor have stop_gradient=False (its backward then
            # refuses where two gradients meet); torch refuses requires_grad on it
            grad = dialect == "paddle" and draw(st.integers(0, 4)) == 0
        else:
            data = draw(st.lists(ELEMENTS, min_size=int(np.prod(shape)),
                                 max_size=int(np.prod(shape))))
            grad = draw(st.integers(0, 3)) > 0
        steps.append(("leaf", np.array(data, dtype=kind).reshape(shape), grad))
        data_made.add(len(vals))
        vals.append(Value(shape, kind, grad, True))

    def pick(pred=lambda v: True):
        idx = [i for i, v in enumerate(vals) if pred(v)]
        return draw(st.sampled_from(idx)) if idx else None

    for _ in range(draw(st.integers(1, 2))):
        leaf()
    floats = lambda v: v.kind != "int64"  # noqa: E731
    n = draw(st.integers(2, max_steps))
    extremes = False  # a max-like op so far
    nograd_views = False  # a view made under no_grad so far
    for _ in range(n):
        kind = draw(st.sampled_from(["leaf", "unary", "unary", "binary", "binary", "scalar",
                                     "reduce", "view", "view", "inplace", "nograd",
                                     "detach", "backward", "backward", "grad", "method",
                                     "method", "join", "matmul"]))
        if kind == "leaf":
            # sometimes of a shape that broadcasts with an existing value
            base = vals[pick()].shape
            leaf(base[draw(st.integers(0, len(base))):] if draw(st.booleans()) else None)
        elif kind in ("unary", "nograd"):
            i = pick(floats)
            if i is None:
                continue
            op = draw(st.sampled_from(UNARY))
            steps.append((kind, op, i))
            v = vals[i]
            vals.append(Value(v.shape, v.kind, v.grad and kind == "unary", False))
        elif kind == "binary":
            i = pick()
            j = pick()
            op = draw(st.sampled_from(BINARY))
            shape = _bshape(vals[i].shape, vals[j].shape)
            if shape is None:
                continue
            a, b = vals[i], vals[j]
            if op == "div" and "int64" in (a.kind, b.kind):
                continue
            out_kind = a.kind if a.kind == b.kind else (
                "float64" if "float64" in (a.kind, b.kind) else "float32")
            steps.append(("binary", op, i, j))
            vals.append(Value(shape, out_kind, a.grad or b.grad, False))
        elif kind == "method":
            i = pick(floats)
            if i is None:
                continue
            v = vals[i]
            op = draw(st.sampled_from(METHODS1 + METHODS2))
            if op in METHODS1:
                if op == "swap" and len(v.shape) < 2:
                    continue
                dim = None
                if op == "softmax":
                    # (paddle's softmax without a dim: torch's legacy implicit one)
                    nd = max(len(v.shape), 1)
                    dim = draw(st.sampled_from([None] + list(range(-nd, nd))))
                steps.append(("method", op, i, dim))
                shape = (v.shape[1], v.shape[0]) + v.shape[2:] if op == "swap" else v.shape
                out_kind = {"float": "float32", "double": "float64"}.get(op, v.kind)
                same = out_kind == v.kind and op in ("float", "double")  # the tensor itself
                vals.append(Value(shape, out_kind, v.grad, v.leaf if same else False))
                extremes = extremes or op == "softmax"
                continue
            j = pick()
            w = vals[j]
            shape = v.shape if op == "type_as" else _bshape(v.shape, w.shape)
            if shape is None:
                continue
            if op == "type_as" and dialect == "paddle" and v.grad and w.kind == "int64":
                continue
            steps.append(("method", op, i, j))
            if op == "type_as":
                vals.append(Value(shape, w.kind, v.grad and w.kind != "int64",
                                  v.leaf if w.kind == v.kind else False))
            elif op == "gt":
                vals.append(Value(shape, "float32", False, True))
            else:
                vals.append(Value(shape, v.kind if v.kind == w.kind else "float64",
                                  v.grad or w.grad, False))
        elif kind == "join":
            op = draw(st.sampled_from(JOINS if dialect == "paddle" else JOINS[:2]))
            if draw(st.integers(0, 19)) == 0:
                steps.append(("join", op, ()))  # an empty list: refused
                break
            i = pick(lambda v, op=op: op != "concat" or v.shape)
            if i is None:
                continue
            same = [k for k, v in enumerate(vals) if v.shape == vals[i].shape]
            idx = (i,) + tuple(draw(st.lists(st.sampled_from(same), min_size=1, max_size=2)))
            ins = [vals[k] for k in idx]
            if op == "add_n" and any(v.leaf and v.grad for v in ins):
                continue
            steps.append(("join", op, idx))
            # paddle's stack/concat double-grad kernels fail (Fatal) on an input without grad
            extremes = extremes or op != "add_n" and not all(v.grad for v in ins)
            shape = vals[i].shape
            shape = (shape[0] * len(idx),) + shape[1:] if op == "concat" else \
                (len(idx),) + shape if op == "stack" else shape
            kinds = {v.kind for v in ins}
            out_kind = kinds.pop() if len(kinds) == 1 else (
                "float64" if "float64" in kinds else "float32")
            vals.append(Value(shape, out_kind, any(v.grad for v in ins), False))
        elif kind == "matmul":
            i, j = pick(lambda v: 1 <= len(v.shape) <= 2), pick(lambda v: 1 <= len(v.shape) <= 2)
            if i is None:
                continue
            try:
                shape = np.matmul(np.zeros(vals[i].shape), np.zeros(vals[j].shape)).shape
            except ValueError:
                continue
            a, b = vals[i], vals[j]
            op = draw(st.sampled_from(["matmul", "@"]))
            if op == "@" and dialect == "paddle" and a.kind == "int64" and b.grad:
                continue  # (b cast to int64 keeps its gradient: see the casts above)
            if any(v.kind == "int64" and v.grad for v in (a, b)):
                continue  # paddle's matmul backward fails on an int operand with a gradient
            steps.append(("matmul", op, i, j))
            # (paddle's @ converts the right operand to the left one's dtype; its matmul
            # refuses mixed dtypes, torch's both)
            out_kind = a.kind if a.kind == b.kind or op == "@" else "float64"
            vals.append(Value(shape, out_kind, (a.grad or b.grad) and out_kind != "int64", False))
        elif kind == "scalar":
            i = pick()
            op = draw(st.sampled_from(SCALAR))
            v = vals[i]
            out_kind = v.kind if op in ("add_i", "pow2") or v.kind != "int64" else "float32"
            if op == "div_i" and v.kind == "int64":
                continue  # paddle's int / int is float32, torch's too: fine, but kept simple
            steps.append(("scalar", op, i))
            vals.append(Value(v.shape, out_kind, v.grad, False))
        elif kind == "reduce":
            i = pick(lambda v: v.kind != "int64" and len(v.shape) > 0)
            if i is None:
                continue
            v = vals[i]
            op = draw(st.sampled_from(REDUCE))
            axis = None if op != "max_dim" and draw(st.booleans()) else \
                draw(st.integers(0, len(v.shape) - 1))
            keep = draw(st.booleans())
            if axis is None:
                shape = (1,) * len(v.shape) if keep else ()
            else:
                shape = tuple(1 if k == axis else s for k, s in enumerate(v.shape)
                              if keep or k != axis)
            steps.append(("reduce", op, i, axis, keep))
            vals.append(Value(shape, v.kind, v.grad, False))
        elif kind == "view":
            i = pick()
            v = vals[i]
            op = draw(st.sampled_from(VIEWS))
            if op == "slice":
                if not v.shape or v.shape[0] < 2:
                    continue
                shape = (v.shape[0] - 1,) + v.shape[1:]
            elif op == "reshape":
                shape = (int(np.prod(v.shape)),)
            elif op == "transpose":
                if len(v.shape) < 2:
                    continue
                shape = (v.shape[1], v.shape[0]) + v.shape[2:]
            elif op == "unsqueeze":
                shape = (1,) + v.shape
            else:  # reshape to its own shape: a view that is the same shape
                shape = v.shape
            in_nograd = draw(st.integers(0, 3)) == 0
            steps.append(("view", op, i, in_nograd))
            nograd_views = nograd_views or in_nograd
            # torch: a no_grad view of a tensor that requires grad requires grad itself
            # (a leaf); paddle: it does not
            grad = v.grad and (not in_nograd or dialect == "torch")
            vals.append(Value(shape, v.kind, grad, in_nograd or v.leaf and grad))
        elif kind == "inplace":
            i = pick(floats)
            if i is None:
                continue
            op = draw(st.sampled_from(INPLACE))
            if op == "setitem" and not vals[i].shape:
                continue
            if nograd_views:
                # torch forbids in-place changes of a base or a view after a no_grad view
                # of it was made, and raises lazily when any of them is next read (even
                # .is_leaf); not drawn (OPEN: reproduce that check)
                continue
            if dialect == "paddle":
                # OPEN_PADDLE_SAVED: paddle's ops save other tensors than ours for backward
                # (its divide saves its output), so which in-place change makes a later
                # backward stale differs; not drawn in paddle until the saved sets agree
                continue
            steps.append(("inplace", op, i))
        elif kind == "detach":
            i = pick()
            steps.append(("detach", i))
            vals.append(Value(vals[i].shape, vals[i].kind, False, True))
        elif kind == "backward":
            i = pick(lambda v: v.grad and not v.leaf)
            if i is None:
                continue
            v = vals[i]
            seeded = draw(st.booleans())
            seed = None
            if seeded:
                seed = np.array(draw(st.lists(ELEMENTS, min_size=int(np.prod(v.shape)),
                                              max_size=int(np.prod(v.shape)))),
                                dtype=v.kind).reshape(v.shape)
            retain = draw(st.sampled_from([True, True, False]))
            steps.append(("backward", i, seed, retain))
            if retain and draw(st.booleans()):
                steps.append(("backward", i, seed, False))  # retain_graph twice
        elif kind == "grad":
            i = pick(lambda v: v.grad and not v.leaf and v.kind != "int64")
            if i is None:
                continue
            leaves = [k for k, v in enumerate(vals) if v.leaf and v.grad]
            if not leaves:
                continue
            # mostly grad leaves (some not in the output's graph); sometimes any value
            # (a non-leaf, one without grad): allow_unused=False refuses the unused ones
            pool = leaves if draw(st.integers(0, 3)) else [
                k for k, v in enumerate(vals)
                if dialect == "torch" or v.grad or k in data_made]
            inputs = sorted(set(draw(st.lists(st.sampled_from(pool), min_size=1,
                                              max_size=3))))
            allow = draw(st.booleans())
            # paddle has no higher-order kernels of amax/max/maximum: it raises where we
            # give the mathematically right answer (DESIGN.md), so no create_graph there
            create = draw(st.booleans()) and not (dialect == "paddle" and extremes)
            steps.append(("grad", i, tuple(inputs), create, allow))
            if create and draw(st.booleans()):
                steps.append(("double", len(inputs)))  # backward through the grads
        extremes = extremes or (steps[-1][0] in ("binary", "reduce", "method") and
                                steps[-1][1] in ("amax", "max_dim", "maximum", "softmax"))
    return steps


# ---------------------------------------------------------------- rendering
def _lit(a, m, dialect, grad=None):
    body = f"np.array({a.tolist()!r}, dtype='{a.dtype}')"
    if dialect == "torch":
        return f"{m}.tensor({body}" + (", requires_grad=True)" if grad else ")")
    return f"{m}.to_tensor({body}" + (", stop_gradient=False)" if grad else ")")


_UNARY = {
    "torch": {"exp": "torch.exp({})", "tanh": "torch.tanh({})", "sin": "torch.sin({})",
              "sigmoid": "torch.sigmoid({})", "relu": "torch.relu({})",
              "abs": "torch.abs({})", "neg": "-{}", "square": "{0} * {0}"},
    "paddle": {"exp": "paddle.exp({})", "tanh": "paddle.tanh({})", "sin": "paddle.sin({})",
               "sigmoid": "paddle.nn.functional.sigmoid({})",
               "relu": "paddle.nn.functional.relu({})", "abs": "paddle.abs({})",
               "neg": "-{}", "square": "{0} * {0}"},
}
_BINARY = {"add": "{} + {}", "sub": "{} - {}", "mul": "{} * {}", "div": "{} / ({1} * {1} + 1)",
           "maximum": "{m}.maximum({}, {})"}
_SCALAR = {"mul_f": "{} * 2.5", "add_i": "{} + 2", "rsub_f": "3.0 - {}", "pow2": "{} ** 2",
           "div_i": "{} / 2"}


def _method(op, a, arg):
    """A Tensor-method call (the same text in both dialects): ``arg`` is softmax's dim or
    the other operand's index."""
    if op == "softmax":
        return f"{a}.softmax()" if arg is None else f"{a}.softmax({arg})"
    b = f"v{arg}"
    return {"float": f"{a}.float()", "double": f"{a}.double()",
            "clamp": f"{a}.clamp(-0.5, 0.5)", "negative": f"{a}.negative()",
            "swap": f"{a}.swapaxes(0, 1)", "mul": f"{a}.mul({b})", "sub": f"{a}.sub({b})",
            "div": f"{a}.div({b} * {b} + 1)", "type_as": f"{a}.type_as({b})",
            "gt": f"{a}.gt({b}).float()"}[op]


def render(steps, dialect: str) -> list[str]:
    """One line of Python per step (``m`` is ``torch`` or ``paddle``)."""
    m = dialect
    ax = "dim" if dialect == "torch" else "axis"
    lines = []
    n = 0
    for s in steps:
        kind = s[0]
        out = f"v{n}"
        if kind == "leaf":
            lines.append(f"{out} = {_lit(s[1], m, dialect, s[2])}")
        elif kind in ("unary", "nograd"):
            expr = _UNARY[dialect][s[1]].format(f"v{s[2]}")
            lines.append(f"{out} = {expr}" if kind == "unary" else
                         f"with {m}.no_grad(): {out} = {expr}")
        elif kind == "binary":
            a, b = f"v{s[2]}", f"v{s[3]}"
            if s[1] == "div":
                expr = f"{a} / ({b} * {b} + 1)"
            else:
                expr = _BINARY[s[1]].format(a, b, m=m)
            lines.append(f"{out} = {expr}")
        elif kind == "scalar":
            lines.append(f"{out} = " + _SCALAR[s[1]].format(f"v{s[2]}"))
        elif kind == "reduce":
            op, i, axis, keep = s[1:]
            a = f"v{i}"
            if op == "max_dim":
                expr = (f"torch.max({a}, dim={axis}, keepdim={keep}).values"
                        if dialect == "torch" else f"paddle.max({a}, axis={axis}, keepdim={keep})")
            elif axis is None and not keep:
                expr = f"{a}.{op}()"
            else:
                expr = f"{a}.{op}({ax}={axis}, keepdim={keep})"
            lines.append(f"{out} = {expr}")
        elif kind == "view":
            op, i, nog = s[1:]
            a = f"v{i}"
            expr = {"slice": f"{a}[1:]", "reshape": f"{a}.reshape([-1])",
                    "unsqueeze": f"{a}.unsqueeze(0)",
                    "expand_dims_view": (f"{a}.reshape({a}.shape)" if dialect == "torch"
                                         else f"paddle.reshape({a}, {a}.shape)")}.get(op)
            if op == "transpose":
                expr = (f"{a}.transpose(0, 1)" if dialect == "torch" else
                        f"{a}.transpose([1, 0] + list(range(2, {a}.ndim)))")
            lines.append(f"with {m}.no_grad(): {out} = {expr}" if nog else f"{out} = {expr}")
        elif kind == "inplace":
            op, i = s[1:]
            a = f"v{i}"
            lines.append({"setitem": f"{a}[0] = 0.5",
                          "mul_": f"{a}.mul_(2.0)" if dialect == "torch" else f"{a}.scale_(2.0)",
                          "tanh_": f"{a}.tanh_()"}[op])
            continue
        elif kind == "detach":
            lines.append(f"{out} = v{s[1]}.detach()")
        elif kind == "backward":
            i, seed, retain = s[1:]
            arg = "" if seed is None else _lit(seed, m, dialect)
            r = ", retain_graph=True" if retain else ""
            if seed is None:
                lines.append(f"v{i}.sum().backward({r.lstrip(', ')})")
            else:
                lines.append(f"v{i}.backward({arg}{r})")
            continue
        elif kind == "grad":
            i, inputs, create, allow = s[1:]
            ins = ", ".join(f"v{k}" for k in inputs)
            fn = "torch.autograd.grad" if dialect == "torch" else "paddle.grad"
            lines.append(f"gs = {fn}(v{i}.sum(), [{ins}], retain_graph=True, "
                         f"create_graph={create}, allow_unused={allow})")
            continue
        elif kind == "method":
            lines.append(f"{out} = " + _method(s[1], f"v{s[2]}", s[3]))
        elif kind == "join":
            op, idx = s[1:]
            items = "[" + ", ".join(f"v{k}" for k in idx) + "]"
            fn = "cat" if dialect == "torch" and op == "concat" else op
            lines.append(f"{out} = {m}.{fn}({items})")
        elif kind == "matmul":
            op, i, j = s[1:]
            lines.append(f"{out} = v{i} @ v{j}" if op == "@" else
                         f"{out} = {m}.matmul(v{i}, v{j})")
        elif kind == "double":
            lines.append("sum(g.sum() for g in gs if g is not None).backward()")
            continue
        n += 1
    return lines


def script(steps, dialect: str) -> str:
    """A standalone repro: the program as a script of the dialect."""
    head = ["import numpy as np", f"import {dialect}", ""]
    return "\n".join(head + render(steps, dialect)) + "\n"
