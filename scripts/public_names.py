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

from janusgrad.dropin import MissingAttribute

# the modules of each frontend whose names scripts reach (torch.X, torch.nn.X ...)
MODULES = {
    "torchlike": ("", "nn", "nn.functional", "nn.init", "nn.utils", "optim", "optim.lr_scheduler",
                  "autograd", "autograd.functional", "utils.data", "distributions", "cuda",
                  "testing", "func"),
    "paddlelike": ("", "nn", "nn.functional", "nn.initializer", "optimizer", "optimizer.lr",
                   "autograd", "io", "distribution", "device", "device.cuda", "framework"),
}
SHOWN = {"torchlike": "torch", "paddlelike": "paddle"}


def public_names(frontend: str) -> list[str]:
    root = SHOWN[frontend]
    names = set()
    for sub in MODULES[frontend]:
        try:
            mod = importlib.import_module(f"{frontend}.{sub}" if sub else frontend)
        except ImportError:
            continue
        real = importlib.import_module(f"{root}.{sub}" if sub else root)
        prefix = f"{root}.{sub}." if sub else f"{root}."
        names |= {prefix + n for n in vars(mod) if not n.startswith("_")
                  and not _is_submodule_import(getattr(mod, n)) and hasattr(real, n)}
    tensor = importlib.import_module(frontend).Tensor
    real_tensor = importlib.import_module(root).Tensor
    for n in dir(tensor):
        if isinstance(inspect.getattr_static(tensor, n, None), MissingAttribute):
            continue  # a stub naming what we lack
        if (not n.startswith("_") or (n.startswith("__") and n.endswith("__")
                                      and n not in vars(object))) and hasattr(real_tensor, n):
            names.add(f"{root}.Tensor.{n}")
    return sorted(names)


def _is_submodule_import(v) -> bool:
    # module objects (numpy, our own submodules) are not names a script calls
    return type(v).__name__ == "module" and not v.__name__.startswith(("torchlike", "paddlelike"))


if __name__ == "__main__":
    print("\n".join(public_names(sys.argv[1])))
