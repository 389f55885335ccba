"""A model summary's facts: which layers ran, on what shapes, holding how many parameters.

A dialect picks the layers to watch and prints the table; here are the framework-neutral
pieces: a forward pass with a post-forward hook on each chosen layer (``trace``), the
shapes of nested inputs and outputs as nested lists (``shape_tree``), element counts of such
trees (``numel``), a layer's own parameter counts (``param_counts``) and sizes in MB.
"""
from __future__ import annotations

from janusgrad.array.backend import int64
from janusgrad.core.hooks import HookHandle
from janusgrad.nn.module import ModuleCore

MB = 1024.0 ** 2


def trace(model: ModuleCore, call, watched) -> list:
    """Run ``call()`` with a post-forward hook on each layer of ``model``'s tree (each layer
    once) that ``watched(layer)`` accepts; return ``(layer, args, output)`` for every hooked
    call in the order the calls finished (inner layers before the block holding them). The
    hooks are removed afterwards, also when ``call`` raises."""
    seen: list = []

    def hook(layer, args, output):
        seen.append((layer, args, output))

    handles = [ModuleCore._add_hook(layer.__dict__[layer._POST_HOOKS], hook, HookHandle)
               for _, layer in model._walk() if watched(layer)]
    try:
        call()
    finally:
        for h in handles:
            h.remove()
    return seen


def shape_tree(x, is_leaf, other=None):
    """``x``'s shape as a list where ``is_leaf(x)``, a list of the items' trees where ``x`` is
    a list or tuple, else ``other``."""
    if isinstance(x, (list, tuple)):
        return [shape_tree(v, is_leaf, other) for v in x]
    if is_leaf(x):
        return [int(d) for d in x.shape]
    return other


def numel(tree) -> int:
    """Elements described by a shape tree: the product of each innermost shape (1 for an
    empty one), summed."""
    if all(not isinstance(v, list) for v in tree):
        n = 1
        for d in tree:
            n *= d if d is not None else 1
        return n
    return sum(numel(v) for v in tree if isinstance(v, list))


def param_counts(layer: ModuleCore, trainable) -> tuple:
    """(elements of the layer's own parameters, of those ``trainable(name, p)`` accepts, any
    parameter at all, any trainable one); the counts are int64 scalars as numpy's product
    of a shape gives them, plain 0 where there is nothing to count."""
    total = trained = 0
    has = has_trained = False
    for name, p in layer._parameters.items():
        if p is None:
            continue
        n = int64.type(1)
        for d in p.shape:
            n = n * int64.type(d)
        total += n
        has = True
        if trainable(name, p):
            trained += n
            has_trained = True
    return total, trained, has, has_trained


def megabytes(elements, itemsize: int = 4) -> float:
    """``elements`` of ``itemsize`` bytes, in MiB."""
    return abs(float(elements) * itemsize / MB)
