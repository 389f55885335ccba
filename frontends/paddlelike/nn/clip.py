"""paddle.nn.ClipGradByNorm / ClipGradByGlobalNorm: given to an optimizer as ``grad_clip``."""
from __future__ import annotations

from janusgrad.nn import variants as _V


class ClipGradBase:
    def __call__(self, params_grads: list) -> list:
        clip = [(p, g) for p, g in params_grads if g is not None and getattr(p, "need_clip",
                                                                              True)]
        scaled = self._scale([g.array for _, g in clip])
        new = {id(p): type(g).wrap(a) for (p, g), a in zip(clip, scaled)}
        return [(p, new.get(id(p), g)) for p, g in params_grads]


class ClipGradByNorm(ClipGradBase):
    def __init__(self, clip_norm: float) -> None:
        self.clip_norm = float(clip_norm)

    def _scale(self, grads):
        return _V.clip_each_by_norm(grads, self.clip_norm)

    def __str__(self) -> str:
        return f"Gradient Clip By Norm, clip_norm={self.clip_norm:f}"


class ClipGradByGlobalNorm(ClipGradBase):
    def __init__(self, clip_norm: float, group_name: str = "default_group",
                 auto_skip_clip: bool = False) -> None:
        self.clip_norm = float(clip_norm)
        self.group_name = group_name

    def _scale(self, grads):
        return _V.clip_by_global_norm(grads, self.clip_norm)

    def __str__(self) -> str:
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"


ClipGradByNorm.__module__ = ClipGradByGlobalNorm.__module__ = "paddle.nn.clip"
__all__ = ["ClipGradByGlobalNorm", "ClipGradByNorm"]
