"""torch.version: the torch release torchlike speaks, and janusgrad's own version."""
from __future__ import annotations

from janusgrad import __version__ as janusgrad

from ._surface import __version__

cuda = None
hip = None
git_version = "janusgrad"
debug = False

__all__ = ["__version__", "cuda", "debug", "git_version", "hip", "janusgrad"]
