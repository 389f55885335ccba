"""Grad mode and inference mode: per-thread flags, read on every op's fast path."""
from __future__ import annotations

import functools
import threading

GRAD_OFF, INFERENCE_ON = 1, 2  # the bits of state.mode


class _State(threading.local):
    """This thread's modes in one attribute, so that an op's fast path reads one thread-local
    value (32 ns a read): ``mode`` 0 records; bit GRAD_OFF set under no_grad, bit
    INFERENCE_ON in inference mode (with or without enable_grad inside it: nothing is
    recorded and results are inference tensors).  ``enabled`` and ``inference`` read and set
    one bit each, for the code off the hot paths.  Per thread as torch's mode, not per
    context: a notebook may run each cell in a copied context."""

    def __init__(self) -> None:
        self.mode = 0
        # backwards running in this thread: their derivative rules combine the operands
        # the forward had already promoted, so a strict dialect's refusal does not apply
        self.rules = 0
        # the active trace (janusgrad.transforms.trace.arrays.Recorder) while a compiled
        # function records its first call in this thread, else None: read by what a trace
        # cannot capture (random streams, hooks, custom functions) to note why the trace is
        # invalid
        self.tracing = None

    @property
    def enabled(self) -> bool:
        return not self.mode & GRAD_OFF

    @enabled.setter
    def enabled(self, flag: bool) -> None:
        self.mode = self.mode & ~GRAD_OFF if flag else self.mode | GRAD_OFF

    @property
    def inference(self) -> bool:
        return bool(self.mode & INFERENCE_ON)

    @inference.setter
    def inference(self, flag: bool) -> None:
        self.mode = self.mode | INFERENCE_ON if flag else self.mode & ~INFERENCE_ON


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
        self._prev.append(state.mode)
        state.mode = GRAD_OFF | INFERENCE_ON if self.mode else 0
        return None

    def __exit__(self, *exc) -> bool:
        state.mode = self._prev.pop()
        return False

    def __call__(self, fn):
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            prev = state.mode
            state.mode = GRAD_OFF | INFERENCE_ON if mode else 0
            try:
                return fn(*args, **kwargs)
            finally:
                state.mode = prev

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
        self._prev: list[int] = []  # the modes before each (nested) entry

    def __enter__(self):
        self._prev.append(set_grad(self.mode))
        return None

    def __exit__(self, *exc) -> bool:
        restore_grad(self._prev.pop())
        return False

    def __call__(self, fn):
        on = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            prev = set_grad(on)
            try:
                return fn(*args, **kwargs)
            finally:
                restore_grad(prev)

        return wrapper


def set_grad(on: bool) -> int:
    """Grad mode on or off (inference mode as it is); the mode before, for restore_grad."""
    prev = state.mode
    state.mode = prev & ~GRAD_OFF if on else prev | GRAD_OFF
    return prev


def restore_grad(prev: int) -> None:
    """Grad mode back to what it was in ``prev`` (inference mode as it is now)."""
    state.mode = state.mode & ~GRAD_OFF | prev & GRAD_OFF


class no_grad(GradMode):
    mode = False


class enable_grad(GradMode):
    mode = True


class set_grad_enabled(GradMode):
    """Sets the mode at once when made (so a plain call works); as a context manager it
    restores the previous mode on exit; as a decorator it affects only the calls."""

    def __init__(self, mode: bool) -> None:
        super().__init__(mode)
        self.prev = state.mode  # (as GradMode's _prev: the whole mode, of which the grad bit)
        state.enabled = self.mode

    def __enter__(self):
        self._prev.append(self.prev)
        state.enabled = self.mode
        return None

    def __call__(self, fn):
        restore_grad(self.prev)  # decorating must not leave the mode changed
        return super().__call__(fn)
