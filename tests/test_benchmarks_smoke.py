"""The benchmark command in smoke mode: every workload runs on numpy, torchlike and paddlelike
and their gradients agree with the hand-written numpy version.  No time is ever asserted."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

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
    from janusgrad.array import backend

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


def test_the_compile_section_runs_and_compiled_gradients_agree():
    """`--compile-only --smoke`: A, C and the D2L MLP epoch run eager and compiled on
    torchlike and paddlelike (through torch.compile and paddle.jit.to_static), and the
    compiled variants' gradients agree with numpy's."""
    import paddlelike
    import torchlike
    if not hasattr(torchlike, "compile") or not hasattr(paddlelike, "jit"):
        pytest.skip("torchlike.compile / paddlelike.jit are not there yet")
    r = subprocess.run([sys.executable, "-m", "benchmarks", "--compile-only", "--smoke"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "compile smoke ok" in r.stdout
    for workload in ("A", "C", "mlp_epoch"):
        for system in ("torchlike", "paddlelike"):
            for variant in (system, system + ":compiled"):
                assert f"gradients {workload:9s} {variant:10s} ok" in r.stdout


def test_the_mlp_epoch_workloads_train_the_same_model():
    """The MLP epoch (by hand, and as D2L writes it on torchlike and paddlelike) over its
    checked steps: the same parameters and the same loss; and a whole smoke epoch's metrics
    agree (the loss sum, and the correct count exactly)."""
    import numpy as np

    import paddlelike
    import torchlike
    from benchmarks import workloads as W
    ref = W.build(W.NumpyStyle(), "mlp_epoch", smoke=True)
    want = ref.grads()
    for style in (W.TorchStyle(torchlike), W.PaddleStyle(paddlelike)):
        got = W.build(style, "mlp_epoch", smoke=True).grads()
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
        loss, correct = W.build(style, "mlp_epoch", smoke=True).run()
        want_loss, want_correct = W.build(W.NumpyStyle(), "mlp_epoch", smoke=True).run()
        assert correct == want_correct and 0 < correct < W.EPOCH_SMOKE
        np.testing.assert_allclose(loss, want_loss, rtol=1e-5)
