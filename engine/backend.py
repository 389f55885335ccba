"""The array backend: the one place that imports numpy.

Everything numeric in the engine goes through ``xp`` (numpy today; cupy arrays
will resolve to cupy through ``xp_of``) so that a second backend only has to be
added here.
"""
from __future__ import annotations

import numpy as np

xp = np
ndarray = np.ndarray

# dtype objects by neutral name; the frontends map their own spellings onto these.
DTYPES = {
    "bool": np.dtype(np.bool_),
    "uint8": np.dtype(np.uint8),
    "int8": np.dtype(np.int8),
    "int16": np.dtype(np.int16),
    "int32": np.dtype(np.int32),
    "int64": np.dtype(np.int64),
    "float16": np.dtype(np.float16),
    "float32": np.dtype(np.float32),
    "float64": np.dtype(np.float64),
}
float32 = DTYPES["float32"]
float64 = DTYPES["float64"]
int64 = DTYPES["int64"]
bool_ = DTYPES["bool"]

default_float = float32


def xp_of(a: object):
    """The array module that owns ``a``."""
    return np


def is_floating(dtype: np.dtype) -> bool:
    return dtype.kind == "f"


def is_array(a: object) -> bool:
    return isinstance(a, np.ndarray)


def as_array(a: object, dtype: np.dtype | None = None) -> np.ndarray:
    """Force a numpy result (possibly a numpy scalar) into a real ndarray."""
    if type(a) is np.ndarray and (dtype is None or a.dtype == dtype):
        return a
    return np.asarray(a, dtype=dtype)


def scalar_of(a: np.ndarray):
    """The Python number held by a one-element array."""
    return a.reshape(-1)[0].item()
