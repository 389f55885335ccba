"""paddlelike's layout: the Tensor class made in one place from one table, no import
circle among its modules, and no writes into engine arrays (issue 13, items 3-5)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "frontends" / "paddlelike"
FILES = sorted(ROOT.rglob("*.py"))


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """module -> the paddlelike modules it imports (at the top or inside functions); a
    submodule's implicit import of its package does not count."""
    mods = {_module(p): p for p in FILES}
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, path in mods.items():
        pkg = m if path.name == "__init__.py" else m.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.ImportFrom) and node.level):
                continue
            base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            subs = {f"{target}.{a.name}" for a in node.names} & mods.keys()
            graph[m] |= (subs if subs or node.module is None else {target}) - {m}
    return graph


def test_no_module_imports_one_that_imports_it_back():
    graph = _imports()
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for k in sorted(graph[m]):
            if state.get(k) == 1:
                pytest.fail("import circle: " + " -> ".join(path[path.index(k):] + [k]))
            if k not in state:
                visit(k, path + [k])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])


def test_no_frontend_code_writes_into_an_engine_array():
    for path in FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AugAssign) else []
            for t in targets:
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute) \
                        and t.value.attr == "array":
                    pytest.fail(f"{path.name}:{node.lineno} writes into .array[...]")


def test_the_tensor_class_is_assembled_in_tensor_py_only():
    for path in FILES:
        if path.name == "tensor.py" and path.parent == ROOT:
            continue
        text = path.read_text(encoding="utf-8")
        assert "setattr(Tensor" not in text and "surface import install" not in text, path


def test_every_row_is_installed_in_each_of_its_forms():
    import paddlelike
    from paddlelike import _table

    for row in _table.ROWS:
        names = (row.name, *row.aliases)
        if "f" in row.forms:
            assert all(callable(getattr(paddlelike, n)) for n in names), row.name
        if "m" in row.forms:
            assert all(callable(getattr(paddlelike.Tensor, n)) for n in names), row.name
        if "i" in row.forms:
            assert all(callable(getattr(paddlelike.Tensor, n + "_")) for n in names), row.name
