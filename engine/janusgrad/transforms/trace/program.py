"""A recorded stretch of steps as a straight-line Python function on bare arrays.

``build(steps, inputs, outputs)`` keeps the steps the outputs need (and every in-place
write, which may reach a needed array through a view), then generates the source of one
function, ``def program(v0, v1, ...): v5 = F0(v0, K0); ...; return (v9,)``, with the
recorded functions (``F``) and constants (``K``) as its globals.  No Tensor, Node or
dispatch is left: each line is the numpy call the engine made while tracing.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from janusgrad.transforms.trace.arrays import Step, Var


def variables(tmpl) -> Iterable[int]:
    """The variable numbers inside an argument or result template."""
    t = type(tmpl)
    if t is Var:
        yield tmpl.n
    elif t is tuple or t is list:
        for x in tmpl:
            yield from variables(x)
    elif t is dict:
        for x in tmpl.values():
            yield from variables(x)
    elif t is slice:
        yield from variables((tmpl.start, tmpl.stop, tmpl.step))


def needed(steps: list[Step], outputs) -> list[Step]:
    """The steps that compute ``outputs`` (templates), in order."""
    live = set(variables(outputs))
    kept = []
    for s in reversed(steps):
        if s.writes is not None or any(v in live for v in variables(s.out)):
            kept.append(s)
            live.update(variables(s.args))
            live.update(variables(s.kwargs))
            if s.writes is not None:
                live.add(s.writes.n)
    kept.reverse()
    return kept


def reads(steps: list[Step]) -> set[int]:
    """Variables the steps read (arguments and written-into arrays)."""
    out: set[int] = set()
    for s in steps:
        out.update(variables(s.args))
        out.update(variables(s.kwargs))
        if s.writes is not None:
            out.add(s.writes.n)
    return out


def defined(steps: list[Step]) -> set[int]:
    out: set[int] = set()
    for s in steps:
        out.update(variables(s.out))
    return out


class _Source:
    """The text of one generated function, and the globals it refers to."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.globals: dict = {}
        self._names: dict[int, str] = {}

    def name(self, obj, prefix: str) -> str:
        k = id(obj)
        n = self._names.get(k)
        if n is None:
            n = self._names[k] = f"{prefix}{len(self._names)}"
            self.globals[n] = obj
        return n

    def render(self, tmpl) -> str:
        t = type(tmpl)
        if t is Var:
            return f"v{tmpl.n}"
        if t is tuple:
            inner = ", ".join(self.render(x) for x in tmpl)
            return f"({inner},)" if len(tmpl) == 1 else f"({inner})"
        if t is list:
            return "[" + ", ".join(self.render(x) for x in tmpl) + "]"
        if t is dict and all(type(k) is str for k in tmpl):
            return "{" + ", ".join(f"{k!r}: {self.render(v)}" for k, v in tmpl.items()) + "}"
        if t is slice:
            return (f"slice({self.render(tmpl.start)}, {self.render(tmpl.stop)}, "
                    f"{self.render(tmpl.step)})")
        if tmpl is None or tmpl is True or tmpl is False:
            return repr(tmpl)
        if tmpl is Ellipsis:
            return "..."
        if t is int or t is str or (t is float and math.isfinite(tmpl)):
            return repr(tmpl)
        return self.name(tmpl, "K")

    def unpack(self, tmpl, expr: str) -> None:
        """Lines binding the variables of result template ``tmpl`` from ``expr``."""
        t = type(tmpl)
        if t is Var:
            self.lines.append(f"    v{tmpl.n} = {expr}")
        elif t is tuple or t is list:
            for i, x in enumerate(tmpl):
                if any(True for _ in variables(x)):
                    self.unpack(x, f"{expr}[{i}]")

    def step(self, s: Step) -> None:
        args = [self.render(a) for a in s.args]
        args += [f"{k}={self.render(v)}" for k, v in s.kwargs.items()]
        call = f"{self.name(s.fn, 'F')}({', '.join(args)})"
        if type(s.out) is Var:
            self.lines.append(f"    v{s.out.n} = {call}")
        elif any(True for _ in variables(s.out)):
            self.lines.append(f"    _r = {call}")
            self.unpack(s.out, "_r")
        else:
            self.lines.append(f"    {call}")


def build(steps: list[Step], inputs: list[Var], outputs: list, name: str = "program"
          ) -> tuple[Callable, str]:
    """(function, its source): ``function(*input arrays)`` returns the tuple ``outputs``."""
    src = _Source()
    for s in steps:
        src.step(s)
    params = ", ".join(f"v{v.n}" for v in inputs)
    ret = src.render(tuple(outputs))
    text = "\n".join([f"def {name}({params}):", *src.lines, f"    return {ret}", ""])
    namespace = dict(src.globals)
    exec(compile(text, f"<janusgrad.transforms.trace {name}>", "exec"), namespace)  # noqa: S102
    return namespace[name], text
