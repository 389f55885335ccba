"""Replaying a trace: the forward program on the sources' arrays, and one graph node whose
backward runs the backward program.

The node's parents are the sources that require grad; it saves the forward values the
backward program reads (freed after a backward without retain_graph, as any node's) and
the sources among them (their versions are checked as any saved tensor's).  With several
differentiable outputs each output gets a *selector* node that parks its gradient in the
call's state and sends the main node a 0-d token ``2**j`` (janusgrad.core.function's scheme), so
the main node runs once, after all of them.

A backward that records (``create_graph``) cannot run a program on bare arrays: the call is
run again eagerly and differentiated with create_graph, and its key runs eagerly from then
on (a graph break found late, with its warning).
"""
from __future__ import annotations

import operator

from janusgrad.array.backend import float64, host
from janusgrad.core import autograd
from janusgrad.core.mode import INFERENCE_ON, GradMode, state
from janusgrad.core.tensor import INFERENCE, Node, Tensor
from janusgrad.ops import OpDef
from janusgrad.transforms.trace.arrays import GuardFailed

ndarray = host.ndarray


class Entry:
    """What a successful trace leaves: the two programs and how to assemble a result."""

    __slots__ = ("forward", "backward", "forward_source", "backward_source", "kinds", "spec",
                 "n_out", "diff_slots", "diff_leaves", "rg_sources", "saved_sources",
                 "out_saved", "shapes", "dtypes", "single", "bumps")

    def __init__(self, **fields) -> None:
        for k, v in fields.items():
            setattr(self, k, v)
        # the common result, one tensor (the first output), for run's short path
        self.single = self.spec is None and self.kinds[0][0] == "out"
        self.bumps = ()  # (source, count): buffers the function changes in place


class Call(list):
    """The state of one replayed call, shared by its nodes (``Node.attrs``): a list, made
    in one C call on every replay, with its fields by name."""

    __slots__ = ()
    entry = property(operator.itemgetter(0))
    compiled = property(operator.itemgetter(1))
    key = property(operator.itemgetter(2))
    args = property(operator.itemgetter(3))
    kwargs = property(operator.itemgetter(4))
    sources = property(operator.itemgetter(5))
    versions = property(operator.itemgetter(6))
    # pending (the parked gradients of several outputs) and dtypes (their shapes and dtypes)
    pending = property(operator.itemgetter(7), lambda self, v: self.__setitem__(7, v))
    dtypes = property(operator.itemgetter(8), lambda self, v: self.__setitem__(8, v))


def _call(entry, compiled, key, args, kwargs, sources) -> Call:
    return Call((entry, compiled, key, args, kwargs, sources,
                 [0 if t._version is None else t._version[0] for t in sources], None, None))


def run(entry: Entry, compiled, key, sources, args, kwargs):
    """One replayed call: the function's result, attached to the graph when it records."""
    res = entry.forward(*[t.array for t in sources])
    for i, count in entry.bumps:  # (the forward wrote into these buffers, as eager does)
        for _ in range(count):
            sources[i].bump_version()
    if entry.single and not state.mode:  # one tensor, grad mode on
        a = res[0]
        if type(a) is not ndarray:
            a = host.asarray(a)  # host-ok: traces are of numpy arrays
        t = entry.kinds[0][2].wrap(a)
        if entry.backward is not None:
            _attach(entry, compiled, key, sources, args, kwargs, [t], res[entry.n_out:])
        return t
    n = entry.n_out
    kinds = entry.kinds
    tensors: list = [None] * n
    inference = state.mode & INFERENCE_ON
    for k in kinds:
        if k[0] == "out" and tensors[k[1]] is None:
            a = res[k[1]]
            if type(a) is not ndarray:
                a = host.asarray(a)  # host-ok: traces are of numpy arrays
            t = tensors[k[1]] = k[2].wrap(a)
            if inference:
                t._version = INFERENCE
    if entry.backward is not None:
        _attach(entry, compiled, key, sources, args, kwargs, tensors, res[n:])
    if entry.spec is None:
        return _leaf(kinds[0], tensors, sources)
    it = iter(kinds)
    return _unflatten(entry.spec, lambda: _leaf(next(it), tensors, sources))


def _leaf(k, tensors, sources):
    kind = k[0]
    if kind == "out":
        return tensors[k[1]]
    if kind == "source":
        return sources[k[1]]
    if kind == "const":
        return type(k[1]).wrap(k[1].array.copy())
    return k[1]


def _unflatten(spec, take):
    if spec is None:
        return take()
    if spec[0] is dict:
        return {name: _unflatten(s, take) for name, s in zip(spec[1], spec[2])}
    return spec[0]([_unflatten(s, take) for s in spec[1]])


def _attach(entry, compiled, key, sources, args, kwargs, tensors, saved) -> None:
    # (the shapes and dtypes of the sources are the trace's: they are in the key)
    parents = tuple([sources[i].node or sources[i] for i in entry.rg_sources])
    shapes, dtypes = entry.shapes, entry.dtypes
    call = _call(entry, compiled, key, args, kwargs, sources)
    slots = entry.diff_slots
    first = tensors[slots[0]]
    if entry.saved_sources:
        versions = call.versions  # (read once, by _call)
        node = Node(COMPILED, parents, shapes, dtypes,
                    (*[sources[i] for i in entry.saved_sources], saved), call, type(first))
        node.versions = (*[versions[i] for i in entry.saved_sources], 0)
    else:
        node = Node(COMPILED, parents, shapes, dtypes, (saved,), call, type(first))
    if len(slots) == 1:
        first.node = node
        first._rg = True
        if entry.out_saved:  # the backward reads the output: changing it in place is caught
            node.out_data = first.array
            node.out_version = first._version = [0]
        return
    call.pending = [None] * len(slots)
    call.dtypes = [(tensors[s].array.shape, tensors[s].array.dtype) for s in slots]
    for j, s in enumerate(slots):
        t = tensors[s]
        t.node = Node(_selector(j), (node,), ((),), (float64,), (), call, type(t))
        t._rg = True


# ---------------------------------------------------------------- the nodes' rules
def _gathered(node, g, wrap=None):
    """The gradients of the differentiable outputs, in order (zeros where none came)."""
    call = node.attrs
    if call.pending is None:
        return [g]
    mask = int(g.array if wrap is not None else g)
    pending, call.pending = call.pending, [None] * len(call.pending)
    out = []
    for j, p in enumerate(pending):
        if p is None or not (j >= 52 or mask >> j & 1):
            shape, dtype = call.dtypes[j]
            p = host.zeros(shape, dtype)  # host-ok: traces are of numpy arrays
            if wrap is not None:
                p = wrap(p)
        out.append(p)
    return out


def _arrays(node, g):
    call = node.attrs
    if call.pending is None:  # one differentiable output
        gs = (g if type(g) is ndarray else host.asarray(g),)  # host-ok: numpy traces
    else:
        gs = [x if type(x) is ndarray else host.asarray(x)  # host-ok: numpy traces
              for x in _gathered(node, g)]
    try:
        return call.entry.backward(*gs, *node.saved[-1])
    except GuardFailed:  # a branch of the traced backward would go the other way: eagerly
        call.compiled.guard_failed(call.key)
        cls = node.out_cls
        grads = _eager_grads(node, [cls.wrap(x) for x in gs], False)
        return [None if t is None else t.array for t in grads]


def _vjp(node, g):
    """The recording form: the program on arrays when nothing records; under create_graph
    the call again, eagerly, differentiated with create_graph."""
    cls = type(g)
    if not state.enabled:
        return [None if x is None else cls.wrap(x) for x in _arrays_from_tensors(node, g)]
    call = node.attrs
    gs = _gathered(node, g, cls.wrap)
    call.compiled.mark_eager(call.key, "create_graph through a compiled function")
    return _eager_grads(node, gs, True)


def _eager_grads(node, gs, create_graph: bool):
    """The call's input gradients by running it again eagerly (its sources unchanged since,
    as any saved tensor must be) and differentiating that."""
    call = node.attrs
    for t, v in zip(call.sources, call.versions):
        if t.version != v:
            raise node.out_cls.dialect.saved_modified(t, node, False, t.version, v)
    with GradMode(True):
        leaves, _ = flatten(call.compiled.fn(*call.args, **call.kwargs))
    tensors = [x for x in leaves if isinstance(x, Tensor)]
    outs = [tensors[i] for i in call.entry.diff_leaves]
    rg = [call.sources[i] for i in call.entry.rg_sources]
    return autograd.grad(outs, rg, grad_outputs=gs, create_graph=create_graph,
                         allow_unused=True)


def _arrays_from_tensors(node, g):
    call = node.attrs
    if call.pending is not None:
        g = g.array
        call.pending = [None if p is None else p.array for p in call.pending]
        return _arrays(node, g)
    return _arrays(node, g.array)


COMPILED = OpDef("compiled", _vjp)
COMPILED.arrays = _arrays

_SELECTORS: list = []


def _selector(j: int) -> OpDef:
    while len(_SELECTORS) <= j:
        k = len(_SELECTORS)

        def park(node, g, k=k):
            node.attrs.pending[k] = g
            return (host.array(2.0 ** min(k, 52)),)  # host-ok: traces are of numpy arrays

        def park_tensor(node, g, k=k):
            node.attrs.pending[k] = g
            return (type(g).wrap(host.array(2.0 ** min(k, 52))),)  # host-ok: numpy traces

        op = OpDef("compiled", park_tensor)
        op.arrays = park
        _SELECTORS.append(op)
    return _SELECTORS[j]


def flatten(obj):
    """(leaves, spec) of a result made of tuples, lists and dicts."""
    t = type(obj)
    if t is not tuple and t is not list and t is not dict:
        return [obj], None
    leaves, specs = [], []
    for x in (obj.values() if t is dict else obj):
        lv, sp = flatten(x)
        leaves.extend(lv)
        specs.append(sp)
    return leaves, ((dict, list(obj), specs) if t is dict else (t, specs))
