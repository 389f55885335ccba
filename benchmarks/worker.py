"""One system's benchmark process: reads JSON requests on stdin, answers on stdout.

Started by ``benchmarks.run`` once per system (numpy, torchlike, paddlelike, torch, paddle) with
the thread-count variables already in its environment, so every system runs in a process of
its own and the rounds of the systems can be interleaved.
"""
from __future__ import annotations

import gc
import json
import os
import sys
import time
import traceback

import numpy as np

from . import workloads as W

STYLES = {"numpy": None, "torchlike": "torch", "torch": "torch",
          "paddlelike": "paddle", "paddle": "paddle"}


def _import(system: str, threads: int):
    """The system's module, its thread count pinned."""
    if system == "numpy":
        return W.NumpyStyle(), np.__version__
    if system == "torch":
        import torch
        torch.set_num_threads(threads)
        torch.set_num_interop_threads(1)
        return W.TorchStyle(torch), torch.__version__
    if system == "paddle":
        import paddle
        paddle.set_flags({"FLAGS_paddle_num_threads": threads})
        paddle.base.core.set_num_threads(threads)
        paddle.set_device("cpu")
        return W.PaddleStyle(paddle), paddle.__version__
    if system == "torchlike":
        import torchlike
        return _EngineGrad(W.TorchStyle)(torchlike), "janusgrad"
    if system == "paddlelike":
        import paddlelike
        return _EngineGrad(W.PaddleStyle)(paddlelike), "janusgrad"
    raise ValueError(system)


def _EngineGrad(base):  # noqa: N802 - a class factory
    """The frontend's grad(); while a frontend lacks one, the engine's (noted in the report)."""

    class Style(base):
        fallback = False

        def grad(self, out, x, create_graph):
            try:
                return base.grad(self, out, x, create_graph)
            except (NotImplementedError, AttributeError):
                from janusgrad.core.autograd import prepare_seeds, run_backward
                self.fallback = True
                seeds = prepare_seeds([out], [None])
                return run_backward([out], seeds, create_graph, create_graph, [x], False)[0]

    return Style


def _threads_report(system: str, threads: int) -> dict:
    info = {k: os.environ.get(k) for k in
            ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    try:
        from threadpoolctl import threadpool_info
        info["pools"] = sorted({f"{p['internal_api']}={p['num_threads']}"
                                for p in threadpool_info()})
    except ImportError:
        info["pools"] = ["threadpoolctl not installed"]
    if system == "torch":
        import torch
        info["torch.get_num_threads"] = torch.get_num_threads()
    if system == "paddle":
        import paddle
        info["FLAGS_paddle_num_threads"] = paddle.get_flags(
            ["FLAGS_paddle_num_threads"])["FLAGS_paddle_num_threads"]
    return info


def _status_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def _trim() -> None:
    """Hand freed heap pages back to the OS (glibc keeps them), so RSS shows live memory."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _reset_peak_rss() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _compile_stats(system: str, workload) -> dict | None:
    """What the compiler did: for ours, the Compiled objects' counters (found in the workload
    and the objects it holds, two levels down); for real torch, dynamo's graph counters."""
    if system in ("torchlike", "paddlelike"):
        from janusgrad.transforms.trace import Compiled
        found, seen, level = {}, set(), [workload]
        for _ in range(3):
            nxt = []
            for o in level:
                if id(o) in seen:
                    continue
                seen.add(id(o))
                if isinstance(o, Compiled):
                    found[id(o)] = o
                nxt += [v for v in getattr(o, "__dict__", {}).values()
                        if not isinstance(v, (np.ndarray, list, tuple, dict, str))]
            level = nxt
        out = {"traces": 0, "replays": 0, "eager": 0, "breaks": []}
        for c in found.values():
            for k, v in c.stats.items():
                out[k] = out[k] + (list(v) if k == "breaks" else v)
        return out if found else None
    if system == "torch":
        from torch._dynamo.utils import counters
        return {"graphs": counters["stats"]["unique_graphs"],
                "breaks": sum(counters["graph_break"].values())}
    return None


class Worker:
    def __init__(self) -> None:
        self.style = None
        self.system = None
        self.compiled = False
        self.built: dict = {}

    def get(self, name: str, smoke: bool):
        w = self.built.get(name)
        if w is None:
            w = self.built[name] = W.build(self.style, name, smoke, self.compiled)
        return w

    # ------------------------------------------------------------ requests
    def init(self, system: str, threads: int, device: str | None = None,
             backend: str | None = None) -> dict:
        """``system``: numpy, torchlike, paddlelike, torch or paddle, and ":compiled" for the
        compiled variants of --compile (``backend``: torch.compile's, None for its default)."""
        self.system, _, variant = system.partition(":")
        self.compiled = variant == "compiled"
        self.style, version = _import(self.system, threads)
        if device is not None and self.system != "numpy":  # numpy stays the host reference
            self.style.device = device
        if backend is not None:
            self.style.backend = backend
        return {"version": version, "threads": _threads_report(self.system, threads),
                "python": sys.version.split()[0], "numpy": np.__version__}

    def first(self, workload: str, smoke: bool = False) -> dict:
        """The first run of a freshly built workload (for a compiled variant: tracing or
        compiling included) and the second, and what the compiler did in them."""
        w = W.build(self.style, workload, smoke, self.compiled)
        out = {}
        for key in ("first_s", "second_s"):
            t0 = time.perf_counter()
            w.run()
            if self.style is not None and not isinstance(self.style, W.NumpyStyle):
                self.style.sync()
            out[key] = time.perf_counter() - t0
        out["stats"] = _compile_stats(self.system, w) if self.compiled else None
        return out

    def probe(self) -> dict:
        """Compile a tiny function and run it forward and backward (does the backend work
        here?)."""
        w = W.build(self.style, "A", False, self.compiled)
        w.run()
        return {}

    def grads(self, workload: str, path: str, smoke: bool = False) -> dict:
        w = self.get(workload, smoke)
        if hasattr(self.style, "fallback"):
            self.style.fallback = False
        grads = [np.asarray(g) for g in w.grads()]
        if self.system == os.environ.get("JANUSGRAD_BENCH_SKEW"):  # proves the check can fail
            grads = [g * 1.01 for g in grads]
        np.savez(path, *grads)
        return {"path": path, "engine_grad": bool(getattr(self.style, "fallback", False))}

    def time(self, workload: str, inner: int, reps: int, nograd: bool = False,
             smoke: bool = False, clock: str = "wall") -> dict:
        """Per-iteration times; ``clock`` "cpu" counts this process's CPU time only (robust
        on a shared machine for one-thread runs; it adds up the threads of a multi-thread
        run), "wall" the elapsed time."""
        w = self.get(workload.replace("_nograd", ""), smoke)
        fn = w.run_nograd if nograd else w.run
        now = time.process_time if clock == "cpu" else time.perf_counter
        fn()  # warm
        samples = []
        for _ in range(reps):
            gc.collect()
            t0 = now()
            for _ in range(inner):
                fn()
            if self.style is not None and not isinstance(self.style, W.NumpyStyle):
                self.style.sync()
            samples.append((now() - t0) / inner)
        return {"samples": samples}

    def memory(self, workload: str, smoke: bool = False) -> dict:
        """Peak memory of one run above the state after setup (RSS, and tracemalloc where the
        arrays are numpy's), and what is left once the results are dropped."""
        w = self.get(workload, smoke)
        gc.collect()
        _trim()
        out = {}
        if _reset_peak_rss():
            base = _status_kib("VmRSS")
            w.run()
            out["rss_peak_mib"] = (_status_kib("VmHWM") - base) / 1024
            w.drop()
            gc.collect()
            _trim()
            out["rss_after_drop_mib"] = (_status_kib("VmRSS") - base) / 1024
        if self.system in ("numpy", "torchlike", "paddlelike"):
            import tracemalloc
            tracemalloc.start()
            base = tracemalloc.get_traced_memory()[0]
            w.run()
            out["traced_peak_mib"] = (tracemalloc.get_traced_memory()[1] - base) / 2**20
            w.drop()
            gc.collect()
            out["traced_after_drop_mib"] = (tracemalloc.get_traced_memory()[0] - base) / 2**20
            tracemalloc.stop()
        return out

    def loop(self, steps: int, every: int, smoke: bool = False) -> dict:
        """RSS and live Python objects every ``every`` steps of a training loop."""
        w = self.get("loop", smoke)
        rss, objects = [], []
        for i in range(1, steps + 1):
            w.run()
            if i % every == 0:
                gc.collect()
                _trim()
                rss.append(_status_kib("VmRSS") / 1024)
                objects.append(len(gc.get_objects()))
        return {"rss_mib": rss, "objects": objects}


def main() -> None:
    # answers go to the real stdout; anything the frameworks print goes to stderr
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    worker = Worker()
    for line in sys.stdin:
        req = json.loads(line)
        op = req.pop("op")
        if op == "quit":
            break
        try:
            reply = {"ok": getattr(worker, op)(**req)}
        except NotImplementedError as e:
            reply = {"unsupported": str(e)}
        except Exception as e:  # reported, the orchestrator decides
            reply = {"error": f"{type(e).__name__}: {e}", "trace": traceback.format_exc()}
        answers.write(json.dumps(reply) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
