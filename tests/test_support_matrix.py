"""docs/SUPPORT.md (issue 15 §7) is current with the frontends, the pass lists and the
checked-in snapshot of the real frameworks' names; runs without the real frameworks."""
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_support_matrix_is_current():
    r = subprocess.run([sys.executable, "scripts/support_matrix.py", "--check"], cwd=REPO,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_support_matrix_lists_what_we_have_and_lack():
    text = (REPO / "docs" / "SUPPORT.md").read_text()
    assert "| `torch.add` | pass |" in text
    assert "| `paddle.concat` |" in text
    assert "Missing: " in text  # the names we lack are listed, not hidden
