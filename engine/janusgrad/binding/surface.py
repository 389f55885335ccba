"""A dialect's public surface as data: one ``Row`` per public name, installed by ``install``.

A row names the engine function behind a public name and how the dialect's call maps onto
it: the dialect's parameter list (names, defaults, keyword-only marks), the engine call
made from those parameters, which forms exist (module function, Tensor method, in-place
method) and the grad-node name the dialect shows for the result.  ``install`` turns each
row into real Python functions (generated once, at import, with the row's exact signature:
a call costs what a hand-written wrapper costs, and a row that needs no translation binds
the engine function itself).  A row whose engine function does not exist raises at install
time, so a frontend that names a missing op fails on import, never silently; so do two rows
for one public name of one form (the later would silently replace the earlier).

The in-place form takes the function form's parameters (a hand-written function's own
signature where the row gives none) and hands every operand to the dialect's update, which
records the change where one requires grad.  Keyword aliases (torch's ``axis=`` for
``dim=``, paddle's ``dim=`` for ``axis=`` where paddle declares it) have one mechanism for
every form and every row, generated or bound (``aliased`` gives it to hand-written
functions outside the tables): both names given raise the dialect's error.

The frontends keep hand-written code only where a dialect's semantics truly differ; the
translation of names, argument orders and defaults is this table's job.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import keyword
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

GENERATED = "<janusgrad.binding.surface:"  # how the file names of generated functions begin
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
    ``kw_aliases``: (parameter, alias) pairs of keyword aliases every form takes (paddle's
    ``dim`` for ``axis``); None: the installer's own (torch's, for every row).
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
    kw_aliases: tuple[tuple[str, str], ...] | None = None


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


def _signature_params(fn: Callable) -> tuple[str, dict] | None:
    """``fn``'s parameter list as source, its defaults as names in the returned env (so a
    generated form shows and uses the very objects); None where it has no signature."""
    try:
        ps = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    parts: list[str] = []
    env: dict[str, Any] = {}
    for i, p in enumerate(ps):
        if p.kind is p.KEYWORD_ONLY and (i == 0 or ps[i - 1].kind < p.VAR_POSITIONAL):
            parts.append("*")
        text = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "") + p.name
        if p.default is not p.empty:
            env[f"_d_{p.name}"] = p.default
            text += f"=_d_{p.name}"
        parts.append(text)
        if p.kind is p.POSITIONAL_ONLY and (i + 1 == len(ps) or ps[i + 1].kind is not p.kind):
            parts.append("/")
    return ", ".join(parts), env


@dataclass(frozen=True)
class _Params:
    """A form's parameter list with its keyword aliases: ``code`` (the def's, marker
    defaults where a name or its alias may come), ``shown`` (the signature callers see:
    the real defaults, each alias keyword-only) and the ``prelude`` lines folding an alias
    into its name."""

    code: str
    shown: str
    prelude: tuple[str, ...]


def _with_aliases(name: str, params: str, kw_aliases: dict[str, str]) -> _Params:
    """``params`` with a keyword-only alias added for each aliased parameter it has
    (torch's ``axis=`` for ``dim=``).  An aliased parameter gets a marker default, so the
    prelude can tell it was given: both it and its alias given raise the installer's
    ``_both`` error; neither given, its real default (or Python's missing-argument
    TypeError where it has none).  Required parameters after it get the marker too."""
    fdef = ast.parse(f"def _f({params}): pass").body[0]
    a = fdef.args
    names = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
    present = {p: al for p, al in kw_aliases.items() if p in names and al not in names}
    if not present:
        return _Params(params, params, ())
    marker = ast.Name("_MISSING", ast.Load())
    none = ast.Constant(None)
    shown = ast.parse(f"def _f({params}): pass").body[0].args
    shown.kwonlyargs += [ast.arg(al) for al in present.values()]
    shown.kw_defaults += [none] * len(present)
    lines: list[str] = []
    positional = a.posonlyargs + a.args
    first_default = len(positional) - len(a.defaults)
    defaults: list[ast.expr | None] = [None] * first_default + list(a.defaults)
    start = next((i for i, p in enumerate(positional[:first_default]) if p.arg in present),
                 first_default)
    for i, p in enumerate(positional):
        if p.arg in present or start <= i < first_default:
            lines += _fold(name, p.arg, present.get(p.arg), defaults[i])
            defaults[i] = marker
    a.defaults = defaults[min(start, first_default):]
    for i, p in enumerate(a.kwonlyargs):
        if p.arg in present:
            lines += _fold(name, p.arg, present[p.arg], a.kw_defaults[i])
            a.kw_defaults[i] = marker
    a.kwonlyargs += [ast.arg(al) for al in present.values()]
    a.kw_defaults += [marker] * len(present)
    return _Params(ast.unparse(a), ast.unparse(shown), tuple(lines))


def _fold(name: str, p: str, alias: str | None, default: ast.expr | None) -> list[str]:
    lines = []
    if alias is not None:
        lines += [f"if {alias} is not _MISSING:",
                  f"    if {p} is not _MISSING: raise _both({name!r}, {p!r}, {alias!r})",
                  f"    {p} = {alias}"]
    missing = (f"raise TypeError(\"{name}() missing 1 required positional argument: "
               f"'{p}'\")" if default is None else f"{p} = {ast.unparse(default)}")
    return [*lines, f"if {p} is _MISSING: {missing}"]


def _compile(name: str, params: _Params | str, body: str, env: dict, module: str,
             prelude: Iterable[str] = ()) -> Callable:
    if isinstance(params, str):
        params = _Params(params, params, ())
    fname = name if name.isidentifier() and not keyword.iskeyword(name) else "_fn"
    lines = [f"def {fname}({params.code}):"]
    lines += [f"    {line}" for line in (*params.prelude, *prelude)]
    lines.append(f"    return {body}")
    if params.shown != params.code:  # the signature callers see: the real defaults
        lines.append(f"def _shown({params.shown}): pass")
    scope: dict[str, Any] = {}
    # the file name marks the frame as janusgrad's own (anomaly reports skip it)
    exec(compile("\n".join(lines), f"{GENERATED}{module}.{name}>", "exec"), env, scope)  # noqa: S102
    f = scope[fname]
    f.__name__ = f.__qualname__ = name
    f.__module__ = module
    if "_shown" in scope:
        f.__signature__ = inspect.signature(scope["_shown"])
    return f


def _inplace_form(row: Row, params: str, call: str, function: Callable, scope: dict,
                  module: str, kw_aliases: dict[str, str]) -> Callable:
    """``x.name_(...)``: the dialect's in-place update of the tensor with the row's op,
    taking the function form's parameters.  Every operand reaches the update (which
    records the change where one requires grad).  Where the engine call takes the tensor
    first, the update gets the engine function itself (so it can find a fused in-place
    kernel for it); otherwise it gets the row's function form."""
    name = row.inplace or f"{row.method or row.name}_"
    aliased = _with_aliases(name, params, kw_aliases)
    pos, kwonly, star, starstar = _param_names(params)
    parsed = ast.parse(f"f({call})", mode="eval").body
    args = [ast.unparse(a) for a in parsed.args]
    if pos and args and args[0] == pos[0] and row.node is None:
        rest = [*args[1:], *(ast.unparse(k) for k in parsed.keywords)]
        target = "_fn"
    else:  # through the function form, with the parameters as they came
        rest = [*pos[1:], *([f"*{star}"] if star else []), *(f"{k}={k}" for k in kwonly),
                *([f"**{starstar}"] if starstar else [])]
        target = "_function"
    first = pos[0] if pos else f"{star}[0]"
    if not pos:  # (self, *args): the tensor is the first of them
        rest = [f"*{star}[1:]", *rest[1:]]
    body = f"_inplace({first}, {target}{''.join(', ' + r for r in rest)})"
    return _compile(name, aliased, body, dict(scope, _function=function), module)


def _aliased(fn: Callable, name: str, params: str, aliased: _Params, scope: dict,
             module: str) -> Callable:
    """``fn`` itself where no keyword alias applies; else a function taking them."""
    if not aliased.prelude:
        return fn
    return _compile(name, aliased, f"_fn({_default_call(params)})", scope, module)


def aliased(fn: Callable, kw_aliases: dict[str, str], *,
            both: Callable[[str, str, str], Exception] | None = None) -> Callable:
    """A hand-written function outside the tables taking ``kw_aliases`` as a row does
    (``fn`` itself where none of its parameters has one)."""
    found = _signature_params(fn)
    if found is None:
        return fn
    params, defaults = found
    scope = dict(defaults, _fn=fn, _MISSING=_MISSING, _both=both or _unexpected)
    made = _aliased(fn, fn.__name__, params, _with_aliases(fn.__name__, params, kw_aliases),
                    scope, fn.__module__)
    if made is not fn:
        made.__qualname__, made.__doc__ = fn.__qualname__, fn.__doc__
    return made


def _unexpected(name: str, param: str, alias: str) -> TypeError:
    """A name and its alias both given: Python's (and torch's) words for the alias."""
    return TypeError(f"{name}() got an unexpected keyword argument '{alias}'")


def _public_names(row: Row, tensor_cls: type | None) -> list[tuple[str, str]]:
    """(form, name) of every callable a row installs."""
    out = [("f", n) for n in (row.name, *row.aliases)] if "f" in row.forms else []
    if tensor_cls is not None and "m" in row.forms:
        out += [("m", n) for n in (row.method or row.name, *row.aliases)]
    if tensor_cls is not None and "i" in row.forms:
        out += [("i", n) for n in ([row.inplace] if row.inplace else
                                   [n + "_" for n in (row.method or row.name, *row.aliases)])]
    return out


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
            inplace: Callable | None = None, kw_aliases: dict[str, str] | None = None,
            both: Callable[[str, str, str], Exception] = _unexpected,
            ) -> dict[str, Installed]:
    """Install ``rows`` into a frontend: functions into ``namespace`` (a module's
    globals, or any dict), methods onto ``tensor_cls``.

    ``env``: names the rows' ``call`` expressions may use besides ``fn`` (the dialect's
    argument helpers).  ``tag(tensor, name)``: gives a result the row's grad-node name.
    ``inplace(tensor, fn, *args, **kwargs)``: the dialect's in-place update
    (``x.name_(...)``).  ``kw_aliases``: the keyword aliases of every row that has the
    parameter and does not name its own (torch's ``axis`` for ``dim``); ``both(name,
    param, alias)``: the error when a call gives both.  Two rows for one public name of
    one form are refused (the later would silently replace the earlier).  Returns what
    was made, by public name (a support matrix and the tests read it)."""
    made: dict[str, Installed] = {}
    seen: dict[tuple[str, str], str] = {}
    default_aliases = kw_aliases or {}
    for row in rows:
        for key in _public_names(row, tensor_cls):
            if key in seen:
                form = {"f": "function", "m": "method", "i": "in-place method"}[key[0]]
                raise ValueError(f"two rows for the {module} {form} {key[1]} (rows "
                                 f"{seen[key]} and {row.name}): fold them into one")
            seen[key] = row.name
        fn = resolve(row.fn)
        aliases = default_aliases if row.kw_aliases is None else dict(row.kw_aliases)
        scope = dict(env or {}, fn=fn, _fn=fn, _tag=tag, _inplace=inplace,
                     _MISSING=_MISSING, _both=both)
        params = row.params
        if params is None:  # the function's own parameters
            found = _signature_params(fn)
            params = "*args, **kwargs" if found is None else found[0]
            scope.update({} if found is None else found[1])
        call = row.call if row.call is not None else _default_call(params)
        aliased = _with_aliases(row.name, params, aliases)
        if row.params is None and row.node is None:
            # nothing to translate: the engine (or hand-written) function itself, given the
            # keyword aliases of the parameters it has
            function = _aliased(fn, row.name, params, aliased, scope, module)
        else:
            body, prelude = f"_fn({call})", []
            if row.node is not None:
                if tag is None:
                    raise ValueError(f"row {row.name}: a node name needs the installer's tag")
                if row.node.isidentifier():
                    body = f"_tag({body}, {row.node!r})"
                else:  # decided per call: no tagging at all where it gives None
                    prelude = [f"_node = {row.node}"]
                    body = f"{body} if _node is None else _tag({body}, _node)"
            function = _compile(row.name, aliased, body, scope, module, prelude)
        in_place = None
        if "i" in row.forms:
            if inplace is None:
                raise ValueError(f"row {row.name}: an in-place form needs the installer's "
                                 "inplace")
            in_place = _inplace_form(row, params, call, function, scope, module, aliases)
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
