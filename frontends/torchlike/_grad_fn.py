"""grad_fn objects: views of engine nodes under torch's node class names."""
from __future__ import annotations

from janusgrad.binding.surface import NodeNames
from janusgrad.core.tensor import Node

# engine op name -> torch node name, where one name fits every use of the op
_NAMES = {
    "add": "AddBackward0", "sub": "SubBackward0", "mul": "MulBackward0", "div": "DivBackward0",
    "pow": "PowBackward0", "square": "PowBackward0", "remainder": "RemainderBackward0",
    "neg": "NegBackward0", "log1p": "Log1PBackward0", "clamp": "ClampBackward1",
    "max": "MaxBackward1", "min": "MinBackward1", "norm2": "LinalgVectorNormBackward0",
    "normp": "LinalgVectorNormBackward0", "narrow": "SliceBackward0",
    "reshape": "ViewBackward0", "flatten": "ViewBackward0", "transpose": "PermuteBackward0",
    "broadcast_to": "ExpandBackward0", "expand": "ExpandBackward0",
    "concatenate": "CatBackward0", "tile": "RepeatBackward0", "repeat": "RepeatBackward0",
    "outer": "MulBackward0", "cast": "ToCopyBackward0", "setitem": "CopySlices",
    "copy_slices": "CopySlices",
    "to_device": "ToCopyBackward0",
    "sum_to": "SumBackward1", "getitem": "IndexBackward0", "squeeze": "SqueezeBackward0",
    "logsumexp": "LogsumexpBackward0", "log_softmax": "LogSoftmaxBackward0",
    "masked_select": "MaskedSelectBackward0", "index_select": "IndexSelectBackward0",
    "compiled": "CompiledFunctionBackward",  # the one node of a replayed compiled function
}

# names decided at the call site (torch has several nodes for one engine op)
_tags = NodeNames()
tag = _tags.tag
_classes: dict = {}


def node_name(node) -> str:
    name = _tags.get(node)
    if name is not None:
        return name
    op = node.op.name
    if op == "create_graph_link":  # (janusgrad.core.links) named as torch's formula for the op
        return _LINK_NAMES.get(node.attrs, "MulBackward0")
    name = _NAMES.get(op)
    if name is None:
        name = "".join(p.capitalize() for p in op.split("_")) + "Backward0"
        _NAMES[op] = name
    return name


# the node of a create_graph gradient torch links to an input (janusgrad.core.links), by op
_LINK_NAMES = {"relu": "ThresholdBackwardBackward0", "abs": "MulBackward0",
               "copysign": "MulBackward0", "hardtanh": "HardtanhBackwardBackward0",
               "threshold": "ThresholdBackwardBackward0",
               "hardshrink": "HardshrinkBackwardBackward0",
               "softshrink": "SoftshrinkBackwardBackward0"}

# torch nodes of the overloads that take a Python number as a number, not as a tensor:
# their next_functions have no slot for it (x ** 2, 2 ** x, 2 - x, x % 2)
_SCALAR_OVERLOADS = {"PowBackward0", "PowBackward2", "RsubBackward1", "RemainderBackward0"}

# engine ops whose leading inputs torch's node does not list (where's condition)
_NOT_AUTOGRAD_INPUTS = {"where": 1}


class _NodeView:
    """What ``tensor.grad_fn`` returns: a handle on one engine node."""

    __slots__ = ("_node", "__weakref__")

    def __init__(self, node) -> None:
        self._node = node

    def name(self) -> str:
        own = type(self).__name__  # nodes of torch's C++ core (no Backward) are namespaced
        return own if "Backward" in own else f"torch::autograd::{own}"

    @property
    def next_functions(self) -> tuple:
        out = []
        parents = self._node.parents
        skip = _NOT_AUTOGRAD_INPUTS.get(self._node.op.name, 0)
        numbers = node_name(self._node) in _SCALAR_OVERLOADS
        for p, d in zip(parents[skip:], self._node.dtypes[skip:]):
            if p is None:
                if not (numbers and d is None):  # (a Python number operand: no input)
                    out.append((None, 0))
            elif type(p) is Node:
                out.append((view(p), 0))
            else:
                out.append((accumulate_view(p), 0))
        return tuple(out)

    @property
    def metadata(self) -> dict:
        return {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {id(self):#x}>"

    # torch hands out one object per node; fresh handles at least compare equal
    def __eq__(self, other) -> bool:
        return isinstance(other, _NodeView) and other._node is self._node

    def __hash__(self) -> int:
        return id(self._node)

    def __call__(self, *grads):
        raise NotImplementedError("torchlike does not implement calling a grad_fn")


class AccumulateGrad(_NodeView):
    """The sink of a grad-requiring leaf; ``variable`` is the leaf."""

    __slots__ = ()

    @property
    def variable(self):
        return self._node

    @property
    def next_functions(self) -> tuple:
        return ()


def _class_named(name: str) -> type:
    cls = _classes.get(name)
    if cls is None:
        cls = type(name, (_NodeView,), {"__slots__": ()})
        cls.__module__ = "torch.autograd.graph"
        _classes[name] = cls
    return cls


def view(node) -> _NodeView:
    """A grad_fn object for ``node`` (a fresh handle per access: a cache keyed by
    the node would keep it alive)."""
    return _class_named(node_name(node))(node)


def accumulate_view(leaf) -> AccumulateGrad:
    return AccumulateGrad(leaf)
