"""Views: op results that share their input's memory, as torch's views do.

Basic indexing, reshape, transpose, narrow and expand return numpy views of their input's
array.  Such a result is marked here: it shares the version counter of its base (the tensor
at the start of a chain of views), so that an in-place change through either one is seen by
whatever the nodes of the other saved; and it remembers how to make it again from its base
(``replay``), so that an in-place change of the view can also rewrite the base's history
where the dialect asks for it (torch's CopySlices, engine.inplace).
"""
from __future__ import annotations

import weakref

from .tensor import Tensor

# id(view) -> [weak reference to the view, its base, replay: base tensor -> view tensor,
#              (index, name) when it is an output of a function returning several views]
_BASES: dict = {}
# id(base) -> {id(view): weak reference to the view}: the live views of a base (a view holds
# its base alive, so an id here is not reused while it has entries)
_VIEWS_OF: dict = {}


def mark_view(view: Tensor, x: Tensor, op, *args) -> Tensor:
    """Mark ``view`` (``op(x, *args)``) as a view of ``x`` when its array shares x's
    memory (the ops call this on every result: most checks end at the first line)."""
    base = getattr(view.array, "base", None)
    if base is None:
        return view  # the op made a new array
    a = x.array
    if base is not a and base is not getattr(a, "base", None):
        return view  # a view of a temporary, not of x
    replay = _replay(op, args)
    outer = base_of(x)
    if outer is not None:  # x is a view itself: one base for the whole chain
        x, first = outer
        replay = _chain(first, replay)
    view._version = x.shared_version()
    key, bkey = id(view), id(x)

    def gone(_ref) -> None:
        _BASES.pop(key, None)
        live = _VIEWS_OF.get(bkey)
        if live is not None:
            live.pop(key, None)
            if not live:
                del _VIEWS_OF[bkey]

    ref = weakref.ref(view, gone)
    _BASES[key] = [ref, x, replay, None]
    _VIEWS_OF.setdefault(bkey, {})[key] = ref
    return view


def _replay(op, args):
    return lambda b: op(b, *args)


def _chain(first, then):
    return lambda b: then(first(b))


def base_of(t: Tensor):
    """(base, replay) when ``t`` is a view, else None."""
    entry = _BASES.get(id(t))
    if entry is None or entry[0]() is not t:
        return None
    return entry[1], entry[2]


def views_of(base: Tensor) -> list:
    """The live views of ``base``."""
    live = _VIEWS_OF.get(id(base))
    if not live:
        return []
    out = []
    for ref in list(live.values()):
        v = ref()
        if v is not None and _BASES[id(v)][1] is base:
            out.append(v)
    return out


def mark_outputs(views, name: str) -> None:
    """``views`` are the outputs of one function (``name``) that returns several views of a
    tensor: torch refuses to change them in place where that would be recorded."""
    for i, v in enumerate(views):
        if base_of(v) is not None:
            _BASES[id(v)][3] = (i, name)


def output_of(t: Tensor):
    """(index, name) when ``t`` is one of several views a function returned, else None."""
    return _BASES[id(t)][3] if base_of(t) is not None else None
