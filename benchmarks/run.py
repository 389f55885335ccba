"""The benchmark command: ``python -m benchmarks [--smoke] [--rounds N] [--systems a,b]
[--compile | --compile-only]``.

Each system (the hand-written numpy limit, torchlike, paddlelike, and the real torch and paddle
when importable) runs in a worker process of its own (benchmarks.worker) with the thread count
pinned through the environment and the framework's own setting.  The run:

1. checks every system's gradients against the numpy version (a mismatch exits with status 1);
2. times workloads A-F and H in interleaved rounds (each round asks every system in turn, the
   starting system rotating), and reports medians with min/max and ratios to torch and numpy;
3. measures the cost curve (A's chain at 10 ... 1,000,000 ops), the peak memory of E and the
   memory of a 10,000-step training loop, each peak in a fresh process;
4. writes the tables into benchmarks/RESULTS.md (between the generated-section markers).

``--compile`` adds the compile section (benchmarks.compiled: A, C and the D2L MLP epoch, eager
and compiled); ``--compile-only`` runs that section alone and rewrites only its part.

``--smoke`` does steps 1 and a single untimed-in-spirit pass of every workload at small sizes:
it checks that everything runs and the gradients agree, never that a time is met.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
ALL_SYSTEMS = ("numpy", "torchlike", "paddlelike", "torch", "paddle")
OURS = ("torchlike", "paddlelike")

WORKLOADS = {
    # name: (what, inner iterations per sample, samples per round, rounds)
    "A": ("10 elementwise ops on 4 float32 elements, then sum: forward+backward", 200, 5, 5),
    "A_nograd": ("A's forward under no_grad", 500, 5, 5),
    "B": ("A's chain on 4,000,000 elements: forward+backward", 1, 3, 5),
    "C": ("784-256-10 MLP train step (relu, cross-entropy, SGD), batch 256", 10, 3, 5),
    "D": ("100,000 chained scalar ops: forward+backward", 1, 1, 3),
    "E": ("20-layer 1024x1024 tanh MLP, batch 64: forward+backward", 1, 1, 3),
    "F": ("third derivative of sum(sin(x)), 1000 elements, via create_graph", 50, 5, 5),
    "G": ("LeNet-5 train step (sigmoid, avg-pool, SGD), batch 256, 1x28x28", 1, 3, 5),
    "H": ("2-layer LSTM language-model train step (hidden 256, 35 steps, batch 32, one-hot "
          "vocabulary 28, Linear head, cross-entropy, SGD)", 1, 3, 9),
}
CURVE = (10, 1_000, 100_000, 1_000_000)
LOOP_STEPS, LOOP_EVERY = 10_000, 1_000
# gradient agreement: max|ours - numpy| <= RTOL * max|numpy| + ATOL
TOLERANCE = {"C": (1e-4, 1e-6), "E": (1e-3, 1e-6), "G": (1e-4, 1e-6), "H": (1e-4, 1e-8)}
DEFAULT_TOLERANCE = (1e-5, 1e-6)


class Crashed(Exception):
    pass


class Worker:
    """A system's worker process, restarted after a crash."""

    def __init__(self, system: str, threads: int, log, device: str | None = None,
                 init: dict | None = None, env: dict | None = None) -> None:
        self.system, self.threads, self.log, self.device = system, threads, log, device
        self.init_kw, self.env = init or {}, env or {}  # more for the worker's init; its env
        self.proc = None
        self.info = None

    def _start(self) -> None:
        env = dict(os.environ, **self.env)
        for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS"):
            env[var] = str(self.threads)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        env["GLOG_minloglevel"] = "2"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.worker"], cwd=ROOT, env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log)
        self.info = self._send({"op": "init", "system": self.system, "threads": self.threads,
                                "device": self.device, **self.init_kw})

    def _send(self, req: dict) -> dict:
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            self.proc = None
            raise Crashed(f"exit status {code}" + (f" (signal {-code})" if code < 0 else ""))
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"{self.system}: {reply['error']}\n{reply['trace']}")
        return reply

    def ask(self, op: str, **kw):
        """The reply's value; None when the system does not implement it."""
        if self.proc is None:
            self._start()
            if "ok" not in self.info:
                raise RuntimeError(f"{self.system} failed to start: {self.info}")
        reply = self._send({"op": op, **kw})
        return reply.get("ok")

    def unsupported(self, op: str, **kw) -> str | None:
        if self.proc is None:
            self._start()
        reply = self._send({"op": op, **kw})
        return reply.get("unsupported")

    def close(self) -> None:
        if self.proc is not None:
            try:
                self.proc.stdin.write('{"op": "quit"}\n')
                self.proc.stdin.flush()
            except BrokenPipeError:
                pass
            self.proc.wait()
            self.proc = None


def available_systems() -> list:
    out = ["numpy", "torchlike", "paddlelike"]
    out += [s for s in ("torch", "paddle") if importlib.util.find_spec(s) is not None]
    return out


def _torch_cuda() -> bool:
    """Whether a CUDA build of torch sees a GPU (asked in a child: importing torch here
    would slow every worker start)."""
    if importlib.util.find_spec("torch") is None:
        return False
    code = "import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)"
    return subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


# ====================================================================== gradient check
def check_gradients(workers: dict, names, smoke: bool, tmp: Path, notes: list) -> dict:
    """Each system's gradients against numpy's; returns {(system, workload): status}."""
    status = {}
    for name in names:
        ref_path = str(tmp / f"numpy-{name}.npz")
        workers["numpy"].ask("grads", workload=name, path=ref_path, smoke=smoke)
        ref = np.load(ref_path)
        rtol, atol = TOLERANCE.get(name, DEFAULT_TOLERANCE)
        for system, w in workers.items():
            if system == "numpy":
                continue
            path = str(tmp / f"{system}-{name}.npz")
            try:
                reply = w._send_checked("grads", workload=name, path=path, smoke=smoke)
            except Crashed as e:
                status[system, name] = f"crashed ({e})"
                notes.append(f"{system} crashed in workload {name}: {e}")
                continue
            if reply is None:
                status[system, name] = "unsupported"
                continue
            got = np.load(path)
            for key in ref.files:
                a, b = got[key].astype(np.float64), ref[key].astype(np.float64)
                err = float(np.max(np.abs(a - b))) if a.size else 0.0
                bound = rtol * float(np.max(np.abs(b))) + atol
                if a.shape != b.shape or not err <= bound:
                    raise SystemExit(
                        f"GRADIENT MISMATCH: {system} workload {name} gradient {key}: shape "
                        f"{a.shape} vs numpy {b.shape}, max error {err:.3g} > {bound:.3g}")
            status[system, name] = "ok"
            if reply.get("engine_grad"):
                notes.append(f"{system} {name}: grad() taken from "
                             "janusgrad.core.autograd.run_backward (the frontend's grad() is "
                             "not there yet)")
            print(f"  gradients {name:9s} {system:10s} ok", flush=True)
    return status


def _send_checked(self, op: str, **kw):
    if self.proc is None:
        self._start()
    reply = self._send({"op": op, **kw})
    if "unsupported" in reply:
        return None
    return reply["ok"]


Worker._send_checked = _send_checked


# ====================================================================== timing
# OpenBLAS's idle threads spin for about 2^28 cycles (0.1 s here) after a call before they
# sleep: with more than one thread, a system timed at once after another would share the cores
# with the other's spinning threads (the 2-thread C medians of ours and of numpy doubled).
SETTLE_S = 0.25


def time_workloads(workers: dict, names, status: dict, rounds_override: int | None,
                   clock: str = "wall", threads: int = 1, table: dict = WORKLOADS) -> dict:
    samples = {}
    systems = list(workers)
    for name in names:
        _, inner, reps, rounds = table[name]
        if rounds_override:
            rounds = rounds_override
        base = name.replace("_nograd", "")
        for r in range(rounds):
            order = systems[r % len(systems):] + systems[:r % len(systems)]
            for system in order:
                if system != "numpy" and status.get((system, base)) != "ok":
                    continue
                try:
                    got = workers[system]._send_checked(
                        "time", workload=name, inner=inner, reps=reps,
                        nograd=name.endswith("_nograd"), clock=clock)
                except Crashed as e:
                    status[system, base] = f"crashed ({e})"
                    continue
                if got is not None:  # one list per round: ratios are paired by round
                    samples.setdefault((system, name), {})[r] = got["samples"]
                if threads > 1:
                    time.sleep(SETTLE_S)  # the BLAS threads just used go idle first
            print(f"  timed {name} round {r + 1}/{rounds}", flush=True)
    return samples


def time_curve(workers: dict, notes: list, clock: str = "wall") -> dict:
    out = {}
    for n in CURVE:
        name = f"curve{n}"
        reps = 20 if n <= 1000 else 1
        inner = max(1, 20_000 // n) if n <= 1000 else 1
        for system, w in workers.items():
            if out.get((system, "crashed")):
                continue
            try:
                got = w._send_checked("time", workload=name, inner=inner, reps=reps,
                                      clock=clock)
            except Crashed as e:
                out[system, "crashed"] = n
                notes.append(f"{system} crashed in the cost curve at {n:,} ops: {e}")
                continue
            if got is not None:
                out[system, n] = statistics.median(got["samples"]) / n
        print(f"  curve {n:,} ops", flush=True)
    return out


def fresh(system: str, threads: int, log, op: str, *, init: dict | None = None,
          env: dict | None = None, **kw):
    """``op`` asked of a new worker process (``init``, ``env``: as Worker's)."""
    w = Worker(system, threads, log, init=init, env=env)
    try:
        return w._send_checked(op, **kw)
    except Crashed as e:
        return {"crashed": str(e)}
    finally:
        w.close()


# ====================================================================== reporting
def _fmt_time(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.1f} µs"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


def summarize(samples: dict) -> dict:
    out = {}
    for k, rounds in samples.items():
        v = [x for r in rounds.values() for x in r]
        out[k] = (statistics.median(v), min(v), max(v))
    return out


def paired_ratio(samples: dict, a: str, b: str, name: str):
    """The median over rounds of (a's median / b's median in that round), or None: timed in
    the same round, the two systems saw the same load on a shared machine."""
    ra, rb = samples.get((a, name), {}), samples.get((b, name), {})
    ratios = [statistics.median(ra[r]) / statistics.median(rb[r]) for r in ra if r in rb]
    return statistics.median(ratios) if ratios else None


def _pratio(samples, a, b, name) -> str:
    v = paired_ratio(samples, a, b, name)
    return "–" if v is None else f"{v:.2f}x"


def timing_table(samples: dict, systems, status: dict, names, title_threads: str) -> list:
    stats = summarize(samples)
    lines = [f"| workload ({title_threads}) | " + " | ".join(systems) + " |",
             "| --- |" + " --- |" * len(systems)]
    for name in names:
        cells = []
        for s in systems:
            st = stats.get((s, name))
            if st is None:
                cells.append(status.get((s, name.replace("_nograd", "")), "–"))
            else:
                cells.append(f"{_fmt_time(st[0])} ({_fmt_time(st[1])}–{_fmt_time(st[2])})")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", "Ratios (same run): per round, the ratio of the two systems' medians in "
              "that round; the median of those over the rounds.", "",
              "| workload | " + " | ".join(f"{o}/torch | {o}/numpy" for o in OURS)
              + " | paddlelike/paddle | paddle/torch | torch/numpy |",
              "| --- |" + " --- |" * (2 * len(OURS) + 3)]
    for name in names:
        cells = []
        for o in OURS:
            cells += [_pratio(samples, o, "torch", name), _pratio(samples, o, "numpy", name)]
        cells += [_pratio(samples, "paddlelike", "paddle", name),
                  _pratio(samples, "paddle", "torch", name),
                  _pratio(samples, "torch", "numpy", name)]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


GENERATED_START, GENERATED_END = "<!-- generated:start -->", "<!-- generated:end -->"


def write_results(sections: list) -> None:
    start, end = GENERATED_START, GENERATED_END
    body = "\n".join([start, *sections, end])
    if RESULTS.exists():
        text = RESULTS.read_text()
        if start in text and end in text:
            text = text[:text.index(start)] + body + text[text.index(end) + len(end):]
        else:
            text = body + "\n\n" + text
    else:
        text = "# Benchmark results\n\n" + body + "\n"
    RESULTS.write_text(text)


def machine() -> list:
    cpu = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f
                       if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return [f"- machine: {cpu}, {os.cpu_count()} logical CPUs, {platform.system()} "
            f"{platform.release()}", f"- python {platform.python_version()}"]


# ====================================================================== main
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n")[0])
    ap.add_argument("--smoke", action="store_true",
                    help="small sizes: check every workload runs and gradients agree")
    ap.add_argument("--systems", help="comma-separated subset of " + ",".join(ALL_SYSTEMS))
    ap.add_argument("--rounds", type=int, help="rounds per workload (default: per workload)")
    ap.add_argument("--workloads", help="comma-separated subset of " + ",".join(WORKLOADS))
    ap.add_argument("--threads", type=int, default=1, help="threads per system (default 1)")
    ap.add_argument("--no-extras", action="store_true",
                    help="skip the cost curve, the memory runs and the 2-thread C")
    ap.add_argument("--no-write", action="store_true", help="do not write RESULTS.md")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall: elapsed time; cpu: the worker's CPU time (robust on a shared "
                    "machine; the 2-thread run of C always uses wall time)")
    ap.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                    help="cuda: torchlike and real torch on the GPU (numpy stays the host "
                    "reference); implies --no-extras and --no-write")
    ap.add_argument("--compile", action="store_true",
                    help="also the compile section: A, C and the D2L MLP epoch eager and "
                    "compiled (torch.compile, paddle.jit.to_static), first calls apart")
    ap.add_argument("--compile-only", action="store_true",
                    help="only the compile section (rewrites only its part of RESULTS.md)")
    ap.add_argument("--torch-backend",
                    help="torch.compile's backend for real torch in the compile section "
                    "(default: inductor; aot_eager where inductor fails here)")
    args = ap.parse_args(argv)
    if args.device == "cuda" and (args.compile or args.compile_only):
        ap.error("the compile section runs on the CPU only")
    if args.compile_only:
        return _compile_only(args)
    device = None
    if args.device == "cuda":
        device, args.no_extras, args.no_write = "cuda", True, True
        if not args.systems:
            args.systems = ",".join(["numpy", "torchlike"] + (["torch"] if _torch_cuda() else []))

    systems = args.systems.split(",") if args.systems else (
        ["numpy", *OURS] if args.smoke else available_systems())
    if "numpy" not in systems:
        systems.insert(0, "numpy")
    names = args.workloads.split(",") if args.workloads else list(WORKLOADS)
    check_names = [n for n in dict.fromkeys(n.replace("_nograd", "") for n in names)]
    if args.smoke:
        check_names += ["curve10", "loop"]
    notes: list = []
    log = tempfile.TemporaryFile("w+")
    started = time.time()
    workers = {s: Worker(s, args.threads, log, device) for s in systems}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            print("checking gradients against the numpy version", flush=True)
            status = check_gradients(workers, check_names, args.smoke, Path(tmp), notes)
        if args.smoke:
            for system, w in workers.items():
                for name in names:
                    base = name.replace("_nograd", "")
                    if system == "numpy" or status.get((system, base)) == "ok":
                        w._send_checked("time", workload=name, inner=1, reps=1, smoke=True,
                                        nograd=name.endswith("_nograd"))
                w._send_checked("memory", workload="E", smoke=True)
                w._send_checked("loop", steps=20, every=10, smoke=True)
            print(f"smoke run ok ({time.time() - started:.0f} s): every workload ran on "
                  f"{', '.join(systems)} and the gradients agree")
            if args.compile:
                from . import compiled
                compiled.run_section(args, log, notes)
            for n in notes:
                print("note:", n)
            return 0
        infos = {s: w.ask("init", system=s, threads=args.threads, device=device)
                 if w.info is None
                 else w.info["ok"] for s, w in workers.items()}
        samples = time_workloads(workers, names, status, args.rounds, args.clock,
                                 args.threads)
        curve = {} if args.no_extras else time_curve(workers, notes, args.clock)
    finally:
        for w in workers.values():
            w.close()

    sections = ["## Setup", *machine()] + ([f"- device: {device}"] if device else [])
    for s, info in infos.items():
        sections.append(f"- {s}: {info['version']}; threads: {info['threads']}")
    sections += ["", f"Medians (min–max) of interleaved rounds; one sample is the mean of the "
                 f"workload's inner iterations. Threads: {args.threads}. Clock: {args.clock}"
                 + (" (CPU time of the worker process)" if args.clock == "cpu" else "") + ".",
                 ""]
    sections += timing_table(samples, systems, status, names, f"{args.threads} thread")

    if not args.no_extras:
        if "C" in names:
            print("workload C at 2 threads", flush=True)
            workers2 = {s: Worker(s, 2, log) for s in systems}
            try:
                samples2 = time_workloads(workers2, ["C"], status, args.rounds, threads=2)
            finally:
                for w in workers2.values():
                    w.close()
            sections += ["", "### Workload C at 2 threads", ""]
            sections += timing_table(samples2, systems, status, ["C"], "2 threads")
        sections += ["", "## Cost curve: A's chain, time per op (forward+backward)", "",
                     "| ops | " + " | ".join(systems) + " |", "| --- |" + " --- |" * len(systems)]
        for n in CURVE:
            cells = []
            for s in systems:
                v = curve.get((s, n))
                cells.append(_fmt_time(v) if v is not None else (
                    "crashed" if curve.get((s, "crashed")) else "–"))
            sections.append(f"| {n:,} | " + " | ".join(cells) + " |")
        print("memory of E, each system in a fresh process", flush=True)
        sections += ["", "## Memory", "", "Peak above the state after setup during one "
                     "forward+backward of E (the 20 weight gradients alone are 80 MiB); "
                     "'after drop': what is left once the graph and the grads are dropped. "
                     "RSS from /proc/self/status (VmHWM after a reset through clear_refs); "
                     "tracemalloc (exact, numpy allocations) for the numpy-based systems.", "",
                     "| system | RSS peak | RSS after drop | tracemalloc peak | "
                     "tracemalloc after drop |", "| --- | --- | --- | --- | --- |"]
        for s in systems:
            m = fresh(s, args.threads, log, "memory", workload="E") or {}
            cells = [m.get(k) for k in ("rss_peak_mib", "rss_after_drop_mib", "traced_peak_mib",
                                        "traced_after_drop_mib")]
            sections.append(f"| {s} | " + " | ".join(
                "–" if c is None else f"{c:.1f} MiB" for c in cells) + " |")
        print("memory of a 10,000-step training loop", flush=True)
        sections += ["", f"Training loop (64-32-10 MLP, batch 16, SGD), {LOOP_STEPS:,} steps: "
                     f"RSS and live Python objects every {LOOP_EVERY:,} steps.", "",
                     "| system | RSS first → last | objects first → last |",
                     "| --- | --- | --- |"]
        for s in systems:
            m = fresh(s, args.threads, log, "loop", steps=LOOP_STEPS, every=LOOP_EVERY) or {}
            if "rss_mib" not in m:
                sections.append(f"| {s} | {m.get('crashed', '–')} | |")
                continue
            r, o = m["rss_mib"], m["objects"]
            sections.append(f"| {s} | {r[0]:.1f} → {r[-1]:.1f} MiB | {o[0]} → {o[-1]} |")
    if args.compile:
        from . import compiled
        print("the compile section", flush=True)
        sections += ["", *compiled.run_section(args, log, notes)]
    if notes:
        sections += ["", "Notes:", *[f"- {n}" for n in notes]]
    sections.append(f"\n(run took {time.time() - started:.0f} s)")
    text = "\n".join(sections)
    print(text)
    if not args.no_write:
        write_results(sections)
    return 0


def _compile_only(args) -> int:
    from . import compiled
    notes: list = []
    started = time.time()
    with tempfile.TemporaryFile("w+") as log:
        lines = compiled.run_section(args, log, notes)
    if args.smoke:
        for n in notes:
            print("note:", n)
        return 0
    if notes:
        lines[-1:-1] = ["", "Notes:", *[f"- {n}" for n in notes]]
    lines[-1:-1] = [f"\n(the compile section took {time.time() - started:.0f} s)"]
    print("\n".join(lines))
    if not args.no_write:
        compiled.write(lines)
    return 0
