"""torchlike against real torch on torch's own OpInfo samples (issue 15 §1).

One test per op (614 names; the selection is documented in tests/opinfo/core.py). An op on
tests/opinfo/passing_torch.txt must pass every capped sample; an op off the list may fail
(its cause is in the summary) and one that newly passes is reported at the end of the session,
to be added with ``python scripts/opinfo_coverage.py --write``."""
import pytest

pytest.importorskip("torch")

from tests.opinfo import core, report  # noqa: E402

EXPECTED = core.read_list(report.LISTS["torch"])
RESULTS = {}


def _lines():
    if len(RESULTS) == len(core.select()):
        return report.summary("torch", RESULTS, EXPECTED, len(core.select()))


@pytest.fixture(scope="module", autouse=True)
def coverage_summary(request):
    report.print_at_end(request.config, "opinfo-torch-summary", _lines)


def test_selection_is_the_documented_614():
    sel = core.select()
    assert len(sel) == 614
    assert sum(len(v) for v in sel.values()) == 678


def test_passing_list_names_selected_ops():
    assert EXPECTED <= set(core.select()), sorted(EXPECTED - set(core.select()))


@pytest.mark.parametrize("name", list(core.select()))
def test_opinfo_torch(name):
    out = RESULTS[name] = core.run_torch(name)
    if name in EXPECTED:
        assert out.passed, f"{name} regressed: {out.line()}"
