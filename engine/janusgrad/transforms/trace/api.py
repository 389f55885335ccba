"""Compiled functions: guard keys, the trace of a first call, replays, graph breaks.

A call's *sources* are the tensors the function reads: those in its arguments (walked
through tuples, lists and dicts), then the parameters and buffers of its modules (given,
or found on the function: a bound method's object, its closure cells and the globals it
names), then the other tensors found there.  The guard key is the arguments' structure
and Python values, each source's shape, dtype, strides and requires-grad flag, the
modules' training flags and grad mode.  (Parameter *values* are not in the key: a replay
reads each source's array at call time, so an optimizer's in-place step needs no new
trace; a parameter replaced by another tensor changes the key through its identity.)
"""
from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

from janusgrad.array.backend import host
from janusgrad.binding.dialect import DEFAULT, Dialect
from janusgrad.core import autograd
from janusgrad.core.mode import GradMode, state
from janusgrad.core.tensor import Node, Tensor, _seq
from janusgrad.nn.module import ModuleCore
from janusgrad.transforms.trace import replay
from janusgrad.transforms.trace.arrays import GuardFailed, Recorder, TracedArray, note_escape
from janusgrad.transforms.trace.program import build, defined, needed, reads, variables
from janusgrad.transforms.trace.replay import flatten as _flatten

_ENABLED = [True]
GUARD_FAILURES = 8  # replays of a key whose guards fail before it runs eagerly for good
_ALL: list = []  # every Compiled made, for reset_all (a function's traces go with it)


class Eager:
    """A guard key that runs eagerly, and why."""

    __slots__ = ("cause",)

    def __init__(self, cause: str) -> None:
        self.cause = cause


class Compiled:
    """A function (or a module's call) compiled by trace and replay.

    ``fn``: what runs; ``dialect``: whose warnings and errors; ``fullgraph``: a graph break
    raises the dialect's error instead of running eagerly; ``modules``: modules whose
    parameters, buffers and training flags the function reads (found from ``fn`` itself
    when it is a bound method of a module, its closure and its globals otherwise);
    ``cache_limit``: traces kept per function before new keys stay eager.

    ``stats``: counters the tests read, one per call: ``traces`` (calls that traced: they
    run the function once on traced arrays, then the new programs), ``replays`` (calls
    answered from a trace), ``eager`` (calls run eagerly: a broken key, the cache limit,
    compiling switched off); and ``breaks`` (the causes, in order).
    """

    def __init__(self, fn: Callable, *, dialect: Dialect = DEFAULT, fullgraph: bool = False,
                 modules: tuple = (), cache_limit: int = 8, name: str | None = None) -> None:
        self.fn = fn
        self.dialect = dialect
        self.fullgraph = fullgraph
        self.modules = tuple(modules)
        self.cache_limit = cache_limit
        self.name = name or getattr(fn, "__qualname__", None) or repr(fn)
        self._holders = _holders(fn)
        functools.update_wrapper(self, fn, updated=())
        self.reset()
        _ALL.append(self)

    def reset(self) -> None:
        """Forget every trace (the next call traces again)."""
        self._cache: dict = {}
        self._guard_failures: dict = {}
        self._warned: set = set()
        self.stats = {"traces": 0, "replays": 0, "eager": 0, "breaks": []}

    def __get__(self, obj, objtype=None):
        """As a method decorator: bound to the instance (the instance is an argument)."""
        if obj is None:
            return self
        return functools.partial(self, obj)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not _ENABLED[0] or state.tracing is not None:  # off, or inside another trace
            self.stats["eager"] += 1
            return self.fn(*args, **kwargs)
        sources, key = self._sources(args, kwargs)
        entry = self._cache.get(key)
        traced = entry is None  # (the call that traces counts as a trace only)
        if traced:
            if len(self._cache) >= self.cache_limit:
                self._warn("limit", *self.dialect.compile_limit(self.name, self.cache_limit))
                self.stats["eager"] += 1
                return self.fn(*args, **kwargs)
            entry = self._cache[key] = self._trace(sources, args, kwargs)
            if type(entry) is tuple:  # (Eager, the eager call's result)
                self._cache[key] = entry[0]
                return entry[1]
        elif type(entry) is Eager:
            self.stats["eager"] += 1
            return self.fn(*args, **kwargs)
        try:
            result = replay.run(entry, self, key, sources, args, kwargs)
        except GuardFailed:  # a value the trace assumed differs: this call eagerly
            self.stats["eager"] += 1
            self.guard_failed(key)
            return self.fn(*args, **kwargs)
        if not traced:
            self.stats["replays"] += 1
        return result

    def guard_failed(self, key) -> None:
        """A replay of ``key`` met a value other than its trace's: after a few, the key runs
        eagerly for good (its branches depend on the data)."""
        n = self._guard_failures[key] = self._guard_failures.get(key, 0) + 1
        if n >= GUARD_FAILURES and type(self._cache.get(key)) is not Eager:
            self.mark_eager(key, f"a value the trace assumed changed in {n} calls (the "
                                 "engine branches on the data here)")

    # ---------------------------------------------------------------- sources and keys
    def _sources(self, args, kwargs) -> tuple[list, tuple]:
        sources: list = []
        key: list = [state.mode]
        for a in args:  # (the common case, tensors as arguments, without the recursion)
            if isinstance(a, Tensor):
                sources.append(a)
                key.append(_meta(a))
            else:
                _scan(a, key, sources)
        if kwargs:
            _scan(kwargs, key, sources)
        seen = {id(t) for t in sources}
        if len(seen) != len(sources):  # a tensor passed twice is one source; the key says so
            first: dict = {}
            for t in sources:
                first.setdefault(id(t), len(first))
            key.append(tuple(first[id(t)] for t in sources))
            sources = list({id(t): t for t in sources}.values())
        for m in self.modules:
            _scan_module(m, key, sources, seen)
        for holder in self._holders:
            for v in holder():
                if isinstance(v, Tensor):
                    if id(v) not in seen:
                        seen.add(id(v))
                        sources.append(v)
                        key.append(id(v))
                        key.append(_meta(v))
                else:
                    _scan_module(v, key, sources, seen)
        return sources, tuple(key)

    # ---------------------------------------------------------------- breaks
    def _warn(self, what: str, message: str, category) -> None:
        if what not in self._warned:
            self._warned.add(what)
            warnings.warn(message, category, stacklevel=4)

    def _break(self, cause: str, reason: Exception | None = None) -> Eager:
        self.stats["breaks"].append(cause)
        if self.fullgraph:
            raise self.dialect.compile_unsupported(self.name, cause) from reason
        self._warn(cause, *self.dialect.compile_break(self.name, cause))
        return Eager(cause)

    def mark_eager(self, key, cause: str) -> None:
        """Run ``key`` eagerly from now on (a break found after its trace: create_graph)."""
        self._cache[key] = self._break(cause)

    # ---------------------------------------------------------------- the first call
    def _trace(self, sources, args, kwargs):
        """The entry of a new key (an Entry to replay, or (Eager, result))."""
        self.stats["traces"] += 1
        for t in sources:
            if type(t.array) is not host.ndarray:  # host-ok: traces are of numpy arrays
                return self._eager_now(self._break("a tensor on a device other than the "
                                                   "CPU (traces record numpy arrays)"),
                                       args, kwargs)
            if t._hooks is not None or (t.node is not None and t.node.hooks is not None):
                return self._eager_now(self._break("a tensor the function reads has "
                                                   "hooks"), args, kwargs)
        rec = Recorder()
        try:
            entry = _record(self, rec, sources, args, kwargs)
        except Exception as e:  # noqa: BLE001 - the eager run below raises it again
            # (what made the trace invalid first, if anything did, is the better cause)
            cause = rec.escapes[0] if rec.escapes else f"tracing raised {type(e).__name__}: {e}"
            result = self.fn(*args, **kwargs)  # a real error raises here, as eagerly
            return self._break(cause, e), result
        if type(entry) is str:
            return self._eager_now(self._break(entry), args, kwargs)
        return entry

    def _eager_now(self, eager: Eager, args, kwargs):
        return eager, self.fn(*args, **kwargs)


# ---------------------------------------------------------------- scanning
def _meta(t: Tensor) -> tuple:
    a = t.array
    return (type(t), type(a), a.shape, a.dtype, t._rg, a.strides)


def _scan(obj, key: list, sources: list) -> None:
    """Append ``obj``'s structure and values to ``key`` and its tensors to ``sources``."""
    if isinstance(obj, Tensor):
        sources.append(obj)
        key.append(_meta(obj))
        return
    t = type(obj)
    if t is tuple or t is list:
        key.append((t, len(obj)))
        for x in obj:
            _scan(x, key, sources)
    elif t is dict:
        key.append((dict, tuple(obj)))
        for x in obj.values():
            _scan(x, key, sources)
    else:
        try:
            hash(obj)
            key.append((t, obj))
        except TypeError:
            key.append((t, id(obj)))


def _scan_module(m, key: list, sources: list, seen: set) -> None:
    """A module's parameters and buffers (each tensor once) and its layers' training
    flags."""
    stack = [m]
    while stack:
        layer = stack.pop()
        key.append(layer.__dict__.get("training"))
        for store in ("_parameters", "_buffers"):
            for t in layer.__dict__[store].values():
                if t is not None and id(t) not in seen:
                    seen.add(id(t))
                    sources.append(t)
                    key.append(id(t))
                    key.append(_meta(t))
        children = layer.__dict__[layer._CHILDREN]
        stack.extend(c for c in reversed(children.values()) if c is not None)


_MODULE_TYPE: list = []


def _is_module(v) -> bool:
    if not _MODULE_TYPE:
        _MODULE_TYPE.append(ModuleCore)
    return isinstance(v, _MODULE_TYPE[0])


def _readable(v) -> bool:
    """Whether a compiled function may read tensors through ``v``: a tensor or a module."""
    return isinstance(v, Tensor) or _is_module(v)


def _holds(v) -> bool:
    return _readable(v) or (type(v) in (list, tuple) and any(_readable(x) for x in v))


def _holders(fn) -> list:
    """Callables giving the tensors and modules ``fn`` may read besides its arguments: a
    bound method's object, the closure cells and the globals its code names that hold
    tensors or modules when it is compiled (read again at each call, so a rebound global
    is seen; a global that held none then is not watched)."""
    holders = []
    owner = getattr(fn, "__self__", None)
    if owner is not None and not isinstance(owner, type):
        if _is_module(owner):
            holders.append(lambda: (owner,))
        elif hasattr(owner, "__dict__"):
            holders.append(lambda: _found(owner.__dict__.values()))
        fn = getattr(fn, "__func__", fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        return holders
    cells = [c for c in fn.__closure__ or () if _holds(_cell(c))]
    if cells:
        holders.append(lambda: _found(_cell(c) for c in cells))
    g = getattr(fn, "__globals__", {})
    names = [n for n in code.co_names if n in g and _holds(g[n])]
    if names:
        holders.append(lambda: _found(g.get(n) for n in names))
    return holders


def _cell(c):
    try:
        return c.cell_contents
    except ValueError:  # an empty cell
        return None


def _found(values) -> list:
    """Tensors and modules among ``values`` (and inside lists and tuples of them)."""
    out = []
    for v in values:
        if _readable(v):
            out.append(v)
        elif type(v) in (list, tuple):
            out.extend(x for x in v if _readable(x))
    return out


# ---------------------------------------------------------------- recording
def _record(compiled: Compiled, rec: Recorder, sources, args, kwargs):
    """Run the function once on traced arrays; an Entry, or the cause of a break (str)."""
    originals = [t.array for t in sources]
    versions = [t.version for t in sources]
    version_lists = [t._version for t in sources]
    # a backward inside the function (a break) accumulates into .grad while tracing: undone
    saved_grads = [(t._grad, None if t._grad is None else t._grad.array) for t in sources]
    source_vars = []
    installed = []
    for t in sources:
        tr = rec.var(t.array.copy())  # a copy: nothing the trace does reaches the data
        source_vars.append(tr._v)
        installed.append(tr)
        t.array = tr
    start = next(_seq)
    state.tracing = rec
    try:
        result = compiled.fn(*args, **kwargs)
        leaves, spec = _flatten(result)
        fwd_end = len(rec.steps)
        outs = [x for x in leaves if isinstance(x, Tensor)]
        diff, first = [], {}
        source_ids = {id(t) for t in sources}
        for i, o in enumerate(outs):  # (a tensor returned twice is one output; a source
            # returned as itself is not an output of the trace)
            if id(o) not in source_ids and o._rg and type(o.array) is TracedArray and \
                    first.setdefault(id(o), i) == i:
                diff.append(i)
        rg_sources = [i for i, t in enumerate(sources) if t._rg]
        grads = []
        seeds = []
        if diff and rg_sources and state.enabled:
            problem = _foreign(outs, diff, sources, start)
            if problem:
                return problem
            for i in diff:
                a = outs[i].array
                seeds.append(rec.var(host.ones(a.shape, a.dtype)))  # host-ok: numpy traces
            with GradMode(False):
                grads = autograd.run_backward(
                    [outs[i] for i in diff],
                    [type(outs[i]).wrap(s) for i, s in zip(diff, seeds)], retain_graph=True,
                    inputs=[sources[i] for i in rg_sources], accumulate=False)
        else:
            diff = []
    finally:
        state.tracing = None
        for t, a, tr, (g, ga) in zip(sources, originals, installed, saved_grads):
            if t.array is not tr:  # (x.data = ...: the eager run after the break does it)
                rec.escape("a tensor's data replaced inside the function")
            t.array = a
            t._grad = g
            if g is not None:
                g.array = ga
        rec.restore_random()  # the eager run that follows a break draws the same numbers
        # the trace's in-place changes moved the sources' versions (the tensors', not their
        # data's): undone, the replay (or the eager run after a break) moves them as eager
        moved = [t.version - v for t, v in zip(sources, versions)]
        for t, v, lst in zip(sources, versions, version_lists):
            if lst is None:
                t._version = None
            else:
                lst[0] = v
    if rec.escapes:
        return rec.escapes[0]
    bumps = []
    for i, (t, m) in enumerate(zip(sources, moved)):
        if m:
            if t._rg:
                return "an in-place change of a tensor the function reads that requires " \
                       "grad (an input or a parameter)"
            bumps.append((i, m))  # a buffer changed in place (batch norm's statistics)
    entry = _entry(rec, sources, source_vars, leaves, spec, outs, diff, rg_sources, grads,
                   seeds, fwd_end)
    if bumps and type(entry) is not str:
        entry.bumps = bumps
    return entry


def _foreign(outs, diff, sources, start) -> str | None:
    """Why the gradient of the outputs would reach tensors the trace does not feed (a
    tensor that requires grad, read without being found as a source), if it would."""
    ok = {id(t) for t in sources} | {id(t.node) for t in sources if t.node is not None}
    stack = [outs[i].node for i in diff if outs[i].node is not None]
    seen = set()
    while stack:
        n = stack.pop()
        if id(n) in seen or id(n) in ok:
            continue
        seen.add(id(n))
        if n.seq < start:
            return "the function reads a tensor computed outside it that is neither an " \
                   "argument nor found in its closure, globals or modules"
        for p in n.parents:
            if p is None or id(p) in ok:
                continue
            if type(p) is Node:
                stack.append(p)
            else:
                return "the function reads a tensor that requires grad and is neither an " \
                       "argument nor found in its closure, globals or modules"
    return None


def _entry(rec, sources, source_vars, leaves, spec, outs, diff, rg_sources, grads, seeds,
           fwd_end):
    """The programs and the bookkeeping of a successful trace (or the cause of a break)."""
    fwd_steps, bwd_steps = rec.steps[:fwd_end], rec.steps[fwd_end:]
    src_of = {id(t): i for i, t in enumerate(sources)}
    # what each leaf of the result becomes at a replay
    kinds = []
    out_vars = []
    var_slot: dict[int, int] = {}
    for x in leaves:
        if not isinstance(x, Tensor):
            kinds.append(("value", x))
        elif id(x) in src_of:
            kinds.append(("source", src_of[id(x)]))
        elif type(x.array) is TracedArray:
            v = x.array._v
            if v.n not in var_slot:
                var_slot[v.n] = len(out_vars)
                out_vars.append(v)
            kinds.append(("out", var_slot[v.n], type(x)))
        else:
            kinds.append(("const", x))
    for x in outs:  # an output that is a view of what the function read
        if type(x.array) is TracedArray and id(x) not in src_of:
            real = x.array._a
            for v in source_vars:
                if host.shares_memory(real, rec.traced[v.n]._a):  # host-ok: numpy traces
                    return "the function returns a view of a tensor it reads"
    diff_slots = [var_slot[outs[i].array._v.n] for i in diff]
    grad_vars = []
    for g in grads:
        if isinstance(g, Tensor):
            g = g.array
        if g is None:
            grad_vars.append(None)
        elif type(g) is TracedArray:
            grad_vars.append(g._v)
        else:
            return "a gradient the trace did not compute"
    kept_b = needed(bwd_steps, grad_vars)
    seed_ids = {s._v.n for s in seeds}
    saved_ids = (reads(kept_b) | set(variables(grad_vars))) - defined(kept_b) - seed_ids
    saved_vars = [t._v for t in rec.traced.values() if t._v.n in saved_ids]
    kept_f = needed(fwd_steps, out_vars + saved_vars)
    forward, fsrc = build(kept_f, source_vars, out_vars + saved_vars, "forward")
    backward = bsrc = None
    if diff:
        backward, bsrc = build(kept_b, [s._v for s in seeds] + saved_vars, grad_vars,
                               "backward")
    source_ids = {v.n: i for i, v in enumerate(source_vars)}
    return replay.Entry(
        forward=forward, backward=backward, forward_source=fsrc, backward_source=bsrc,
        kinds=kinds, spec=spec, n_out=len(out_vars), diff_slots=diff_slots, diff_leaves=diff,
        rg_sources=rg_sources, saved_sources=[source_ids[v.n] for v in saved_vars
                                              if v.n in source_ids],
        out_saved=[i for i, v in enumerate(out_vars) if v.n in saved_ids],
        shapes=tuple(sources[i].array.shape for i in rg_sources),
        dtypes=tuple(sources[i].array.dtype for i in rg_sources))


# ---------------------------------------------------------------- the global switches
def compiled(fn: Callable, **options: Any) -> Compiled:
    """``fn`` compiled by trace and replay (see ``Compiled`` for the options)."""
    return Compiled(fn, **options)


def set_enabled(flag: bool) -> None:
    """Switch compiling off (every Compiled runs eagerly) or back on, process-wide."""
    _ENABLED[0] = bool(flag)


def is_tracing() -> bool:
    """Whether a trace is being recorded now (inside a compiled function's first call)."""
    return state.tracing is not None


def disabled(fn: Callable) -> Callable:
    """``fn`` marked to run eagerly: called inside a compiled function it is a graph break
    (the whole function then runs eagerly for that key); called on its own it is ``fn``."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        note_escape(f"a call of {getattr(fn, '__qualname__', fn)!s}, which is excluded "
                    "from compiling")
        return fn(*args, **kwargs)
    run.__janusgrad_disabled__ = True
    return run


def reset_all() -> None:
    """Forget every trace of every compiled function."""
    for c in _ALL:
        c.reset()
