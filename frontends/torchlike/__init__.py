"""The PyTorch dialect of janusgrad: ``import torchlike as torch``."""
from __future__ import annotations

import os as _os

from janusgrad.core.anomaly import own_folder as _own_folder
from janusgrad.core.mode import is_grad_enabled
from janusgrad.host.dropin import module_getattr

from . import _dtypes
from ._creation import (
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    initial_seed,
    linspace,
    manual_seed,
    normal,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randn,
    randn_like,
    tensor,
    zeros,
    zeros_like,
)
from ._dtypes import (
    bool,
    dtype,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    uint8,
)
from ._grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from ._size import Size, device
from ._table import FUNCTIONS, is_floating_point, is_tensor, numel
from ._tensor import Tensor

float = _dtypes.float32  # noqa: A001 - torch.float
double = _dtypes.float64
half = _dtypes.float16
short = _dtypes.int16
int = _dtypes.int32  # noqa: A001 - torch.int
long = _dtypes.int64

globals().update(FUNCTIONS)

from . import autograd, cuda, nn  # noqa: E402 - submodules use the names above

__getattr__ = module_getattr("torchlike", "torch")

__all__ = [
    "Size", "Tensor", "arange", "as_tensor", "autograd", "bool", "cuda", "device", "double",
    "dtype",
    "empty", "empty_like", "enable_grad", "eye", "float", "float16", "float32", "float64",
    "from_numpy", "full", "full_like", "get_default_dtype", "half", "inference_mode",
    "initial_seed", "int", "int8", "int16", "int32", "int64", "is_floating_point",
    "is_grad_enabled", "is_tensor",
    "linspace", "long", "manual_seed", "nn", "no_grad", "normal", "numel", "ones",
    "ones_like", "rand", "rand_like", "randint", "randn", "randn_like", "set_grad_enabled",
    "short", "tensor", "uint8", "zeros", "zeros_like", *FUNCTIONS,
]

# autograd additions (issue 3): grad-mode queries and inference tensors
from ._grad_mode import is_inference_mode_enabled  # noqa: E402
from .autograd.anomaly_mode import (  # noqa: E402
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
)


def is_inference(input) -> bool:  # noqa: A002 - torch's parameter name
    return input.is_inference()


__all__ += ["is_inference_mode_enabled", "is_anomaly_enabled", "is_anomaly_check_nan_enabled",
            "is_inference"]

# nn / optim / data / serialisation (issue 4, torch dialect): torch.save, torch.load, Generator
from .serialization import load, save  # noqa: E402
from .utils._generator import Generator  # noqa: E402

__all__ += ["Generator", "load", "save"]

# module-level surface (issue 15 item 4): version, default dtype, print options, finfo,
# promotion queries, DLPack; janusgrad's own version stays at torch.version.janusgrad
from . import _surface, testing, utils, version  # noqa: E402
from ._surface import (  # noqa: E402
    __version__,  # noqa: F401 - torch.__version__
    broadcast_shapes,
    can_cast,
    finfo,
    from_dlpack,
    get_printoptions,
    iinfo,
    promote_types,
    result_type,
    set_default_dtype,
    set_printoptions,
)

_surface.install(Tensor)  # __dlpack__, and missing attributes named (issue 15 item 8)
__all__ += ["broadcast_shapes", "can_cast", "finfo", "from_dlpack", "get_printoptions",
            "iinfo", "promote_types", "result_type", "set_default_dtype", "set_printoptions",
            "testing", "utils", "version"]

# torch.masked (engine.ops.masked); torch.compile (issue 17): _dynamo is imported before
# _compile, which imports _dynamo.config while _dynamo's __init__ imports _compile
from . import (  # noqa: E402, F401
    _dynamo,
    compiler,
    masked,
)
from ._compile import compile  # noqa: E402

__all__ += ["compile", "compiler"]

_own_folder(_os.path.dirname(__file__))  # our frames are not the user's in anomaly reports
