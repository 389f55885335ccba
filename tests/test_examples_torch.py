"""The D2L-style torch examples run unmodified under ``python -m torchlike``; the concise
MLP reaches the same test accuracy (within 2 points, and >= 95%) as on real torch."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "torch"
SCRIPTS = ["linear_regression_scratch", "linear_regression_concise",
           "softmax_regression_scratch", "softmax_regression_concise", "mlp_scratch",
           "mlp_concise"]


def _run(argv: list, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=600)


def _test_acc(stdout: str) -> float:
    found = re.findall(r"^loss [0-9.]+, train acc [0-9.]+, test acc ([0-9.]+)$", stdout, re.M)
    assert found, stdout
    return float(found[-1])


@pytest.mark.parametrize("name", SCRIPTS)
def test_example_runs_under_torchlike(name, tmp_path):
    pytest.importorskip("sklearn")
    pytest.importorskip("tqdm")
    pytest.importorskip("matplotlib")
    plot = tmp_path / "curves.png"
    r = _run([sys.executable, "-m", "torchlike", str(EXAMPLES / f"{name}.py"), "--epochs", "2",
              "--plot", str(plot)], tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    assert plot.stat().st_size > 1000
    assert "epoch 2" in r.stdout
    assert "epoch 2" in r.stderr  # the progress bar (tqdm writes to stderr)
    if "regression_" in name and "linear" in name:
        assert "error in estimating w" in r.stdout
    else:
        assert 0.0 <= _test_acc(r.stdout) <= 1.0


def test_linear_regression_recovers_the_weights(tmp_path):
    r = _run([sys.executable, "-m", "torchlike", str(EXAMPLES / "linear_regression_concise.py")],
             tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    err = re.search(r"error in estimating w: tensor\(\[\s*([-0-9.e]+),\s*([-0-9.e]+)\]\)",
                    r.stdout)
    assert err and max(abs(float(err.group(1))), abs(float(err.group(2)))) < 0.01, r.stdout


def test_concise_mlp_matches_real_torch(tmp_path):
    """Same script, same data split: real torch and janusgrad within 2 points, both >= 95%."""
    pytest.importorskip("torch")
    pytest.importorskip("sklearn")
    script = str(EXAMPLES / "mlp_concise.py")
    real = _run([sys.executable, script], tmp_path)
    ours = _run([sys.executable, "-m", "torchlike", script], tmp_path)
    assert real.returncode == 0, real.stderr[-3000:]
    assert ours.returncode == 0, ours.stderr[-3000:]
    acc_real, acc_ours = _test_acc(real.stdout), _test_acc(ours.stdout)
    assert acc_ours >= 0.95, ours.stdout
    assert abs(acc_real - acc_ours) <= 0.02, (acc_real, acc_ours)
