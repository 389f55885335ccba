"""Graph links of gradients made with create_graph that the math does not make.

A gradient recorded by a create_graph backward depends, in janusgrad, on exactly what its
derivative rule computes it from.  Both frameworks link some gradients to more: their
derivative formulas are ops of their own, whose inputs include forward operands the value
does not depend on (torch: relu's gradient is ``threshold_backward(grad, result)``, so it
requires grad and a backward through it gives ``x`` a zero gradient; paddle: every gradient
``grad(create_graph=True)`` returns is a non-leaf that requires grad, and ``multiply`` /
``divide``'s double-grad nodes give zeros to both operands).  Which ops link what is the
dialect's table (``Dialect.create_graph_links``: engine op name -> input positions); the
links are made here, as a node whose rule passes the gradient on and sends zeros to the
linked inputs.
"""
from __future__ import annotations

from janusgrad.array.backend import MODULES, xp_of
from janusgrad.core.tensor import Node
from janusgrad.ops import OpDef


def _link_vjp(n, g):
    zeros = [None if p is None else type(g).wrap(xp_of(g.array).zeros(s, d))
             for p, s, d in zip(n.parents[1:], n.shapes[1:], n.dtypes[1:])]
    return (g, *zeros)


def _link_arrays(n, g):
    """``_link_vjp`` on bare arrays (a backward that records nothing, e.g. the last of a
    chain of create_graph calls): no tensor around ``g``, no dispatch per zero."""
    xp = MODULES[type(g)]
    return (g, *[None if p is None else xp.zeros(s, d)
                 for p, s, d in zip(n.parents[1:], n.shapes[1:], n.dtypes[1:])])


LINK = OpDef("create_graph_link", _link_vjp)
LINK.arrays = _link_arrays


def _node_for(t):
    return (t.node or t) if t._rg else None


def link(g, n, positions):
    """``g`` (a gradient a rule made for an input of node ``n``) as a new tensor linked to
    the inputs of ``n`` at ``positions`` that need grad; ``g`` itself when there are none.
    The linked inputs must all be tensors (an operand that was a number makes another op
    in the frameworks, which links nothing: paddle's ``x * 2.0`` is ``scale``)."""
    parents, shapes, dtypes = n.parents, n.shapes, n.dtypes
    if any(dtypes[i] is None for i in positions):
        return g
    linked = [i for i in positions if parents[i] is not None]
    if not linked:
        return g
    return _attach(g, [parents[i] for i in linked], [shapes[i] for i in linked],
                   [dtypes[i] for i in linked], n.op.name)


def attached(g):
    """``g`` as a non-leaf that requires grad (paddle's create_graph gradients), linked to
    nothing new; ``g`` itself when it already has a node."""
    if g.node is not None:
        return g
    return _attach(g, [], [], [], None)


def _attach(g, parents, shapes, dtypes, source):
    # attrs: the name of the op whose gradient this is (a dialect may name the node by it)
    a = g.array
    t = type(g).wrap(a.copy())
    t.node = Node(LINK, (_node_for(g), *parents), (a.shape, *shapes), (a.dtype, *dtypes), (),
                  source, type(g))
    t._rg = True
    return t


def linked_grads(n, grads, positions):
    """The gradients ``grads`` of node ``n``'s inputs, each linked as ``link`` says."""
    return [None if gi is None else link(gi, n, positions) for gi in grads]
