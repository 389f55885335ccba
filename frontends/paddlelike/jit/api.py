"""paddle.jit.to_static in the paddle 3.3.1 dialect, over the engine's trace and replay
(janusgrad.transforms.trace): paddle's signature, argument checks and Layer handling are here;
tracing, guards, replay and the graph-break policy are the engine's.

The default (``full_graph=False``) is paddle's SOT mode: what the trace cannot capture
falls back to dygraph for those inputs.  ``full_graph=True`` is paddle's AST mode, which
transcribes Python control flow on tensors into static-graph ops (``if tensor:`` into
``paddle.static.nn.cond``); janusgrad transcribes nothing, so there a graph break is an
error naming the construct (the dialect's ``compile_unsupported``).
"""
from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from janusgrad.transforms import trace as _trace

from ..dialect import DIALECT
from ..meta import of_np, to_np
from ..nn.layer import Layer

# paddle's SOT executor cache keeps 20 guarded programs per function
_CACHE_LIMIT = 20


class InputSpec:
    """paddle.static.InputSpec: a described input (``None`` in ``shape``: any size).
    Accepted by to_static and otherwise unused: a new input shape traces again."""

    def __init__(self, shape, dtype: Any = "float32", name: str | None = None,
                 stop_gradient: bool = False) -> None:
        if not isinstance(shape, (tuple, list)):
            raise TypeError("Type of `shape` in InputSpec should be one of (tuple, list), "
                            f"but received {type(shape).__name__}.")
        for i, n in enumerate(shape):
            if n is not None and not isinstance(n, int):
                raise ValueError(f"shape[{i}] should be an `int`, but received "
                                 f"`{type(n).__name__}`:{n}.")
        self.shape = tuple(-1 if n is None or n < -1 else n for n in shape)
        self.dtype = None if dtype is None else of_np(to_np(dtype))
        self.name = name
        self.stop_gradient = stop_gradient

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(shape={self.shape}, dtype={self.dtype}, "
                f"name={self.name}, stop_gradient={self.stop_gradient})")


def to_static(function: Callable | None = None, input_spec: Any = None,
              build_strategy: Any = None, backend: str | None = "CINN",
              **kwargs: Any) -> Callable:
    """``function`` compiled by janusgrad's trace and replay; a Layer has its ``forward``
    compiled in place and is returned; without ``function``, a decorator.  ``kwargs``:
    ``full_graph`` (see the module's note) and ``property`` (accepted)."""
    full_graph = bool(kwargs.get("full_graph"))
    if build_strategy is not None:  # janusgrad has no paddle.static.BuildStrategy
        raise TypeError("Required type(build_strategy) shall be "
                        "`paddle.static.BuildStrategy`, but received "
                        f"{type(build_strategy).__name__}")
    if backend is not None and backend.upper() not in ("CINN", "PCC"):
        raise ValueError(f"Unknown backend {backend}. Only support 'CINN' or None for PHI.")

    def decorated(fn: Callable, modules: tuple = (), name: str | None = None) -> Callable:
        if isinstance(fn, _trace.Compiled):  # decorated twice: the later one replaces it
            fn = fn.fn
        if not callable(fn):
            raise TypeError("unsupported callable")
        if input_spec is not None and not full_graph:
            warnings.warn("full_graph=False don't support input_spec arguments. It will not "
                          "produce any effect.\nYou can set full_graph=True, then you can "
                          "assign input spec.\n", stacklevel=3)
        return _trace.compiled(fn, dialect=DIALECT, fullgraph=full_graph, modules=modules,
                               cache_limit=_CACHE_LIMIT, name=name)

    if function is None:  # @paddle.jit.to_static(...)
        return decorated
    if isinstance(function, Layer):  # paddle converts the forward in place
        function.forward = decorated(function.forward, (function,),
                                     f"{type(function).__name__}.forward")
        return function
    return decorated(function)


def not_to_static(func: Callable | None = None) -> Callable:
    """``func`` itself.  paddle marks it not to be AST-transcribed, its ops still join the
    static graph (its SOT mode ignores the mark); a trace likewise records its ops, and
    transcribes nothing anyway."""
    if func is None:
        return lambda fn: fn
    return func


def enable_to_static(enable_to_static_bool: bool) -> None:
    """Switch to_static off (every converted function runs in dygraph) or back on."""
    _trace.set_enabled(enable_to_static_bool)
