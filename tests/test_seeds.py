"""Acceptance: the seed programs run unmodified under the drop-in runner and print
exactly what the real framework printed (their `.expected` files)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# The seeds run from the repository's own copies (tests/acceptance/, byte-identical to the
# project's shared seed folder), so a plain clone runs its acceptance test.
SEEDS = REPO / "tests" / "acceptance"
# The project's shared folder, beside the repository (or inside a checkout as shared/):
# where it exists, the copies must still match it byte for byte.  (A git worktree kept in a
# folder beside the main checkout finds it one level further up.)
CANDIDATES = [REPO / ".." / "shared" / "seeds", REPO / "shared" / "seeds",
              REPO / ".." / ".." / "shared" / "seeds"]
SHARED = next((p.resolve() for p in CANDIDATES if p.is_dir()), None)

SEED_RUNS = [
    ("torch_autograd.py", "torchlike"),
    ("torch_d2l_autograd.py", "torchlike"),
    ("paddle_autograd.py", "paddlelike"),
]


@pytest.mark.parametrize("script, shim", SEED_RUNS, ids=[s for s, _ in SEED_RUNS])
def test_seed_prints_expected(script, shim):
    expected = (SEEDS / script).with_suffix(".expected").read_text()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    p = subprocess.run([sys.executable, "-m", shim, script], cwd=SEEDS, env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, f"{script} exited {p.returncode}:\n{p.stderr}"
    assert p.stdout == expected


SEED_FILES = sorted(f for s, _ in SEED_RUNS for f in (s, s.replace(".py", ".expected")))


def test_every_seed_has_its_copy_in_the_repository():
    missing = [f for f in SEED_FILES if not (SEEDS / f).is_file()]
    assert not missing, f"seed files missing from {SEEDS}: {missing}"


@pytest.mark.parametrize("name", SEED_FILES)
def test_seed_copies_match_the_shared_seeds(name):
    """tests/acceptance/ holds byte-identical copies of the shared seed folder's programs
    and expected outputs (checked where that folder exists beside the repository)."""
    if SHARED is None:
        pytest.skip(f"shared seed folder not found (looked in {', '.join(map(str, CANDIDATES))})")
    assert (SEEDS / name).read_bytes() == (SHARED / name).read_bytes(), name
    extra = sorted(p.name for p in SHARED.glob("*.py") if p.name not in SEED_FILES)
    assert not extra, f"seed programs in {SHARED} with no run here: {extra}"


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
    expected = (SEEDS / "paddle_autograd.expected").read_text()
    p = _run([sys.executable, "-m", "paddlelike", "paddle_autograd.py"], SEEDS)
    assert p.returncode == 0, p.stderr
    assert p.stdout == expected.replace("Place(cpu)", "Place(gpu:0)")
