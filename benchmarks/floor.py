"""What workloads A and F cost on the smallest possible numpy autograd: the floor of a Python
design.

``python -m benchmarks.floor`` times A and F (one process, CPU time, best of 9) on autograds of
a few dozen lines with none of janusgrad's features (one object per op holding its parents and
a closure for its rule; no dtype promotion, hooks, version counters, devices, dialects or
release), next to torchlike and the hand-written numpy version.  A's has no create_graph; F's
writes its rules with its own ops, so that a backward can be recorded.  It answers "is 0.4x
(0.5x) torch beyond Python, or beyond this design?" (see RESULTS.md, "Where the time goes").
"""
from __future__ import annotations

import time

import numpy as np

from . import workloads as W


def post_order(root) -> list:
    """Every node reachable from ``root``, each after its parents."""
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        n, done = stack.pop()
        if done:
            order.append(n)
        elif id(n) not in seen:
            seen.add(id(n))
            stack.append((n, True))
            stack.extend((p, False) for p in n.parents)
    return order


def send(grads: dict, n, g) -> None:
    """Add the gradients of ``n``'s rule into ``grads`` (by the parents' ids)."""
    for p, gp in zip(n.parents, n.rule(g)):
        if gp is not None:
            k = id(p)
            grads[k] = gp if k not in grads else grads[k] + gp


class Bare:
    """A value, its gradient, its parents, and its rule (a closure over what it needs)."""

    __slots__ = ("a", "g", "parents", "rule")

    def __init__(self, a, parents=(), rule=None) -> None:
        self.a, self.g, self.parents, self.rule = a, None, parents, rule

    def __mul__(self, o):
        x = self.a
        if type(o) is Bare:
            y = o.a
            return Bare(x * y, (self, o), lambda g: (g * y, g * x))
        return Bare(x * o, (self,), lambda g: (g * o,))

    def __add__(self, o):
        if type(o) is Bare:
            return Bare(self.a + o.a, (self, o), lambda g: (g, g))
        return Bare(self.a + o, (self,), lambda g: (g,))

    def __sub__(self, o):
        return Bare(self.a - o, (self,), lambda g: (g,))

    def __truediv__(self, o):
        return Bare(self.a / o, (self,), lambda g: (g / o,))

    def sum(self):
        a = self.a
        return Bare(a.sum(), (self,), lambda g: (np.full(a.shape, g, a.dtype),))

    def backward(self) -> None:
        grads = {id(self): np.array(1, self.a.dtype)}
        for n in reversed(post_order(self)):
            g = grads.pop(id(n))
            if n.rule is None:
                n.g = g if n.g is None else n.g + g
                continue
            send(grads, n, g)


class BareMath:
    """The unary functions workload A uses, in the module's spelling (m.sin, ...)."""

    @staticmethod
    def sin(t):
        x = t.a
        return Bare(np.sin(x), (t,), lambda g: (g * np.cos(x),))

    @staticmethod
    def tanh(t):
        o = np.tanh(t.a)
        return Bare(o, (t,), lambda g: (g * (1 - o * o),))

    @staticmethod
    def exp(t):
        o = np.exp(t.a)
        return Bare(o, (t,), lambda g: (g * o,))


# ---------------------------------------------------------------- F: create_graph
RECORD = [True]  # off during a backward that is not itself recorded


class Var:
    """Bare with rules written in Var ops, so that a backward can itself be differentiated.
    A Var is recorded only while RECORD is on and some parent requires grad (``req``);
    otherwise it is a constant (no parents, no rule)."""

    __slots__ = ("a", "parents", "rule", "req")

    def __init__(self, a, parents=(), rule=None, req=False) -> None:
        self.a = a
        if RECORD[0]:
            for p in parents:
                if p.req:
                    self.parents, self.rule, self.req = parents, rule, True
                    return
        self.parents, self.rule, self.req = (), None, req

    def __mul__(self, o):
        return Var(self.a * o.a, (self, o),
                   lambda g: (g * o if self.req else None, g * self if o.req else None))

    def __add__(self, o):
        return Var(self.a + o.a, (self, o), lambda g: (g, g))

    def __neg__(self):
        return Var(-self.a, (self,), lambda g: (-g,))

    def sum(self):
        shape = self.a.shape
        return Var(self.a.sum(), (self,), lambda g: (expand(g, shape),))


def expand(v, shape):
    return Var(np.full(shape, v.a, v.a.dtype), (v,), lambda g: (g.sum(),))


def vsin(v):
    return Var(np.sin(v.a), (v,), lambda g: (g * vcos(v),))


def vcos(v):
    return Var(np.cos(v.a), (v,), lambda g: (-(g * vsin(v)),))


def var_grad(out, x, create_graph: bool):
    """d out / d x: every node after its parents (post-order), rules in reverse."""
    order = post_order(out)
    RECORD[0] = create_graph
    try:
        grads = {id(out): Var(np.ones_like(out.a))}
        for n in reversed(order):
            g = grads.pop(id(n), None)
            if n is x:
                return g
            if g is None or n.rule is None:
                continue
            send(grads, n, g)
    finally:
        RECORD[0] = True
    return None


def bare_f(x):
    """Workload F on Var: the third derivative of sum(sin(x))."""
    g1 = var_grad(vsin(x).sum(), x, True)
    g2 = var_grad(g1.sum(), x, True)
    return var_grad(g2.sum(), x, False)


def bare_a_gradient() -> np.ndarray:
    """Workload A's input gradient on the bare autograd."""
    x = Bare(W.chain_input(W.A_SIZE))
    W._block(BareMath, x, x).sum().backward()
    return x.g


def _best(fn, n: int = 3000, repeats: int = 9) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, (time.process_time() - t0) / n)
    return best * 1e6


def main() -> None:
    import torchlike
    ref = W.build(W.NumpyStyle(), "A").grads()[0]
    np.testing.assert_allclose(bare_a_gradient(), ref, rtol=1e-5)
    ours = W.build(W.TorchStyle(torchlike), "A")
    hand = W.build(W.NumpyStyle(), "A")
    x = Bare(W.chain_input(W.A_SIZE))

    def bare() -> None:
        x.g = None
        W._block(BareMath, x, x).sum().backward()

    print(f"A, CPU time, best of 9: bare autograd {_best(bare):.1f} us, "
          f"torchlike {_best(ours.run):.1f} us, numpy by hand {_best(hand.run):.1f} us")

    v = Var(W.chain_input(1000), req=True)
    np.testing.assert_allclose(bare_f(v).a, W.build(W.NumpyStyle(), "F").grads()[0],
                               rtol=1e-5, atol=1e-6)
    ours_f = W.build(W.TorchStyle(torchlike), "F")
    hand_f = W.build(W.NumpyStyle(), "F")
    print(f"F, CPU time, best of 9: bare autograd {_best(lambda: bare_f(v)):.1f} us, "
          f"torchlike {_best(ours_f.run):.1f} us, numpy by hand {_best(hand_f.run):.1f} us")


if __name__ == "__main__":
    main()
