"""The public names a frontend exposes: its modules' attributes and its Tensor's that the
real framework has too (our own helpers in those modules are not public names).

``python scripts/public_names.py torchlike`` prints one name a line, sorted (``torch.add``,
``torch.nn.functional.relu``, ``torch.Tensor.add_`` ...); tests/test_public_names.py holds
each frontend to its checked-in list in tests/surface/ (a lost name fails; a new name is
added to the list).
"""
from __future__ import annotations

import importlib
import inspect
import sys

from janusgrad.host.dropin import MissingAttribute

# the modules of each frontend whose names scripts reach (torch.X, torch.nn.X ...)
MODULES = {
    "torchlike": ("", "nn", "nn.functional", "nn.init", "nn.utils", "optim", "optim.lr_scheduler",
                  "autograd", "autograd.functional", "utils.data", "distributions", "cuda",
                  "testing", "func"),
    "paddlelike": ("", "nn", "nn.functional", "nn.initializer", "optimizer", "optimizer.lr",
                   "autograd", "io", "distribution", "device", "device.cuda", "framework"),
}
SHOWN = {"torchlike": "torch", "paddlelike": "paddle"}


def candidates(frontend: str) -> set[str]:
    """The public names our modules and Tensor hold, under the real framework's names
    (stubs naming what we lack left out); which of them the real framework has is for the
    caller to say."""
    root = SHOWN[frontend]
    names = set()
    for sub in MODULES[frontend]:
        try:
            mod = importlib.import_module(f"{frontend}.{sub}" if sub else frontend)
        except ImportError:
            continue
        prefix = f"{root}.{sub}." if sub else f"{root}."
        names |= {prefix + n for n in vars(mod) if not n.startswith("_")
                  and not _is_submodule_import(getattr(mod, n))}
    tensor = importlib.import_module(frontend).Tensor
    for n in dir(tensor):
        if isinstance(inspect.getattr_static(tensor, n, None), MissingAttribute):
            continue  # a stub naming what we lack
        if not n.startswith("_") or (n.startswith("__") and n.endswith("__")
                                     and n not in vars(object)):
            names.add(f"{root}.Tensor.{n}")
    return names


def _real_has(path: str) -> bool:
    """Whether the installed real framework has the dotted ``path`` (``torch.nn.ReLU``)."""
    mod, _, name = path.rpartition(".")
    if mod.endswith(".Tensor"):
        return hasattr(importlib.import_module(mod[:-len(".Tensor")]).Tensor, name)
    return hasattr(importlib.import_module(mod), name)


def public_names(frontend: str) -> list[str]:
    return sorted(n for n in candidates(frontend) if _real_has(n))


def _is_submodule_import(v) -> bool:
    # module objects (numpy, our own submodules) are not names a script calls
    return type(v).__name__ == "module" and not v.__name__.startswith(("torchlike", "paddlelike"))


if __name__ == "__main__":
    print("\n".join(public_names(sys.argv[1])))
