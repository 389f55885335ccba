"""The public side of compiling: ``compiled``, the global switch, ``disabled``.

(Skeleton: every call runs eagerly until the tracer lands; the signatures are final.)
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..dialect import DEFAULT, Dialect

_ENABLED = [True]
_ALL: list = []  # weak registry of Compiled objects, for reset_all


class Compiled:
    """A function (or a module's call) compiled by trace and replay.

    ``fn``: what runs; ``dialect``: whose warnings and errors; ``fullgraph``: a graph break
    raises the dialect's error instead of running eagerly; ``modules``: modules whose
    parameters, buffers and training flags the function reads (found from ``fn`` itself
    when it is a bound method of a module, its closure and its globals otherwise);
    ``cache_limit``: traces kept per function before new keys stay eager.

    ``stats``: counters the tests read: ``traces``, ``replays``, ``eager`` (calls run
    eagerly), and ``breaks`` (the causes, in order).
    """

    def __init__(self, fn: Callable, *, dialect: Dialect = DEFAULT, fullgraph: bool = False,
                 modules: tuple = (), cache_limit: int = 8, name: str | None = None) -> None:
        self.fn = fn
        self.dialect = dialect
        self.fullgraph = fullgraph
        self.modules = tuple(modules)
        self.cache_limit = cache_limit
        self.name = name or getattr(fn, "__qualname__", None) or repr(fn)
        self.stats = {"traces": 0, "replays": 0, "eager": 0, "breaks": []}
        functools.update_wrapper(self, fn, updated=())
        _ALL.append(self)

    def reset(self) -> None:
        """Forget every trace (the next call traces again)."""
        self.stats = {"traces": 0, "replays": 0, "eager": 0, "breaks": []}

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.stats["eager"] += 1
        return self.fn(*args, **kwargs)

    def __get__(self, obj, objtype=None):
        """As a method decorator: bound to the instance, compiled per instance."""
        if obj is None:
            return self
        return functools.partial(self, obj)


def compiled(fn: Callable, **options: Any) -> Compiled:
    """``fn`` compiled by trace and replay (see ``Compiled`` for the options)."""
    return Compiled(fn, **options)


def set_enabled(flag: bool) -> None:
    """Switch compiling off (every Compiled runs eagerly) or back on, process-wide."""
    _ENABLED[0] = bool(flag)


def is_tracing() -> bool:
    """Whether a trace is being recorded now (inside a compiled function's first call)."""
    return False


def disabled(fn: Callable) -> Callable:
    """``fn`` marked to run eagerly: called inside a compiled function it is a graph break
    (the whole function then runs eagerly for that key); called on its own it is ``fn``."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        return fn(*args, **kwargs)
    run.__janusgrad_disabled__ = True
    return run


def reset_all() -> None:
    """Forget every trace of every compiled function."""
    for c in _ALL:
        c.reset()
