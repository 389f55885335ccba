"""Tensor and Node: the data structures of the graph, with no math in them (the
arithmetic operators are bound to engine ops by engine.ops.elementwise)."""
from __future__ import annotations

import itertools

from janusgrad.binding.dialect import DEFAULT
from janusgrad.core.anomaly import remember
from janusgrad.core.mode import INFERENCE_ON, anomaly, state

_seq = itertools.count()
_new = object.__new__
# The sequence number of the latest in-place change of any tensor (nodes take theirs from
# the same count): a node made after it saved nothing that has changed since.
LAST_CHANGE = [0]


class _NoVersion(list):
    """The version "counter" of an inference tensor: it does not count."""

    __slots__ = ()


INFERENCE = _NoVersion([0])


class Tensor:
    """An array, its gradient, and the node that made it (None for a leaf).

    ``version`` is a one-element list shared by tensors that share storage
    (detach, .array), created lazily: None means "version 0, never shared".
    Frontends subclass this with ``__slots__ = ()`` and add their own methods.
    """

    # ``grad`` and ``requires_grad`` are properties over the slots ``_grad`` and ``_rg``
    # (defined below the class): a frontend may put its own checks over the public names
    # while the engine, and wrap, use the slots directly.
    # ``_view``: None, or janusgrad.core.views' mark of a view (a tuple) or of a base (a list)
    __slots__ = ("array", "_grad", "node", "_rg", "_version", "_hooks",
                 "retains_grad", "_view", "__weakref__")
    dialect = DEFAULT

    def __init__(self, data, requires_grad: bool = False) -> None:
        self.array = data
        self._grad = None
        self.node = None
        self._rg = False
        self._version = None
        self._hooks = None
        self.retains_grad = False
        self._view = None
        if requires_grad:
            self.set_requires_grad(True)

    # -- construction without __init__, for the hot path
    @classmethod
    def wrap(cls, data):
        t = _new(cls)
        t.array = data
        t._grad = None
        t.node = None
        t._rg = False
        t._version = None
        t._hooks = None
        t.retains_grad = False
        t._view = None
        return t

    @property
    def is_leaf(self) -> bool:
        return self.node is None

    @property
    def version(self) -> int:
        v = self._version
        return 0 if v is None else v[0]

    def bump_version(self) -> None:
        """Record an in-place change of the data."""
        v = self._version
        if v is None:
            self._version = [1]
        elif v is not INFERENCE:
            v[0] += 1
        LAST_CHANGE[0] = next(_seq)

    @property
    def is_inference_tensor(self) -> bool:
        return self._version is INFERENCE

    def shared_version(self) -> list:
        if self._version is None:
            self._version = [0]
        return self._version

    def set_requires_grad(self, flag: bool) -> None:
        if flag and self.array.dtype.kind != "f":
            raise self.dialect.int_requires_grad(self.array.dtype)
        if flag and self._version is INFERENCE and not state.inference:
            raise self.dialect.inference_requires_grad()
        self._rg = bool(flag)

    def detach(self):
        """A new leaf sharing data and version counter, outside any graph."""
        t = type(self).wrap(self.array)
        t._version = self.shared_version()
        return t

    @property
    def shape(self) -> tuple:
        return self.array.shape

    @property
    def dtype(self):
        return self.array.dtype

    @property
    def ndim(self) -> int:
        return self.array.ndim


# Node.released: the node's rule has not run without retain_graph; it has, freeing nothing
# (the op saved nothing); it has, and freed what the op saved (no second run can work)
LIVE, RAN, FREED = 0, 1, 2


class Node:
    """One recorded op: how to send a gradient from its output to its inputs.

    parents[i] is the Node that made input i, the input itself when it is a
    leaf that requires grad, or None when input i needs no gradient.
    ``versions`` holds the versions of the saved tensors when recorded (None:
    all were 0); ``out_version`` is the output's version counter when the op
    saved its output (the list, not the tensor: no reference cycle), or
    (counter, version) when the output was written into a tensor in place.
    ``hooks`` are the hooks of the output tensor (janusgrad.core.hooks).  ``released``: LIVE
    until the scheduler has run the rule without retain_graph, then FREED when that freed
    what the op saved, else RAN (nothing was saved: a framework may run it again).
    """

    __slots__ = ("op", "parents", "saved", "versions", "shapes", "dtypes", "attrs",
                 "out_data", "out_version", "out_cls", "seq", "released", "hooks",
                 "__weakref__")

    def __init__(self, op, parents, shapes, dtypes, saved, attrs, out_cls) -> None:
        self.op = op
        self.parents = parents
        self.shapes = shapes
        self.dtypes = dtypes
        self.saved = saved
        self.versions = None
        self.attrs = attrs
        self.out_data = None
        self.out_version = None
        self.out_cls = out_cls
        self.seq = next(_seq)
        self.released = LIVE
        self.hooks = None

    @property
    def name(self) -> str:
        return self.op.name

    def output(self):
        """The op's output as a tensor in the graph (for rules that use it)."""
        t = self.out_cls.wrap(self.out_data)
        t.node = self
        t._rg = True
        return t


_GRAD_SLOT, _RG_SLOT = Tensor.__dict__["_grad"], Tensor.__dict__["_rg"]
Tensor.grad = property(_GRAD_SLOT.__get__, _GRAD_SLOT.__set__, doc="The accumulated gradient.")
Tensor.requires_grad = property(_RG_SLOT.__get__, _RG_SLOT.__set__,
                                doc="Whether ops on this tensor are recorded.")


_SIGNATURES: dict = {}


def _sig(key: tuple) -> tuple:
    """(shapes, dtypes) of a node's inputs, one shared pair of tuples per distinct signature:
    a node then allocates two tuples fewer, which the cyclic GC (triggered by allocations,
    walking what is alive) feels on graphs of 10^5 nodes."""
    sig = _SIGNATURES.get(key)
    if sig is None:
        if len(_SIGNATURES) > 4096:
            _SIGNATURES.clear()
        half = len(key) // 2
        sig = _SIGNATURES[key] = (key[0::2], key[1::2]) if half > 1 else ((key[0],), (key[1],))
    return sig


def unrecorded(cls, out_data):
    """``out_data`` as a tensor outside any graph: a factory's result, or an op's under
    no_grad (whose fast paths return ``cls.wrap(out_data)`` before assembling what
    ``record`` needs); an inference tensor in inference mode."""
    t = cls.wrap(out_data)
    if state.mode & INFERENCE_ON:
        t._version = INFERENCE
    return t


def record(op, out_data, inputs, saved=(), attrs=None, save_out=False, cls=None):
    """Wrap ``out_data`` as the result of ``op`` applied to ``inputs``.

    A node is made only when grad mode is on and some tensor input requires
    grad; otherwise the result is a plain leaf.
    """
    if cls is None:
        for x in inputs:
            if isinstance(x, Tensor):
                cls = type(x)
                break
    t = cls.wrap(out_data)
    mode = state.mode
    if mode:  # grad off, or inference mode (nothing recorded even under enable_grad)
        if mode & INFERENCE_ON:
            t._version = INFERENCE  # (a view op then gives it its input's: janusgrad.core.views)
        return t
    if op.vjp is None:
        return t
    n = len(inputs)
    if n == 1:  # the common arities without lists: one pass over the inputs
        x = inputs[0]
        if not (isinstance(x, Tensor) and x._rg):
            return t
        a = x.array
        parents = (x.node or x,)
        sig = _sig((a.shape, a.dtype))
        shapes, dtypes = sig
    elif n == 2:
        x, y = inputs
        rx = isinstance(x, Tensor) and x._rg
        ry = isinstance(y, Tensor) and y._rg
        if not (rx or ry):
            return t
        if rx and ry:
            a, b = x.array, y.array
            parents = (x.node or x, y.node or y)
            shapes, dtypes = _sig((a.shape, a.dtype, b.shape, b.dtype))
        # an input that needs no gradient keeps its dtype in ``dtypes`` when it is a tensor
        # (None for a number): a dialect may name the node by the operand's kind
        elif rx:
            a = x.array
            parents = (x.node or x, None)
            shapes, dtypes = _sig((a.shape, a.dtype, None,
                                   y.array.dtype if isinstance(y, Tensor) else None))
        else:
            b = y.array
            parents = (None, y.node or y)
            shapes, dtypes = _sig((None, x.array.dtype if isinstance(x, Tensor) else None,
                                   b.shape, b.dtype))
    else:
        needs = False
        for x in inputs:
            if isinstance(x, Tensor) and x._rg:
                needs = True
                break
        if not needs:
            return t
        parents, shapes, dtypes = [], [], []
        for x in inputs:
            if isinstance(x, Tensor) and x._rg:
                parents.append(x.node or x)
                shapes.append(x.array.shape)
                dtypes.append(x.array.dtype)
            else:
                parents.append(None)
                shapes.append(None)
                dtypes.append(None)
        parents, shapes, dtypes = tuple(parents), tuple(shapes), tuple(dtypes)
    node = Node(op, parents, shapes, dtypes, saved, attrs, cls)
    if saved:
        for s in saved:
            if isinstance(s, Tensor) and s._version is not None:
                node.versions = _versions(saved)
                break
    if save_out:
        node.out_data = out_data
        node.out_version = t._version = [0]
    if anomaly.enabled:
        remember(node)
    t.node = node
    t._rg = True
    return t


def _versions(saved) -> tuple:
    """The saved tensors' versions now; an inference tensor cannot be saved."""
    out = []
    for s in saved:
        v = s._version if isinstance(s, Tensor) else None
        if v is INFERENCE:
            raise s.dialect.inference_saved()
        out.append(0 if v is None else v[0])
    return tuple(out)
