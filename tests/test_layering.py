"""The engine/frontend split, checked on the source (see DESIGN.md, "The one rule").

- frontends do no array math: no file under frontends/ imports numpy or cupy;
- the engine knows no framework: no identifier or string in engine code says torch or
  paddle (comments and docstrings may), and it imports no frontend;
- the two frontends never import each other.
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


@pytest.mark.parametrize("path", ENGINE_FILES, ids=_rel)
def test_engine_code_names_no_framework(path):
    tree = _tree(path)
    bad = [(line, w) for line, w in code_words(tree) if FRAMEWORK_WORD.search(w)]
    bad += [(line, m) for line, m in imported_modules(tree)
            if _top(m) in ("torch", "paddle", "torchlike", "paddlelike")]
    assert not bad, f"{_rel(path)} names a framework in code: {bad}"


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


def test_pyproject_finds_every_package():
    """A wheel holds only the packages setuptools finds from pyproject's settings: every
    folder with an __init__.py under engine/ and frontends/ must be found."""
    tomllib = pytest.importorskip("tomllib")
    setuptools = pytest.importorskip("setuptools")
    find = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"]["find"]
    found = set()
    for where in find["where"]:
        found |= set(setuptools.find_packages(str(REPO / where), include=find["include"]))
    roots = {"engine": REPO / "engine", "torchlike": REPO / "frontends" / "torchlike",
             "paddlelike": REPO / "frontends" / "paddlelike"}
    on_disk = set()
    for name, root in roots.items():
        for init in root.rglob("__init__.py"):
            on_disk.add(".".join((name, *init.parent.relative_to(root).parts)))
    assert on_disk - found == set()
    assert found - on_disk == set()
