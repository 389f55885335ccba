"""Trace and replay against eager over random programs: the same bits.

The fuzzer's programs (tests/fuzz: leaves, unary, binary, scalar, reductions, views, no_grad
blocks, detach, in-place changes) become the body of one function of its leaves, returning
its last value and every reduction.  The function is compiled in each dialect, traced on
the program's leaves and replayed on other values of the same shapes; every output and
every leaf's gradient must equal an eager run on those values bit for bit.  A program the
trace cannot capture (an in-place change of a leaf, a returned view of one) must run
eagerly, with the same results.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings

from janusgrad.transforms import trace

from .fuzz.program import programs, render

BODY = {"unary", "nograd", "binary", "scalar", "reduce", "view", "inplace", "detach"}


def _function(steps, dialect, module):
    """(leaf steps, the compiled-to-be function of the leaves) of a fuzzer program."""
    steps = [s for s in steps if s[0] == "leaf" or s[0] in BODY]
    leaves = [s for s in steps if s[0] == "leaf"]
    lines = _lines(steps, dialect)
    n_values = sum(1 for s in steps if s[0] not in ("inplace",))
    leaf_names = [name for name, s in zip(_names(steps), steps) if s[0] == "leaf"]
    reduced = [name for name, s in zip(_names(steps), steps) if s[0] == "reduce"]
    outs = list(dict.fromkeys([f"v{n_values - 1}", *reduced]))
    src = "\n".join([f"def program({', '.join(leaf_names)}):",
                     *(f"    {line}" for line in lines),
                     f"    return ({', '.join(outs)},)"])
    ns = {"np": np, dialect: module}
    exec(src, ns)  # noqa: S102 - our own generated text
    return leaves, ns["program"], src


def _names(steps):
    """The value name each step defines (None for in-place steps)."""
    n = 0
    for s in steps:
        if s[0] == "inplace":
            yield None
        else:
            yield f"v{n}"
            n += 1


def _lines(steps, dialect):
    """The rendered lines of the non-leaf steps (leaves are the function's parameters)."""
    out = []
    lines = render(steps, dialect)
    for s, line in zip(steps, lines):
        if s[0] != "leaf":
            out.append(line)
    return out


def _leaf(module, dialect, a, grad):
    if dialect == "torch":
        return module.tensor(a, requires_grad=grad)
    return module.to_tensor(a, stop_gradient=not grad)


def _run(fn, module, dialect, leaves, arrays, seeds):
    """Outputs and leaf gradients (numpy arrays) of ``fn`` on fresh leaves."""
    ts = [_leaf(module, dialect, a, s[2]) for a, s in zip(arrays, leaves)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outs = fn(*ts)
    diff = [o for o in outs if not (o.stop_gradient if dialect == "paddle"
                                    else not o.requires_grad)]
    if diff:
        grads = [module.to_tensor(seeds(o)) if dialect == "paddle"
                 else module.tensor(seeds(o)) for o in diff]
        module.autograd.backward(diff, grads)
    return ([o.numpy().copy() for o in outs],
            [None if t.grad is None else t.grad.numpy().copy() for t in ts])


def _same(a, b) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


def _check(steps, dialect, module):
    leaves, fn, src = _function(steps, dialect, module)
    if not leaves:
        return
    rng = np.random.default_rng(len(src))
    first = [s[1] for s in leaves]
    other = [a if a.dtype.kind != "f" else
             np.asarray(a * (1.0 + 0.05 * rng.uniform(-1.0, 1.0, a.shape)), a.dtype)
             for a in first]
    cache = {}

    def seeds(o):
        key = (tuple(o.shape), str(o.dtype))
        if key not in cache:
            cache[key] = rng.standard_normal(tuple(o.shape)).astype(o.numpy().dtype)
        return cache[key]

    try:
        _run(fn, module, dialect, leaves, first, seeds)
    except Exception as e:  # noqa: BLE001 - the program fails eagerly: compiled too
        with pytest.raises(type(e)):
            _run(trace.compiled(fn), module, dialect, leaves, first, seeds)
        return
    compiled = trace.compiled(fn)
    _run(compiled, module, dialect, leaves, first, seeds)
    got = _run(compiled, module, dialect, leaves, other, seeds)
    want = _run(fn, module, dialect, leaves, other, seeds)
    breaks = compiled.stats["breaks"]
    assert all(("in-place" in c) or ("view" in c) or ("value" in c) for c in breaks), \
        (breaks, src)
    if not breaks:
        assert compiled.stats["replays"] == 1
    for g, w in zip(got[0] + got[1], want[0] + want[1]):
        assert (g is None) == (w is None), src
        if g is not None:
            assert _same(g, w), (g, w, src)
    return not breaks


@pytest.mark.parametrize("dialect", ["torch", "paddle"])
def test_random_programs_replay_like_eager(dialect):
    module = pytest.importorskip("torchlike" if dialect == "torch" else "paddlelike")
    replayed = []

    @settings(max_examples=150, deadline=None)
    @given(programs(dialect))
    def run(steps):
        replayed.append(_check(steps, dialect, module))

    run()
    # most programs that run eagerly must replay (a tracer that breaks on everything would
    # pass the comparisons above)
    ran = [r for r in replayed if r is not None]
    assert sum(ran) >= 0.6 * len(ran), replayed
