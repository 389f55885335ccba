"""The Transformer example (issue 16 §4) in both dialects: a tiny encoder (d_model 32, 2 heads,
2 layers) learns to reverse digit sequences made at run time.

A shortened run (4 epochs on 2,000 sequences, a few seconds) must get past the plateau a
position-blind model sits on (about 33% per token; chance is 10%), under our runners and,
when installed, the same script unmodified on real torch / real paddle.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_examples_paddle import _real_paddle_python

pytest.importorskip("tqdm")
pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parent.parent / "examples"
SHORT = ["--epochs", "4", "--train-size", "2000"]
LEARNED = 0.5


def _run(argv: list, cwd) -> subprocess.CompletedProcess:
    env = dict(os.environ, MPLBACKEND="Agg", OMP_NUM_THREADS="1")
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env=env, timeout=600)


def _torch_acc(stdout: str) -> float:
    found = re.findall(r"^loss [0-9.]+, train acc [0-9.]+, test acc ([0-9.]+)$", stdout, re.M)
    assert found, stdout
    return float(found[-1])


def _paddle_acc(stdout: str) -> float:
    found = re.findall(r"^test acc ([0-9.]+)$", stdout, re.M)
    assert found, stdout
    return float(found[-1])


def test_torch_transformer_learns_under_torchlike(tmp_path):
    plot = tmp_path / "curves.png"
    r = _run([sys.executable, "-m", "torchlike", str(ROOT / "torch" / "transformer_reverse.py"),
              *SHORT, "--plot", str(plot)], tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    assert plot.stat().st_size > 1000
    assert "TransformerEncoderLayer(" in r.stdout and "Embedding(10, 32)" in r.stdout
    assert "epoch 4" in r.stdout and "epoch 4/4" in r.stderr  # tqdm writes to stderr
    assert _torch_acc(r.stdout) > LEARNED, r.stdout


def test_torch_transformer_learns_on_real_torch(tmp_path):
    torch = pytest.importorskip("torch")
    if "torchlike" in getattr(torch, "__file__", ""):
        pytest.skip("real torch is not installed")
    r = _run([sys.executable, str(ROOT / "torch" / "transformer_reverse.py"), *SHORT], tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    assert _torch_acc(r.stdout) > LEARNED, r.stdout


def test_paddle_transformer_learns_under_paddlelike(tmp_path):
    plot = tmp_path / "curves.png"
    r = _run([sys.executable, "-m", "paddlelike", str(ROOT / "paddle" / "transformer_reverse.py"),
              *SHORT, "--plot", str(plot)], ROOT / "paddle")
    assert r.returncode == 0, r.stderr[-3000:]
    assert plot.stat().st_size > 1000
    assert "TransformerEncoderLayer(" in r.stdout
    assert "epoch 4: " in r.stdout and "epoch 4/4" in r.stderr
    assert _paddle_acc(r.stdout) > LEARNED, r.stdout


def test_paddle_transformer_learns_on_real_paddle(tmp_path):
    python = _real_paddle_python()
    r = _run([python, str(ROOT / "paddle" / "transformer_reverse.py"), *SHORT, "--quiet"],
             ROOT / "paddle")
    assert r.returncode == 0, r.stderr[-3000:]
    assert _paddle_acc(r.stdout) > LEARNED, r.stdout
