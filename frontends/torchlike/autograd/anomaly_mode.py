"""torch.autograd.detect_anomaly / set_detect_anomaly over janusgrad.core.anomaly."""
from __future__ import annotations

import functools
import warnings

from janusgrad.core import anomaly as _anomaly

ENABLED_WARNING = ("Anomaly Detection has been enabled. This mode will increase the runtime and "
                   "should only be enabled for debugging.")


class detect_anomaly:  # noqa: N801 - torch's spelling
    """Context manager and decorator: anomaly detection on for its extent."""

    def __init__(self, check_nan: bool = True) -> None:
        self.prev = _anomaly.is_enabled()
        self.check_nan = check_nan
        self.prev_check_nan = _anomaly.anomaly.check_nan
        warnings.warn(ENABLED_WARNING, UserWarning, stacklevel=2)

    def __enter__(self) -> None:
        _anomaly.set_enabled(True, self.check_nan)

    def __exit__(self, *args) -> None:
        _anomaly.set_enabled(self.prev, self.prev_check_nan)

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(self.check_nan):
                return fn(*args, **kwargs)
        return wrapper


class set_detect_anomaly:  # noqa: N801
    """Sets anomaly detection when made; as a context manager restores it on exit."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev = _anomaly.is_enabled()
        self.prev_check_nan = _anomaly.anomaly.check_nan
        _anomaly.set_enabled(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *args) -> None:
        _anomaly.set_enabled(self.prev, self.prev_check_nan)


for _c in (detect_anomaly, set_detect_anomaly):
    _c.__module__ = "torch.autograd.anomaly_mode"

is_anomaly_enabled = _anomaly.is_enabled


def is_anomaly_check_nan_enabled() -> bool:
    return _anomaly.anomaly.check_nan


__all__ = ["detect_anomaly", "set_detect_anomaly"]
