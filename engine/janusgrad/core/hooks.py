"""Gradient hooks of tensors, and retained gradients of non-leaves.

A leaf keeps its hooks on itself (``tensor._hooks``); a non-leaf on the node
that made it (``node.hooks``), since the scheduler meets the node, not the
tensor.  The scheduler calls ``run_pre`` once per backward with the summed
gradient of the tensor, and ``run_post`` after a leaf's ``.grad`` was updated.
"""
from __future__ import annotations

import itertools
import weakref

from janusgrad.core.mode import state
from janusgrad.core.tensor import Tensor
from janusgrad.ops.elementwise import add

_ids = itertools.count()


class Hooks:
    """``pre``: id -> hook (or a _Retain) in registration order; ``post``: id -> hook."""

    __slots__ = ("pre", "post")

    def __init__(self) -> None:
        self.pre: dict = {}
        self.post: dict = {}


class _Retain:
    """Stores the gradient into the non-leaf's ``.grad`` (held weakly: no cycle)."""

    __slots__ = ("ref",)

    def __init__(self, tensor) -> None:
        self.ref = weakref.ref(tensor)


class HookHandle:
    """What ``register_hook`` returns; ``remove()`` says whether it removed something."""

    def __init__(self, table: dict, hook_id: int) -> None:
        self._table = table
        self.id = hook_id

    def remove(self) -> bool:
        return self._table.pop(self.id, None) is not None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def _hooks_of(t: Tensor) -> Hooks:
    if state.tracing is not None:  # a trace replays no hooks (janusgrad.transforms.trace)
        state.tracing.escape("a gradient hook registered inside the function")
    if t.node is None:
        h = t._hooks
        if h is None:
            h = t._hooks = Hooks()
        return h
    h = t.node.hooks
    if h is None:
        h = t.node.hooks = Hooks()
    return h


def register_hook(t: Tensor, fn, handle_cls=HookHandle):
    """Call ``fn(grad)`` when the gradient of ``t`` is computed; a returned tensor replaces it."""
    table = _hooks_of(t).pre
    k = next(_ids)
    table[k] = fn
    return handle_cls(table, k)


def register_post_accumulate_grad_hook(t: Tensor, fn, handle_cls=HookHandle):
    """Call ``fn(t)`` after backward has added into the leaf's ``.grad``."""
    table = _hooks_of(t).post
    k = next(_ids)
    table[k] = fn
    return handle_cls(table, k)


def retain_grad(t: Tensor) -> None:
    """Keep the gradient of a non-leaf in its ``.grad`` (a leaf keeps it anyway)."""
    if t.node is None or t.retains_grad:
        return
    _hooks_of(t).pre[next(_ids)] = _Retain(t)
    t.retains_grad = True


def move_retain(t: Tensor, old_node, new_node) -> None:
    """After an in-place change ``t`` retains the gradient of its new value."""
    h = old_node.hooks
    if h is None:
        return
    for k, fn in list(h.pre.items()):
        if type(fn) is _Retain and fn.ref() is t:
            del h.pre[k]
            if new_node.hooks is None:
                new_node.hooks = Hooks()
            new_node.hooks.pre[k] = fn


def run_pre(hooks: Hooks, g, create_graph: bool):
    """The gradient after the tensor's hooks (and the retained copy stored)."""
    retains = []
    last = g.dialect.retain_grad_last
    for fn in list(hooks.pre.values()):
        if type(fn) is _Retain:
            if last:
                retains.append(fn)
            else:
                _store(fn, g, create_graph)
            continue
        r = fn(g)
        if r is not None:
            g = _checked(fn, g, r)
    for fn in retains:
        _store(fn, g, create_graph)
    return g


def run_post(hooks: Hooks, leaf) -> None:
    for fn in list(hooks.post.values()):
        fn(leaf)


def _checked(fn, g, r):
    d = g.dialect
    if not isinstance(r, Tensor):
        raise d.hook_changed(fn, "class", g, r)
    if r.array.shape != g.array.shape:
        err = d.hook_changed(fn, "size", g, r)
        if err is not None:
            raise err
    elif r.array.dtype != g.array.dtype:
        err = d.hook_changed(fn, "type", g, r)
        if err is not None:
            raise err
    return r


def _store(entry: _Retain, g, create_graph: bool) -> None:
    t = entry.ref()
    if t is None:
        return
    if not create_graph and g.node is not None:
        g = g.detach()
    old = t._grad  # the slot, past any frontend warning
    if old is None or not t.dialect.retained_grad_accumulates:
        new = type(g).wrap(g.array.copy()) if g.node is None else g
    elif create_graph or old.node is not None or g.node is not None:
        new = add(old, g)
    else:
        new = type(old).wrap(old.array + g.array)  # a new tensor each time, as torch
    if t.dialect.grad_requires_grad and new.node is None:
        new.requires_grad = True
    t._grad = new
