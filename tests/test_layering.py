"""The engine/frontend split, checked on the source (see DESIGN.md, "The one rule").

- frontends do no array math: no file under frontends/ imports numpy or cupy;
- the engine knows no framework: no identifier or string in engine code says torch or
  paddle (comments and docstrings may), and it imports no frontend;
- the two frontends never import each other, and no frontend's modules import each other
  in a circle;
- frontends never write into an engine tensor's array (``t.array[...] = 0``): gradient
  resets and loads are engine calls (janusgrad.core.params);
- only engine/janusgrad/array/backend.py imports numpy or cupy, and engine kernels take their array
  module from their inputs: numpy itself (``backend.host``) appears only in host-side
  modules (printing, serialisation, checking tools), in the engine's random stream, in
  the op table's numpy references and draw helpers, and in module-level constants.
  tests/test_ops.py proves the same at run time on an array type numpy refuses.
"""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ENGINE_FILES = sorted((REPO / "engine").rglob("*.py"))
FRONTEND_FILES = sorted((REPO / "frontends").rglob("*.py"))
FRAMEWORK_WORD = re.compile(r"\b(torch|paddle)\b", re.IGNORECASE)


def _rel(path: Path) -> str:
    return str(path.relative_to(REPO))


def _tree(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, absolute module name) for every import statement (relative ones skipped)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
    return out


def _top(module: str) -> str:
    return module.partition(".")[0]


def _docstring_nodes(tree: ast.AST) -> set[int]:
    """ids of string-constant expression statements: docstrings and bare string notes."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            out.add(id(node.value))
    return out


def code_words(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, text) of every identifier and non-docstring string in the code."""
    skip = _docstring_nodes(tree)
    out = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name):
            out.append((line, node.id))
        elif isinstance(node, ast.Attribute):
            out.append((line, node.attr))
        elif isinstance(node, ast.alias):
            out += [(line, node.name)] + ([(line, node.asname)] if node.asname else [])
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append((line, node.module))
        elif isinstance(node, ast.arg):
            out.append((line, node.arg))
        elif isinstance(node, ast.keyword) and node.arg:
            out.append((line, node.arg))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append((line, node.name))
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out += [(line, n) for n in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skip:
            out.append((line, node.value))
    return out


def test_files_were_found():
    assert ENGINE_FILES and FRONTEND_FILES


@pytest.mark.parametrize("path", FRONTEND_FILES, ids=_rel)
def test_frontends_do_not_import_array_libraries(path):
    bad = [(line, m) for line, m in imported_modules(_tree(path))
           if _top(m) in ("numpy", "cupy")]
    assert not bad, f"{_rel(path)} imports {bad}: array work belongs in the engine"


@pytest.mark.parametrize("path", FRONTEND_FILES, ids=_rel)
def test_frontends_do_not_import_each_other(path):
    own = path.relative_to(REPO / "frontends").parts[0]
    other = {"torchlike": "paddlelike", "paddlelike": "torchlike"}.get(own)
    bad = [(line, m) for line, m in imported_modules(_tree(path)) if _top(m) == other]
    assert not bad, f"{_rel(path)} imports the other frontend: {bad}"


def array_writes(tree: ast.AST) -> list[int]:
    """Lines that write into an engine tensor's array: an assignment (plain or augmented)
    whose target is a subscript of an attribute named ``array`` (``t.array[...] = 0``)."""
    out = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AugAssign) else []
        for t in targets:
            if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute) \
                    and t.value.attr == "array":
                out.append(node.lineno)
    return out


@pytest.mark.parametrize("path", FRONTEND_FILES, ids=_rel)
def test_frontends_do_not_write_into_engine_arrays(path):
    lines = array_writes(_tree(path))
    assert not lines, (
        f"{_rel(path)} writes into an engine array at lines {lines}: use an engine call "
        "(janusgrad.core.params, janusgrad.core.inplace)")


def test_the_array_write_check_catches_writes():
    src = ("t.array[...] = 0\n"
           "p.grad.array[0] += 1\n"
           "a = t.array[0]\n"
           "x.array = y\n"
           "b[...] = t.array\n")
    assert array_writes(ast.parse(src)) == [1, 2]


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (anywhere in it, lazily too); ``from .
    import name`` counts as importing the submodule ``name`` where there is one, else the
    package."""
    mods = {}
    for p in root.rglob("*.py"):
        parts = list(p.relative_to(root.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        mods[".".join(parts[:-1] if is_pkg else parts)] = (p, is_pkg)
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, (p, is_pkg) in mods.items():
        base = m.split(".") if is_pkg else m.split(".")[:-1]
        for node in ast.walk(_tree(p)):
            if isinstance(node, ast.ImportFrom):
                target = ".".join(base[:len(base) - node.level + 1] + [node.module or ""]) \
                    .rstrip(".") if node.level else node.module or ""
                subs = [f"{target}.{a.name}" for a in node.names
                        if f"{target}.{a.name}" in mods]
                found = subs + ([target] if len(subs) < len(node.names) else [])
            elif isinstance(node, ast.Import):
                found = [a.name for a in node.names]
            else:
                continue
            edges[m] |= {f for f in found if f in mods and f != m}
    return edges


def import_circles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The groups of modules that reach each other through imports."""
    reach = {}
    for m in edges:
        seen, todo = set(), [m]
        while todo:
            for n in edges[todo.pop()]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        reach[m] = seen
    circles = []
    for m in sorted(edges):
        group = {m} | {n for n in reach[m] if m in reach[n]}
        if len(group) > 1 and group not in circles:
            circles.append(group)
    return circles


@pytest.mark.parametrize("frontend", ["torchlike", "paddlelike"])
def test_no_import_circle_in_a_frontend(frontend):
    circles = import_circles(import_graph(REPO / "frontends" / frontend))
    assert not circles, f"{frontend} modules import each other: {circles}"


def test_no_import_circle_in_the_engine():
    # (op families give the rules their names by registering them, janusgrad.ops.rules)
    circles = import_circles(import_graph(REPO / "engine" / "janusgrad"))
    assert not circles, f"engine modules import each other: {circles}"


# optional dependencies, imported where first used so that the engine runs without them
OPTIONAL = {"cupy", "cupyx", "scipy", "hypothesis", "mpi4py"}
MAX_LATE_IMPORTS = 10


def late_imports(tree: ast.AST, lines: list[str]) -> list[tuple[int, str]]:
    """(line, text) of the imports inside functions, beyond the optional dependencies."""
    found = []

    def walk(node, in_function):
        for child in ast.iter_child_nodes(node):
            if in_function and isinstance(child, (ast.Import, ast.ImportFrom)):
                names = ([a.name for a in child.names] if isinstance(child, ast.Import)
                         else [child.module or ""])
                if not any(n.split(".")[0] in OPTIONAL for n in names):
                    found.append((child.lineno, lines[child.lineno - 1]))
            walk(child, in_function or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    walk(tree, False)
    return found


def test_engine_imports_at_module_top():
    late = [(_rel(p), n, text) for p in ENGINE_FILES
            for n, text in late_imports(_tree(p), p.read_text().splitlines())]
    assert len(late) <= MAX_LATE_IMPORTS, f"{len(late)} imports inside functions: {late}"
    unexplained = [x for x in late if "# why" not in x[2]]
    assert not unexplained, f"an import inside a function says why (# why ...): {unexplained}"


def test_the_late_import_check_finds_them():
    src = ("import os\ndef f():\n    import json\n    import scipy.linalg\n"
           "    from janusgrad.ops import defop  # why: a reason\n")
    assert [n for n, _ in late_imports(ast.parse(src), src.splitlines())] == [3, 5]


def test_the_circle_check_finds_circles():
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert import_circles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("path", ENGINE_FILES, ids=_rel)
def test_engine_code_names_no_framework(path):
    tree = _tree(path)
    bad = [(line, w) for line, w in code_words(tree) if FRAMEWORK_WORD.search(w)]
    bad += [(line, m) for line, m in imported_modules(tree)
            if _top(m) in ("torch", "paddle", "torchlike", "paddlelike")]
    assert not bad, f"{_rel(path)} names a framework in code: {bad}"


# the array backends: numpy's and cupy's, and the traced arrays of janusgrad.transforms.trace
# (numpy arrays that record the calls made on them)
BACKENDS = {"engine/janusgrad/array/backend.py", "engine/janusgrad/transforms/trace/arrays.py"}
# modules whose job is host-side: they turn device data into host data first (to_host)
HOST_SIDE = {
    "engine/janusgrad/array/backend.py",
    "engine/janusgrad/transforms/trace/arrays.py",
    "engine/janusgrad/host/printing.py",
    "engine/janusgrad/host/io.py",
    "engine/janusgrad/transforms/gradcheck.py",
    "engine/janusgrad/testing.py",
    "engine/janusgrad/ops/testing.py",
    "engine/janusgrad/host/vision.py",
}
# functions allowed to use numpy inside an engine kernel module: the op table's numpy
# references and draw helpers (by name) and the host random stream
HOST_FUNCTION_PREFIXES = ("_ref", "_make", "_draw")
HOST_FUNCTION_SUFFIXES = ("_ref",)
HOST_CLASSES = {"Generator"}
# a line may use numpy for numpy's own arrays (a fast path behind a type check): it says so
PRAGMA = "# host-ok:"


def host_uses_in_kernels(tree: ast.AST, source: str = "") -> list[tuple[int, str]]:
    """(line, what) for each use of numpy's namespace in code that may touch tensor data:
    ``host`` inside a function that is not a spec helper, and any ``xp`` taken from the
    backend (``backend.xp`` or imported)."""
    bad = []
    pragma = {i + 1 for i, line in enumerate(source.splitlines()) if PRAGMA in line}

    def visit(node, where):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            name = getattr(node, "name", "<lambda>")
            if where == "host-ok" or name.startswith(HOST_FUNCTION_PREFIXES) \
                    or name.endswith(HOST_FUNCTION_SUFFIXES):
                where = "host-ok"
            elif where != "spec":
                where = "function"
        elif isinstance(node, ast.ClassDef) and node.name in HOST_CLASSES:
            where = "host-ok"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "spec":
            where = "spec"
        if isinstance(node, ast.Name) and node.id == "host" and where == "function" \
                and isinstance(node.ctx, ast.Load) and node.lineno not in pragma:
            bad.append((node.lineno, node.id))
        if isinstance(node, ast.Attribute) and node.attr in ("host", "xp") \
                and isinstance(node.value, ast.Name) and node.value.id == "backend":
            bad.append((node.lineno, f"backend.{node.attr}"))
        if isinstance(node, ast.ImportFrom) and node.module and \
                node.module.endswith("backend") and any(a.name == "xp" for a in node.names):
            bad.append((node.lineno, "from backend import xp"))
        for child in ast.iter_child_nodes(node):
            visit(child, where)

    visit(tree, "module")
    return bad


@pytest.mark.parametrize("path", ENGINE_FILES, ids=_rel)
def test_only_the_backend_imports_array_libraries(path):
    if _rel(path) in BACKENDS:
        return
    bad = [(line, m) for line, m in imported_modules(_tree(path))
           if _top(m) in ("numpy", "cupy", "cupyx")]
    assert not bad, f"{_rel(path)} imports {bad}: only engine/janusgrad/array/backend.py may"


@pytest.mark.parametrize("path", [p for p in ENGINE_FILES if _rel(p) not in HOST_SIDE],
                         ids=_rel)
def test_kernels_take_their_array_module_from_their_inputs(path):
    bad = host_uses_in_kernels(_tree(path), path.read_text(encoding="utf-8"))
    assert not bad, (f"{_rel(path)} computes with numpy where tensor data may live on a "
                     f"device; use xp_of(array) (or module_for(device)): {bad}")


def test_the_kernel_check_catches_numpy_in_kernels():
    src = ("from ..backend import host, xp\n"
           "TABLE = host.dtype('int32')\n"                      # module level: allowed
           "def kernel(a):\n    return host.exp(a)\n"           # kernel: refused
           "def _ref_exp(a):\n    return host.exp(a)\n"        # reference: allowed
           "spec('exp', exp, make, ref=lambda a: host.exp(a))\n"  # spec: allowed
           "class Generator:\n    def draw(self):\n        return host.ones(3)\n"
           "def fast(a):\n    return host.exp(a)  # host-ok: numpy arrays only\n"
           "def slow(a):\n    return backend.xp.exp(a)\n")
    found = host_uses_in_kernels(ast.parse(src), src)
    assert found == [(1, "from backend import xp"), (4, "host"), (14, "backend.xp")]


def test_the_checks_catch_violations():
    src = ('"""Docstrings may say torch."""\n'
           "import numpy as np  # comments may say paddle\n"
           "from paddlelike import x\n"
           "def f(torch_like, paddle=1):\n"
           "    return 'torch.float32'\n")
    tree = ast.parse(src)
    assert [m for _, m in imported_modules(tree)] == ["numpy", "paddlelike"]
    words = [w for _, w in code_words(tree) if FRAMEWORK_WORD.search(w)]
    assert words == ["paddle", "torch.float32"]


def test_ci_runs_the_readme_test_command():
    readme = (REPO / "README.md").read_text()
    ci = (REPO / ".ci" / "run").read_text()
    commands = [line for line in readme.splitlines() if line.startswith("python3 -m venv")]
    assert len(commands) == 2, "README opens with the demo command and the test command"
    demo, test = commands
    assert "-m torchlike examples/" in demo and "pytest" in test
    assert test in ci.splitlines()
    assert "set -euo pipefail" in ci and os.access(REPO / ".ci" / "run", os.X_OK)


def test_pyproject_installs_the_three_packages_at_their_folders():
    """Each import package lives at the folder path its import names (engine/janusgrad,
    frontends/torchlike, frontends/paddlelike); pyproject finds them there, and every folder
    of Python files below them is a package (so the wheel holds all of it); no top-level
    package named engine or frontends is installed."""
    tomllib = pytest.importorskip("tomllib")
    setuptools = pytest.importorskip("setuptools")
    find = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"]["find"]
    found = set()
    for where in find["where"]:
        found |= set(setuptools.find_packages(str(REPO / where), include=find["include"]))
    assert {p.partition(".")[0] for p in found} == {"janusgrad", "torchlike", "paddlelike"}
    for root in (REPO / "engine" / "janusgrad", REPO / "frontends" / "torchlike",
                 REPO / "frontends" / "paddlelike"):
        for py in root.rglob("*.py"):
            assert (py.parent / "__init__.py").exists(), f"{_rel(py.parent)} is not a package"
            assert ".".join(py.parent.relative_to(root.parent).parts) in found

