"""torch._dynamo.config: the settings torchlike reads (``recompile_limit``, alias
``cache_size_limit``: the traces kept per compiled function, read when it is compiled)."""
from __future__ import annotations

import sys
import types

recompile_limit = 8
accumulated_recompile_limit = 256


class _Config(types.ModuleType):
    # torch keeps the old name as an alias of the new one: both read and write one value
    @property
    def cache_size_limit(self) -> int:
        return self.recompile_limit

    @cache_size_limit.setter
    def cache_size_limit(self, value: int) -> None:
        self.recompile_limit = value


sys.modules[__name__].__class__ = _Config
