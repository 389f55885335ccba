"""What workload A costs on the smallest possible numpy autograd: the floor of a Python design.

``python -m benchmarks.floor`` times A (one process, CPU time, best of 9) on a 40-line autograd
with none of janusgrad's features (one object per op holding its parents and a closure for its
rule; no dtype promotion, hooks, version counters, devices, dialects, create_graph or release),
next to torchlike and the hand-written numpy version.  It answers "is 0.4x torch beyond
Python, or beyond this design?" (see RESULTS.md, "Where the time goes").
"""
from __future__ import annotations

import time

import numpy as np

from . import workloads as W


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
        order, seen, stack = [], set(), [(self, False)]
        while stack:  # post-order: every node after its parents
            n, done = stack.pop()
            if done:
                order.append(n)
            elif id(n) not in seen:
                seen.add(id(n))
                stack.append((n, True))
                stack.extend((p, False) for p in n.parents)
        grads = {id(self): np.array(1, self.a.dtype)}
        for n in reversed(order):
            g = grads.pop(id(n))
            if n.rule is None:
                n.g = g if n.g is None else n.g + g
                continue
            for p, gp in zip(n.parents, n.rule(g)):
                k = id(p)
                grads[k] = gp if k not in grads else grads[k] + gp


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


if __name__ == "__main__":
    main()
