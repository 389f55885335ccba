"""The compile section of ``python -m benchmarks --compile`` (issue 17, step 5).

A, C and one epoch of D2L's concise MLP, each eager and compiled, as the frameworks' users
write it: ``torch.compile(fn_or_net)`` on torchlike and real torch, ``paddle.jit.to_static``
on paddlelike and real paddle; beside the hand-written numpy limit.  Every system variant runs
in a worker process of its own (``torch:compiled`` is real torch with its workloads compiled).
The run

1. checks every variant's gradients against numpy's (a compiled function must compute what
   the eager one does);
2. times the steady state in interleaved rounds (after the first calls), paired per round;
3. measures the first call apart: in a fresh process per variant and workload, the first run
   of a freshly built workload (tracing or compiling included) and the second.  Real torch's
   inductor compiles into an on-disk cache: its first call is measured with an empty cache
   (cold) and again in a second process over that cache (warm).

What A and C compile: A's forward as a function of x; C's loss as a function of its inputs and
parameters (C is written on bare tensors, with no Module to compile, and a torch user
compiles such code as a function of the tensors it reads: the module form is the MLP epoch's).
"""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from . import run as R

WORKLOADS = {
    # name: (what, inner iterations per sample, samples per round, rounds)
    "A": ("10 elementwise ops on 4 float32 elements, then sum; forward compiled as a "
          "function of x; forward+backward", 200, 5, 5),
    "C": ("784-256-10 MLP SGD step, batch 256; the loss compiled as a function of "
          "(x, rows, labels, w1, b1, w2, b2)", 10, 3, 5),
    "mlp_epoch": ("D2L concise MLP (Flatten, Linear(784, 256), ReLU, Linear(256, 10)), one "
                  "epoch of SGD on 60,000 synthetic 1x28x28 images, batch 256, with "
                  "train_epoch_ch3's metrics; the net compiled", 1, 1, 5),
}
BASES = ("numpy", "torchlike", "paddlelike", "torch", "paddle")
LABELS = {"numpy": "numpy by hand", "torchlike": "torchlike eager",
          "torchlike:compiled": "torchlike `torch.compile`", "paddlelike": "paddlelike eager",
          "paddlelike:compiled": "paddlelike `to_static`", "torch": "torch eager",
          "torch:compiled": "torch `torch.compile`", "paddle": "paddle eager",
          "paddle:compiled": "paddle `to_static`"}
FRAMEWORKS = ("torchlike", "paddlelike", "torch", "paddle")
TARGETS = (  # (what, workload, numerator, denominator, bound, at most?)
    ("compiled A / numpy", "A", ":compiled", "numpy", 1.5, True),
    ("compiled C / numpy", "C", ":compiled", "numpy", 1.03, True),
    ("MLP epoch eager / compiled", "mlp_epoch", "", ":compiled", 1.5, False),
)
BACKEND_FALLBACK = "aot_eager"
START, END = "<!-- compile:start -->", "<!-- compile:end -->"


def variants(bases) -> list:
    """Every base system, and after each framework its compiled variant."""
    out = []
    for s in bases:
        out.append(s)
        if s != "numpy":
            out.append(s + ":compiled")
    return out


def _gcc() -> str:
    try:
        r = subprocess.run(["gcc", "--version"], capture_output=True, text=True, timeout=10)
        return r.stdout.splitlines()[0] if r.returncode == 0 else "gcc failed"
    except (OSError, subprocess.TimeoutExpired):
        return "no gcc"


def _torch_init(system: str, backend: str | None) -> dict:
    return {"backend": backend} if system == "torch:compiled" and backend else {}


def _cache_env(system: str, tmp: Path, name: str) -> dict:
    """Real torch's inductor writes its compiled kernels into a cache directory: a fresh one
    per process that should start cold, so an earlier run's kernels are never reused."""
    if not system.startswith("torch:"):
        return {}
    d = tmp / f"inductor-{name}"
    d.mkdir(exist_ok=True)
    return {"TORCHINDUCTOR_CACHE_DIR": str(d)}


def _probe_backend(system: str, threads: int, log, backend: str | None, tmp: Path,
                   notes: list) -> str | None:
    """torch.compile's backend to use here: the asked one when it compiles A and runs it
    forward and backward, else aot_eager (noted)."""
    w = R.Worker(system, threads, log, init=_torch_init(system, backend),
                 env=_cache_env(system, tmp, "probe"))
    try:
        w.ask("probe")
        return backend
    except (RuntimeError, R.Crashed) as e:
        last = str(e).strip().splitlines()[0][:300]
        notes.append(f"torch.compile with backend {backend or 'inductor'} failed here "
                     f"({last}); real torch is compiled with backend={BACKEND_FALLBACK!r}")
        return BACKEND_FALLBACK
    finally:
        w.close()


def _first_calls(systems, names, threads: int, log, backend, tmp: Path, smoke: bool,
                 workers: dict) -> dict:
    """{(system, workload): reply of 'first'}; ('torch:compiled', workload, 'warm') too.
    Fresh processes (the smoke run reuses the timing workers: it checks that it runs)."""
    out = {}
    for name in names:
        for s in systems:
            if smoke:
                out[s, name] = workers[s]._send_checked("first", workload=name, smoke=True)
                continue
            env = _cache_env(s, tmp, f"first-{name}")
            runs = [None, "warm"] if s == "torch:compiled" else [None]
            for tag in runs:  # the warm run reuses the cold run's cache directory
                try:
                    got = R.fresh(s, threads, log, "first", init=_torch_init(s, backend),
                                  env=env, workload=name)
                except RuntimeError as e:  # a framework that cannot compile it: reported
                    got = {"crashed": "failed: " + str(e).splitlines()[0][:200]}
                out[(s, name) if tag is None else (s, name, tag)] = got
        print(f"  first calls of {name}", flush=True)
    return out


def _cell(stats: dict, key) -> str:
    st = stats.get(key)
    return "–" if st is None else f"{R._fmt_time(st[0])} ({R._fmt_time(st[1])}–" \
                                  f"{R._fmt_time(st[2])})"


def _first_cell(first: dict, s: str, name: str) -> str:
    got = first.get((s, name))
    if not got or "first_s" not in got:
        return (got or {}).get("crashed", "–")
    cell = f"{R._fmt_time(got['first_s'])} / {R._fmt_time(got['second_s'])}"
    warm = first.get((s, name, "warm"))
    if warm and "first_s" in warm:
        cell += f" (warm cache: {R._fmt_time(warm['first_s'])})"
    return cell


def _stats_text(stats) -> str:
    if stats is None:
        return "–"
    if "traces" in stats:
        breaks = "; ".join(dict.fromkeys(stats["breaks"])) or "none"
        return (f"traces {stats['traces']}, replays {stats['replays']}, eager calls "
                f"{stats['eager']}, breaks: {breaks}")
    return f"dynamo graphs {stats['graphs']}, graph breaks {stats['breaks']}"


def report(systems, names, samples: dict, status: dict, first: dict, backend, threads: int,
           clock: str) -> list:
    stats = R.summarize(samples)
    lines = [START, "## Compiled: A, C and the D2L MLP epoch (`--compile`)", "",
             *R.machine(), "", f"Threads: {threads}. Clock: {clock}. torch.compile's backend: "
             f"{backend or 'inductor (its default)'}; C compiler: {_gcc()}. "
             "paddle.jit.to_static with its defaults (full_graph=False). torchlike.compile "
             "and paddlelike.jit.to_static: janusgrad.transforms.trace (trace and replay).", ""]
    lines += [f"- {n}: {WORKLOADS[n][0]}" for n in names]
    lines += ["", "Steady state: medians (min–max) of interleaved rounds after the first "
              "calls; one sample is the mean of the workload's inner iterations.", "",
              "| system | " + " | ".join(names) + " |", "| --- |" + " --- |" * len(names)]
    for s in systems:
        cells = [_cell(stats, (s, n)) if (s, n) in stats else status.get((s, n), "–")
                 for n in names]
        lines.append(f"| {LABELS.get(s, s)} | " + " | ".join(cells) + " |")
    lines += ["", "First call / second call, each in a fresh process on a freshly built "
              "workload (a compiled variant's first call traces or compiles; real torch's "
              "with an empty inductor cache, and in brackets over the cache the cold run "
              "left).", "",
              "| system | " + " | ".join(names) + " |", "| --- |" + " --- |" * len(names)]
    for s in systems:
        lines.append(f"| {LABELS.get(s, s)} | "
                     + " | ".join(_first_cell(first, s, n) for n in names) + " |")
    present = [f for f in FRAMEWORKS if f in systems and f + ":compiled" in systems]
    lines += ["", "Ratios (same run, paired per round): compiled / numpy, and the speedup "
              "eager / compiled.", "",
              "| workload | " + " | ".join(f"{f} compiled/numpy" for f in present) + " | "
              + " | ".join(f"{f} eager/compiled" for f in present) + " |",
              "| --- |" + " --- |" * (2 * len(present))]
    for n in names:
        cells = [R._pratio(samples, f + ":compiled", "numpy", n) for f in present]
        cells += [R._pratio(samples, f, f + ":compiled", n) for f in present]
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    lines += ["", "Targets (issue 17), ours:", ""]
    for what, n, num, den, bound, at_most in TARGETS:
        if n not in names:
            continue
        parts = []
        for f in ("torchlike", "paddlelike"):
            a = f + num if num else f
            b = den if den == "numpy" else f + den
            v = R.paired_ratio(samples, a, b, n)
            if v is None:
                parts.append(f"{f} –")
                continue
            met = v <= bound if at_most else v >= bound
            part = f"{f} {v:.2f}x ({'met' if met else 'not met'}"
            if not at_most:  # the most a compiler on numpy's kernels can gain
                ceiling = R.paired_ratio(samples, f, "numpy", n)
                part += "" if ceiling is None else f"; ceiling eager / numpy {ceiling:.2f}x"
            parts.append(part + ")")
        lines.append(f"- {what} {'<=' if at_most else '>='} {bound}x: " + ", ".join(parts))
    if "mlp_epoch" in names:
        lines += ["", "The ceiling: a compiled replay runs the eager kernels in the eager "
                  "order, so it cannot beat the hand-written numpy epoch; eager / numpy bounds "
                  "its speedup."]
    lines += ["", "What the compilers did (in the first-call process, after its two runs; "
              "the epoch's ragged last batch of 96 is a second input shape, so a second "
              "trace or graph):", ""]
    for s in systems:
        if s.endswith(":compiled") and not s.startswith("paddle:"):
            for n in names:
                got = first.get((s, n)) or {}
                lines.append(f"- {LABELS[s]}, {n}: {_stats_text(got.get('stats'))}")
    lines.append(END)
    return lines


def run_section(args, log, notes: list) -> list:
    """Check, time and report the compile section; returns its RESULTS.md lines ([] for a
    smoke run)."""
    bases = args.systems.split(",") if args.systems else (
        ["numpy", *R.OURS] if args.smoke else R.available_systems())
    bases = ["numpy"] + [b for b in BASES if b in bases and b != "numpy"]
    systems = variants(bases)
    names = list(WORKLOADS)
    threads = args.threads
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        backend = args.torch_backend
        if "torch:compiled" in systems and not args.smoke:
            backend = _probe_backend("torch:compiled", threads, log, backend, tmp, notes)
        workers = {s: R.Worker(s, threads, log, init=_torch_init(s, backend),
                               env=_cache_env(s, tmp, "timing")) for s in systems}
        try:
            print("compile section: checking gradients against the numpy version", flush=True)
            status = R.check_gradients(workers, names, args.smoke, tmp, notes)
            if args.smoke:
                for s, w in workers.items():
                    for n in names:
                        if s == "numpy" or status.get((s, n)) == "ok":
                            w._send_checked("time", workload=n, inner=1, reps=1, smoke=True)
                _first_calls(systems, names, threads, log, backend, tmp, True, workers)
                print(f"compile smoke ok: {', '.join(names)} ran on {', '.join(systems)}")
                return []
            samples = R.time_workloads(workers, names, status, args.rounds, args.clock,
                                       threads, table=WORKLOADS)
        finally:
            for w in workers.values():
                w.close()
        first = _first_calls(systems, names, threads, log, backend, tmp, False, workers)
    return report(systems, names, samples, status, first, backend, threads, args.clock)


def write(lines: list) -> None:
    """Replace the compile section in RESULTS.md's generated part (or add it at its end),
    leaving the rest of the file as it is."""
    text = R.RESULTS.read_text() if R.RESULTS.exists() else ""
    body = "\n".join(lines)
    if START in text and END in text:
        text = text[:text.index(START)] + body + text[text.index(END) + len(END):]
    elif R.GENERATED_END in text:
        at = text.index(R.GENERATED_END)
        text = text[:at].rstrip("\n") + "\n\n" + body + "\n" + text[at:]
    else:
        R.write_results(lines)
        return
    R.RESULTS.write_text(text)
