"""paddle.save / paddle.load in paddle 3.3's pickle format (no paddle needed to read it).

A state dict (a dict whose values are tensors, or dicts free of tensors such as
``LR_Scheduler``) is pickled as ``{key: ndarray, ..., "StructuredToParameterName@@":
{key: tensor name}}``; any other object is pickled with each tensor replaced by a
``(name, ndarray)`` tuple.  Loading reverses both forms (tensors come back with
``stop_gradient=True``); ``return_numpy=True`` keeps the arrays.

Loading never runs code from the file by default: the unpickler accepts exactly the globals
that ``paddle.save`` writes (numpy's array and scalar reconstructors, ``numpy.ndarray`` and
``numpy.dtype``, ``collections.OrderedDict``, ``_codecs.encode`` for protocol 2's bytes, and
the builtin containers and scalars) and refuses any other with ``pickle.UnpicklingError``
naming it.  ``load(path, weights_only=False)`` unpickles anything, for a trusted file.
"""
from __future__ import annotations

import os
import pickle

from janusgrad.array.backend import from_host, is_array
from janusgrad.core.tensor import Tensor as _EngineTensor
from janusgrad.host import io as EIO
from janusgrad.nn.data import any_nested as _any_nested
from janusgrad.nn.data import map_nested as _map_nested
from janusgrad.nn.module import ModuleCore

from .device import expected_device
from .dialect import tensor_name
from .tensor import Tensor, _host_copy

NAME_TABLE = "StructuredToParameterName@@"


def _name_of(t, key=None) -> str:
    name = getattr(t, "name", None)
    if isinstance(name, str):
        return name
    return key if key is not None else tensor_name(t)


def _is_tensor(obj) -> bool:
    return isinstance(obj, _EngineTensor)


def _is_state_dict(obj) -> bool:
    if not isinstance(obj, dict):
        return False
    for value in obj.values():
        if isinstance(value, dict):
            if any(_any_nested(v, _is_tensor) for v in value.values()):
                return False
        elif not isinstance(value, _EngineTensor):
            return False
    return True


class _Pickler(pickle.Pickler):
    """paddle's pickler: a layer anywhere in the object is refused as it is met (so a path
    given is left an empty file, as paddle leaves it)."""

    def reducer_override(self, obj):
        if isinstance(obj, ModuleCore):
            raise ValueError("paddle do not support saving `paddle.nn.Layer` object.")
        return NotImplemented


def save(obj, path, protocol: int = 4, **configs) -> None:
    if not isinstance(protocol, int):
        raise ValueError(f"The 'protocol' MUST be `int`, but received {type(protocol)}")
    if protocol < 2 or protocol > 4:
        raise ValueError(f"Expected 1<'protocol'<5, but received protocol={protocol}")
    if _is_state_dict(obj):
        data, names = {}, {}
        for key, value in obj.items():
            if isinstance(value, _EngineTensor):
                data[key] = _host_copy(value.array)  # saved as host data
                names[key] = _name_of(value, key)
            else:
                data[key] = value
        data[NAME_TABLE] = names
    else:
        data = _map_nested(obj, _is_tensor, lambda t: (_name_of(t), _host_copy(t.array)))
    if isinstance(path, (str, os.PathLike)):
        path = os.fspath(path)
        if os.path.basename(path) == "":
            raise ValueError("The input path MUST be format of dirname/filename "
                             "[dirname\\filename in Windows system], but received "
                             f"{path} .")
        dirname = os.path.dirname(path)
        if dirname and not os.path.exists(dirname):
            os.makedirs(dirname, exist_ok=True)
        with open(path, "wb") as f:
            _Pickler(f, protocol).dump(data)
    else:
        _Pickler(path, protocol).dump(data)


def _is_name_array_pair(obj) -> bool:
    return type(obj) is tuple and len(obj) == 2 and isinstance(obj[0], str) and \
        is_array(obj[1])


def _tensor(a, return_numpy: bool):
    """A loaded array: numpy as it is, or a tensor on the expected place (gpu:0 where a
    GPU is usable, as paddle loads). paddle saves a bfloat16 tensor as its uint16 bit
    patterns and loads those as bfloat16; the engine has no bfloat16, so they are widened
    to float32 (exactly)."""
    if return_numpy:
        return a
    if a.dtype.name == "uint16":
        a = EIO.widen_bfloat16(a)
    device = expected_device()
    return Tensor.wrap(a if device is None else from_host(a, device))


# The globals a paddle.save pickle refers to (protocols 2-4; numpy 1's module names too):
# found by unpickling what real paddle 3.3.1 writes for layers' and optimizers' state dicts,
# LR schedulers, tensors and nested containers (tests/test_paddle_serial.py checks it).
SAFE_GLOBALS = frozenset({
    ("numpy._core.multiarray", "_reconstruct"), ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "scalar"), ("numpy.core.multiarray", "scalar"),
    ("numpy", "ndarray"), ("numpy", "dtype"),
    ("collections", "OrderedDict"),
    ("_codecs", "encode"),  # protocol 2 writes bytes as _codecs.encode(str, "latin1")
    *((module, name) for module in ("builtins", "__builtin__") for name in (
        "tuple", "list", "dict", "set", "frozenset", "bytes", "bytearray", "str", "int",
        "float", "complex", "bool", "slice", "range")),
})


def _python3_name(module: str, name: str) -> str:
    """``module.name`` as Python 3 knows it (protocol 2 pickles write Python 2's names,
    which pickle maps), with the written name beside it where they differ."""
    from _compat_pickle import IMPORT_MAPPING, NAME_MAPPING
    m, n = NAME_MAPPING.get((module, name), (IMPORT_MAPPING.get(module, module), name))
    return f"{m}.{n}" if (m, n) == (module, name) else f"{m}.{n} (written {module}.{name})"


class _Refused(pickle.UnpicklingError):
    """Our own refusal of a global (already worded), not a file paddle cannot parse."""


class _RestrictedUnpickler(pickle.Unpickler):
    """Resolves only the globals in ``SAFE_GLOBALS``: a checkpoint cannot run code."""

    def find_class(self, module, name):
        # (protocol 2 names builtins __builtin__; pickle maps it after this check)
        if (module, name) not in SAFE_GLOBALS:
            raise _Refused(
                f"paddle.load refused to load {_python3_name(module, name)}: a paddle.save "
                "checkpoint holds "
                "only arrays, numbers, strings and containers, and loading any other "
                "global could run code from the file. If you trust this file, load it with "
                "paddle.load(path, weights_only=False).")
        checked = EIO.ARRAY_PICKLE_GLOBALS.get((module, name))
        return checked if checked is not None else super().find_class(module, name)


def _unpickle(f, weights_only: bool, path):
    """The object pickled in ``f``. A file that is not a pickle fails as in paddle, whose
    load tries its binary tensor and program formats after an UnpicklingError and reports
    that none parses (a ValueError); an empty file is an EOFError there too. The arrays
    in it are checked by numpy as they are rebuilt (the shape against the bytes given:
    paddle's format has no strides or offsets), as in paddle."""
    try:
        if weights_only:
            return _RestrictedUnpickler(f, encoding="latin1").load()
        return pickle.load(f, encoding="latin1")
    except _Refused:
        raise
    except EIO.ArrayPickleError as e:
        raise pickle.UnpicklingError(
            f"paddle.load refused {e}: paddle.save writes arrays through numpy's own "
            "pickles. If you trust this file, load it with "
            "paddle.load(path, weights_only=False).") from None
    except pickle.UnpicklingError:
        raise ValueError(f"`paddle.load` can not parse the file:{path}.") from None


def load(path, weights_only: bool = True, **configs):
    """paddle.load: read what ``save`` (or real ``paddle.save``) wrote.

    ``weights_only`` (a janusgrad keyword, after torch's): True by default, the file may
    refer only to what paddle.save writes (numpy arrays, dtypes and scalars, builtin
    containers and scalars, OrderedDict); any other global raises
    ``pickle.UnpicklingError`` naming it, before anything runs.  ``weights_only=False``
    unpickles anything, as real paddle does: only for a file you trust, since a pickle can
    run arbitrary code when loaded.
    """
    return_numpy = bool(configs.get("return_numpy", False))
    keep_name_table = bool(configs.get("keep_name_table", False))
    if isinstance(path, (str, os.PathLike)):
        path = os.fspath(path)
        if not os.path.exists(path):
            raise ValueError(f"The ``path`` ({path}) to load model not exists.")
        with open(path, "rb") as f:
            result = _unpickle(f, weights_only, path)
    else:
        result = _unpickle(path, weights_only, path)
    if isinstance(result, dict) and NAME_TABLE in result:
        for key in result[NAME_TABLE]:
            if is_array(result.get(key)):
                result[key] = _tensor(result[key], return_numpy)
        if not keep_name_table:
            del result[NAME_TABLE]
        return result
    if _any_nested(result, _is_name_array_pair):
        return _map_nested(result, _is_name_array_pair, lambda t: _tensor(t[1], return_numpy))
    return _map_nested(result, is_array, lambda a: _tensor(a, return_numpy))
