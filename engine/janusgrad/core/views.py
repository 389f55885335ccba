"""Views: op results that share their input's memory, as torch's views do.

Basic indexing, reshape, transpose, narrow and expand return numpy views of their input's
array.  Such a result is marked here: it shares the version counter of its base (the tensor
at the start of a chain of views), so that an in-place change through either one is seen by
whatever the nodes of the other saved; and it remembers how to make it again from its base,
so that an in-place change of the view can also rewrite the base's history where the
dialect asks for it (torch's CopySlices, janusgrad.core.inplace).

The marks live in the tensor slot ``_view`` (None on every other tensor): a view's is a tuple
(its base, the ops that make it from the base, (index, name) when it is one of several views
a function returned, else None); a base's is a list of weak references to its views.  A view
is never a base itself: views of views are marked as views of the first base.
"""
from __future__ import annotations

import functools
import weakref

from janusgrad.core.mode import GRAD_OFF, state
from janusgrad.core.tensor import Tensor

_PRUNE_EVERY = 64  # a base's list of views drops its dead references this often
# views made under no_grad that require grad (torch), by id: see mark_view
NOGRAD_VIEWS: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def mark_view(view: Tensor, x: Tensor, op, *args) -> Tensor:
    """Mark ``view`` (``op(x, *args)``) as a view of ``x`` when its array shares x's
    memory (the ops call this on every result: most calls end at the first check)."""
    base = getattr(view.array, "base", None)
    if base is None:
        return view  # the op made a new array
    a = x.array
    if base is not a and base is not getattr(a, "base", None):
        return view  # a view of a temporary, not of x
    steps = ((op, args),)
    if x._rg and view.node is None and not view._rg and \
            x.dialect.nograd_views_require_grad and state.mode == GRAD_OFF:
        view._rg = True  # torch: a view made under no_grad is a leaf that requires grad
        NOGRAD_VIEWS[id(view)] = view  # ... and a dead end: no gradient is gathered into it
    views = x._view
    if type(views) is tuple:  # x is a view itself: one base for the whole chain
        x, first, _ = views
        steps = first + steps
        views = x._view
    view._version = x.shared_version()
    view._view = (x, steps, None)
    if views is None:
        x._view = views = []
    elif len(views) % _PRUNE_EVERY == 0:
        views[:] = [r for r in views if r() is not None]
    views.append(weakref.ref(view))
    return view


def _replay(steps, t: Tensor) -> Tensor:
    for op, args in steps:
        t = op(t, *args)
    return t


def base_of(t: Tensor):
    """(base, replay: base tensor -> this view made again) when ``t`` is a view, else None."""
    mark = t._view
    if type(mark) is not tuple:
        return None
    return mark[0], functools.partial(_replay, mark[1])


def views_of(base: Tensor) -> list:
    """The live views of ``base``."""
    refs = base._view
    if type(refs) is not list:
        return []
    return [v for v in (r() for r in refs) if v is not None]


def mark_outputs(views, name: str) -> None:
    """``views`` are the outputs of one function (``name``) that returns several views of a
    tensor: torch refuses to change them in place where that would be recorded."""
    for i, v in enumerate(views):
        mark = v._view
        if type(mark) is tuple:
            v._view = (mark[0], mark[1], (i, name))


def output_of(t: Tensor):
    """(index, name) when ``t`` is one of several views a function returned, else None."""
    mark = t._view
    return mark[2] if type(mark) is tuple else None
