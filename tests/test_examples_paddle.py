"""The paddle D2L examples run under ``python -m paddlelike`` (and on real paddle).

Each example is run as a user would, in a subprocess; the classification ones
print ``test acc X`` last.  The concise MLP is also run on real paddle (when it
is installed) and both must reach >= 95% within 2 points of each other.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sklearn")
pytest.importorskip("tqdm")
pytest.importorskip("matplotlib")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "paddle"
SCRIPTS = ["linear_regression_scratch", "linear_regression_concise",
           "softmax_regression_scratch", "softmax_regression_concise", "mlp_scratch",
           "mlp_concise"]


def _run(args, python=sys.executable):
    env = dict(os.environ, MPLBACKEND="Agg")
    return subprocess.run([python, *args], capture_output=True, text=True, env=env,
                          cwd=EXAMPLES, timeout=600)


def _test_acc(stdout: str) -> float:
    m = re.findall(r"^test acc ([0-9.]+)$", stdout, re.M)
    assert m, stdout
    return float(m[-1])


@pytest.mark.parametrize("name", SCRIPTS)
def test_example_runs_on_paddlelike(name, tmp_path):
    plot = tmp_path / f"{name}.png"
    epochs = ["--epochs", "2"] if name != "mlp_concise" else []
    r = _run(["-m", "paddlelike", str(EXAMPLES / f"{name}.py"), "--plot", str(plot), *epochs])
    assert r.returncode == 0, r.stderr
    assert plot.stat().st_size > 1000
    assert "epoch 1" in r.stdout
    if name == "mlp_concise":
        assert _test_acc(r.stdout) >= 0.95
        assert "Linear(in_features=64, out_features=256, dtype=float32)" in r.stdout


def test_progress_bar_shows_loss_and_accuracy():
    r = _run(["-m", "paddlelike", str(EXAMPLES / "softmax_regression_concise.py"),
              "--epochs", "1"])
    assert r.returncode == 0, r.stderr
    assert "acc=" in r.stderr and "loss=" in r.stderr and "epoch 1/1" in r.stderr


def _real_paddle_python():
    """A Python with real paddle installed: this one, or the oracle venv."""
    try:
        import paddle  # noqa: F401
        if "paddlelike" not in getattr(sys.modules["paddle"], "__file__", ""):
            return sys.executable
    except ImportError:
        pass
    venv = Path("/work/oracle-venv/bin/python")
    if venv.exists():
        probe = subprocess.run([str(venv), "-c", "import paddle, sklearn, tqdm"],
                               capture_output=True)
        if probe.returncode == 0:
            return str(venv)
    pytest.skip("real paddle is not installed")


def test_concise_mlp_matches_real_paddle():
    python = _real_paddle_python()
    real = _run([str(EXAMPLES / "mlp_concise.py"), "--quiet"], python=python)
    assert real.returncode == 0, real.stderr
    ours = _run(["-m", "paddlelike", str(EXAMPLES / "mlp_concise.py"), "--quiet"])
    assert ours.returncode == 0, ours.stderr
    a, b = _test_acc(real.stdout), _test_acc(ours.stdout)
    assert a >= 0.95 and b >= 0.95
    assert abs(a - b) <= 0.02


@pytest.mark.parametrize("name", SCRIPTS)
def test_example_runs_on_real_paddle(name):
    python = _real_paddle_python()
    r = _run([str(EXAMPLES / f"{name}.py"), "--epochs", "1", "--quiet"], python=python)
    assert r.returncode == 0, r.stderr
    assert "epoch 1" in r.stdout
