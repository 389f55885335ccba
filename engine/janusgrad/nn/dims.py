"""Layer classes that differ only in their dimension (pooling, padding, norms, convolutions
in 1, 2 and 3 dimensions): one base written out, the three public classes made here.

Each made class is a real subclass with its own name, ``__qualname__`` and ``__module__``
(so reprs, pickling and ``isinstance`` read as if it were written out), made through the
bases' metaclass.
"""
from __future__ import annotations

import types
from typing import Any


def per_dimension(pattern: str, module: str, *bases: Any, dims: tuple = (1, 2, 3),
                  **attrs: Any) -> tuple[type, ...]:
    """The classes ``pattern.format(d)`` for d in ``dims``.

    Each of ``bases`` is a class shared by all of them or a sequence of one class per
    dimension; each of ``attrs`` is a sequence of one class attribute value per dimension.
    """
    made = []
    for i, d in enumerate(dims):
        name = pattern.format(d)
        own = tuple(b if isinstance(b, type) else b[i] for b in bases)
        body = {k: v[i] for k, v in attrs.items()}
        body.update(__module__=module, __qualname__=name)
        made.append(types.new_class(name, own, exec_body=lambda ns, b=body: ns.update(b)))
    return tuple(made)
