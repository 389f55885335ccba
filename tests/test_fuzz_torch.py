"""The random-program differential fuzzer against real torch (issue 14 §3; tests/fuzz):
derandomized and a fixed number of programs under the ``ci`` hypothesis profile, more
under ``dev``."""
from __future__ import annotations

import pytest
from hypothesis import given, settings

torch = pytest.importorskip("torch")
import torchlike  # noqa: E402
from tests.fuzz.interp import check  # noqa: E402
from tests.fuzz.program import programs  # noqa: E402

CI_PROGRAMS = 400


@settings(max_examples=CI_PROGRAMS if settings().derandomize else 1000)
@given(programs("torch"))
def test_random_programs_match_torch(steps):
    check(steps, "torch", torch, torchlike)
