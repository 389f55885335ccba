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
    for workload in "ABCDEFH":
        for system in ("torchlike", "paddlelike"):
            assert f"gradients {workload:9s} {system:10s} ok" in r.stdout


def test_the_bare_autograd_of_the_floor_benchmark_computes_workload_a():
    """benchmarks/floor.py times A on a minimal autograd; its numbers mean something only if
    its gradient is A's."""
    import numpy as np

    from benchmarks import floor
    from benchmarks import workloads as W
    want = W.build(W.NumpyStyle(), "A").grads()[0]
    np.testing.assert_allclose(floor.bare_a_gradient(), want, rtol=1e-5)


def test_the_create_graph_autograd_of_the_floor_benchmark_computes_workload_f():
    """The same for F: its minimal autograd must differentiate its own backward, three times,
    and its second derivative (through create_graph) must be the real one, -sin(x)."""
    import numpy as np

    from benchmarks import floor
    from benchmarks import workloads as W
    x = floor.Var(W.chain_input(1000), req=True)
    want = W.build(W.NumpyStyle(), "F").grads()[0]
    np.testing.assert_allclose(floor.bare_f(x).a, want, rtol=1e-5, atol=1e-6)
    g1 = floor.var_grad(floor.vsin(x).sum(), x, True)
    g2 = floor.var_grad(g1.sum(), x, True)
    np.testing.assert_allclose(g2.a, -np.sin(x.a), rtol=1e-5, atol=1e-6)
    assert g2.req and not floor.var_grad(g1.sum(), x, False).req


def test_a_gradient_mismatch_fails_the_run():
    r = _smoke({"JANUSGRAD_BENCH_SKEW": "paddlelike"})
    assert r.returncode != 0
    assert "GRADIENT MISMATCH: paddlelike" in r.stdout + r.stderr


def test_the_gpu_workloads_run_on_a_device_and_agree_with_numpy():
    """`--device cuda` (scripts/gpu_check.sh): B and C with torchlike on the GPU; here on
    the fake GPU, in this process, against the numpy version on the host."""
    import numpy as np

    import torchlike
    from benchmarks import workloads as W
    from janusgrad import backend

    from .fake_gpu import FakeGpuArray, installed

    with installed():
        style = W.TorchStyle(torchlike)
        style.device = "cuda"
        for name in ("B", "C"):
            ours = W.build(style, name, smoke=True)
            ours.run()
            style.sync()
            params = ours.params if hasattr(ours, "params") else [ours.x]
            assert all(type(p.array) is FakeGpuArray and backend.device_of(p.grad.array).kind
                       == "gpu" for p in params)
            ref = W.build(W.NumpyStyle(), name, smoke=True)
            for g, r in zip(W.build(style, name, smoke=True).grads(), ref.grads()):
                np.testing.assert_allclose(g, r, rtol=1e-4, atol=1e-6)
