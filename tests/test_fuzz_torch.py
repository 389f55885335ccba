"""The random-program differential fuzzer against real torch (issue 14 §3; tests/fuzz)."""
import pytest

from tests.fuzz import make_test

torch = pytest.importorskip("torch")
import torchlike  # noqa: E402

test_random_programs_match_torch = make_test("torch", torch, torchlike)
