"""Traced arrays: real numpy values that record every array-level call made on them.

While a compiled function runs its first call, the arrays of the tensors it reads are
``TracedArray``s.  A traced array holds the real value (so the engine computes, branches on
shapes and raises exactly as it does eagerly) and a variable number.  Every numpy call that
touches one (a ufunc, a numpy function, an ndarray method, an operator, indexing) and every
call through ``TRACE_NS`` (what ``xp_of`` gives the engine for a traced array) is appended
to the active ``Recorder`` as a step: the function, its arguments with traced arrays
replaced by ``Var``s, and the variables of its result.  Replaying the steps on new arrays
computes what the engine computed, with the same kernels in the same order.

A value that leaves the arrays for Python (``item``, ``bool``, ``float``, ``tolist``,
printing, ``np.asarray``, a transfer to the host) is an *escape*: what the function does
next may depend on it, so the trace is not valid for other values.  The escape is noted
(the run goes on with the real value) and the compiled function runs that key eagerly.
"""
from __future__ import annotations

import operator
import types

import numpy as np
import scipy.special

from janusgrad.array import backend
from janusgrad.core.mode import state
from janusgrad.ops.rules import CONSTS, const


class Var:
    """A traced value's place in the program (its variable number)."""

    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def __repr__(self) -> str:
        return f"v{self.n}"


class Step:
    """One recorded call: ``fn(*args, **kwargs)``, its result's variables in ``out`` (a Var,
    a tuple/list of them, or None), and ``writes``: the Var it writes into in place."""

    __slots__ = ("fn", "args", "kwargs", "out", "writes")

    def __init__(self, fn, args, kwargs, out, writes) -> None:
        self.fn, self.args, self.kwargs, self.out, self.writes = fn, args, kwargs, out, writes


class Recorder:
    """The steps of one trace, and what would make it invalid."""

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.count = 0
        self.escapes: list[str] = []
        # id(real value) -> its traced array (which keeps the value alive: ids are not reused)
        self.values: dict[int, TracedArray] = {}
        self.traced: dict[int, TracedArray] = {}  # variable number -> its traced array
        self.rng_states: dict = {}  # id(generator) -> (generator, its state before)
        self.by_root: dict = {}  # id(memory owner) -> traced arrays over that memory

    def var(self, real, tainted: bool = True) -> TracedArray:
        v = Var(self.count)
        self.count += 1
        t = TracedArray(real, v, tainted)
        self.values[id(real)] = t
        self.traced[v.n] = t
        if isinstance(real, np.ndarray):
            self.by_root.setdefault(id(_root(real)), []).append(t)
        return t

    def taint(self, t: TracedArray) -> None:
        """``t`` now holds data from the inputs (written into it): so do its views."""
        t._t = True
        for other in self.by_root.get(id(_root(t._a)), ()):
            other._t = True

    def draws(self, generator) -> None:
        """``generator`` is drawn from: an escape; its state is kept to be put back."""
        self.escape("random numbers")
        if id(generator) not in self.rng_states:
            self.rng_states[id(generator)] = (generator,
                                              generator._rng.bit_generator.state)

    def restore_random(self) -> None:
        for generator, st in self.rng_states.values():
            generator._rng.bit_generator.state = st

    def escape(self, what: str) -> None:
        if what not in self.escapes:
            self.escapes.append(what)


def note_escape(what: str) -> None:
    """A value left the traced arrays (or something untraceable happened) in the active
    trace, if any."""
    rec = state.tracing
    if rec is not None:
        rec.escape(what)


# ---------------------------------------------------------------- splitting arguments
def _root(a):
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def _tainted(obj) -> bool:
    """Whether an argument holds a traced array computed from the function's inputs."""
    t = type(obj)
    if t is TracedArray:
        return obj._t
    if t is tuple or t is list:
        return any(_tainted(x) for x in obj)
    if t is dict:
        return any(_tainted(x) for x in obj.values())
    if t is slice:
        return _tainted((obj.start, obj.stop, obj.step))
    return False


def _split(obj):
    """(real value, template) of an argument: traced arrays become their real value and
    their Var; containers are walked."""
    t = type(obj)
    if t is TracedArray:
        return obj._a, obj._v
    if t is tuple or t is list:
        parts = [_split(x) for x in obj]
        return t(p[0] for p in parts), t(p[1] for p in parts)
    if t is dict:
        parts = {k: _split(x) for k, x in obj.items()}
        return {k: p[0] for k, p in parts.items()}, {k: p[1] for k, p in parts.items()}
    if t is slice:
        (a, b, c), tmpl = _split((obj.start, obj.stop, obj.step))
        return slice(a, b, c), slice(*tmpl)
    return obj, obj


def _wrap(rec: Recorder, result, tainted: bool = True):
    """(traced result, template of its variables) of a recorded call's real result."""
    if isinstance(result, (np.ndarray, np.generic)):  # (a numpy scalar stays one, as eagerly)
        known = rec.values.get(id(result))
        if known is not None and known._a is result:  # an in-place call returned its output
            return known, known._v
        t = rec.var(result, tainted)
        return t, t._v
    if isinstance(result, (tuple, list)):
        parts = [_wrap(rec, x, tainted) for x in result]
        values = [p[0] for p in parts]
        if hasattr(result, "_fields"):  # a named tuple (SVDResult ...): the engine reads fields
            return type(result)(*values), tuple(p[1] for p in parts)
        return type(result)(values), type(result)(p[1] for p in parts)
    if result is None:
        return None, None
    # a Python number, a dtype, ...: computed from the inputs it is an escape (functions that
    # only read metadata are listed in _METADATA and never come here)
    if tainted:
        rec.escape(f"a numpy call returned a Python value ({type(result).__name__})")
    return result, None


def _written(args, kwargs, fn):
    """The Var a call writes into, if it writes in place."""
    out = kwargs.get("out")
    if out is not None:
        o = out[0] if type(out) is tuple else out
        return o if type(o) is Var else _PLAIN_WRITE
    name = getattr(fn, "__name__", "")
    if name in _WRITERS and args:
        return args[0] if type(args[0]) is Var else _PLAIN_WRITE
    return None


_PLAIN_WRITE = object()  # a write into an array that is not traced
_WRITERS = frozenset({"setitem", "copyto", "put", "place", "putmask", "put_along_axis", "fill",
                      "at", "iadd", "isub", "imul", "itruediv", "ifloordiv", "imod", "ipow",
                      "iand", "ior", "ixor", "ilshift", "irshift", "imatmul", "fill_diagonal",
                      "sort", "partition", "resize"})


def record_call(fn, args, kwargs):
    """Call ``fn`` on the real values and, in an active trace, record the call."""
    real_args, targs = _split(args)
    real_kwargs, tkwargs = _split(kwargs) if kwargs else ({}, {})
    result = fn(*real_args, **real_kwargs)
    rec = state.tracing
    if rec is None:  # a traced array used after its trace: plain values from now on
        return result
    tainted = _tainted(args) or _tainted(kwargs)
    writes = _written(targs, tkwargs, fn)
    if writes is _PLAIN_WRITE:
        rec.escape("an in-place write into an array created outside the traced arrays")
        writes = None
    elif writes is not None and tainted and writes.n in rec.traced:
        rec.taint(rec.traced[writes.n])
    if fn in _ARITHMETIC and len(real_args) == 2 and not real_kwargs:
        targs = _float_constants(real_args, targs)
    traced, tout = _wrap(rec, result, tainted)
    rec.steps.append(Step(fn, targs, tkwargs, tout, writes))
    return traced


# binary arithmetic whose Python-float operand a replay may pass as the engine's ready 0-d
# constant of the other operand's dtype: numpy casts the float to that dtype anyway (NEP 50),
# so the bits are the same (the engine's own fast path relies on it), without numpy
# converting the number on every replayed call. (Not power: ndarray.__pow__ has fast paths
# for some scalar exponents.)
_ARITHMETIC = {np.add, np.subtract, np.multiply, np.true_divide, np.maximum, np.minimum,
               operator.add, operator.sub, operator.mul, operator.truediv}


def _float_constants(real_args, targs):
    a, b = real_args
    other = b if type(a) is float else a
    if type(other) is not np.ndarray or (type(a) is not float) == (type(b) is not float):
        return targs
    table = CONSTS.get(other.dtype)
    if table is None:
        return targs
    return tuple(const(table, v, other.dtype) if type(v) is float else t
                 for v, t in zip(real_args, targs))


# ---------------------------------------------------------------- the traced array
def _escape(what, name):
    def f(self, *args, **kwargs):
        if self._t:  # (a value made from constants alone is the same at every replay)
            note_escape(what)
        return getattr(self._a, name)(*args, **kwargs)
    return f


class TracedArray:
    """A real array (``_a``, possibly a numpy scalar) that records what is done with it."""

    __slots__ = ("_a", "_v", "_t", "__weakref__")
    __array_priority__ = 1000

    def __init__(self, a, v: Var, tainted: bool = True) -> None:
        self._a = a
        self._v = v
        self._t = tainted  # computed from the function's inputs (else a constant)

    # -- numpy's protocols: ufuncs and functions given a traced array are recorded
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        fn = ufunc if method == "__call__" else getattr(ufunc, method)
        return record_call(fn, inputs, kwargs)

    def __array_function__(self, func, types_, args, kwargs):
        if func in _METADATA:
            return func(*_split(args)[0], **_split(kwargs)[0])
        return record_call(func, args, kwargs)

    def __array__(self, dtype=None, copy=None):
        if self._t:
            note_escape("a traced array was converted to a plain numpy array")
        a = np.asarray(self._a)
        return a if dtype is None else a.astype(dtype)

    # -- metadata (shape, dtype, ...: below) is fixed by the guard key and read freely
    T = property(lambda self: record_call(_transpose, (self,), None))
    mT = property(lambda self: record_call(_swap_last, (self,), None))
    real = property(lambda self: record_call(np.real, (self,), None))
    imag = property(lambda self: record_call(np.imag, (self,), None))

    @property
    def base(self):
        b = getattr(self._a, "base", None)
        rec = state.tracing
        return None if b is None or rec is None else rec.values.get(id(b))

    def __len__(self) -> int:
        return len(self._a)

    def __iter__(self):
        return (self[i] for i in range(len(self._a)))

    def __getitem__(self, key):
        return record_call(operator.getitem, (self, key), None)

    def __setitem__(self, key, value) -> None:
        record_call(operator.setitem, (self, key, value), None)

    def __getattr__(self, name: str):
        """ndarray methods: recorded as calls of the unbound method (``np.ndarray.sum``)."""
        method = getattr(type(self._a), name, None)
        if method is None or not callable(method) or name.startswith("__"):
            raise AttributeError(f"traced array has no attribute {name!r}")
        return lambda *args, **kwargs: record_call(method, (self, *args), kwargs)

    def __repr__(self) -> str:
        return f"TracedArray({self._v!r}, {self._a!r})"

    __hash__ = None  # type: ignore[assignment]


for _name in ("shape", "dtype", "ndim", "size", "itemsize", "nbytes", "strides", "flags"):
    setattr(TracedArray, _name, property(operator.attrgetter(f"_a.{_name}")))

# (a truth value is a guard, not an escape: _bool below)
_ESCAPES = {"a tensor's value was read as a Python float": "__float__",
            "a tensor's value was read as a Python int": "__int__",
            "a tensor's value was used as an index": "__index__",
            "a tensor's value was read as a Python complex": "__complex__",
            "a tensor's value was read (item)": "item",
            "a tensor's value was read (tolist)": "tolist",
            "a tensor's value was read (tobytes)": "tobytes",
            "a tensor's value was printed": "__str__",
            "a tensor's value was formatted": "__format__"}
for _what, _name in _ESCAPES.items():
    setattr(TracedArray, _name, _escape(_what, _name))


class GuardFailed(Exception):
    """A replay met a value other than the one its trace assumed."""


def _guard(a, expected: bool) -> None:
    if bool(a) is not expected:
        raise GuardFailed


def _bool(self) -> bool:
    """A truth value read from a traced array: the engine branches on it (a check that
    raises, a fast path for "no zeros", ...).  Computed from the inputs, it becomes a *guard*:
    a step that checks, at every replay, that the value is the same; where it is not, that
    call runs eagerly (janusgrad.transforms.trace.api), so the branch eager takes is always
    the one run."""
    value = bool(self._a)
    rec = state.tracing
    if self._t and rec is not None:
        rec.steps.append(Step(_guard, (self._v, value), {}, None, self._v))
    return value


TracedArray.__bool__ = _bool


def _transpose(a):
    return a.T


def _swap_last(a):
    return np.swapaxes(a, -1, -2)


# operators: recorded as the operator module's function on the real values (the same
# dispatch as the eager code's ``a + b``)
def _binop(f):
    return lambda self, other: record_call(f, (self, other), None)


def _rbinop(f):
    return lambda self, other: record_call(f, (other, self), None)


for _name in ("add sub mul truediv floordiv mod pow matmul and or xor lshift rshift "
              "lt le gt ge eq ne").split():
    _f = getattr(operator, f"__{_name}__")
    setattr(TracedArray, f"__{_name}__", _binop(_f))
    if _name not in ("lt", "le", "gt", "ge", "eq", "ne"):
        setattr(TracedArray, f"__r{_name}__", _rbinop(_f))
        setattr(TracedArray, f"__i{_name}__", _binop(getattr(operator, f"__i{_name}__")))
for _name in ("neg", "pos", "abs", "invert"):
    _f = getattr(operator, f"__{_name}__")
    setattr(TracedArray, f"__{_name}__", lambda self, _f=_f: record_call(_f, (self,), None))
TracedArray.__divmod__ = _binop(divmod)


# numpy functions that read only shapes and dtypes: not recorded, never an escape
_METADATA = {np.shape, np.ndim, np.size, np.result_type, np.can_cast, np.iscomplexobj,
             np.isrealobj, np.min_scalar_type, np.broadcast_shapes, np.isscalar,
             np.shares_memory, np.may_share_memory}


# ---------------------------------------------------------------- the recording namespace
class _Ufunc:
    """A numpy ufunc whose calls are recorded."""

    def __init__(self, f: np.ufunc) -> None:
        self._f = f
        self.__name__ = f.__name__
        self.nin, self.nout = f.nin, f.nout

    def __call__(self, *args, **kwargs):
        return record_call(self._f, args, kwargs)

    def __getattr__(self, name: str):
        method = getattr(self._f, name)  # reduce, accumulate, at, outer, reduceat
        if not callable(method):
            return method
        return lambda *args, **kwargs: record_call(method, args, kwargs)


class Namespace(types.ModuleType):
    """numpy (or scipy.special) under its own names, every call recorded."""

    def __init__(self, name: str, source) -> None:
        super().__init__(name)
        self._source = source

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        v = getattr(self._source, name)
        if name == "random":  # (not kept: every trace that draws must note it)
            note_escape("random numbers")
            return v
        if isinstance(v, types.ModuleType):
            v = Namespace(f"{self.__name__}.{name}", v)
        elif isinstance(v, np.ufunc):
            v = _Ufunc(v)
        elif _is_metadata(v):
            pass
        elif callable(v) and not isinstance(v, type):
            v = _recorded(v)
        setattr(self, name, v)  # resolved once
        return v


def _is_metadata(v) -> bool:
    try:
        return v in _METADATA
    except TypeError:  # unhashable
        return False


def _recorded(f):
    def call(*args, **kwargs):
        return record_call(f, args, kwargs)
    call.__name__ = getattr(f, "__name__", "call")
    return call


TRACE_NS = Namespace("janusgrad.transforms.trace.numpy", np)
TRACE_NS.ndarray = TracedArray
backend.SPECIAL_MODULES[TRACE_NS] = Namespace("janusgrad.transforms.trace.special", scipy.special)


def as_array(a: TracedArray, dtype=None):
    """backend.as_array of a traced array: a numpy scalar becomes a 0-d array by a step of
    its own, as eagerly (the engine keeps scalars where it can: numpy computes some
    functions of a scalar with other kernels than of an array, so the trace must too)."""
    if isinstance(a._a, np.generic):
        a = record_call(np.asarray, (a,), None)
    return a if dtype is None or a.dtype == dtype else a.astype(dtype)


def _to_host(a):
    if a._t:
        note_escape("a tensor was moved to the host (numpy(), printing, a device change)")
    return np.asarray(a._a)


TRACE_BACKEND = backend.ArrayBackend("trace", "cpu", TRACE_NS, TracedArray, _to_host,
                                     lambda a, index: a, lambda a: 0, lambda: 1,
                                     lambda index: None)
backend._register(TRACE_BACKEND)
backend.TRACED[:] = [TracedArray, as_array]
