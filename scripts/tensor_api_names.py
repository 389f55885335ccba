"""Write the public attribute names of the real frameworks' Tensor classes into
frontends/torchlike/_tensor_api.py and frontends/paddlelike/_tensor_api.py (run with real
torch and paddle installed). The frontends give each name their Tensor lacks a stub that
raises ``torchlike does not implement torch.Tensor.X`` (an AttributeError too, so hasattr
is False), instead of a class ``__getattr__``: a class with one loses CPython's fast path for
every attribute read of its instances (6.5 -> 27 ns a read, measured), and the engine reads
tensor attributes on every op."""
from __future__ import annotations

import importlib
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def write(real: str, shim: str) -> None:
    cls = importlib.import_module(real).Tensor
    names = sorted(n for n in dir(cls) if not n.startswith("_"))
    body = textwrap.fill(" ".join(names), 92, initial_indent="    ", subsequent_indent="    ")
    (REPO / "frontends" / shim / "_tensor_api.py").write_text(
        f'"""The public attribute names of real {real}.Tensor ({real} '
        f'{importlib.import_module(real).__version__}),\nwritten by '
        f'scripts/tensor_api_names.py: the ones our Tensor lacks get stubs naming them."""\n'
        f'NAMES = """\n{body}\n""".split()\n')


if __name__ == "__main__":
    write("torch", "torchlike")
    write("paddle", "paddlelike")
