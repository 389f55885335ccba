"""Issue 16 §4's ResNet example (Residual blocks, batch normalisation, adaptive average
pooling, on scikit-learn's 8x8 digits) in both dialects: a shortened run (2 epochs) under
``python -m torchlike`` / ``python -m paddlelike`` learns (test accuracy far above the
10% of chance), shows the progress bar and writes its curves; the same scripts run on
real torch and real paddle (skipped cleanly without them)."""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sklearn")
pytest.importorskip("tqdm")
pytest.importorskip("matplotlib")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# one BLAS thread: the machine is shared, and threads fighting over its cores slow the
# small matrix products of this example several times over
ENV = dict(os.environ, MPLBACKEND="Agg", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
           MKL_NUM_THREADS="1")
CHANCE = 0.1


def _run(argv: list, dialect: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *argv], capture_output=True, text=True, env=ENV,
                          cwd=EXAMPLES / dialect, timeout=600)


def _real(name: str) -> None:
    spec = importlib.util.find_spec(name)
    if spec is None or "like" in (spec.origin or ""):
        pytest.skip(f"real {name} is not installed")


def _torch_acc(stdout: str) -> float:
    found = re.findall(r"^loss [0-9.]+, train acc [0-9.]+, test acc ([0-9.]+)$", stdout, re.M)
    assert found, stdout
    return float(found[-1])


def _paddle_acc(stdout: str) -> float:
    found = re.findall(r"^test acc ([0-9.]+)$", stdout, re.M)
    assert found, stdout
    return float(found[-1])


def test_resnet_learns_under_torchlike(tmp_path):
    plot = tmp_path / "resnet.png"
    r = _run(["-m", "torchlike", "resnet.py", "--epochs", "2", "--plot", str(plot)], "torch")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "AdaptiveAvgPool2d output shape:\t torch.Size([1, 32, 1, 1])" in r.stdout
    assert "epoch 2/2" in r.stderr  # the progress bar
    assert plot.stat().st_size > 1000
    assert _torch_acc(r.stdout) >= 8 * CHANCE, r.stdout


def test_resnet_learns_under_paddlelike(tmp_path):
    plot = tmp_path / "resnet.png"
    r = _run(["-m", "paddlelike", "resnet.py", "--epochs", "2", "--plot", str(plot)],
             "paddle")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "AdaptiveAvgPool2D output shape:\t paddle.Size([1, 32, 1, 1])" in r.stdout
    assert "epoch 2/2" in r.stderr
    assert plot.stat().st_size > 1000
    assert _paddle_acc(r.stdout) >= 8 * CHANCE, r.stdout


def test_resnet_runs_on_real_torch():
    _real("torch")
    r = _run(["resnet.py", "--epochs", "1"], "torch")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "AdaptiveAvgPool2d output shape:\t torch.Size([1, 32, 1, 1])" in r.stdout
    assert 0.0 <= _torch_acc(r.stdout) <= 1.0


def test_resnet_runs_on_real_paddle():
    _real("paddle")
    r = _run(["resnet.py", "--epochs", "1", "--quiet"], "paddle")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "AdaptiveAvgPool2D output shape:\t paddle.Size([1, 32, 1, 1])" in r.stdout
    assert 0.0 <= _paddle_acc(r.stdout) <= 1.0
