"""paddle.vision's image backend switch ('pil' or 'cv2')."""
from __future__ import annotations

_image_backend = "pil"


def set_image_backend(backend: str) -> None:
    global _image_backend
    if backend not in ["pil", "cv2", "tensor"]:
        raise ValueError(f"Expected backend are one of ['pil', 'cv2', 'tensor'], but got "
                         f"{backend}")
    _image_backend = backend


def get_image_backend() -> str:
    return _image_backend
