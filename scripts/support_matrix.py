"""The support matrix (issue 15 §7): every public name of real torch and real paddle in the
modules scripts reach, and whether our dialect has it, with torch's OpInfo verdict per op.

    python scripts/support_matrix.py             # rewrite docs/SUPPORT.md
    python scripts/support_matrix.py --check     # exit 1 when docs/SUPPORT.md is stale
    python scripts/support_matrix.py --snapshot  # (real torch and paddle installed) refresh
                                                 # docs/support/: their names, OpInfo's map

The page is built from checked-in data only, so it is reproducible (and tested to be
current) without the real frameworks: docs/support/real_{torch,paddle}.txt (the real public
names, written by --snapshot), docs/support/opinfo.tsv (OpInfo name -> torch path -> paddle
path), tests/opinfo/passing_*.txt (the ops passing every sample), NOTES below (names we
have with a difference a porter should know), and the frontends themselves.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from scripts.public_names import MODULES, candidates  # noqa: E402

DATA = REPO / "docs" / "support"
PAGE = REPO / "docs" / "SUPPORT.md"
REAL = {"torchlike": "torch", "paddlelike": "paddle"}

# names we have whose behaviour differs from the real framework's on purpose (DESIGN.md:
# we reproduce each framework's surface, not its faults) or by a limit of ours
NOTES = {
    "torch.Tensor.numpy": "a ZeroTensor .grad (torch, after a create_graph backward through "
                          "abs) converts here: it is plain zeros",
    "torch.Tensor.to": "no bfloat16, float16 compute on CPU as numpy does it, no complex dtypes",
    "torch.as_strided": "strides over the tensor's own elements (no storage beyond a view)",
    "torch.load": "weights_only=True by default, as torch 2.13",
    "paddle.load": "restricted unpickler: only what paddle.save writes; weights_only=False "
                   "opts in to arbitrary pickles",
    "paddle.grad": "double backward through max/amax/maximum gives the mathematical answer "
                   "where paddle 3.3 has no kernel and raises",
    "paddle.prod": "the gradient at zeros is exact where paddle gives NaN",
    "paddle.diagonal_scatter": "y gets its gradient (paddle 3.3 gives none)",
}


# ---------------------------------------------------------------- snapshot (needs oracles)
def real_names(root: str) -> list[str]:
    """Public names of real ``root`` in the modules scripts reach, and of its Tensor."""
    subs = MODULES["torchlike" if root == "torch" else "paddlelike"]
    names = set()
    for sub in subs:
        try:
            mod = importlib.import_module(f"{root}.{sub}" if sub else root)
        except ImportError:
            continue
        prefix = f"{root}.{sub}." if sub else f"{root}."
        for n in dir(mod):
            if n.startswith("_"):
                continue
            v = getattr(mod, n, None)
            if type(v).__name__ == "module":
                continue
            names.add(prefix + n)
    tensor = importlib.import_module(root).Tensor
    for n in dir(tensor):
        if not n.startswith("_") or (n.startswith("__") and n.endswith("__")
                                     and n not in vars(object)):
            names.add(f"{root}.Tensor.{n}")
    return sorted(names)


def opinfo_rows() -> list[tuple[str, str, str]]:
    """(OpInfo name, torch path, paddle path or '-') for every selected OpInfo op."""
    from tests.opinfo import core, paddle_map
    mapped = paddle_map.rows()
    out = []
    for name in core.select():
        kind, _ = core.torch_public(name)
        torch_path = f"torch.{name}" if kind == "function" else f"torch.Tensor.{name}"
        row = mapped.get(name)
        out.append((name, torch_path, f"paddle.{row.target}" if row is not None else "-"))
    return out


def snapshot() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    for root in ("torch", "paddle"):
        version = importlib.import_module(root).__version__
        (DATA / f"real_{root}.txt").write_text(
            f"# public names of real {root} {version} (scripts/support_matrix.py --snapshot)\n"
            + "\n".join(real_names(root)) + "\n")
    (DATA / "opinfo.tsv").write_text(
        "# OpInfo name\ttorch path\tpaddle path (scripts/support_matrix.py --snapshot)\n"
        + "".join("\t".join(r) + "\n" for r in opinfo_rows()))


# ---------------------------------------------------------------- the page
def _lines(path: Path) -> list[str]:
    return [s for s in path.read_text().splitlines() if s and not s.startswith("#")]


def ours(frontend: str, known: set) -> set:
    """Our public names that the real framework has (``known``), stubs excluded."""
    return candidates(frontend) & known


def _group(name: str, root: str) -> str:
    parts = name.split(".")
    if parts[1] == "Tensor":
        return f"{root}.Tensor"
    return ".".join(parts[:-1])


def page() -> str:
    opinfo = [line.split("\t") for line in _lines(DATA / "opinfo.tsv")]
    passing = {d: set(_lines(REPO / "tests" / "opinfo" / f"passing_{d}.txt"))
               for d in ("torch", "paddle")}
    out = ["# Support matrix", "",
           "Generated by `python scripts/support_matrix.py` from the dialect tables and "
           "modules, the real frameworks' public names (docs/support/, torch 2.13 and paddle "
           "3.3.1) and the OpInfo pass lists; `tests/test_support_matrix.py` fails when this "
           "page is stale. **OpInfo**: torch's own op test samples for the name (issue 15 "
           "§1): `pass` = every sample matches the real framework (values, dtypes, shapes, "
           "gradients, errors), `fail` = some sample differs or the name is missing, blank = "
           "no OpInfo entry. Names we lack raise `NotImplementedError: torchlike does not "
           "implement torch.X` (likewise paddlelike) when a script reaches them.", ""]
    summary, body = [], []
    for frontend, root in REAL.items():
        known = _lines(DATA / f"real_{root}.txt")
        have = ours(frontend, set(known))
        verdict = {}
        for name, torch_path, paddle_path in opinfo:
            path = torch_path if root == "torch" else paddle_path
            if path != "-":
                ok = name in passing[root]
                verdict[path] = "pass" if ok or verdict.get(path) == "pass" else "fail"
        groups: dict = {}
        for n in known:
            groups.setdefault(_group(n, root), []).append(n)
        ops = [name for name, tp, pp in opinfo if (tp if root == "torch" else pp) != "-"]
        n_pass = sum(1 for name in ops if name in passing[root])
        summary.append(f"| {root} | {len(have)} / {len(known)} | {n_pass} / {len(ops)} |")
        body += [f"## {root} ({frontend})", ""]
        for g in sorted(groups):
            names = groups[g]
            got = [n for n in names if n in have]
            body += [f"### {g}: {len(got)} of {len(names)}", ""]
            if got:
                body += ["| name | OpInfo | note |", "| --- | --- | --- |"]
                body += [f"| `{n}` | {verdict.get(n, '')} | {NOTES.get(n, '')} |" for n in got]
                body.append("")
            missing = [n[len(g) + 1:] for n in names if n not in have]
            if missing:
                body += ["Missing: " + ", ".join(f"`{m}`" for m in missing), ""]
    head = ["| framework | public names we have | OpInfo ops passing every sample (of those "
            "with a name in the framework) |", "| --- | --- | --- |"]
    return "\n".join(out + head + summary + [""] + body).rstrip() + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--snapshot", action="store_true")
    args = ap.parse_args(argv)
    if args.snapshot:
        snapshot()
    text = page()
    if args.check:
        if not PAGE.exists() or PAGE.read_text() != text:
            print("docs/SUPPORT.md is stale: run python scripts/support_matrix.py")
            return 1
        return 0
    PAGE.write_text(text)
    print(f"wrote {PAGE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
