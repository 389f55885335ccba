"""Sequential and ModuleList."""
from __future__ import annotations

from collections import OrderedDict

from janusgrad.nn.module import ChildList

from .module import Module, add_indent


class Sequential(ChildList, Module):
    _add_child = Module.add_module

    def __init__(self, *args) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def _slice(self, idx: slice):  # the slice keeps the children's names
        return type(self)(OrderedDict(list(self._modules.items())[idx]))

    def __add__(self, other):
        return Sequential().extend(list(self) + list(other))

    def insert(self, index: int, module):
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        super().insert(index, module)
        return self

    def forward(self, input):  # noqa: A002
        return self._run_in_order(input)


class ModuleList(ChildList, Module):
    _add_child = Module.add_module

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __iadd__(self, modules):
        return self.extend(modules)

    def __repr__(self) -> str:
        """Runs of identical child reprs are folded, as torch prints them."""
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        groups = []
        start = 0
        for i in range(1, len(reprs) + 1):
            if i == len(reprs) or reprs[i] != reprs[start]:
                groups.append((start, i - 1))
                start = i
        lines = []
        for a, b in groups:
            body = add_indent(reprs[a], 2)
            if a == b:
                lines.append(f"({a}): {body}")
            else:
                lines.append(f"({a}-{b}): {b - a + 1} x {body}")
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


Sequential.__module__ = "torch.nn.modules.container"
ModuleList.__module__ = "torch.nn.modules.container"
__all__ = ["ModuleList", "Sequential"]
