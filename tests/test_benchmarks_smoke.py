"""The benchmark command in smoke mode: every workload runs on numpy, torchlike and paddlelike
and their gradients agree with the hand-written numpy version.  No time is ever asserted."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _smoke(extra_env=None):
    env = dict(os.environ, **(extra_env or {}))
    return subprocess.run([sys.executable, "-m", "benchmarks", "--smoke"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_smoke_runs_and_gradients_agree():
    r = _smoke()
    assert r.returncode == 0, r.stdout + r.stderr
    assert "smoke run ok" in r.stdout
    for workload in "ABCDEF":
        for system in ("torchlike", "paddlelike"):
            assert f"gradients {workload:9s} {system:10s} ok" in r.stdout


def test_a_gradient_mismatch_fails_the_run():
    r = _smoke({"JANUSGRAD_BENCH_SKEW": "paddlelike"})
    assert r.returncode != 0
    assert "GRADIENT MISMATCH: paddlelike" in r.stdout + r.stderr
