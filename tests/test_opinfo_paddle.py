"""paddlelike against real paddle on torch's OpInfo samples mapped to paddle's API
(issue 15 §1): tests/opinfo/paddle_map.py is the mapping table. An op on
tests/opinfo/passing_paddle.txt must pass every capped sample; the summary at the end counts
the mapped ops that pass and reports newly passing ones."""
import pytest

pytest.importorskip("torch")
pytest.importorskip("paddle")

from tests.opinfo import core, paddle_map, report  # noqa: E402

EXPECTED = core.read_list(report.LISTS["paddle"])
RESULTS = {}


def _lines():
    rows = paddle_map.rows()
    if len(RESULTS) == len(rows):
        unmapped = sum(1 for o in RESULTS.values() if o.category == "mapping")
        return report.summary("paddle", RESULTS, EXPECTED, len(rows), unmapped)


@pytest.fixture(scope="module", autouse=True)
def coverage_summary(request):
    report.print_at_end(request.config, "opinfo-paddle-summary", _lines)


def test_passing_list_names_mapped_ops():
    assert EXPECTED <= set(paddle_map.rows()), sorted(EXPECTED - set(paddle_map.rows()))


@pytest.mark.parametrize("name", list(paddle_map.rows()))
def test_opinfo_paddle(name):
    out = RESULTS[name] = paddle_map.run_paddle(name)
    if name in EXPECTED:
        assert out.passed, f"{name} regressed: {out.line()}"
