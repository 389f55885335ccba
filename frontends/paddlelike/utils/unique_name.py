"""paddle.utils.unique_name: the per-prefix counters behind layer and parameter names
(``linear_0``, ``linear_0.w_0``), and ``guard`` to count afresh inside a block.

Not here: paddle's prefixed generators (``guard("prefix_")``), refused with a message."""
from __future__ import annotations

import contextlib

from ..nn import parameter as _parameter

__all__ = ["generate", "guard", "switch"]


def generate(key: str) -> str:
    """``key_0``, ``key_1``, ... for each call with the same ``key``."""
    return _parameter.unique_name(key)


def switch(new_generator=None, new_para_name_checker=None):
    """Count afresh (or with the counters an earlier ``switch`` returned); returns the
    counters in use before, and the name checker (None)."""
    if isinstance(new_generator, str):
        raise NotImplementedError("paddlelike's unique_name has no prefixed generators")
    old = _parameter._counters
    _parameter._counters = {} if new_generator is None else new_generator
    return old, None


@contextlib.contextmanager
def guard(new_generator=None):
    """Names generated inside the block count from 0; the counters outside are back
    afterwards."""
    old, _ = switch(new_generator)
    try:
        yield
    finally:
        switch(old)
