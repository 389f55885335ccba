"""torch.autograd.graph: hook handles and version bumps over the engine."""
from __future__ import annotations

from janusgrad.core.hooks import HookHandle
from janusgrad.core.tensor import Tensor as _EngineTensor


class RemovableHandle(HookHandle):
    """torch.utils.hooks.RemovableHandle: ``remove()`` (returns None), a context manager."""

    def remove(self) -> None:
        HookHandle.remove(self)

    def __repr__(self) -> str:
        return f"<torch.utils.hooks.RemovableHandle object at {id(self):#x}>"


RemovableHandle.__module__ = "torch.utils.hooks"


def increment_version(tensor) -> None:
    """Bump the version counter(s) as an in-place change would."""
    for t in (tensor,) if isinstance(tensor, _EngineTensor) else tensor:
        t.bump_version()


__all__ = ["RemovableHandle", "increment_version"]
