"""The backward scheduler: an iterative walk with dependency counts.

Pass 1 counts, for every node and grad-requiring leaf reachable from the roots,
how many edges lead into it (restricted to nodes on a path to ``inputs`` when
those are given).  Pass 2 runs a node's rule once all its incoming gradients
have arrived, frees what it saved unless ``retain_graph``, and hands each
parent its share.  No recursion, so depth is bounded only by memory.
"""
from __future__ import annotations

from .mode import state
from .tensor import Node, Tensor


def _ops():
    from .ops import elementwise, shape
    return elementwise, shape


def _collect(root_nodes):
    """All nodes reachable from root_nodes, parents before children reversed (post-order)."""
    order = []
    seen = set()
    stack = [(n, False) for n in root_nodes]
    while stack:
        n, done = stack.pop()
        if done:
            order.append(n)
            continue
        k = id(n)
        if k in seen:
            continue
        seen.add(k)
        stack.append((n, True))
        for p in n.parents:
            if type(p) is Node and id(p) not in seen:
                stack.append((p, False))
    return order  # every node after all of its parents


def _needed(root_nodes, targets):
    """ids of nodes from which some target (a node or leaf id) can be reached."""
    needed = {k for k in targets}
    for n in _collect(root_nodes):
        for p in n.parents:
            if p is not None and (id(p) in targets or id(p) in needed):
                needed.add(id(n))
                break
    return needed


def _count(root_nodes, needed):
    deps = {}
    stack = list(root_nodes)
    seen = {id(n) for n in root_nodes}
    while stack:
        n = stack.pop()
        for p in n.parents:
            if p is None:
                continue
            k = id(p)
            if needed is not None and type(p) is Node and k not in needed:
                continue
            deps[k] = deps.get(k, 0) + 1
            if k not in seen and type(p) is Node:
                seen.add(k)
                stack.append(p)
    return deps


def run_backward(roots, seeds, retain_graph: bool = False, create_graph: bool = False,
                 inputs=None, accumulate: bool = True):
    """Send ``seeds`` (one per root, already shaped) back through the graph.

    With ``accumulate`` the gradients land in the ``.grad`` of leaves (only of
    ``inputs`` when given); otherwise the gradients of ``inputs`` are returned
    as a list (None where no path leads).
    """
    elementwise, shape = _ops()
    add, cast, sum_to = elementwise.add, elementwise.cast, shape.sum_to
    pending = {}
    root_nodes = []
    for r, s in zip(roots, seeds):
        key = r.node if r.node is not None else r
        k = id(key)
        pending[k] = s if k not in pending else add(pending[k], s)
        if r.node is not None:
            root_nodes.append(r.node)

    targets = None
    captured = {}
    if inputs is not None:
        targets = {id(t.node if t.node is not None else t): t for t in inputs}
        needed = _needed(root_nodes, targets)
        root_nodes = [n for n in root_nodes if id(n) in needed or id(n) in targets]
    else:
        needed = None
    deps = _count(root_nodes, needed)

    # roots that are leaves, or roots fed only by the seed
    for r in roots:
        if r.node is None:
            k = id(r)
            if k in pending and deps.get(k, 0) == 0:
                _deliver(r, pending.pop(k), targets, captured, accumulate, create_graph)
    ready = [n for n in {id(n): n for n in root_nodes}.values() if deps.get(id(n), 0) == 0]

    prev_mode = state.enabled
    state.enabled = create_graph
    try:
        while ready:
            n = ready.pop()
            k = id(n)
            g = pending.pop(k, None)
            if n.released and (n.released == 2 or n.out_cls.dialect.refuse_rerun_without_saved):
                raise n.out_cls.dialect.released_graph(n)
            if targets is not None and k in targets:
                captured[k] = g
            grads = n.op.vjp(n, g) if g is not None else None
            if not retain_graph:
                n.release()
            parents = n.parents
            for i, p in enumerate(parents):
                if p is None:
                    continue
                pk = id(p)
                if needed is not None and type(p) is Node and pk not in needed:
                    continue
                gi = grads[i] if grads is not None else None
                if gi is not None:
                    for j in range(i):
                        if grads[j] is gi:  # one gradient sent to two inputs: own each
                            gi = type(gi).wrap(gi.array.copy()) if gi.node is None else gi
                            break
                    if gi.array.shape != n.shapes[i]:
                        gi = sum_to(gi, n.shapes[i])
                    if gi.array.dtype != n.dtypes[i]:
                        gi = cast(gi, n.dtypes[i])
                    prev = pending.get(pk)
                    pending[pk] = gi if prev is None else add(prev, gi)
                c = deps[pk] - 1
                deps[pk] = c
                if c == 0:
                    if type(p) is Node:
                        ready.append(p)
                    else:
                        gp = pending.pop(pk, None)
                        if gp is not None:
                            _deliver(p, gp, targets, captured, accumulate, create_graph)
    finally:
        state.enabled = prev_mode

    if not accumulate:
        return [captured.get(id(t.node if t.node is not None else t)) for t in inputs]
    return None


def _deliver(leaf, g, targets, captured, accumulate, create_graph):
    k = id(leaf)
    if targets is not None:
        if k not in targets:
            return
        if not accumulate:
            captured[k] = g
            return
    if accumulate:
        accumulate_grad(leaf, g, create_graph)


def accumulate_grad(leaf: Tensor, g: Tensor, create_graph: bool = False) -> None:
    """Add ``g`` into ``leaf.grad``, keeping the grad tensor object when it exists."""
    old = leaf.grad
    if old is None:
        if not create_graph and g.node is not None:
            g = g.detach()
        leaf.grad = g
    elif create_graph or old.node is not None:
        from .ops.elementwise import add
        leaf.grad = add(old, g)
    else:
        old.array = old.array + g.array
    if leaf.dialect.grad_requires_grad and leaf.grad.node is None:
        leaf.grad.requires_grad = True


def prepare_seeds(roots, grads, dialect_of=None):
    """Check the gradient given for each root, or make the implicit one."""
    from .ops.creation import ones_like_array
    seeds = []
    for i, (r, g) in enumerate(zip(roots, grads)):
        d = r.dialect
        if g is None:
            if r.array.size != 1 and not d.implicit_seed_any_shape:
                raise d.implicit_seed(r)
            seeds.append(type(r).wrap(ones_like_array(r.array)))
            continue
        if not isinstance(g, Tensor):
            raise TypeError(f"gradient {i} must be a tensor, not {type(g).__name__}")
        if g.array.shape != r.array.shape:
            if g.array.size == r.array.size and d.implicit_seed_any_shape:
                g = type(g).wrap(g.array.reshape(r.array.shape))
            else:
                raise d.seed_shape(i, g.array.shape, r.array.shape)
        if g.array.dtype != r.array.dtype:
            g = type(g).wrap(g.array.astype(r.array.dtype))
        elif not g.requires_grad:
            g = type(g).wrap(g.array.copy())  # never let the caller's tensor become a .grad
        seeds.append(g)
    return seeds


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph: bool = False,
             inputs=None) -> None:
    """Accumulate d(tensors)/d(leaves) into the leaves' ``.grad``."""
    tensors = list(tensors)
    grads = list(grad_tensors) if grad_tensors is not None else [None] * len(tensors)
    if len(grads) != len(tensors):
        raise RuntimeError(f"got {len(grads)} gradients for {len(tensors)} tensors")
    keep_roots, keep_grads = [], []
    for i, (t, g) in enumerate(zip(tensors, grads)):
        if not t.requires_grad:
            if t.dialect.silent_backward_without_grad:
                continue
            raise t.dialect.root_without_grad(i)
        keep_roots.append(t)
        keep_grads.append(g)
    if not keep_roots:
        return
    if retain_graph is None:
        retain_graph = create_graph
    seeds = prepare_seeds(keep_roots, keep_grads)
    run_backward(keep_roots, seeds, bool(retain_graph), create_graph, inputs)
