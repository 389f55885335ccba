"""Two source trees side by side: ``python -m benchmarks.compare_trees OLD NEW [--pairs N]``.

Runs ``python -m benchmarks`` (1 thread, CPU clock, torchlike and paddlelike with numpy as the
reference) from each tree in turn, alternating OLD and NEW N times so that a slow phase of a
shared machine hits both alike, and prints per workload the median over the runs of each
tree's time and of its ratio to numpy measured in the same run (the fairer number on a noisy
machine). A tree imports its engine from its own folder (as ``janusgrad`` or, for trees
before the rename, ``engine``) and its frontends from its ``frontends/``.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

WORKLOADS = "A,A_nograd,B,C,F"
SYSTEMS = ("numpy", "torchlike", "paddlelike")
_UNITS = {"µs": 1e-6, "ms": 1e-3, "s": 1.0}


def _paths(tree: str) -> list[str]:
    """Where a tree's packages import from: its root (``engine`` before the rename), a
    folder with a ``janusgrad`` link to its engine/janusgrad/ (engine/ before the package
    moved into its own folder), and its frontends/."""
    links = os.path.join(tempfile.gettempdir(), "janusgrad-trees", os.path.abspath(tree)
                         .strip(os.sep).replace(os.sep, "_"))
    os.makedirs(links, exist_ok=True)
    link = os.path.join(links, "janusgrad")
    engine = os.path.join(os.path.abspath(tree), "engine")
    if os.path.isdir(os.path.join(engine, "janusgrad")):  # the package in its own folder
        engine = os.path.join(engine, "janusgrad")
    if os.path.lexists(link) and os.readlink(link) != engine:
        os.remove(link)
    if not os.path.lexists(link):
        os.symlink(engine, link)
    return [links, tree, os.path.join(tree, "frontends")]


def _run(tree: str) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(_paths(tree)))
    out = subprocess.run([sys.executable, "-m", "benchmarks", "--systems",
                          "torchlike,paddlelike", "--workloads", WORKLOADS, "--no-extras",
                          "--no-write", "--clock", "cpu"], cwd=tree, env=env,
                         capture_output=True, text=True, check=True).stdout
    table: dict = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 1 + len(SYSTEMS) and cells[0] in WORKLOADS.split(","):
            if cells[0] in table:
                continue  # (only the 1-thread table)
            table[cells[0]] = {s: _seconds(c) for s, c in zip(SYSTEMS, cells[1:])}
    return table


def _seconds(cell: str) -> float:
    m = re.match(r"([\d.]+) (µs|ms|s)", cell)
    return float(m.group(1)) * _UNITS[m.group(2)]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--pairs", type=int, default=5)
    a = p.parse_args()
    runs: dict = {"old": [], "new": []}
    for i in range(a.pairs):
        for label, tree in (("old", a.old), ("new", a.new))[::(1 if i % 2 == 0 else -1)]:
            runs[label].append(_run(tree))
            print(f"run {i + 1}/{a.pairs} {label} done", file=sys.stderr)
    print("| workload | system | old | new | new/old | old/numpy | new/numpy | ratio change |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for w in WORKLOADS.split(","):
        for s in SYSTEMS[1:]:
            old = statistics.median(r[w][s] for r in runs["old"])
            new = statistics.median(r[w][s] for r in runs["new"])
            ro = statistics.median(r[w][s] / r[w]["numpy"] for r in runs["old"])
            rn = statistics.median(r[w][s] / r[w]["numpy"] for r in runs["new"])
            print(f"| {w} | {s} | {old * 1e6:.1f} µs | {new * 1e6:.1f} µs | {new / old:.3f} | "
                  f"{ro:.2f}x | {rn:.2f}x | {rn / ro - 1:+.1%} |")


if __name__ == "__main__":
    main()
