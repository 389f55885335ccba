"""The random-program differential fuzzer against real paddle (issue 14 §3; tests/fuzz)."""
import pytest

from tests.fuzz import make_test

paddle = pytest.importorskip("paddle")
import paddlelike  # noqa: E402

test_random_programs_match_paddle = make_test("paddle", paddle, paddlelike)
