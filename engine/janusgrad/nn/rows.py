"""A dialect's thin layer classes as data: one ``LayerRow`` per class, made by
``install_layers`` (the twin of ``binding.surface.install`` for classes).

A thin layer stores its constructor's arguments and calls one functional with them.  A row
gives the class's name, the functional, the dialect's constructor parameters (exact names
and defaults), what the constructor keeps and under which attribute names, the forward
call, the ``extra_repr`` text and the constructor's own lines (checks, defaults worked out,
parameters and buffers made).  ``install_layers`` generates ``__init__``, ``forward`` and
``extra_repr`` as real functions once, at import: construction costs what a hand-written
``__init__`` costs, and a forward call is one direct call of the functional with the kept
attributes (no per-call dict or argument building).  Each made class is a real subclass
with its own ``__name__``, ``__qualname__`` and ``__module__`` (the name the framework's
pickles use), so reprs, ``isinstance``, ``inspect.signature`` and pickling read as if it
were written out.

In ``call``, ``extra_repr`` and ``setup`` the names are the constructor's parameters; in ``call``
and ``extra_repr`` each kept parameter reads the attribute that keeps it (``alpha`` becomes
``self._alpha`` where the dialect keeps ``_alpha``), ``self`` is the layer and ``_d`` the
dimension of a per-dimension row.
"""
from __future__ import annotations

import ast
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

GENERATED = "<janusgrad.nn.rows:"  # how the file names of generated methods begin


@dataclass(frozen=True)
class LayerRow:
    """One thin layer class of a dialect.

    ``name``: the class name; with ``dims``, a pattern (``"MaxPool{}d"``) making one class
    per dimension, ``fn`` then one functional per dimension.
    ``fn``: the functional ``forward`` calls (None: ``call`` is forward's whole result;
    neither: the base's ``forward``).
    ``params``: the constructor's parameters after ``self``, as Python source.
    ``call``: forward's call arguments over ``inputs`` and the parameters; None: the inputs,
    then the kept parameters in order.
    ``extra_repr``: its text as an f-string body (``"alpha={alpha}"``); None: none
    (the base's).
    ``keep``: what the constructor stores, ``"attr=source"`` (a parameter or an expression)
    or ``"param"`` (kept under the installer's ``attr`` pattern), comma separated; None:
    every named parameter.
    ``setup``: lines the constructor runs first, after the base's ``__init__`` (checks,
    defaults worked out by reassigning a parameter, parameters and buffers registered).
    ``inputs``: forward's parameters (None: the installer's).
    ``base``/``base_args``: the base class (None: the installer's) and its ``__init__``'s
    arguments over the parameters.
    ``module``: the ``__module__`` the framework defines the class in (None: the
    installer's).
    ``attr``: the attribute pattern of this row's bare ``keep`` names (None: the
    installer's).
    ``checks``: lines the constructor runs before the base's ``__init__`` (paddle refuses
    bad arguments before a layer takes a name).
    """

    name: str
    fn: Callable | tuple | None
    params: str = ""
    call: str | None = None
    extra_repr: str | None = None
    keep: str | None = None
    setup: str = ""
    inputs: str | None = None
    base: type | None = None
    base_args: str = ""
    module: str | None = None
    dims: tuple[int, ...] = ()
    attr: str | None = None
    checks: str = ""


def _param_names(params: str) -> list[str]:
    a = ast.parse(f"def _f({params}): pass").body[0].args
    return [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]


def _kept(row: LayerRow, attr: str) -> list[tuple[str, str]]:
    """(source, attribute) of what the constructor stores, in order; the source is a
    parameter's name, or any expression over them (``"value=0.0"``)."""
    attr = row.attr or attr
    if row.keep is None:
        return [(p, attr.format(p)) for p in _param_names(row.params)]
    kept = []
    for item in filter(None, (s.strip() for s in row.keep.split(","))):
        name, eq, source = (s.strip() for s in item.partition("="))
        kept.append((source, name) if eq else (name, attr.format(name)))
    return kept


class _ToSelf(ast.NodeTransformer):
    """Each kept parameter's name read as the attribute keeping it."""

    def __init__(self, kept: dict[str, str]) -> None:
        self.kept = kept

    def visit_Name(self, node: ast.Name) -> ast.AST:  # noqa: N802
        if node.id in self.kept and isinstance(node.ctx, ast.Load):
            return ast.copy_location(ast.Attribute(ast.Name("self", ast.Load()),
                                                   self.kept[node.id], ast.Load()), node)
        return node


def _on_self(source: str, kept: list[tuple[str, str]], inputs: Iterable[str] = ()) -> str:
    shadow: dict[str, str] = {}
    for k, v in kept:  # a parameter kept twice reads the first
        if k.isidentifier() and k not in set(inputs):
            shadow.setdefault(k, v)
    return ast.unparse(_ToSelf(shadow).visit(ast.parse(source, mode="eval")))


def _methods(row: LayerRow, name: str, base: type, inputs: str, attr: str,
             env: dict[str, Any]) -> dict[str, Callable]:
    kept = _kept(row, attr)
    input_names = _param_names(inputs)
    lines = [f"def __init__(self{', ' if row.params else ''}{row.params}):"]
    lines += [f"    {line}" for line in row.checks.splitlines() if line.strip()]
    lines.append(f"    _base_init(self{', ' if row.base_args else ''}{row.base_args})")
    lines += [f"    {line}" for line in row.setup.splitlines() if line.strip()]
    lines += [f"    self.{a} = {p}" for p, a in kept]
    if row.fn is not None or row.call is not None:  # (neither: the base's forward)
        call = row.call if row.call is not None else \
            ", ".join([*input_names, *(p for p, _ in kept)])
        result = _on_self(call if row.fn is None else f"_fn({call})", kept, input_names)
        lines += [f"def forward(self, {inputs}):", f"    return {result}"]
    if row.extra_repr is not None:
        text = _on_self(f'f"""{row.extra_repr}"""', kept)
        lines += ["def extra_repr(self):", f"    return {text}"]
    scope: dict[str, Any] = {}
    exec(compile("\n".join(lines), f"{GENERATED}{name}>", "exec"),  # noqa: S102
         dict(env, _base_init=base.__init__), scope)
    for f in scope.values():
        f.__qualname__ = f"{name}.{f.__name__}"
    return scope


def install_layers(rows: Iterable[LayerRow], namespace: dict, *, base: type,
                   module: str | Callable[[str], str], inputs: str = "input",
                   attr: str = "{}", env: dict | None = None) -> list[str]:
    """Make each row's classes into ``namespace`` (a module's globals); returns their names
    in row order (for ``__all__``).

    ``base``: the dialect's layer class; ``module``: the ``__module__`` of rows naming
    none (or a function of the class name giving it); ``inputs``: forward's parameters of
    rows naming none; ``attr``: the attribute keeping a parameter (``"_{}"``: paddle's
    ``self._alpha``); ``env``: names the rows' source may use (the dialect's helpers)."""
    made = []
    for row in rows:
        dims = row.dims or (None,)
        for i, d in enumerate(dims):
            name = row.name.format(d) if d is not None else row.name
            fn = row.fn[i] if d is not None and isinstance(row.fn, tuple) else row.fn
            own_base = row.base or base
            scope = dict(env or {}, _fn=fn, _d=d)
            body = _methods(row, name, own_base, row.inputs or inputs, attr, scope)
            mod = row.module or (module if isinstance(module, str) else module(name))
            body.update(__module__=mod, __qualname__=name)
            namespace[name] = types.new_class(name, (own_base,),
                                              exec_body=lambda ns, b=body: ns.update(b))
            made.append(name)
    return made
