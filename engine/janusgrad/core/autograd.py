"""The backward scheduler: an iterative walk with dependency counts.

Pass 1 counts, for every node and grad-requiring leaf reachable from the roots,
how many edges lead into it (restricted to nodes on a path to ``inputs`` when
those are given).  Pass 2 runs a node's rule once all its incoming gradients
have arrived, frees what it saved unless ``retain_graph``, and hands each
parent its share.  No recursion, so depth is bounded only by memory.

Before a rule runs, the output's hooks see (and may replace) its summed
gradient, and what the rule saved is checked against in-place changes since
(version counters).  A leaf's hooks run once, before its ``.grad`` is updated.
``grad`` returns gradients instead of accumulating them; a requested non-leaf
whose own inputs are not requested is not expanded.  Under anomaly detection
each rule's output is checked for NaN and a failure shows the forward stack.

A backward that records nothing (no create_graph, no anomaly mode) passes bare arrays
instead of tensors: each op's rule runs in the array namespace (``OpDef.arrays``: no Tensor
per gradient, no dispatch per op of the rule) where it has one and does not decline, else
in the engine's (``OpDef.vjp``) on a tensor around the array.  create_graph passes tensors,
so that the rules are recorded.
"""
from __future__ import annotations

import operator

from janusgrad.array.backend import MODULES, as_array, device_of, host, ndarray
from janusgrad.array.backend import quiet as backend_quiet
from janusgrad.core import anomaly as anomaly_checks
from janusgrad.core.hooks import run_post, run_pre
from janusgrad.core.links import attached, linked_grads
from janusgrad.core.mode import anomaly, restore_grad, set_grad, state
from janusgrad.core.tensor import FREED, LAST_CHANGE, RAN, Node, Tensor
from janusgrad.core.views import NOGRAD_VIEWS
from janusgrad.ops import OpDef
from janusgrad.ops.elementwise import add, cast
from janusgrad.ops.placement import to_device
from janusgrad.ops.shape import sum_to, sum_to_array


def _collect(root_nodes):
    """All nodes reachable from root_nodes, every node after all of its parents: by sequence
    number, since a node is always made after its inputs' nodes (one push per node, and no
    post-order bookkeeping)."""
    seen = {id(n): n for n in root_nodes}
    stack = list(seen.values())
    while stack:
        for p in stack.pop().parents:
            if type(p) is Node and id(p) not in seen:
                seen[id(p)] = p
                stack.append(p)
    return sorted(seen.values(), key=_by_seq)


_by_seq = operator.attrgetter("seq")


def _needed(order, targets, stop):
    """ids of the nodes (of ``order``, from _collect) on a path from the roots to some
    target (targets included), and of those among them whose rule must run (a parent is on
    such a path).

    ``stop`` holds ids of tensors (nodes or leaves) the gradient must not pass.
    """
    needed = set(targets)
    through = set()
    for n in order:
        k = id(n)
        if k in stop:
            continue
        for p in n.parents:
            if p is not None and id(p) in needed and id(p) not in stop:
                needed.add(k)
                through.add(k)
                break
    return needed, through


def _count_needed(order, roots: dict, needed) -> dict:
    """``_count`` restricted to ``needed``, over ``order`` (from _collect) instead of a
    walk: children come before parents in its reverse, so a node is reached from the roots
    through needed nodes exactly when some reached node has counted an edge into it."""
    deps = dict.fromkeys(roots, 0)
    for n in reversed(order):
        if id(n) not in deps:
            continue
        for p in n.parents:
            if p is None:
                continue
            k = id(p)
            if k in needed:
                deps[k] = deps.get(k, 0) + 1
    return deps


def _count(roots: dict):
    """For every node and leaf below the root nodes (``roots``: by id), how many edges
    lead into it (the roots start at 0: a root reached again is counted, not walked)."""
    deps = dict.fromkeys(roots, 0)
    stack = list(roots.values())
    while stack:
        n = stack.pop()
        for p in n.parents:
            if p is None:
                continue
            k = id(p)
            c = deps.get(k)
            if c is None:
                deps[k] = 1
                if type(p) is Node:
                    stack.append(p)
            else:
                deps[k] = c + 1
    return deps


def check_versions(n) -> None:
    """Refuse to use what ``n`` saved when it was changed in place since."""
    d = n.out_cls.dialect
    saved = n.saved
    if saved:
        expected = n.versions
        for i, s in enumerate(saved):
            if isinstance(s, Tensor):
                v = s._version
                now = 0 if v is None else v[0]
                was = 0 if expected is None else expected[i]
                if now != was:
                    raise d.saved_modified(s, n, False, now, was)
    ov = n.out_version
    if ov is not None and n.out_data is not None:
        counter, was = ov if type(ov) is tuple else (ov, 0)  # (counter, version) after in place
        if counter[0] != was:
            raise d.saved_modified(None, n, True, counter[0], was)


_np_add = host.add  # host-ok: numpy's, for numpy arrays only
_np_array = host.array  # host-ok: numpy's, for numpy arrays only


def _read_only(a) -> bool:
    """Whether writing into ``a`` would fail or reach other elements: numpy's read-only
    views, and (for device arrays, which have no such flag) views that repeat elements."""
    if type(a) is ndarray:
        return not a.flags.writeable
    return a.size > 1 and 0 in a.strides


def _plain(seeds) -> bool:
    for s in seeds:
        if s._rg:
            return False
    return True


def _arr(g):
    """A gradient as an array: numpy makes scalars of 0-d results, which rules on arrays keep
    (cheaper) until a tensor needs the array or a sum is added into."""
    return g if type(g) is ndarray else as_array(g)


def _reads_only(p) -> bool:
    """Whether a gradient sent to ``p`` is only read: a node without hooks whose rule makes
    new arrays from it (OpDef.fresh), never passing it on."""
    return type(p) is Node and p.hooks is None and type(p.op) is OpDef and p.op.fresh


def _add_into(total, more) -> None:
    """total += more, in the module of ``total`` (shapes and dtypes agree here)."""
    if type(total) is ndarray:
        _np_add(total, more, out=total)
    else:
        MODULES[type(total)].add(total, more, out=total)


def _check_saved(n) -> None:
    """check_versions where something may have changed: only nodes older than the last
    in-place write, that saved something."""
    if n.seq < LAST_CHANGE[0] and (n.saved or n.out_version is not None):
        check_versions(n)


def _release(n) -> None:
    """Free what the node's rule saved, after a run without retain_graph."""
    n.released = FREED if (n.saved or n.out_data is not None) else RAN
    n.saved = n.out_data = None


def _apply(n, g, create_graph):
    """Run node ``n``'s rule on ``g`` (after the output's hooks): its input gradients."""
    if n.hooks is not None and n.hooks.pre:
        g = run_pre(n.hooks, g, create_graph)
    if type(n.op) is OpDef:
        _check_saved(n)  # custom functions check what they unpack, when they do
    return g, n.op.vjp(n, g)


def _apply_arrays(n, g, create_graph):
    """``_apply`` with bare arrays for gradients: the op's rule on arrays where it has that
    form, else its rule on a tensor around ``g`` (hooks, too, see tensors)."""
    if n.hooks is not None and n.hooks.pre:
        g = run_pre(n.hooks, n.out_cls.wrap(_arr(g)), False).array
    op = n.op
    if type(op) is OpDef:
        _check_saved(n)
        run = op.arrays
        if run is not None:
            grads = run(n, g)
            if grads is not None:
                return g, grads
    return g, _tensor_rule(n, g)


def _tensor_rule(n, g) -> list:
    """The node's rule on tensors run on an array gradient: array gradients back."""
    return [None if t is None else t.array for t in n.op.vjp(n, n.out_cls.wrap(_arr(g)))]


def _plus_arrays(a, b):
    return _arr(a + b)


def _into_tensors(total, more) -> None:
    _add_into(total.array, more.array)


def _astype(g, dtype):
    return g.astype(dtype)


def _wrap_array(g, cls):
    return cls.wrap(_arr(g))


def _same(g, cls):
    return g


class _Form:
    """How gradients travel through one backward: as bare arrays (nothing is recorded) or
    as tensors (create_graph, anomaly mode, a seed that requires grad)."""

    __slots__ = ("arrays", "apply", "plus", "into", "cast", "reduce_to", "tensor")

    def __init__(self, arrays, apply, plus, into, cast, reduce_to, tensor) -> None:
        self.arrays = arrays
        self.apply = apply  # (node, g, create_graph) -> (g after hooks, input gradients)
        self.plus = plus  # a new sum of two gradients
        self.into = into  # add a gradient into a sum the scheduler made
        self.cast = cast
        self.reduce_to = reduce_to  # sum a broadcast gradient down to a shape
        self.tensor = tensor  # (g, cls) -> a tensor, for hooks, .grad and results


ARRAY_FORM = _Form(True, _apply_arrays, _plus_arrays, _add_into, _astype,
                   sum_to_array, _wrap_array)
TENSOR_FORM = _Form(False, _apply, add, _into_tensors, cast, sum_to, _same)


def _input_grad(grads, i, n, form, narrow):
    """The per-input step: input ``i``'s gradient among the rule's ``grads`` (not None) as
    input ``i`` takes it: its own copy where the rule sent one gradient to an earlier input
    too, summed to the input's shape, cast to its dtype.

    (A rule may pass its gradient on unchanged, or as a view, to two inputs: two leaves'
    .grad would be one array.)  No copy where one of the two inputs only reads it
    (``_reads_only``), unless ``narrow`` (a grad() outside a trace, whose results the
    caller keeps); a graph tensor, or a seed that requires grad, stays itself.
    """
    gi = grads[i]
    arrays = form.arrays
    if i:
        for j in range(i):
            if grads[j] is gi:
                parents = n.parents
                if (arrays or (gi.node is None and not gi._rg)) and (
                        narrow or not (_reads_only(parents[j]) or _reads_only(parents[i]))):
                    gi = gi.copy() if arrays else type(gi).wrap(gi.array.copy())
                break
    a = gi if arrays else gi.array
    shape = n.shapes[i]
    if a.shape != shape:
        gi = form.reduce_to(gi, shape)  # (keeps the dtype)
    dt = n.dtypes[i]
    if a.dtype is not dt and a.dtype != dt:
        gi = form.cast(gi, dt)
    return gi


def _seed(roots, seeds, form):
    """The seeds summed per root (by id of its node, or of the root when a leaf), and the
    roots' nodes."""
    pending = {}
    root_nodes = []
    plus = form.plus
    for r, s in zip(roots, seeds):
        k = id(r.node if r.node is not None else r)
        s = s.array if form.arrays else s
        pending[k] = s if k not in pending else plus(pending[k], s)
        if r.node is not None:
            root_nodes.append(r.node)
    return pending, root_nodes


def _plan(root_nodes, inputs, stop):
    """What the walk visits: the requested inputs by id (None: all leaves), the ids of
    nodes on a path to them and of those whose rule must run (None: all), the root
    nodes by id, and each one's count of incoming edges."""
    if inputs is None:
        unique = {id(n): n for n in root_nodes}
        return None, None, None, unique, _count(unique)
    # (a view made under no_grad is no gradient sink: nothing is run for it, torch)
    targets = {id(t.node if t.node is not None else t): t for t in inputs
               if type(t._view) is not tuple or NOGRAD_VIEWS.get(id(t)) is not t}
    stop_ids = {id(t.node if t.node is not None else t) for t in stop or ()}
    order = _collect(root_nodes)
    needed, through = _needed(order, targets, stop_ids)
    unique = {id(n): n for n in root_nodes if id(n) in needed}
    return targets, needed, through, unique, _count_needed(order, unique, needed)


def _hooks_only(n, g, form, create_graph):
    """A requested input none of whose own inputs is requested: its hooks only."""
    if g is None:
        return None
    g = form.tensor(g, n.out_cls)
    if n.hooks is not None and n.hooks.pre:
        g = run_pre(n.hooks, g, create_graph)
    return g


def _rule(n, g, form, watch, create_graph):
    """Node ``n``'s input gradients from ``g`` (None for none), and ``g`` after its hooks."""
    if n.released and (n.released == FREED or n.out_cls.dialect.refuse_rerun_without_saved):
        raise n.out_cls.dialect.released_graph(n)
    op = n.op
    if g is None:
        return g, None
    if watch:
        g, grads = _apply_watched(n, g, create_graph)
    else:
        g, grads = form.apply(n, g, create_graph)
    if create_graph and grads is not None and type(op) is OpDef:
        links = n.out_cls.dialect.create_graph_links.get(op.name)
        if links is not None:  # what the framework's formula reads (janusgrad.core.links)
            grads = linked_grads(n, grads, links)
    return g, grads


def run_backward(roots, seeds, retain_graph: bool = False, create_graph: bool = False,
                 inputs=None, accumulate: bool = True, stop=None):
    """Send ``seeds`` (one per root, already shaped) back through the graph.

    With ``accumulate`` the gradients land in the ``.grad`` of leaves (only of
    ``inputs`` when given); otherwise the gradients of ``inputs`` are returned
    as a list (None where no path leads).  ``stop``: tensors the gradient must
    not pass through (paddle's no_grad_vars).
    """
    watch = anomaly.enabled
    # Bare arrays unless the backward is itself recorded, checked for NaN, or seeded with a
    # graph tensor (which must reach a root leaf's .grad as itself).
    form = ARRAY_FORM if not create_graph and not watch and _plain(seeds) else TENSOR_FORM
    arrays = form.arrays
    gcls = type(seeds[0]) if arrays else None
    tensor, plus, into = form.tensor, form.plus, form.into
    pending, root_nodes = _seed(roots, seeds, form)
    targets, needed, through, unique, deps = _plan(root_nodes, inputs, stop)
    narrow = targets is not None and state.tracing is None
    captured = {}

    # roots that are leaves, or roots fed only by the seed
    for r in roots:
        if r.node is None:
            k = id(r)
            if k in pending and deps.get(k, 0) == 0:
                _deliver(r, tensor(pending.pop(k), gcls), targets, captured, accumulate,
                         create_graph)
    ready = [n for k, n in unique.items() if deps[k] == 0]

    prev_mode = set_grad(create_graph)  # the rules record only for create_graph
    # pending sums made by the scheduler's own add (never seen by anyone else): further
    # gradients for the same input are added into them, without a new array each time.
    # (Keys are ids of nodes and leaves, all alive until the end and each popped once: a
    # popped id never comes back, so nothing is removed from ``owned``.)
    owned: set = set()
    quiet = backend_quiet()  # inf/nan in gradients are values, not warnings
    quiet.__enter__()
    state.rules += 1
    try:
        while ready:
            n = ready.pop()
            k = id(n)
            g = pending.pop(k, None)
            if through is not None and k not in through:
                captured[k] = _hooks_only(n, g, form, create_graph)
                continue
            op = n.op
            if arrays and not n.released and g is not None and n.hooks is None and \
                    type(op) is OpDef and op.arrays is not None:
                # _rule's common case, inline (one call less per node on long chains)
                if n.seq < LAST_CHANGE[0] and (n.saved or n.out_version is not None):
                    check_versions(n)
                grads = op.arrays(n, g)
                if grads is None:  # the rule declined bare arrays
                    grads = _tensor_rule(n, g)
            else:
                g, grads = _rule(n, g, form, watch, create_graph)
            if targets is not None and k in targets:
                captured[k] = tensor(g, gcls)
            if not retain_graph:  # (_release, inline)
                n.released = FREED if (n.saved or n.out_data is not None) else RAN
                n.saved = n.out_data = None
            for i, p in enumerate(n.parents):
                if p is None:
                    continue
                pk = id(p)
                if needed is not None and pk not in needed:
                    continue
                gi = grads[i] if grads is not None else None
                if gi is not None:
                    a = gi if arrays else gi.array
                    if i or a.shape != n.shapes[i] or a.dtype is not n.dtypes[i]:
                        gi = _input_grad(grads, i, n, form, narrow)  # (something to do)
                    prev = pending.get(pk)
                    if prev is None:
                        pending[pk] = gi
                    elif n.dtypes[i].kind in "biu" and n.out_cls.dialect.refuse_int_grad_sum:
                        raise n.out_cls.dialect.int_grad_sum(n.dtypes[i])
                    elif pk in owned:  # a sum the scheduler made itself: add into it
                        into(prev, gi)
                    else:
                        pending[pk] = plus(prev, gi)
                        if not create_graph:
                            owned.add(pk)
                c = deps[pk]
                if c > 1:
                    deps[pk] = c - 1
                elif type(p) is Node:
                    ready.append(p)
                else:
                    gp = pending.pop(pk, None)
                    if gp is not None:
                        _deliver(p, tensor(gp, gcls), targets, captured, accumulate,
                                 create_graph)
    finally:
        state.rules -= 1
        restore_grad(prev_mode)
        quiet.__exit__(None, None, None)

    if not accumulate:
        return [captured.get(id(t.node if t.node is not None else t)) for t in inputs]
    return None


def _apply_watched(n, g, create_graph):
    """_apply under anomaly detection: NaN checks, and the forward stack on failure."""
    try:
        g, grads = _apply(n, g, create_graph)
        anomaly_checks.check_nan(n, grads)
    except Exception:
        anomaly_checks.warn_failed(n)
        raise
    return g, grads


def _deliver(leaf, g, targets, captured, accumulate, create_graph):
    k = id(leaf)
    if type(leaf._view) is tuple and NOGRAD_VIEWS.get(k) is leaf:
        return  # torch: a view made under no_grad requires grad, yet gathers no gradient
    if type(g.array) is not type(leaf.array):  # a host 0-d leaf that joined a device op
        g = to_device(g, device_of(leaf.array))
    if targets is not None:
        if k not in targets:
            return
        if not accumulate:
            h = leaf._hooks
            if h is not None and h.pre and leaf.dialect.leaf_hooks_in_grad:
                g = run_pre(h, g, create_graph)
            captured[k] = g
            return
    if accumulate:
        h = leaf._hooks
        if h is None:
            accumulate_grad(leaf, g, create_graph)
            return
        if h.pre:
            g = run_pre(h, g, create_graph)
        accumulate_grad(leaf, g, create_graph)
        if h.post:
            run_post(h, leaf)


def accumulate_grad(leaf: Tensor, g: Tensor, create_graph: bool = False) -> None:
    """Add ``g`` into ``leaf.grad``, keeping the grad tensor object when it exists."""
    old = leaf._grad  # the slot, past any frontend's checks
    if old is None:
        if not create_graph and g.node is not None:
            g = g.detach()
        elif _read_only(g.array):  # a broadcast view (sum's rule): .grad must take zero_()
            g = type(g).wrap(g.array.copy())
        leaf._grad = g
    elif old.array.dtype.kind in "biu" and leaf.dialect.refuse_int_grad_sum:
        raise leaf.dialect.int_grad_sum(old.array.dtype)
    elif create_graph or old.node is not None:
        leaf._grad = add(old, g)
    else:
        old.array = _arr(old.array + g.array)  # 0-d arrays add to a numpy scalar
    if leaf.dialect.grad_requires_grad and leaf._grad.node is None:
        leaf._grad.requires_grad = True


def prepare_seeds(roots, grads):
    """Check the gradient given for each root, or make the implicit one."""
    seeds = []
    for i, (r, g) in enumerate(zip(roots, grads)):
        d = r.dialect
        if g is None:
            if r.array.size != 1 and not d.implicit_seed_any_shape:
                raise d.implicit_seed(r)
            a = r.array
            if type(a) is ndarray and not a.ndim:  # the usual loss: numpy's ones_like costs
                one = _np_array(1, a.dtype)     # as much as a small op; array() is C
            else:
                one = MODULES[type(a)].ones_like(a)  # on a's device
            seeds.append(type(r).wrap(one))
            continue
        if not isinstance(g, Tensor):
            raise TypeError(f"gradient {i} must be a tensor, not {type(g).__name__}")
        if g.array.shape != r.array.shape:
            if g.array.size == r.array.size and d.implicit_seed_any_shape:
                g = type(g).wrap(g.array.reshape(r.array.shape))
            else:
                raise d.seed_shape(i, g, r)
        if g.array.dtype != r.array.dtype:
            g = type(g).wrap(g.array.astype(r.array.dtype))
        elif not g.requires_grad:
            g = type(g).wrap(g.array.copy())  # never let the caller's tensor become a .grad
        seeds.append(g)
    return seeds


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph: bool = False,
             inputs=None) -> None:
    """Accumulate d(tensors)/d(leaves) into the leaves' ``.grad``."""
    if state.tracing is not None:  # a compiled function's trace replays no backward of its own
        state.tracing.escape("a backward inside the function")
    if (type(tensors) is tuple or type(tensors) is list) and len(tensors) == 1 and \
            grad_tensors is None and inputs is None and not create_graph:
        # the usual loss.backward(): through one node (a compiled call) without the lists
        t = tensors[0]
        a = t.array
        if t.node is not None and t._rg and type(a) is ndarray and not a.ndim and \
                _one_node(t, None, bool(retain_graph)):
            return
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
    if len(seeds) == 1 and inputs is None and not create_graph and \
            _one_node(keep_roots[0], seeds[0], bool(retain_graph)):
        return
    run_backward(keep_roots, seeds, bool(retain_graph), create_graph, inputs)


def _one_node(root, seed, retain_graph: bool) -> bool:
    """A backward through one node whose inputs are plain leaves (a compiled call's graph;
    ``seed`` None: ones, the root being a 0-d numpy array):
    the node's rule on arrays, then each leaf's accumulation, without the scheduler's walk.
    False, with nothing done, wherever the general path has more to do (hooks, views,
    anomaly mode, a seed that requires grad, a released graph, a non-leaf input)."""
    n = root.node
    if n is None or (seed is not None and seed._rg) or anomaly.enabled or \
            n.hooks is not None or n.released:
        return False
    op = n.op
    if type(op) is not OpDef or op.arrays is None:
        return False
    parents = n.parents
    for p in parents:
        if p is not None and (type(p) is Node or p._hooks is not None or
                              p._view is not None):
            return False
    _check_saved(n)
    if seed is None:  # (backward()'s implicit seed of a 0-d numpy root, made only now)
        seed = type(root).wrap(_np_array(1, root.array.dtype))
    g = seed.array
    prev_mode = set_grad(False)
    quiet = backend_quiet()
    quiet.__enter__()
    state.rules += 1
    try:
        grads = op.arrays(n, g)
        if grads is None:
            grads = _tensor_rule(n, g)
    finally:
        state.rules -= 1
        restore_grad(prev_mode)
        quiet.__exit__(None, None, None)
    if not retain_graph:
        _release(n)
    cls = type(seed)
    for i, p in enumerate(parents):
        if p is None or grads[i] is None:
            continue
        gi = _input_grad(grads, i, n, ARRAY_FORM, False)
        if type(gi) is type(p.array):  # (a plain leaf without hooks: _deliver's last step)
            accumulate_grad(p, cls.wrap(gi if type(gi) is ndarray else _arr(gi)))
        else:
            _deliver(p, _wrap_array(gi, cls), None, None, True, False)
    return True


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph: bool = False,
         allow_unused: bool = False, materialize: bool = False, stop=None) -> list:
    """d(outputs)/d(inputs) as a list (None for an unused input when ``allow_unused``).

    Only nodes on a path from ``outputs`` to ``inputs`` are visited; no ``.grad``
    is touched (except those a hook or retain_grad writes).
    """
    if state.tracing is not None:  # a compiled function's trace replays no backward of its own
        state.tracing.escape("a backward inside the function")
    outputs = list(outputs)
    inputs = list(inputs)
    grads = list(grad_outputs) if grad_outputs is not None else [None] * len(outputs)
    keep_roots, keep_grads = [], []
    for i, (t, g) in enumerate(zip(outputs, grads)):
        if not t.requires_grad:
            if t.dialect.silent_backward_without_grad:
                continue
            raise t.dialect.root_without_grad(i)
        keep_roots.append(t)
        keep_grads.append(g)
    without = []  # inputs that need no gradient, where the dialect takes them as unused
    for i, t in enumerate(inputs):
        if not t.requires_grad:
            err = t.dialect.input_without_grad(i)
            if err is not None:
                raise err
            without.append(i)
    if retain_graph is None:
        retain_graph = create_graph
    if keep_roots:
        seeds = prepare_seeds(keep_roots, keep_grads)
        result = run_backward(keep_roots, seeds, bool(retain_graph), create_graph, inputs,
                              accumulate=False, stop=stop)
    else:
        result = [None] * len(inputs)
    for i in without:
        result[i] = None
    for i, g in enumerate(result):
        if g is None:
            t = inputs[i]
            if materialize:
                a = t.array
                result[i] = type(t).wrap(MODULES[type(a)].zeros_like(a))
            elif not allow_unused:
                raise t.dialect.unused_input(i)
        elif not create_graph and g.node is not None:
            result[i] = g.detach()
        elif create_graph and inputs[i].dialect.create_graph_grads_require_grad:
            result[i] = attached(g)
    return result
