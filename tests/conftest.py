"""Hypothesis profiles: ``ci`` is derandomized with no deadline (selected by
.ci/run through HYPOTHESIS_PROFILE=ci); ``dev`` explores more, at random."""
import inspect
import os
import re

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=40, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.register_profile(
    "dev", deadline=None, max_examples=200,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def _imports_a_real_framework(module) -> bool:
    """Whether a test module holds real torch or real paddle (its judges): by import or
    by pytest.importorskip, bound to any name, or anywhere in its source (a helper that
    imports one, an unbound importorskip)."""
    if any(getattr(v, "__name__", None) in ("torch", "paddle") and
           type(v).__name__ == "module" for v in vars(module).values()):
        return True
    try:
        return bool(_REAL_IMPORT.search(inspect.getsource(module)))
    except (OSError, TypeError):
        return False


_REAL_IMPORT = re.compile(r"""importorskip\(["'](torch|paddle)["']\)|^\s*import (torch|paddle)\b""",
                          re.M)


def _function_imports_a_real_framework(function) -> bool:
    try:
        return bool(_REAL_IMPORT.search(inspect.getsource(function)))
    except (OSError, TypeError):
        return False


def pytest_collection_modifyitems(config, items):
    """Mark every test that compares against real torch or paddle as ``differential``
    (.ci/run reruns them under other OpenBLAS kernels): all tests of a module that imports
    either, and each test function that imports one itself."""
    import pytest
    seen: dict = {}
    for item in items:
        module = getattr(item, "module", None)
        if module is None:
            continue
        flag = seen.get(module.__name__)
        if flag is None:
            flag = seen[module.__name__] = _imports_a_real_framework(module)
        if flag or _function_imports_a_real_framework(getattr(item, "function", None)):
            item.add_marker(pytest.mark.differential)
