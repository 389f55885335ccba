"""Derivative rules written once, run in two namespaces.

A rule is a function ``rule(np, g, *operands)`` written with Python operators and numpy's
function names on the argument ``np`` (HIPS autograd's and JAX's way): for tanh,
``lambda np, g, out: g * (1.0 - np.square(out))``.  The same rule serves both backwards:

- the fast backward (nothing recorded) calls it with ``np`` the array namespace of the
  gradient's array type (numpy, cupy, ...: ``ARRAYS[type(g)]``) on bare arrays;
- the recording backward (create_graph, hooks that see tensors, anomaly mode) calls it
  with ``np`` = ``TENSORS``, the same names bound to engine ops, on Tensors: the rule is
  then recorded like any computation, so derivatives of any order come free.

An op says which operands its rule takes (``uses``): ``"x"``, ``"y"``, ``"z"`` (what the op
saved, in order: a Tensor, a Python number or None), ``"out"`` (its output), ``"attrs"``,
``"shape"`` (the first input's shape) and ``"need"`` (the node's parents: None where an
input needs no gradient).  A multi-input op gives either one rule per input (a tuple, None
for an input without a derivative; only the rules of inputs that need a gradient run) or
one rule returning a gradient per input.  Besides numpy's names, both namespaces carry the
engine's adjoint pairs (``sum_to``, ``spread``, ``narrow``/``unnarrow``,
``getitem``/``index_add``).

In the fast backward an operand that is a tensor of another float dtype or another array
type than the gradient makes the op hand this one call to the recording form, where the
engine's promotion rules apply (numpy's could round differently); Python numbers become
the 0-d constants of the gradient's dtype that the forward uses (the same bits, without
numpy converting the number each call).
"""
from __future__ import annotations

from janusgrad.array.backend import ARRAY_TYPES, MODULES, float32, float64, host, ndarray
from janusgrad.core.tensor import Tensor

# ---------------------------------------------------------------- constants
# Python floats as ready 0-d arrays of a float dtype, per dtype.  numpy casts a Python
# float operand to the array's dtype anyway (NEP 50), so the result is bit for bit the
# same; the ready array skips that conversion on every call (about a third of a small
# op's ufunc time).  Zero is left out (0.0 and -0.0 are one dict key), and so are values a
# float32 cannot hold.
CONSTS: dict = {float32: {}, float64: {}}
_CONST_LIMIT = 3.0e38


def const(table, v, dt):
    """``v`` as a 0-d array of ``dt`` from ``table`` (``v`` itself where that is unsafe)."""
    if v == 0.0 or not -_CONST_LIMIT < v < _CONST_LIMIT:  # also NaN
        return v
    if len(table) > 4096:
        table.clear()
    z = host.array(v, dt)  # host-ok: constants for numpy arrays only (the fast path)
    z.flags.writeable = False
    table[v] = z
    return z


# ---------------------------------------------------------------- namespaces
class Namespace:
    """Functions as attributes (an instance dict: as fast to look up as a module's)."""

    def __init__(self, **fns) -> None:
        self.__dict__.update(fns)


# numpy's names the rules use, taken from the array module as they are
_NUMPY_NAMES = ("add subtract multiply divide negative power square sqrt exp log sin cos tan "
                "sinh cosh sign abs maximum minimum equal greater greater_equal less less_equal "
                "logical_and matmul broadcast_to flip cumsum floor_divide").split()


# What each op family adds to the two namespaces: functions registered by the families at
# their import (``@rule_arrays``: xp -> {name: function on xp's arrays}; ``@rule_tensors``:
# () -> {name: engine op}), called when a namespace is first built, so that this module
# imports no family (the families import it).
_ARRAY_NAMES: list = []
_TENSOR_NAMES: list = []


def rule_arrays(fn):
    """Register ``fn(xp)``: names (besides numpy's) the rules use on bare arrays of the
    array module ``xp`` (the engine's adjoint pairs, and methods faster than functions)."""
    _ARRAY_NAMES.append(fn)
    for ns in ARRAYS.values():  # (a family imported after a backward has run)
        ns.__dict__.update(fn(ns.module))
    return fn


def rule_tensors(fn):
    """Register ``fn()``: names the rules use on tensors, bound to engine ops."""
    _TENSOR_NAMES.append(fn)
    if "add" in TENSORS.__dict__:
        TENSORS.__dict__.update(fn())
    return fn


class _ArrayNamespaces(dict):
    """type of array -> the namespace its rules run in (built once per array module)."""

    def __missing__(self, t: type) -> Namespace:
        xp = MODULES[t]
        for ns in list(self.values()):
            if ns.module is xp:
                break
        else:
            ns = Namespace(module=xp, **{k: getattr(xp, k) for k in _NUMPY_NAMES},
                           **_ARRAY_BASE)
            for fn in _ARRAY_NAMES:
                ns.__dict__.update(fn(xp))
        self[t] = ns
        return ns


# the names that take no family's function: the array's methods
_ARRAY_BASE = {"reshape": lambda a, shape: a.reshape(shape),
               "transpose": lambda a, axes: a.transpose(axes),
               "swapaxes": lambda a, i, j: a.swapaxes(i, j),
               "getitem": lambda a, key: a[key]}


ARRAYS: dict = _ArrayNamespaces()


class _TensorNamespace(Namespace):
    """The engine ops under numpy's names, filled on first use (from ``rule_tensors``)."""

    def __getattr__(self, name: str):
        if "add" in self.__dict__:
            raise AttributeError(name)
        for fn in _TENSOR_NAMES:
            self.__dict__.update(fn())
        if "add" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self, name)


TENSORS = _TensorNamespace()


# ---------------------------------------------------------------- operands
_DECLINE = object()


def _operand(v, g):
    """A saved operand for the fast backward: a Python number as the forward's constant of
    g's dtype; a tensor's array, or _DECLINE when it is a float array of another dtype
    than ``g``, an int array, or on another array type (the recording form then
    promotes, or moves a host scalar that joined a device op)."""
    tv = type(v)
    if tv is float or tv is int:
        tg = type(g)
        if tg is ndarray or tg not in ARRAY_TYPES:  # a host gradient (or a numpy scalar)
            table = CONSTS.get(g.dtype)
            if table is not None:
                c = table.get(v)
                return c if c is not None else const(table, float(v), g.dtype)
        return v
    if v is None or not isinstance(v, Tensor):
        return v
    a = v.array
    dt = a.dtype
    gt = g.dtype
    if dt is not gt and dt != gt and dt.kind != "b":
        return _DECLINE
    ta, tg = type(a), type(g)
    if ta is tg or (ta is ndarray and tg not in ARRAY_TYPES):
        return a  # (g may be a numpy scalar: a 0-d host gradient)
    return _DECLINE


def _fast(v, g):
    """``_operand(v, g)``, with its common cases first: a tensor of g's array type and
    dtype, a Python float beside a numpy array of a dtype with constants, None."""
    if isinstance(v, Tensor):
        a = v.array
        if type(a) is type(g) and a.dtype is g.dtype:
            return a
    elif type(v) is float and type(g) is ndarray:
        table = CONSTS.get(g.dtype)
        if table is not None:
            c = table.get(v)
            if c is not None:
                return c
    elif v is None:
        return None
    return _operand(v, g)


def _getter(code: str):
    """How one operand named in ``uses`` is fetched from a node, on arrays (a saved tensor's
    array, or _DECLINE where the rule must run on tensors)."""
    if code in ("x", "y", "z"):
        i = "xyz".index(code)
        return lambda n, g: _operand(n.saved[i], g)
    if code == "out":
        return lambda n, g: n.out_data
    if code == "attrs":
        return lambda n, g: n.attrs
    if code == "shape":
        return lambda n, g: n.shapes[0]
    if code == "need":
        return lambda n, g: n.parents
    raise ValueError(f"unknown operand {code!r}")


def _fetcher(uses: tuple):
    """``fetch(n, g)``: the operands on arrays as a tuple (None: the fast backward
    declines).  The common cases are spelled out: this runs once per node of a backward."""
    gets = [_getter(u) for u in uses]
    if not any(u in ("x", "y", "z") for u in uses):  # nothing to decline
        if not gets:
            return lambda n, g: ()
        if len(gets) == 1:
            a, = gets
            return lambda n, g: (a(n, g),)
        if len(gets) == 2:
            a, b = gets
            return lambda n, g: (a(n, g), b(n, g))
        return lambda n, g: tuple(get(n, g) for get in gets)
    if uses == ("x", "y"):
        def fetch(n, g):
            x, y = n.saved
            a, b = _operand(x, g), _operand(y, g)
            if a is _DECLINE or b is _DECLINE:
                return None
            return a, b
        return fetch

    def fetch(n, g):
        out = []
        for get in gets:
            v = get(n, g)
            if v is _DECLINE:
                return None
            out.append(v)
        return out
    return fetch


def build(rule, uses: tuple, arrays: bool, same=None):
    """The node-level form of ``rule`` for one backward: ``run(n, g)`` gives one gradient
    per input (on arrays: None as a whole where an operand makes the rule decline).
    ``same``: a binary op's rule for one tensor as both inputs (x * x), whose gradient goes
    to the first."""
    per_input = type(rule) is tuple
    multi = "need" in uses  # (such a rule gives a gradient per input itself)
    if not arrays:
        return _tensor_path(rule, uses, per_input, multi, same)
    run = _array_fast_path(rule, uses, per_input, multi, same)
    if run is not None:
        return run
    # the general form on arrays: operands fetched (or declined), the array module by g
    spaces = ARRAYS
    fetch = _fetcher(uses)
    if per_input and len(rule) == 2:
        r0, r1 = rule

        def run(n, g):
            args = fetch(n, g)
            if args is None:
                return None
            np = spaces[type(g)]
            p = n.parents
            if same is not None and p[0] is p[1] and n.saved[0] is n.saved[1]:
                return same(np, g, *args), None
            return (r0(np, g, *args) if p[0] is not None and r0 is not None else None,
                    r1(np, g, *args) if p[1] is not None and r1 is not None else None)
    elif per_input:
        def run(n, g):
            args = fetch(n, g)
            if args is None:
                return None
            np = spaces[type(g)]
            return tuple(r(np, g, *args) if p is not None and r is not None else None
                         for r, p in zip(rule, n.parents))
    elif multi:
        def run(n, g):
            args = fetch(n, g)
            if args is None:
                return None
            return rule(spaces[type(g)], g, *args)
    else:
        def run(n, g):
            args = fetch(n, g)
            if args is None:
                return None
            return (rule(spaces[type(g)], g, *args),)
    return run


# the operands that need no check on arrays, as expressions of the node ``n``
_EXPRESSIONS = {"out": "n.out_data", "attrs": "n.attrs", "shape": "n.shapes[0]",
                "need": "n.parents"}


# the operands on tensors, as expressions of the node ``n`` (nothing declines there)
_TENSOR_EXPRESSIONS = {"x": "n.saved[0]", "y": "n.saved[1]", "z": "n.saved[2]",
                       "out": "n.output()", "attrs": "n.attrs", "shape": "n.shapes[0]",
                       "need": "n.parents"}


def _tensor_path(rule, uses, per_input, multi, same):
    """``run`` on tensors (create_graph, hooks, anomaly mode, a declined array call):
    generated as one function per op, the operands fetched inline (this runs once per node
    of every recording backward: F, the third derivative, spends its time here)."""
    args = "".join(", " + _TENSOR_EXPRESSIONS[u] for u in uses)
    scope = {"np": TENSORS, "rule": rule, "same": same}
    if not per_input:
        body = [f"return rule(np, g{args})" if multi else f"return (rule(np, g{args}),)"]
    else:
        scope.update({f"r{i}": r for i, r in enumerate(rule)})
        body = ["p = n.parents"]
        if same is not None:
            body.append(f"if p[0] is p[1] is not None and n.saved[0] is n.saved[1]: "
                        f"return same(np, g{args}), None")
        grads = ["None" if r is None else f"r{i}(np, g{args}) if p[{i}] is not None else None"
                 for i, r in enumerate(rule)]
        body.append("return (" + "".join(f"{e}, " for e in grads) + ")")
    exec("def run(n, g):\n" + "".join(f"    {line}\n" for line in body), scope)
    return scope["run"]


def _array_fast_path(rule, uses, per_input, multi, same):
    """``run`` on arrays for the most common kinds of rule, spelled out (this runs once
    per node of every backward), or None."""
    spaces = ARRAYS
    if not per_input and not multi and uses == ("x",):
        def run(n, g):  # a unary rule on its input
            v = n.saved[0]
            a = v.array if isinstance(v, Tensor) else v
            if type(a) is not type(g) or a.dtype is not g.dtype:
                a = _operand(v, g)
                if a is _DECLINE:
                    return None
            return (rule(spaces[type(g)], g, a),)
        return run
    if not per_input and all(u in _EXPRESSIONS for u in uses):
        # nothing to decline: the rule's call on the node's fields, as one expression
        call = f"rule(spaces[type(g)], g{''.join(', ' + _EXPRESSIONS[u] for u in uses)})"
        scope = {"rule": rule, "spaces": spaces}
        exec(f"def run(n, g):\n    return {call if multi else '(' + call + ',)'}", scope)
        return scope["run"]
    if per_input and len(rule) == 2 and not uses:
        r0, r1 = rule

        def run(n, g):
            np = spaces[type(g)]
            p = n.parents
            return (r0(np, g) if p[0] is not None else None,
                    r1(np, g) if p[1] is not None else None)
        return run
    if per_input and len(rule) == 2 and uses == ("x", "y") and None not in rule:
        r0, r1 = rule

        def run(n, g):  # a binary rule on its operands
            x, y = n.saved
            tg = type(g)
            # _fast's first case inline: a saved tensor of g's array type and dtype
            # (and, for y, a Python float with a ready constant: ``x * c``, ``x / c``)
            if isinstance(x, Tensor) and type(a := x.array) is tg and a.dtype is g.dtype:
                pass
            elif x is None:
                a = None
            elif (a := _fast(x, g)) is _DECLINE:
                return None
            if isinstance(y, Tensor) and type(b := y.array) is tg and b.dtype is g.dtype:
                pass
            elif type(y) is float and tg is ndarray and (table := CONSTS.get(g.dtype)) and \
                    (b := table.get(y)) is not None:
                pass
            elif (b := _fast(y, g)) is _DECLINE:
                return None
            np = spaces[type(g)]
            p = n.parents
            if p[0] is not None:
                if p[1] is None:
                    return r0(np, g, a, b), None
                if same is not None and p[0] is p[1] and x is y:
                    if g.dtype.kind in "biu" and n.out_cls.dialect.refuse_int_grad_sum:
                        raise n.out_cls.dialect.int_grad_sum(g.dtype)  # the two would meet
                    return same(np, g, a, b), None
                return r0(np, g, a, b), r1(np, g, a, b)
            return None, r1(np, g, a, b)
        return run
    return None
