"""torch.nn.Module: parameters, buffers and submodules, registered by attribute."""
from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Iterator, Mapping

from janusgrad.core.params import reset_grads
from janusgrad.core.tensor import Tensor as EngineTensor
from janusgrad.nn.module import ModuleCore, add_indent

from ... import _dtypes
from ..._device import parse_to, resolve
from ..._size import Size
from ...autograd.graph import RemovableHandle
from ..parameter import Parameter


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class Module(ModuleCore):
    """Base class of all layers; subclasses set attributes in ``__init__`` and define
    ``forward``. Registries, walks, state and hooks are the engine's ModuleCore; torch's
    names, signatures, messages and printed form are here."""

    training: bool
    _version = 1
    call_super_init = False
    _PARAMETER = Parameter
    _CHILDREN = "_modules"
    _NON_PERSISTENT = "_non_persistent_buffers_set"
    _POST_HOOKS = "_forward_hooks"
    _STORES = ("_parameters", "_buffers", "_modules")

    def __init__(self, *args, **kwargs) -> None:
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument "
                            f"but {len(args) + 1} were given")
        self._init_stores()

    def _fresh_stores(self) -> dict:
        """torch's attributes of a new module, in its order (a pickled module then loads in
        torch); the hook tables torchlike does not run stay empty."""
        o = OrderedDict
        return {"training": True, "_parameters": {}, "_buffers": {},
                "_non_persistent_buffers_set": set(), "_backward_pre_hooks": o(),
                "_backward_hooks": o(), "_is_full_backward_hook": None,
                "_forward_hooks": o(), "_forward_hooks_with_kwargs": o(),
                "_forward_hooks_always_called": o(), "_forward_pre_hooks": o(),
                "_forward_pre_hooks_with_kwargs": o(), "_state_dict_hooks": o(),
                "_state_dict_pre_hooks": o(), "_load_state_dict_pre_hooks": o(),
                "_load_state_dict_post_hooks": o(), "_modules": {}}

    # ------------------------------------------------------------ calling
    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  f'"forward" function')

    def __call__(self, *args, **kwargs):
        if self._forward_pre_hooks or self._forward_hooks:
            return self._call_with_hooks(args, kwargs)
        return self.forward(*args, **kwargs)

    def register_forward_hook(self, hook):
        return self._add_hook(self._forward_hooks, hook, RemovableHandle)

    def register_forward_pre_hook(self, hook):
        return self._add_hook(self._forward_pre_hooks, hook, RemovableHandle)

    # ------------------------------------------------------------ registration
    def register_parameter(self, name: str, param) -> None:
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name(self, "parameter", name, self._parameters)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def _put_parameter(self, name: str, param) -> None:  # assignment registers, as torch's
        self.register_parameter(name, param)

    def register_buffer(self, name: str, tensor, persistent: bool = True) -> None:
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name(self, "buffer", name, self._buffers)
        if tensor is not None and not isinstance(tensor, EngineTensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._set_buffer(name, tensor, persistent)

    def add_module(self, name: str, module) -> None:
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        _check_name(self, "module", name, self._modules)
        self._modules[name] = module

    register_module = add_module

    def _early_error(self, role: str) -> Exception:
        which = "parameters" if role == "parameter" else "module"
        return AttributeError(f"cannot assign {which} before Module.__init__() call")

    def _assign_error(self, role: str, name: str, value) -> Exception:
        as_what, expected = {"parameter": ("parameter", "torch.nn.Parameter"),
                             "child": ("child module", "torch.nn.Module"),
                             "buffer": ("buffer", "torch.Tensor")}[role]
        return TypeError(f"cannot assign '{_typename(value)}' as {as_what} '{name}' "
                         f"({expected} or None expected)")

    def get_submodule(self, target: str):
        mod = self
        if target == "":
            return mod
        for item in target.split("."):
            if item not in mod._modules:
                raise AttributeError(f"{mod._get_name()} has no attribute `{item}`")
            mod = mod._modules[item]
        return mod

    def get_parameter(self, target: str):
        path, _, name = target.rpartition(".")
        mod = self.get_submodule(path)
        if name not in mod._parameters:
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return mod._parameters[name]

    # ------------------------------------------------------------ traversal
    def named_modules(self, memo=None, prefix: str = "", remove_duplicate: bool = True):
        return self._walk(prefix, memo, remove_duplicate)

    def modules(self) -> Iterator:
        for _, m in self._walk():
            yield m

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True):
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator:
        for _, p in self._named_members("_parameters", "", recurse):
            yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True):
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator:
        for _, b in self._named_members("_buffers", "", recurse):
            yield b

    # ------------------------------------------------------------ modes and gradients
    def train(self, mode: bool = True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        reset_grads(self.parameters(), set_to_none)

    # ------------------------------------------------------------ dtype / device
    def to(self, *args, **kwargs):
        device, dtype, _ = parse_to(args, kwargs)
        np_dtype = None
        if dtype is not None:
            np_dtype = _dtypes.to_np(dtype)
            if np_dtype.kind != "f":
                raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, "
                                f"but got desired dtype={dtype}")
        dev = None if device is None else resolve(device)
        if dev is None and np_dtype is None:
            return self
        return self._cast_and_move(np_dtype, dev)

    def float(self):
        return self.to(_dtypes.float32)

    def double(self):
        return self.to(_dtypes.float64)

    def half(self):
        return self.to(_dtypes.float16)

    def cpu(self):
        return self._cast_and_move(None, resolve("cpu"))

    def cuda(self, device=None):
        return self._cast_and_move(None, resolve("cuda" if device is None else device))

    def type(self, dst_type):
        return self.to(dst_type)

    # ------------------------------------------------------------ state
    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False):
        if args:
            destination = args[0]
            if len(args) > 1:
                prefix = args[1]
            if len(args) > 2:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        meta = getattr(destination, "_metadata", None)

        def versions(module, module_prefix):
            if meta is not None:
                meta[module_prefix[:-1]] = {"version": module._version}
        return self._collect_state(destination, prefix, keep_vars, versions)

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        found = self._load_state(state_dict)
        missing, unexpected = found.missing, found.unexpected
        errors = [_load_error(key, value, target) for key, value, target in found.mismatched]
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    # ------------------------------------------------------------ printing
    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): " + add_indent(repr(module), 2)
                       for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"



Module.__module__ = "torch.nn.modules.module"


def _check_name(module, role: str, name, store) -> None:
    if not isinstance(name, str):
        raise TypeError(f"{role} name should be a string. Got {type(name).__name__}")
    if hasattr(module, name) and name not in store:
        raise KeyError(f"attribute '{name}' already exists")
    if "." in name:
        tail = f", got: {name}" if role == "module" else ""
        raise KeyError(f'{role} name can\'t contain "."{tail}')
    if name == "":
        raise KeyError(f'{role} name can\'t be empty string ""')


def _load_error(key: str, value, target) -> str:
    if not isinstance(value, EngineTensor):
        return (f'While copying the parameter named "{key}", expected torch.Tensor or '
                f"Tensor-like object from checkpoint but received {type(value)}")
    return (f"size mismatch for {key}: copying a param with shape {Size(value.array.shape)!r} "
            f"from checkpoint, the shape in current model is {Size(target.array.shape)!r}.")


def _typename(v) -> str:
    t = type(v)
    if isinstance(v, EngineTensor):
        return "torch.FloatTensor" if v.array.dtype.name == "float32" else t.__name__
    return t.__name__
