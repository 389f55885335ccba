"""torch.Generator over the engine's random stream."""
from __future__ import annotations

from janusgrad.ops.creation import Generator as EngineGenerator

from .._device import device as _device
from .._device import resolve, torch_device

_TORCH_DEFAULT_SEED = 67280421310721


class Generator(EngineGenerator):
    def __init__(self, device="cpu") -> None:
        # draws come from the host stream whatever the device (moved afterwards)
        self.device = torch_device(resolve(_device(device)))
        super().__init__(_TORCH_DEFAULT_SEED)

    def seed(self, seed: int = _TORCH_DEFAULT_SEED) -> None:
        super().seed(seed)
        # the engine keeps the seed as an attribute; torch spells it as a method
        self._initial = self.__dict__.pop("initial_seed")

    def manual_seed(self, seed: int):
        self.seed(int(seed))
        return self

    def initial_seed(self) -> int:
        return self._initial

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {hex(id(self))}>"


Generator.__module__ = "torch"
