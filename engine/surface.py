"""A dialect's public surface as data: one ``Row`` per public name, installed by ``install``.

A row names the engine function behind a public name and how the dialect's call maps onto
it: the dialect's parameter list (names, defaults, keyword-only marks), the engine call
made from those parameters, which forms exist (module function, Tensor method, in-place
method) and the grad-node name the dialect shows for the result.  ``install`` turns each
row into real Python functions (generated once, at import, with the row's exact signature:
a call costs what a hand-written wrapper costs, and a row that needs no translation binds
the engine function itself).  A row whose engine function does not exist raises at install
time, so a frontend that names a missing op fails on import, never silently.

The frontends keep hand-written code only where a dialect's semantics truly differ; the
translation of names, argument orders and defaults is this table's job.
"""
from __future__ import annotations

import ast
import importlib
import keyword
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

GENERATED = "<janusgrad.surface:"  # how the file names of generated functions begin
_MISSING = object()  # the default of a parameter that also has a keyword alias


@dataclass(frozen=True)
class Row:
    """One public name of a dialect.

    ``fn``: the engine function, or ``"family.name"`` of one in ``janusgrad.ops`` (or
    ``"janusgrad.module.name"`` for any engine module).
    ``params``: the dialect's parameter list as Python source (``"input, dim=None, *,
    keepdim=False"``); None: call ``fn`` with whatever is passed (no wrapper at all).
    ``call``: the engine call's arguments as Python source over ``params``' names and the
    installer's ``env`` (``"input, dim, keepdim"``); None: ``params``' names in order
    (keyword-only ones as keywords).
    ``forms``: ``f`` module function, ``m`` Tensor method, ``i`` in-place method ``name_``
    (its call's first argument is the tensor changed in place).
    ``aliases``: more public names for the same callables (``absolute`` for ``abs``).
    ``node``: the grad-node name the dialect shows for the result (via the installer's
    ``tag``), where it differs from what the engine op's own name maps to; anything but an
    identifier is a Python expression over ``params``' names giving the name (or None: the
    engine op's own) per call (``"'SumBackward1' if dim is not None else None"``).
    ``method``: the method form's name when it differs from the function's.
    ``inplace``: the in-place method's name when it is not ``method + "_"`` (the in-place
    operators: ``__iadd__``).
    """

    name: str
    fn: Callable | str
    params: str | None = None
    call: str | None = None
    forms: str = "fm"
    aliases: tuple[str, ...] = ()
    node: str | None = None
    method: str | None = None
    inplace: str | None = None


def resolve(fn: Callable | str) -> Callable:
    """A row's engine function; LookupError naming it when the engine lacks it."""
    if not isinstance(fn, str):
        return fn
    path, _, attr = fn.rpartition(".")
    module = path if path.startswith("janusgrad") else f"janusgrad.ops.{path}"
    try:
        found = getattr(importlib.import_module(module), attr, None)
    except ImportError:
        found = None
    if found is None:
        raise LookupError(f"the engine has no {fn}")
    return found


@dataclass(frozen=True)
class Installed:
    """What ``install`` made of one row: its callables by public name."""

    row: Row
    function: Callable | None
    method: Callable | None
    inplace: Callable | None


def _param_names(params: str) -> tuple[list[str], list[str], str | None, str | None]:
    """(positional names, keyword-only names, *args name, **kwargs name) of a parameter
    list, read by compiling an empty function with it."""
    code = compile(f"def _f({params}): pass", "<surface>", "exec")
    f = next(c for c in code.co_consts if hasattr(c, "co_varnames"))
    n, k = f.co_argcount, f.co_kwonlyargcount
    names = list(f.co_varnames)
    pos, kwonly = names[:n], names[n:n + k]
    rest = names[n + k:]
    star = rest.pop(0) if f.co_flags & 0x04 else None
    starstar = rest.pop(0) if f.co_flags & 0x08 else None
    return pos, kwonly, star, starstar


def _default_call(params: str) -> str:
    pos, kwonly, star, starstar = _param_names(params)
    parts = list(pos)
    if star:
        parts.append("*" + star)
    parts += [f"{k}={k}" for k in kwonly]
    if starstar:
        parts.append("**" + starstar)
    return ", ".join(parts)


def _with_aliases(params: str, kw_aliases: dict[str, str]) -> tuple[str, list[str]]:
    """``params`` with a keyword-only alias added for each aliased parameter it has
    (torch's ``axis=`` for ``dim=``), and the lines that fold an alias into its name.  A
    required parameter that has an alias (and every required one after it) gets a marker
    default, and the lines raise Python's own TypeError when it is still missing."""
    fdef = ast.parse(f"def _f({params}): pass").body[0]
    a = fdef.args
    names = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
    present = [(p, al) for p, al in kw_aliases.items() if p in names and al not in names]
    if not present:
        return params, []
    marker = ast.Name("_MISSING", ast.Load())
    positional = a.posonlyargs + a.args
    first_default = len(positional) - len(a.defaults)
    aliased = {p for p, _ in present}
    lines = [f"if {al} is not _MISSING: {p} = {al}" for p, al in present]
    start = next((i for i, p in enumerate(positional[:first_default]) if p.arg in aliased),
                 None)
    if start is not None:  # required from here on: marker defaults, checked below
        a.defaults = [marker] * (first_default - start) + a.defaults
        lines += [f"if {p.arg} is _MISSING: raise TypeError("
                  f"\"missing required argument '{p.arg}'\")"
                  for p in positional[start:first_default]]
    for i, p in enumerate(a.kwonlyargs):
        if p.arg in aliased and a.kw_defaults[i] is None:
            a.kw_defaults[i] = marker
            lines.append(f"if {p.arg} is _MISSING: raise TypeError("
                         f"\"missing required argument '{p.arg}'\")")
    for _, al in present:
        a.kwonlyargs.append(ast.arg(al))
        a.kw_defaults.append(marker)
    return ast.unparse(a), lines


def _compile(name: str, params: str, body: str, env: dict, module: str,
             prelude: Iterable[str] = ()) -> Callable:
    fname = name if name.isidentifier() and not keyword.iskeyword(name) else "_fn"
    lines = [f"def {fname}({params}):"] + [f"    {line}" for line in prelude]
    lines.append(f"    return {body}")
    scope: dict[str, Any] = {}
    # the file name marks the frame as janusgrad's own (anomaly reports skip it)
    exec(compile("\n".join(lines), f"{GENERATED}{module}.{name}>", "exec"), env, scope)  # noqa: S102
    f = scope[fname]
    f.__name__ = f.__qualname__ = name
    f.__module__ = module
    return f


def _inplace_form(row: Row, fn: Callable, function: Callable, scope: dict, module: str,
                  kw_aliases: dict[str, str]) -> Callable:
    """``x.name_(...)``: the dialect's in-place update of the tensor with the row's op.
    Where the engine call takes the tensor first and the rest positionally, the update gets
    the engine function itself (so it can find a fused in-place kernel for it); otherwise
    it gets the row's function form."""
    name = row.inplace or f"{row.method or row.name}_"
    if row.params is None:
        return _compile(name, "self, *args", "_inplace(self, fn, *args)", scope, module)
    params, prelude = _with_aliases(row.params, kw_aliases)
    first = _param_names(row.params)[0][0]
    call = ast.parse(f"f({row.call if row.call is not None else _default_call(row.params)})",
                     mode="eval").body
    args = [ast.unparse(a) for a in call.args]
    if not call.keywords and args and args[0] == first and row.node is None:
        rest = "".join(", " + a for a in args[1:])
        return _compile(name, params, f"_inplace({first}, fn{rest})", scope, module, prelude)
    pos, kwonly, star, starstar = _param_names(row.params)
    rest = "".join(f", {p}" for p in pos[1:]) + (f", *{star}" if star else "")
    kws = "".join(f", {k}={k}" for k in kwonly) + (f", **{starstar}" if starstar else "")
    return _compile(name, params, f"_inplace({first}, lambda _t: _function(_t{rest}{kws}))",
                    dict(scope, _function=function), module, prelude)


def _aliased(fn: Callable, kw_aliases: dict[str, str]) -> Callable:
    """``fn`` accepting ``kw_aliases`` (torch's ``axis=`` for ``dim=``) for the parameters of
    its signature that have one; ``fn`` itself when none applies."""
    import functools
    import inspect

    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return fn
    ps = sig.parameters
    if any(p.kind is p.VAR_KEYWORD for p in ps.values()):
        return fn
    present = {al: name for name, al in kw_aliases.items() if name in ps and al not in ps}
    if not present:
        return fn

    @functools.wraps(fn)
    def function(*args, **kwargs):
        for al, name in present.items():
            if al in kwargs:
                if name in kwargs:
                    raise TypeError(f"{fn.__name__}() got both '{name}' and its alias "
                                    f"'{al}'")
                kwargs[name] = kwargs.pop(al)
        return fn(*args, **kwargs)

    extra = [inspect.Parameter(al, inspect.Parameter.KEYWORD_ONLY, default=None)
             for al in present]
    params = list(ps.values())
    at = next((i for i, p in enumerate(params) if p.kind is p.VAR_KEYWORD), len(params))
    function.__signature__ = sig.replace(parameters=params[:at] + extra + params[at:])
    return function


class NodeNames:
    """A dialect's grad-node names decided at the call site: an op the engine composes of
    primitives shows the framework's one fused kernel (the name of its last primitive
    otherwise).  Weak: a freed graph drops its names."""

    def __init__(self) -> None:
        self._names: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def tag(self, t, name: str | None, *inputs):
        """Name the node that made ``t`` (when one was recorded; None: keep the engine op's
        name) and return ``t``; never the node of one of ``inputs`` (an op that returned its
        input unchanged)."""
        node = getattr(t, "node", None)
        if name is not None and node is not None and \
                all(getattr(i, "node", None) is not node for i in inputs):
            self._names[node] = name
        return t

    def get(self, node) -> str | None:
        return self._names.get(node)


def install(rows: Iterable[Row], namespace: dict, tensor_cls: type | None, *,
            module: str, env: dict | None = None, tag: Callable | None = None,
            inplace: Callable | None = None,
            kw_aliases: dict[str, str] | None = None) -> dict[str, Installed]:
    """Install ``rows`` into a frontend: functions into ``namespace`` (a module's
    globals, or any dict), methods onto ``tensor_cls``.

    ``env``: names the rows' ``call`` expressions may use besides ``fn`` (the dialect's
    argument helpers).  ``tag(tensor, name)``: gives a result the row's grad-node name.
    ``inplace(tensor, fn, *args)``: the dialect's in-place update (``x.name_(...)``).
    ``kw_aliases``: keyword aliases every row with that parameter accepts (torch's
    ``axis`` for ``dim``).  Returns what was made, by public name (a support matrix and
    the tests read it)."""
    made: dict[str, Installed] = {}
    kw_aliases = kw_aliases or {}
    for row in rows:
        fn = resolve(row.fn)
        scope = dict(env or {}, fn=fn, _tag=tag, _inplace=inplace, _MISSING=_MISSING)
        if row.params is None and row.node is None:
            # nothing to translate: the engine (or hand-written) function itself, given the
            # keyword aliases of the parameters it has
            function = _aliased(fn, kw_aliases)
        else:
            params = row.params if row.params is not None else "*args, **kwargs"
            call = row.call if row.call is not None else _default_call(params)
            params, prelude = _with_aliases(params, kw_aliases)
            body = f"fn({call})"
            if row.node is not None:
                if tag is None:
                    raise ValueError(f"row {row.name}: a node name needs the installer's tag")
                if row.node.isidentifier():
                    body = f"_tag({body}, {row.node!r})"
                else:  # decided per call: no tagging at all where it gives None
                    prelude = [*prelude, f"_node = {row.node}"]
                    body = f"{body} if _node is None else _tag({body}, _node)"
            function = _compile(row.name, params, body, scope, module, prelude)
        in_place = None
        if "i" in row.forms:
            if inplace is None:
                raise ValueError(f"row {row.name}: an in-place form needs the installer's "
                                 "inplace")
            in_place = _inplace_form(row, fn, function, scope, module, kw_aliases)
        method = function if "m" in row.forms else None
        if "f" in row.forms:
            for n in (row.name, *row.aliases):
                namespace[n] = function
        if tensor_cls is not None:
            if method is not None:
                for n in (row.method or row.name, *row.aliases):
                    setattr(tensor_cls, n, method)
            if in_place is not None:
                names = [n + "_" for n in (row.method or row.name, *row.aliases)]
                for n in [row.inplace] if row.inplace else names:
                    setattr(tensor_cls, n, in_place)
        installed = Installed(row, function if "f" in row.forms else None, method, in_place)
        for n in (row.name, *row.aliases):
            made[n] = installed
    return made
