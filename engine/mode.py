"""Grad mode: a per-thread flag read on every op's fast path."""
from __future__ import annotations

import functools
import threading


class _State(threading.local):
    def __init__(self) -> None:
        self.enabled = True
        self.inference = False  # torch's inference mode: results become inference tensors


state = _State()


class _Anomaly:
    """Anomaly detection: process-wide (as in torch), read once per recorded node."""

    enabled = False
    check_nan = True


anomaly = _Anomaly()


def is_inference_mode_enabled() -> bool:
    return state.inference


class InferenceMode:
    """Grad off and results marked as inference tensors (``mode=False``: grad on, no marking)."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)
        self._prev: list = []

    def __enter__(self):
        self._prev.append((state.enabled, state.inference))
        state.enabled = not self.mode
        state.inference = self.mode
        return None

    def __exit__(self, *exc) -> bool:
        state.enabled, state.inference = self._prev.pop()
        return False

    def __call__(self, fn):
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            prev = state.enabled, state.inference
            state.enabled, state.inference = not mode, mode
            try:
                return fn(*args, **kwargs)
            finally:
                state.enabled, state.inference = prev

        return wrapper


def is_grad_enabled() -> bool:
    return state.enabled


def set_grad_enabled_flag(mode: bool) -> None:
    state.enabled = bool(mode)


class GradMode:
    """Context manager and decorator that sets grad mode for its extent."""

    mode = True

    def __init__(self, mode: bool | None = None) -> None:
        if mode is not None:
            self.mode = bool(mode)
        self._prev: list[bool] = []

    def __enter__(self):
        self._prev.append(state.enabled)
        state.enabled = self.mode
        return None

    def __exit__(self, *exc) -> bool:
        state.enabled = self._prev.pop()
        return False

    def __call__(self, fn):
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            prev = state.enabled
            state.enabled = mode
            try:
                return fn(*args, **kwargs)
            finally:
                state.enabled = prev

        return wrapper


class no_grad(GradMode):
    mode = False


class enable_grad(GradMode):
    mode = True


class set_grad_enabled(GradMode):
    """Sets the mode at once when made (so a plain call works); as a context manager it
    restores the previous mode on exit; as a decorator it affects only the calls."""

    def __init__(self, mode: bool) -> None:
        super().__init__(mode)
        self.prev = state.enabled
        state.enabled = self.mode

    def __enter__(self):
        self._prev.append(self.prev)
        state.enabled = self.mode
        return None

    def __call__(self, fn):
        state.enabled = self.prev  # decorating must not leave the mode changed
        return super().__call__(fn)
