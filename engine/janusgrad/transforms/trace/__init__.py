"""Compiling by trace and replay: the engine behind ``torch.compile`` and
``paddle.jit.to_static``.

``compiled(fn, dialect=...)`` returns a ``Compiled`` callable.  On the first call for a
guard key (the shapes, dtypes, strides and requires-grad flags of every tensor the function
reads, grad mode, the training flags of the modules involved) the function runs once on
*traced arrays*: arrays that compute the real values and record every array-level call the
engine makes, forward and backward.  From that record come two straight-line programs on
bare arrays (janusgrad.transforms.trace.program): the forward, and the backward of the
function's outputs with respect to every tensor it read.  Later calls with the same key
run the forward program and return outputs attached to one graph node whose backward runs
the backward program: the same kernels in the same order as eager, so the same bits on the CPU.

What a trace cannot capture (a Python branch on a tensor's value, in-place changes of what
the function reads, hooks, custom autograd functions, randomness, ...) is a *graph break*:
that key runs eagerly from then on, with a one-time warning naming the cause, or raises the
dialect's error under ``fullgraph``.
"""
from __future__ import annotations

from janusgrad.transforms.trace.api import (
    Compiled,
    compiled,
    disabled,
    is_tracing,
    reset_all,
    set_enabled,
)

__all__ = ["Compiled", "compiled", "disabled", "is_tracing", "reset_all", "set_enabled"]
