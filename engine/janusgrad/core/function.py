"""Custom differentiable functions: a user's forward and backward as one graph node.

One call of a custom function becomes one *call node* whose parents are the
inputs and whose rule runs the user's backward with the call's context.  The
scheduler knows one gradient per node, so a call with several differentiable
outputs gives each output a *selector node* (parent: the call node): a
selector parks its output's gradient in the context and sends the call node a
0-d token whose value is ``2**j``.  The tokens are summed like any gradient,
so the call node learns which outputs fed it in this pass and runs after all
of them; no change to the scheduler is needed.

Everything a dialect words differently (error texts, how gradients line up
with inputs) is a method or class flag of ``Context``, which each frontend
subclasses.  The user's ``ctx`` object is an instance of that subclass.
"""
from __future__ import annotations

import weakref

from janusgrad.array.backend import MODULES, as_array, float64
from janusgrad.core.mode import state
from janusgrad.core.tensor import FREED, Node, Tensor, record
from janusgrad.ops import OpDef

_TOKEN_DTYPE = float64
_TOKEN_SHAPES = ((),)
_TOKEN_DTYPES = (_TOKEN_DTYPE,)
_MASK_BITS = 52  # outputs beyond this share the "all of them" mask (exact in float64)


class FunctionOp(OpDef):
    """The op of one custom-function class (call node); ``index`` >= 0 marks a selector."""

    __slots__ = ("index", "_selectors")

    def __init__(self, name: str, index: int = -1) -> None:
        super().__init__(name, _select_rule if index >= 0 else _call_rule)
        self.index = index
        self._selectors: list = []

    def selector(self, j: int) -> FunctionOp:
        sel = self._selectors
        while len(sel) <= j:
            sel.append(FunctionOp(self.name, len(sel)))
        return sel[j]


class _SavedOutput:
    """A saved output, kept without a strong reference to its node (no cycle)."""

    __slots__ = ("array", "version", "node_ref", "cls")

    def __init__(self, t: Tensor) -> None:
        self.array = t.array
        self.version = t.shared_version()
        self.node_ref = weakref.ref(t.node)
        self.cls = type(t)

    def unpack(self) -> Tensor:
        t = self.cls.wrap(self.array)
        t._version = self.version
        node = self.node_ref()
        if node is not None:
            t.node = node
            t.requires_grad = True
        return t


class Context:
    """The state of one call, shared by its forward and backward (the user's ``ctx``).

    Attributes a user may read: ``needs_input_grad``.  The engine keeps its own
    state in underscore attributes; users may set any other attribute.
    """

    # -- dialect policy (frontends override)
    # torch hands backward a slot (None) for every output, paddle only for tensor outputs.
    grad_slot_for_non_tensor_output = True
    # sequence types of forward's return that count as several outputs
    output_sequences: tuple = (tuple,)
    # paddle: forward returning an input changes it in place (unless marked not inplace)
    returned_input_is_inplace = False
    # torch drops a gradient sent to an input that needs none; paddle refuses it.
    refuse_grad_for_stopped_input = False
    # torch: a gradient broadcastable from the input's shape is summed back; paddle: must match
    exact_grad_shape = False
    # paddle: backward may return fewer gradients than inputs when the rest need none,
    # but no extra ones; torch: exactly one per input, extra trailing Nones allowed.
    short_grads_allowed = False
    # paddle checks each returned value's type before counting them; torch counts first
    types_before_count = False
    # paddle hands backward its incoming gradients flagged as needing grad (stop_gradient=False)
    flag_incoming_grads = False

    _materialize = True
    _node_ref = None

    def __init__(self) -> None:
        self._to_save = None
        self._non_diff = None
        self._dirty = None
        self._not_inplace = None
        self.needs_input_grad = ()
        self._tensor_inputs = ()

    # -- the user's API (frontends expose these under their names)
    def save_for_backward(self, *tensors) -> None:
        self._to_save = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        self._non_diff = _ids(self._non_diff, tensors)

    def mark_dirty(self, *tensors) -> None:
        self._dirty = _ids(self._dirty, tensors)

    def mark_not_inplace(self, *tensors) -> None:
        self._not_inplace = _ids(self._not_inplace, tensors)

    def set_materialize_grads(self, value: bool) -> None:
        self._materialize = bool(value)

    def saved_values(self) -> tuple:
        """What was saved, checked against in-place changes since (``ctx.saved_tensors``)."""
        ref = self._node_ref
        if ref is None:  # in forward, or no graph recorded
            return ()
        node = ref()
        if node is None or node.released == FREED:
            raise self.released_error(node)
        if not node.saved:
            return ()
        out = []
        for s, v in zip(node.saved, node.versions):
            if type(s) is _SavedOutput:
                now = s.version[0]
                s = s.unpack()
            else:
                now = s.version if isinstance(s, Tensor) else v
            if now != v:
                raise self.modified_error(s, v, now)
            out.append(s)
        return tuple(out)

    # -- hooks for the frontends
    def run_backward(self, grads: list):
        """Call the user's backward with ``grads`` (one per output slot)."""
        raise NotImplementedError

    def released_error(self, node) -> Exception:
        cls = node.out_cls if node is not None else Tensor
        return cls.dialect.released_graph(node)

    def modified_error(self, tensor, expected: int, now: int) -> Exception:
        return tensor.dialect.saved_modified(tensor, tensor.node, False, now, expected)

    def count_error(self, expected: int, got: int) -> Exception:
        return RuntimeError(f"backward returned {got} gradients, expected {expected}")

    def missing_error(self, index: int) -> Exception:
        return RuntimeError(f"backward returned no gradient for input {index}")

    def type_error(self, index: int, value) -> Exception:
        return TypeError(f"backward returned a {type(value).__name__} at position {index}")

    def non_tensor_input_error(self, index: int) -> Exception:
        return RuntimeError(f"backward returned a gradient for input {index}, not a tensor")

    def stopped_input_error(self, index: int, value) -> Exception:
        return RuntimeError(f"backward returned a gradient for input {index}, which needs none")

    def shape_error(self, index: int, grad_shape, input_shape) -> Exception:
        return RuntimeError(f"backward returned a gradient of shape {tuple(grad_shape)} for "
                            f"input {index} of shape {tuple(input_shape)}")

    def leaf_inplace_error(self, tensor) -> Exception:
        return tensor.dialect.inplace_on_leaf(False, tensor)

    # -- the engine's part
    @property
    def node_name(self) -> str:
        ref = self._node_ref
        node = ref() if ref is not None else None
        return node.op.name if node is not None else type(self).__name__


def _ids(prev, tensors) -> set:
    s = set() if prev is None else prev
    s.update(id(t) for t in tensors)
    return s


def apply(op: FunctionOp, ctx: Context, inputs, run_forward):
    """Run ``run_forward()`` without grad and record the call against ``inputs``.

    ``inputs`` are the values gradients line up with (backward returns one per
    input).  Returns forward's result with its differentiable tensor outputs
    attached to the graph.
    """
    if state.tracing is not None:  # its backward is Python a trace cannot replay
        state.tracing.escape("a custom autograd function")
    needs = tuple(isinstance(a, Tensor) and a.requires_grad for a in inputs)
    ctx.needs_input_grad = needs
    ctx._tensor_inputs = tuple(isinstance(a, Tensor) for a in inputs)
    prev = state.enabled
    state.enabled = False
    try:
        result = run_forward()
    finally:
        state.enabled = prev
    record = prev and any(needs)

    seq = isinstance(result, ctx.output_sequences)
    outs = list(result) if seq else [result]
    input_ids = {id(a) for a in inputs if isinstance(a, Tensor)}
    non_diff = ctx._non_diff or ()
    dirty = ctx._dirty or ()
    not_inplace = ctx._not_inplace or ()

    diff = []  # positions of differentiable outputs
    out_meta = []  # per output: (shape, dtype, cls, array module) for tensors, else None
    cls = None
    for j, o in enumerate(outs):
        if not isinstance(o, Tensor):
            out_meta.append(None)
            continue
        cls = cls or type(o)
        # the array module too: a missing gradient is made as zeros on the output's device
        out_meta.append((o.array.shape, o.array.dtype, type(o), MODULES[type(o.array)]))
        k = id(o)
        if k in input_ids:
            inplace = k in dirty or (ctx.returned_input_is_inplace and k not in not_inplace)
            if inplace:
                if o.requires_grad and o.node is None and record:
                    raise ctx.leaf_inplace_error(o)
                o.bump_version()  # the call itself counts as the in-place change
            else:  # a fresh tensor sharing the input's data, as a view would
                outs[j] = o = o.detach()
        elif o.node is not None:  # forward recorded a graph of its own: cut it
            outs[j] = o = o.detach()
        if record and k not in non_diff and o.array.dtype.kind in "fc":
            diff.append(j)

    if record and diff:
        parents = []
        shapes = []
        dtypes = []
        for a in inputs:
            if isinstance(a, Tensor) and a.requires_grad:
                parents.append(a.node or a)
                shapes.append(a.array.shape)
                dtypes.append(a.array.dtype)
            else:
                parents.append(None)
                shapes.append(None)
                dtypes.append(None)
        node = Node(op, tuple(parents), tuple(shapes), tuple(dtypes), (), ctx, cls)
        ctx._node_ref = weakref.ref(node)
        ctx._out_meta = out_meta
        if len(diff) == 1:
            ctx._single = diff[0]
            _attach(outs[diff[0]], node)
        else:
            ctx._single = -1
            ctx._pending = [None] * len(outs)
            for j in diff:
                sel = Node(op.selector(j), (node,), _TOKEN_SHAPES, _TOKEN_DTYPES, (), ctx,
                           type(outs[j]))
                _attach(outs[j], sel)
        _save(node, ctx, outs, diff)
    ctx._to_save = None  # what was saved now lives on the node
    if seq:  # a tuple subclass (namedtuple) comes back as a plain tuple, as in torch
        return outs if type(result) is list else tuple(outs)
    return outs[0]


def _attach(t: Tensor, node: Node) -> None:
    t.node = node
    t.requires_grad = True


def _save(node: Node, ctx: Context, outs, diff) -> None:
    to_save = ctx._to_save
    if not to_save:
        return
    out_ids = {id(outs[j]): j for j in diff}
    saved = []
    versions = []
    for s in to_save:
        if isinstance(s, Tensor):
            versions.append(s.version)
            saved.append(_SavedOutput(s) if id(s) in out_ids else s)
        else:
            versions.append(0)
            saved.append(s)
    node.saved = tuple(saved)
    node.versions = tuple(versions)


def _select_rule(node: Node, g):
    """A selector parks its output's gradient and signals the call node."""
    ctx = node.attrs
    j = node.op.index
    ctx._pending[j] = g
    # the token is bookkeeping, not a gradient: a host array, which the call node reads
    # without a device sync and which outputs on different devices can still sum
    return (type(g).wrap(as_array(2.0 ** min(j, _MASK_BITS), _TOKEN_DTYPE)),)


def _call_rule(node: Node, g):
    ctx = node.attrs
    meta = ctx._out_meta
    n_out = len(meta)
    if ctx._single >= 0:
        grads = [None] * n_out
        grads[ctx._single] = g
    else:
        mask = int(g.array)
        pending = ctx._pending
        ctx._pending = [None] * n_out
        grads = [p if (j >= _MASK_BITS or mask >> j & 1) else None
                 for j, p in enumerate(pending)]
    if ctx.flag_incoming_grads and not state.enabled:
        for j, gj in enumerate(grads):
            if gj is not None and not gj.requires_grad:
                gj = grads[j] = type(gj).wrap(gj.array)
                gj.requires_grad = True
    if ctx._materialize:
        for j, m in enumerate(meta):
            if m is not None and grads[j] is None:
                grads[j] = m[2].wrap(m[3].zeros(m[0], dtype=m[1]))
    if not ctx.grad_slot_for_non_tensor_output:
        grads = [gj for gj, m in zip(grads, meta) if m is not None]
    result = ctx.run_backward(grads)
    return check_grads(ctx, node, result)


def check_grads(ctx: Context, node: Node, result) -> tuple:
    """One gradient per input, or the dialect's error for what backward returned."""
    res = result if type(result) is tuple else (result,)
    if ctx.types_before_count:
        _check_types(ctx, res)
    parents = node.parents
    n_in = len(parents)
    n = len(res)
    if n > n_in:
        if ctx.short_grads_allowed or any(r is not None for r in res[n_in:]):
            raise ctx.count_error(n_in, n)
        res = res[:n_in]
    elif n < n_in:
        if not ctx.short_grads_allowed:
            raise ctx.count_error(n_in, n)
        for i in range(n, n_in):
            if parents[i] is not None:
                raise ctx.missing_error(i)
        res = res + (None,) * (n_in - n)
    if not ctx.types_before_count:
        _check_types(ctx, res)
    out = []
    for i, (gi, p) in enumerate(zip(res, parents)):
        if gi is None:
            out.append(None)
            continue
        if p is None:
            if not ctx._tensor_inputs[i]:
                raise ctx.non_tensor_input_error(i)
            if ctx.refuse_grad_for_stopped_input:
                raise ctx.stopped_input_error(i, gi)
            out.append(None)
            continue
        want = node.shapes[i]
        got = gi.array.shape
        if got != want and (ctx.exact_grad_shape or not _expandable(want, got)):
            raise ctx.shape_error(i, got, want)
        out.append(gi)
    return tuple(out)


def _check_types(ctx: Context, res) -> None:
    for i, gi in enumerate(res):
        if gi is not None and not isinstance(gi, Tensor):
            raise ctx.type_error(i, gi)


def _expandable(shape, target) -> bool:
    """Whether ``shape`` broadcasts to ``target`` (so a gradient of ``target`` sums back)."""
    if len(shape) > len(target):
        return False
    for a, b in zip(reversed(shape), reversed(target)):
        if a != b and a != 1:
            return False
    return True


def once_differentiable(backward, error_op: OpDef):
    """``backward`` run without recording a graph; when grad mode is on, each tensor it
    returns is made the output of an ``error_op`` node over the inputs that need grad,
    so differentiating the gradient again raises what ``error_op``'s rule raises."""
    def wrapper(ctx, *args):
        prev = state.enabled
        state.enabled = False
        try:
            outputs = backward(ctx, *args)
        finally:
            state.enabled = prev
        if not prev:
            return outputs
        needing = [a for a in args if isinstance(a, Tensor) and a.requires_grad]
        if not needing:
            return outputs
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        wrapped = tuple(record(error_op, o.array, needing, cls=type(o))
                        if isinstance(o, Tensor) else o for o in outs)
        return wrapped[0] if single else wrapped
    return wrapper
