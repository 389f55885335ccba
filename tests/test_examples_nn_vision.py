"""The issue-16 examples in both dialects (examples/torch, examples/paddle), each run as a user
would under ``python -m torchlike`` / ``python -m paddlelike`` in a shortened form that must
still learn: LeNet on the digits (skipped, naming the layer, while the dialect lacks its
convolution or pooling layer) and the character GRU on stdlib docstrings (perplexity)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import paddlelike
import torchlike

pytest.importorskip("tqdm")
pytest.importorskip("matplotlib")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RUNNER = {"torch": "torchlike", "paddle": "paddlelike"}
LENET_LAYERS = {"torch": (torchlike.nn, ("Conv2d", "AvgPool2d")),
                "paddle": (paddlelike.nn, ("Conv2D", "AvgPool2D"))}


def _run(dialect: str, script: str, *args) -> subprocess.CompletedProcess:
    env = dict(os.environ, MPLBACKEND="Agg", OMP_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-m", RUNNER[dialect], script, *args],
                          cwd=EXAMPLES / dialect, capture_output=True, text=True, env=env,
                          timeout=300)


@pytest.mark.parametrize("dialect", ["torch", "paddle"])
def test_lenet_on_digits_learns(dialect, tmp_path):
    pytest.importorskip("sklearn")
    module, layers = LENET_LAYERS[dialect]
    missing = [name for name in layers if not hasattr(module, name)]
    if missing:
        pytest.skip(f"{RUNNER[dialect]}.nn lacks {', '.join(missing)} (being built in parallel)")
    plot = tmp_path / "lenet.png"
    r = _run(dialect, "lenet_digits.py", "--epochs", "1", "--plot", str(plot))
    assert r.returncode == 0, r.stderr[-3000:]
    assert plot.stat().st_size > 1000
    assert "epoch 1/1" in r.stderr  # the progress bar
    assert re.search(r"AvgPool2[dD] output shape: \t (torch|paddle)\.Size\(\[1, 16, 5, 5\]\)",
                     r.stdout), r.stdout
    acc = [float(a) for a in re.findall(r"^epoch \d+: .*test acc ([0-9.]+)$", r.stdout, re.M)]
    assert len(acc) == 1 and acc[-1] >= 0.9, r.stdout  # (the full run: >= 0.99)


@pytest.mark.parametrize("dialect", ["torch", "paddle"])
def test_char_gru_on_stdlib_docstrings_learns(dialect, tmp_path):
    plot = tmp_path / "gru.png"
    r = _run(dialect, "char_gru.py", "--epochs", "3", "--hiddens", "64", "--chars", "20000",
             "--plot", str(plot))
    assert r.returncode == 0, r.stderr[-3000:]
    assert plot.stat().st_size > 1000
    assert "epoch 3/3" in r.stderr and "ppl=" in r.stderr  # the progress bar
    assert "vocabulary of 27: ' abcdefghijklmnopqrstuvwxyz'" in r.stdout
    ppl = re.findall(r"^epoch \d+: perplexity ([0-9.]+), held-out perplexity ([0-9.]+)$",
                     r.stdout, re.M)
    assert len(ppl) == 3, r.stdout
    first, last = float(ppl[0][0]), float(ppl[-1][1])
    # a uniform guess over 27 characters has perplexity 27; letter frequencies alone ~ 17
    assert last < 12.5 and last < first, r.stdout
    assert re.search(r"^return the [a-z ]{50}$", r.stdout, re.M), r.stdout
