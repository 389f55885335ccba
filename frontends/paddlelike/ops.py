"""paddle's tensor functions (``paddle.add``, ``paddle.sum`` ...): the table in ``_table.py``
as installed by ``tensor.py``."""
from .tensor import FUNCTIONS

globals().update(FUNCTIONS)
