"""No public name is lost: every name in tests/surface/<frontend>.txt (made by
scripts/public_names.py, which keeps the names the real framework has too) is still there.
A change that adds names regenerates the list."""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

LISTS = Path(__file__).parent / "surface"
FRONTENDS = {"torch": "torchlike", "paddle": "paddlelike"}


def _names(frontend: str) -> list[str]:
    return (LISTS / f"{frontend}.txt").read_text().split()


def _lookup(frontend: str, dotted: str):
    _, _, path = dotted.partition(".")
    obj = importlib.import_module(frontend)
    parts = path.split(".")
    for i, part in enumerate(parts):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            # a submodule not imported by its parent's __init__ yet
            mod = ".".join((frontend, *parts[:i + 1]))
            obj = importlib.import_module(mod)
    return obj


@pytest.mark.parametrize("frontend", sorted(FRONTENDS.values()))
def test_every_listed_public_name_is_still_there(frontend):
    names = _names(frontend)
    assert len(names) > 400
    lost = []
    for n in names:
        try:
            _lookup(frontend, n)
        except (AttributeError, ImportError, NotImplementedError):
            lost.append(n)
    assert not lost, f"{frontend} lost public names: {lost}"
