"""Mutation testing of the engine's derivative and reduction code (not run in CI: slow).

Each mutant changes one thing in one function of engine/janusgrad/ops (a ``*_vjp`` / ``*_raw`` rule,
a lambda given to ``defop``, or a reduction helper: ``_spread*``, ``_with_kept_axes``,
``_filled``, ``expand_reduced``, ...): ``+``<->``-``, ``*``<->``/``, a comparison loosened
or tightened, a numeric constant changed, a unary minus dropped, a call of one argument
replaced by that argument.  The mutant is written into a scratch copy of the repository
and the property tests run against it; a mutant no test kills is a *survivor*: either a
gap in the tests or an equivalent change (read it).

    .venv/bin/python scripts/mutate.py                         # reduce.py, 20 mutants
    .venv/bin/python scripts/mutate.py --file elementwise.py --sample 40 --seed 1
    .venv/bin/python scripts/mutate.py --list                  # the mutants, no run

Run it before closing an issue that touches derivative or reduction code, and name the
survivors found (and fixed) in the issue's note.

``--planted`` runs instead the planted bugs of ``PLANTED`` below: hand-written changes
anywhere in the repository, each undoing one fix (or planting one bug once found), with
the tests that must catch it; each must be killed.

    .venv/bin/python scripts/mutate.py --planted                    # all of them
    .venv/bin/python scripts/mutate.py --planted trace-shared-constant
"""
from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TESTS = ["tests/test_ops.py", "tests/test_thresholds.py", "tests/test_ties.py"]
TARGET_NAMES = ("_vjp", "_raw", "_spread", "_with_kept_axes", "_filled", "expand_reduced",
                "_kept", "_count", "_centered", "_prod_of_others", "_select_or_zero")
SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}
CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
       ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}

# name: (file, text replaced (found exactly once), its replacement, the tests that catch it)
PLANTED = {
    # a replay hands out the tensor of the trace's constant itself: one caller's in-place
    # change shows in every later call's result
    "trace-shared-constant": (
        "engine/janusgrad/transforms/trace/replay.py",
        "        return type(k[1]).wrap(k[1].array.copy())\n",
        "        return k[1]\n",
        ["tests/test_trace_breaks.py"]),
    # the one-node backward gives two leaves the one gradient array the rule returned for
    # both (add's): an in-place change of one leaf's .grad changes the other's
    "one-node-shared-grad": (
        "engine/janusgrad/core/autograd.py",
        "            if grads[j] is gi:  # one array sent to two leaves: each its own\n",
        "            if False:\n",
        ["tests/test_autograd_engine.py"]),
}


def _targets(tree):
    """Nodes inside the functions under test: rule functions and defop's lambdas."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any(t in node.name for t in TARGET_NAMES):
            yield node.name, node
        elif (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "defop"):
            for arg in node.args[1:] + [k.value for k in node.keywords]:
                if isinstance(arg, ast.Lambda):
                    name = node.args[0].value if node.args and isinstance(
                        node.args[0], ast.Constant) else "?"
                    yield f"defop({name!r}) rule", arg


def mutants(source: str):
    """(description, mutated source) for every mutation site."""
    tree = ast.parse(source)
    sites = []
    for where, fn in _targets(tree):
        for node in ast.walk(fn):
            if isinstance(node, ast.BinOp) and type(node.op) in SWAP:
                sites.append((where, node, "binop"))
            elif isinstance(node, ast.Compare) and len(node.ops) == 1 and \
                    type(node.ops[0]) in CMP:
                sites.append((where, node, "compare"))
            elif isinstance(node, ast.Constant) and type(node.value) in (int, float) and \
                    not isinstance(node.value, bool):
                sites.append((where, node, "constant"))
            elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
                sites.append((where, node, "negation"))
            elif isinstance(node, ast.Call) and len(node.args) >= 1 and \
                    isinstance(node.func, (ast.Name, ast.Attribute)):
                sites.append((where, node, "call"))
    seen = set()
    for where, node, kind in sites:
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield from _mutate(source, where, node, kind)


def _replace(source, node, text):
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    a = starts[node.lineno - 1] + len(
        lines[node.lineno - 1].encode()[:node.col_offset].decode())
    b = starts[node.end_lineno - 1] + len(
        lines[node.end_lineno - 1].encode()[:node.end_col_offset].decode())
    return source[:a] + text + source[b:]


def _mutate(source, where, node, kind):
    seg = ast.get_source_segment(source, node)
    if seg is None:
        return
    line = node.lineno
    if kind == "binop":
        new = ast.BinOp(node.left, SWAP[type(node.op)](), node.right)
        yield f"{where} line {line}: {seg} -> {ast.unparse(new)}", _replace(
            source, node, f"({ast.unparse(new)})")
    elif kind == "compare":
        new = ast.Compare(node.left, [CMP[type(node.ops[0])]()], node.comparators)
        yield f"{where} line {line}: {seg} -> {ast.unparse(new)}", _replace(
            source, node, f"({ast.unparse(new)})")
    elif kind == "constant":
        v = node.value
        w = v + 1 if v in (0, 0.0) else v * 2
        yield f"{where} line {line}: {seg} -> {w!r}", _replace(source, node, repr(w))
    elif kind == "negation":
        inner = ast.get_source_segment(source, node.operand)
        yield f"{where} line {line}: {seg} -> {inner}", _replace(source, node, f"({inner})")
    elif kind == "call" and len(node.args) >= 1:
        first = ast.get_source_segment(source, node.args[0])
        if first is not None and not isinstance(node.args[0], ast.Starred):
            yield f"{where} line {line}: {seg[:60]} -> {first}", _replace(source, node,
                                                                           f"({first})")


def _scratch() -> Path:
    root = Path(tempfile.mkdtemp(prefix="janusgrad-mutant-"))
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO,
                           capture_output=True, text=True, check=True).stdout.split()
    for f in files:
        src = REPO / f
        if src.is_file():
            (root / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, root / f)
    (root / "_pkgs").mkdir()
    os.symlink(root / "engine", root / "_pkgs" / "janusgrad")
    return root


def run_mutant(root: Path, rel: str, text: str, tests, timeout: float) -> str:
    """Run ``tests`` with ``rel`` (a path in the repository) holding ``text``."""
    target = root / rel
    original = target.read_text()
    target.write_text(text)
    env = dict(os.environ, HYPOTHESIS_PROFILE="ci",
               PYTHONPATH=os.pathsep.join([str(root / "_pkgs"), str(root / "frontends")]))
    try:
        p = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:randomly",
                            "-m", "not gpu", *tests], cwd=root, env=env,
                           capture_output=True, text=True, timeout=timeout)
        return "survived" if p.returncode == 0 else "killed"
    except subprocess.TimeoutExpired:
        return "timeout (killed)"
    finally:
        target.write_text(original)


def run_planted(names, timeout: float, list_only: bool) -> int:
    """Plant each bug named in a scratch copy and run its tests: 1 if any survives."""
    unknown = [n for n in names if n not in PLANTED]
    if unknown:
        raise SystemExit(f"no planted bug {', '.join(unknown)}; known: {', '.join(PLANTED)}")
    if list_only:
        for name in names:
            print(f"  {name}: {PLANTED[name][0]} ({' '.join(PLANTED[name][3])})")
        return 0
    root = _scratch()
    survivors = []
    try:
        for name in names:
            rel, old, new, tests = PLANTED[name]
            source = (REPO / rel).read_text()
            if source.count(old) != 1:  # the code moved: the entry must follow it
                raise SystemExit(f"{name}: its text occurs {source.count(old)} times in {rel}")
            t0 = time.perf_counter()
            verdict = run_mutant(root, rel, source.replace(old, new), tests, timeout)
            print(f"{verdict:9s} {time.perf_counter() - t0:5.0f}s  {name}", flush=True)
            if verdict == "survived":
                survivors.append(name)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"\n{len(names) - len(survivors)} killed, {len(survivors)} survived")
    for name in survivors:
        print("  SURVIVOR:", name)
    return 1 if survivors else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", default="reduce.py", help="a file under engine/janusgrad/ops")
    ap.add_argument("--sample", type=int, default=20, help="mutants to run (0: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per mutant")
    ap.add_argument("--tests", nargs="*", default=TESTS)
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--planted", nargs="*", metavar="NAME",
                    help="run the planted bugs named (none named: all of them)")
    args = ap.parse_args(argv)
    if args.planted is not None:
        return run_planted(args.planted or list(PLANTED), args.timeout, args.list)
    source = (REPO / "engine" / "ops" / args.file).read_text()
    found = list(mutants(source))
    print(f"{len(found)} mutants in engine/janusgrad/ops/{args.file}")
    if args.list:
        for desc, _ in found:
            print("  ", desc)
        return 0
    chosen = found if not args.sample else random.Random(args.seed).sample(
        found, min(args.sample, len(found)))
    root = _scratch()
    survivors = []
    try:
        for i, (desc, text) in enumerate(chosen, 1):
            t0 = time.perf_counter()
            verdict = run_mutant(root, f"engine/janusgrad/ops/{args.file}", text, args.tests,
                                 args.timeout)
            print(f"[{i}/{len(chosen)}] {verdict:9s} {time.perf_counter() - t0:5.0f}s  {desc}",
                  flush=True)
            if verdict == "survived":
                survivors.append(desc)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"\n{len(chosen) - len(survivors)} killed, {len(survivors)} survived")
    for desc in survivors:
        print("  SURVIVOR:", desc)
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
