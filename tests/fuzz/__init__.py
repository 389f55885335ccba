"""A random-program differential fuzzer (issue 14 §3): hypothesis draws small autograd
programs (``program.py``), each rendered as Python source in one dialect and run twice
(``interp.py``): on the real framework and on ours, comparing every step."""

CI_PROGRAMS = 400  # programs per dialect under the ci profile (derandomized); dev: 1000


def make_test(dialect: str, real, ours):
    """The fuzz test of one dialect: hypothesis draws programs, ``check`` runs both."""
    from hypothesis import given, settings

    from .interp import check
    from .program import programs

    @settings(max_examples=CI_PROGRAMS if settings().derandomize else 1000)
    @given(programs(dialect))
    def test(steps):
        check(steps, dialect, real, ours)
    return test
