"""paddle.version: the paddle release paddlelike speaks, and janusgrad's own version."""
from __future__ import annotations

from janusgrad import __version__ as janusgrad

full_version = "3.3.1"
major, minor, patch = "3", "3", "1"
rc = "0"
commit = "janusgrad"
istaged = is_tagged = True
with_mkl = "OFF"
cuda_version = cudnn_version = "False"


def cuda() -> str:
    return "False"


def cudnn() -> str:
    return "False"


def show() -> None:
    print(f"full_version: {full_version}\njanusgrad: {janusgrad}")


__all__ = ["commit", "cuda", "cudnn", "full_version", "janusgrad", "major", "minor", "patch",
           "rc", "show"]
