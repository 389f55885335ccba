"""Acceptance: the seed programs run unmodified under the drop-in runner and print
exactly what the real framework printed (their `.expected` files)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# The seeds live in the project's shared folder, beside the repository (CI clones the
# repository next to it); a checkout may also carry it inside as shared/.
CANDIDATES = [REPO / ".." / "shared" / "seeds", REPO / "shared" / "seeds"]
SEEDS = next((p.resolve() for p in CANDIDATES if p.is_dir()), None)

SEED_RUNS = [
    ("torch_autograd.py", "torchlike"),
    ("torch_d2l_autograd.py", "torchlike"),
    ("paddle_autograd.py", "paddlelike"),
]


@pytest.mark.parametrize("script, shim", SEED_RUNS, ids=[s for s, _ in SEED_RUNS])
def test_seed_prints_expected(script, shim):
    if SEEDS is None:
        pytest.skip(f"seed folder not found (looked in {', '.join(map(str, CANDIDATES))})")
    expected = (SEEDS / script).with_suffix(".expected").read_text()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    p = subprocess.run([sys.executable, "-m", shim, script], cwd=SEEDS, env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, f"{script} exited {p.returncode}:\n{p.stderr}"
    assert p.stdout == expected


# ------------------------------------------------------------------ the README demos
EXAMPLES = REPO / "examples"
DEMOS = [("torch_autograd_demo.py", "torchlike", "torch"),
         ("paddle_autograd_demo.py", "paddlelike", "paddle")]


def _run(argv, cwd):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("script, shim, real", DEMOS, ids=[d[0] for d in DEMOS])
def test_demo_prints_what_the_real_framework_printed(script, shim, real):
    expected = (EXAMPLES / script).with_suffix(".expected").read_text()
    p = _run([sys.executable, "-m", shim, script], EXAMPLES)
    assert p.returncode == 0, p.stderr
    assert p.stdout == expected


@pytest.mark.parametrize("script, shim, real", DEMOS, ids=[d[0] for d in DEMOS])
def test_demo_expected_is_what_the_real_framework_prints(script, shim, real):
    pytest.importorskip(real)
    p = _run([sys.executable, script], EXAMPLES)
    assert p.returncode == 0, p.stderr
    assert p.stdout == (EXAMPLES / script).with_suffix(".expected").read_text()


# ------------------------------------------------------------------ on a GPU
@pytest.mark.gpu
@pytest.mark.skipif(not __import__("janusgrad").backend.gpu_available(),
                    reason="no GPU usable (cupy and a CUDA device)")
def test_paddle_seed_on_a_gpu_prints_gpu_places():
    """Like a GPU build of paddle, paddlelike computes on gpu:0 by default where a GPU is
    usable: the seed prints what it printed on the CPU, with Place(gpu:0) for Place(cpu)."""
    if SEEDS is None:
        pytest.skip(f"seed folder not found (looked in {', '.join(map(str, CANDIDATES))})")
    expected = (SEEDS / "paddle_autograd.expected").read_text()
    p = _run([sys.executable, "-m", "paddlelike", "paddle_autograd.py"], SEEDS)
    assert p.returncode == 0, p.stderr
    assert p.stdout == expected.replace("Place(cpu)", "Place(gpu:0)")
