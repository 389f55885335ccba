"""torch.compile in the torch 2.13 dialect, over the engine's trace and replay
(janusgrad.transforms.trace): torch's signature, argument checks, decorator forms and
OptimizedModule are here; tracing, guards, replay and the graph-break policy are the engine's.

Every backend name torch registers is accepted and means the same thing here: janusgrad's
trace and replay (torch's backends differ in the code they generate, which we do not);
``mode``, ``options``, ``dynamic`` are checked as torch checks them and otherwise ignored
(a new input shape traces again, as ``dynamic=False`` does).
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from janusgrad.transforms import trace as _trace

from ._dialect import TORCH
from ._dynamo import config
from ._dynamo.exc import InvalidBackend
from .nn.modules.module import Module

_MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")
# torch 2.13's backend registry: list_backends() and list_backends(exclude_tags=None)
_LISTED = ["cudagraphs", "inductor", "openxla", "tvm"]
_REGISTERED = sorted([
    *_LISTED, "aot_eager", "aot_eager_decomp_partition", "aot_eager_decomp_partition_crossref",
    "aot_eager_decomp_partition_with_mode", "aot_eager_default_partitioner", "aot_ts",
    "dynamo_accuracy_minifier_backend", "dynamo_minifier_backend", "eager", "eager_debug",
    "eager_noexcept", "invoke_subgraph", "openxla_eval", "pre_dispatch_eager", "ts"])


def list_backends(exclude_tags: tuple | None = ("debug", "experimental")) -> list[str]:
    """The backend names ``torch.compile`` accepts (all run janusgrad's trace and replay)."""
    return list(_LISTED if exclude_tags else _REGISTERED)


def compile(model: Callable | None = None, *, fullgraph: bool = False,  # noqa: A001
            dynamic: bool | None = None, backend: str | Callable | None = None,
            mode: str | None = None, options: dict | None = None, name: str | None = None,
            disable: bool = False, recompile_limit: int | None = None,
            isolate_recompiles: bool = False, shapes_spec: Any = None) -> Callable:
    """``model`` compiled by janusgrad's trace and replay: a Module gives an
    OptimizedModule, a function a compiled callable; without ``model``, a decorator."""
    if backend is None:
        backend = "inductor"
    if model is None:  # @torch.compile(...)
        def fn(model: Callable) -> Callable:
            if model is None:
                raise RuntimeError("Model can't be None")
            return compile(model, fullgraph=fullgraph, dynamic=dynamic, backend=backend,
                           mode=mode, options=options, name=name, disable=disable,
                           recompile_limit=recompile_limit,
                           isolate_recompiles=isolate_recompiles, shapes_spec=shapes_spec)
        return fn
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be "
                           "specified at the same time.")
    if mode is None and options is None:
        mode = "default"
    if backend == "inductor" and mode is not None and mode not in _MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(_MODES)}")
    if isinstance(backend, str) and backend not in _REGISTERED:
        raise InvalidBackend(backend)
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")
    if disable:
        return model
    limit = config.recompile_limit if recompile_limit is None else recompile_limit
    if isinstance(model, Module):
        return OptimizedModule(model, fullgraph=fullgraph, cache_limit=limit, name=name)
    return _trace.compiled(model, dialect=TORCH, fullgraph=fullgraph, cache_limit=limit,
                           name=name)


class OptimizedModule(Module):
    """What ``torch.compile(module)`` returns: ``_orig_mod`` registered as its only child
    (so state-dict keys and parameter names start ``_orig_mod.``), every other attribute
    read and written on the original module, and ``forward`` the original module's call
    compiled."""

    _opt_mod_attributes = frozenset({
        "_orig_mod", "dynamo_ctx", "_torchdynamo_orig_callable", "_torchdynamo_wrapper_id",
        "get_compiler_config", "forward", "_forward", "__dict__", "named_children_walk",
        "_super_module_initialized"})

    def __init__(self, mod: Module, *, fullgraph: bool = False, cache_limit: int = 8,
                 name: str | None = None) -> None:
        object.__setattr__(self, "_orig_mod", mod)  # attribute routing reads it from here on
        self._super_module_initialized = False
        super().__init__()
        self._super_module_initialized = True
        self._orig_mod = mod  # registers the child
        self.forward = _trace.compiled(
            mod.__call__, dialect=TORCH, fullgraph=fullgraph, modules=(mod,),
            cache_limit=cache_limit, name=name or f"{type(mod).__name__}.forward")
        self._torchdynamo_orig_callable = mod.forward

    @property
    def training(self) -> bool:  # the original module's flag, as torch mirrors it
        return self._orig_mod.training

    @training.setter
    def training(self, value: bool) -> None:
        if self._super_module_initialized:  # Module.__init__'s default is not mirrored
            self._orig_mod.training = value

    def __getattr__(self, name: str):
        mods = self.__dict__.get("_modules")
        if mods is None:
            raise AttributeError(name)
        if name in mods:
            return mods[name]
        return getattr(mods["_orig_mod"], name)

    def __setattr__(self, name: str, value) -> None:
        if hasattr(type(self), name) or name in OptimizedModule._opt_mod_attributes:
            return super().__setattr__(name, value)
        return setattr(self._orig_mod, name, value)

    def __delattr__(self, name: str) -> None:
        if hasattr(type(self), name) or name in OptimizedModule._opt_mod_attributes:
            return super().__delattr__(name)
        return delattr(self._orig_mod, name)

    def __len__(self) -> int:
        if hasattr(type(self._orig_mod), "__len__"):
            return len(self._orig_mod)
        raise TypeError(f"{type(self._orig_mod).__name__} does not support len()")

    def __dir__(self):
        own = self._orig_mod.__dir__()
        return own + [a for a in super().__dir__() if a not in own]


def disable(fn: Callable | None = None, recursive: bool = True, *,
            reason: str | None = None) -> Callable:
    """``fn`` runs eagerly: called inside a compiled function it is a graph break.
    (``recursive=False`` means the same here: functions it calls are not compiled apart.)"""
    if fn is None:
        return functools.partial(disable, recursive=recursive, reason=reason)
    return _trace.disabled(fn)


def reset() -> None:
    """Forget every compiled function's traces (torch.compiler.reset, torch._dynamo.reset)."""
    _trace.reset_all()


def is_compiling() -> bool:
    """True while a compiled function's trace is being recorded."""
    return _trace.is_tracing()


is_dynamo_compiling = is_compiling

__all__ = ["OptimizedModule", "compile", "disable", "is_compiling", "is_dynamo_compiling",
           "list_backends", "reset"]
