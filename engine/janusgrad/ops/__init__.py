"""The op table: one OpDef per recorded op, one Spec per tested op.

Each family module defines its ops with ``defop`` and lists how to test them with ``spec``;
the property tests in tests/test_ops.py are generated from ``SPECS``.  The families:
elementwise, math, activation, special (elementwise); reduce, sorting, stats, masked
(reductions and statistics); shape, manip, index, scatters (layout, indexing, scatters);
linalg, linalg_factor, linalg_lu (linear algebra); conv; creation; composite (compositions
of engine ops); and placement (device copies).  rules.py builds each derivative's two
forms; testing.py holds the spec strategies.  ``janusgrad/__init__.py`` imports them all
(and the nn families that record ops) from its ``_FAMILIES`` list.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from janusgrad.array.backend import device_of, is_array
from janusgrad.ops.rules import build


class OpDef:
    """A recorded op: its neutral name and its derivative.

    ``rule`` (engine.ops.rules) is the derivative written once over an array namespace;
    from it come ``vjp(node, g)``, its recording form (one gradient, a Tensor or None, per
    input, made with engine ops so that it can itself be recorded), and ``arrays(node,
    g)``, its form on bare arrays for a backward that records nothing (None as a whole
    where it declines: the scheduler then runs ``vjp``).  An op without a ``rule`` gives
    ``vjp`` itself and has no ``arrays``.  ``vjp`` None marks the op as not
    differentiable: no node is recorded.
    """

    __slots__ = ("name", "vjp", "fresh", "arrays", "rule", "uses")

    def __init__(self, name: str, vjp: Callable | None = None, fresh: bool = False,
                 rule: Callable | tuple | None = None, uses: tuple = (),
                 same: Callable | None = None) -> None:
        self.name = name
        self.rule = rule
        self.uses = uses
        self.arrays = None
        if rule is not None:
            vjp = build(rule, uses, False, same)
            self.arrays = build(rule, uses, True, same)
        self.vjp = vjp
        # the rule only reads its incoming gradient and returns new arrays (never the
        # gradient itself or a view of it): the scheduler may then let another input keep
        # that same gradient object instead of copying it
        self.fresh = fresh

    def __repr__(self) -> str:
        return f"OpDef({self.name!r})"


OPS: dict[str, OpDef] = {}


def defop(name: str, vjp: Callable | None = None, fresh: bool = False, *,
          rule: Callable | tuple | None = None, uses: tuple | str = (),
          same: Callable | None = None) -> OpDef:
    """Add an op to the table: its derivative as a ``rule`` on the operands ``uses`` (a
    tuple, or one name; see engine.ops.rules), or as a ``vjp(node, g)`` on tensors only.
    ``same``: a binary op's rule where one tensor is both inputs (one gradient, cheaper
    than the two rules' sum)."""
    op = OpDef(name, vjp, fresh, rule, (uses,) if isinstance(uses, str) else tuple(uses),
               same)
    OPS[name] = op
    return op


@dataclass
class Spec:
    """How the property tests exercise one public engine function.

    ``make(draw, st, hnp)`` draws the call: it returns (arrays, kwargs), where
    ``arrays`` are float64 numpy arrays passed positionally as tensors.
    ``grad_args`` are the positions to differentiate (default: all arrays).
    ``ref`` is a numpy reference for the forward value, called like ``fn``.
    ``differentiable=False`` marks an op whose gradient is zero or undefined.
    """

    name: str
    fn: Callable
    make: Callable
    ref: Callable | None = None
    differentiable: bool = True
    grad_args: tuple | None = None
    second_order: bool = True
    atol: float = 1e-6
    rtol: float = 1e-5
    extra: dict[str, Any] = field(default_factory=dict)


SPECS: list[Spec] = []


def spec(name: str, fn: Callable, make: Callable, **kw) -> Spec:
    s = Spec(name, fn, make, **kw)
    SPECS.append(s)
    return s


def check_same_device(cls, op: str, *arrays) -> None:
    """Raise the dialect's error when the arrays of one op live on different devices.

    Called where a kernel failed with TypeError, the way array libraries refuse operands
    of another library, so the check costs nothing when the devices agree."""
    devices = [device_of(a) for a in arrays if is_array(a)]
    if any(d != devices[0] for d in devices):
        raise cls.dialect.device_mismatch(op, devices)
