"""Anomaly detection: where each node was made, and NaN checks in backward.

Only while ``mode.anomaly.enabled`` is on does ``record`` call ``remember``,
so the normal path pays one attribute read per recorded node.
"""
from __future__ import annotations

import os
import traceback
import warnings
import weakref

from janusgrad.array.backend import MODULES
from janusgrad.binding.surface import GENERATED
from janusgrad.core.mode import anomaly

_stacks: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# frames inside janusgrad itself (the engine's package folder and each frontend's, which
# registers it with ``own_folder``) are not the user's forward call; folders as imported, so
# that they compare with the frames' file names wherever the packages are installed
# (and the functions the dialect tables generate); janusgrad's folder is two up from here
_OWN: tuple = (os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep,
               GENERATED)


def own_folder(path: str) -> None:
    """Count the package folder ``path`` as janusgrad's own in anomaly tracebacks."""
    global _OWN
    folder = os.path.abspath(path) + os.sep
    if folder not in _OWN:
        _OWN = (*_OWN, folder)


def set_enabled(mode: bool, check_nan: bool = True) -> None:
    anomaly.enabled = bool(mode)
    anomaly.check_nan = bool(check_nan)


def is_enabled() -> bool:
    return anomaly.enabled


def remember(node) -> None:
    frames = [f for f in traceback.extract_stack()[:-1] if not f.filename.startswith(_OWN)]
    _stacks[node] = traceback.StackSummary.from_list(frames)


def forward_stack(node) -> str | None:
    s = _stacks.get(node)
    return None if s is None else "".join(s.format())


def check_nan(node, grads) -> None:
    if not anomaly.check_nan or grads is None:
        return
    for i, g in enumerate(grads):
        if g is None:
            continue
        a = g.array
        # bool() of a device result syncs one value to the host: fine in anomaly mode
        if a.dtype.kind in "fc" and bool(MODULES[type(a)].isnan(a).any()):
            raise node.out_cls.dialect.anomaly_nan(node, i)


def warn_failed(node) -> None:
    """The warning shown when backward fails in ``node``: the forward call that made it."""
    shown = node.out_cls.dialect.anomaly_warning(node, forward_stack(node))
    if shown is not None:
        message, category = shown
        warnings.warn(message, category, stacklevel=4)
