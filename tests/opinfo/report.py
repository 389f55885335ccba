"""The coverage summary both test modules print and scripts/opinfo_coverage.py shares."""
from __future__ import annotations

import os
from collections import Counter

from .core import CATEGORIES

HERE = os.path.dirname(os.path.abspath(__file__))
LISTS = {"torch": os.path.join(HERE, "passing_torch.txt"),
         "paddle": os.path.join(HERE, "passing_paddle.txt")}
HEADER = ("# {what}: the OpInfo ops (torch op names) that pass every capped sample.\n"
          "# Written by `python scripts/opinfo_coverage.py --write`;"
          " CI fails when one regresses.\n")


def summary(dialect, results, expected, total, unmapped=0):
    """Lines of the coverage summary of one dialect's results {name: Outcome}."""
    passed = sorted(n for n, o in results.items() if o.passed)
    fails = Counter(o.category for o in results.values() if not o.passed)
    if dialect == "torch":
        head = f"OpInfo coverage, torchlike vs torch: {len(passed)}/{total} ops pass all samples"
    else:
        mapped = total - unmapped
        head = (f"OpInfo coverage, paddlelike vs paddle: {len(passed)}/{mapped} mapped ops pass "
                f"all samples ({total} torch ops have a paddle row, {unmapped} of them no "
                f"sample paddle takes)")
    lines = [head,
             "  failing by first cause: " + ", ".join(
                 f"{c} {fails[c]}" for c in CATEGORIES if fails[c])]
    new = sorted(set(passed) - expected)
    lost = sorted(n for n in expected if n in results and not results[n].passed)
    if new:
        lines.append(f"  {len(new)} newly passing (add them: python scripts/opinfo_coverage.py "
                     f"--write): " + " ".join(new))
    if lost:
        lines.append(f"  {len(lost)} REGRESSED: " + " ".join(lost))
    return lines


def write_list(dialect, results):
    names = sorted(n for n, o in results.items() if o.passed)
    what = "torchlike vs torch" if dialect == "torch" else "paddlelike vs real paddle"
    with open(LISTS[dialect], "w") as f:
        f.write(HEADER.format(what=what))
        f.writelines(n + "\n" for n in names)
    return names


class _Summary:
    def __init__(self, lines):
        self.lines = lines

    def pytest_terminal_summary(self, terminalreporter):
        lines = self.lines()
        if not lines:
            return  # a partial run (-k, -x) has no coverage to tell
        terminalreporter.write_line("")
        for line in lines:
            terminalreporter.write_line(line)


def print_at_end(config, key, lines):
    """Register (once per session) a plugin printing ``lines()`` in pytest's terminal summary,
    so the test modules need no conftest."""
    if not config.pluginmanager.has_plugin(key):
        config.pluginmanager.register(_Summary(lines), key)
