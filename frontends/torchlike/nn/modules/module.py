"""torch.nn.Module: parameters, buffers and submodules, registered by attribute."""
from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Iterator, Mapping

from janusgrad.backend import to_device
from janusgrad.params import assign_, reset_grads
from janusgrad.tensor import Tensor as EngineTensor

from ... import _dtypes
from ..._device import parse_to, resolve
from ..parameter import Parameter


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(s: str, num_spaces: int) -> str:
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    first = lines.pop(0)
    return first + "\n" + "\n".join(" " * num_spaces + line for line in lines)


class Module:
    """Base class of all layers; subclasses set attributes in ``__init__`` and define
    ``forward``."""

    training: bool
    _version = 1
    call_super_init = False

    def __init__(self, *args, **kwargs) -> None:
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument "
                            f"but {len(args) + 1} were given")
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent_buffers_set"] = set()
        d["_modules"] = {}
        d["_forward_hooks"] = OrderedDict()
        d["_forward_pre_hooks"] = OrderedDict()

    # ------------------------------------------------------------ calling
    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  f'"forward" function')

    def __call__(self, *args, **kwargs):
        if self._forward_pre_hooks or self._forward_hooks:
            return self._call_with_hooks(args, kwargs)
        return self.forward(*args, **kwargs)

    def _call_with_hooks(self, args, kwargs):
        for hook in list(self._forward_pre_hooks.values()):
            r = hook(self, args)
            if r is not None:
                args = r if isinstance(r, tuple) else (r,)
        out = self.forward(*args, **kwargs)
        for hook in list(self._forward_hooks.values()):
            r = hook(self, args, out)
            if r is not None:
                out = r
        return out

    def register_forward_hook(self, hook):
        return _Handle(self._forward_hooks, hook)

    def register_forward_pre_hook(self, hook):
        return _Handle(self._forward_pre_hooks, hook)

    # ------------------------------------------------------------ registration
    def register_parameter(self, name: str, param) -> None:
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor, persistent: bool = True) -> None:
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, EngineTensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module) -> None:
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {type(name).__name__}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    register_module = add_module

    def __setattr__(self, name: str, value) -> None:
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            _forget(d, name)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
            return
        modules = d.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            _forget(d, name)
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            modules[name] = value
            return
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, EngineTensor):
                raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                                "(torch.Tensor or None expected)")
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def __getattr__(self, name: str):
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            s = d.get(store)
            if s is not None and name in s:
                return s[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for store in (self._parameters, self._buffers, self._modules):
            if name in store:
                del store[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        keys = list(object.__dir__(self)) + list(self._parameters) + list(self._buffers)
        return sorted(set(keys + list(self._modules)))

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
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self) -> Iterator:
        for _, m in self.named_modules():
            yield m

    def named_children(self):
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def children(self) -> Iterator:
        for _, m in self.named_children():
            yield m

    def _named_members(self, store: str, prefix: str, recurse: bool, remove_duplicate: bool):
        memo = set()
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                   if recurse else [(prefix, self)])
        for mod_prefix, module in modules:
            for name, value in getattr(module, store).items():
                if value is None or id(value) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(value))
                yield mod_prefix + ("." if mod_prefix else "") + name, value

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True):
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator:
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator:
        for _, b in self.named_buffers(recurse=recurse):
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

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------ dtype / device
    def _convert(self, fn):
        for module in self.children():
            module._convert(fn)
        for store in (self._parameters, self._buffers):
            for t in store.values():
                if t is not None:
                    fn(t)
        return self

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
        return self._convert(lambda t: _retype(t, np_dtype, dev))

    def float(self):
        return self.to(_dtypes.float32)

    def double(self):
        return self.to(_dtypes.float64)

    def half(self):
        return self.to(_dtypes.float16)

    def cpu(self):
        return self._convert(lambda t: _retype(t, None, resolve("cpu")))

    def cuda(self, device=None):
        dev = resolve("cuda" if device is None else device)
        return self._convert(lambda t: _retype(t, None, dev))

    def type(self, dst_type):
        return self.to(dst_type)

    # ------------------------------------------------------------ state
    def _save_to_state_dict(self, destination, prefix: str, keep_vars: bool) -> None:
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b if keep_vars else b.detach()

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
        if meta is not None:
            meta[prefix[:-1]] = {"version": self._version}
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".",
                                  keep_vars=keep_vars)
        return destination

    def _load_from_state_dict(self, state_dict, prefix, missing, unexpected, errors) -> None:
        local = {**self._parameters,
                 **{k: v for k, v in self._buffers.items()
                    if k not in self._non_persistent_buffers_set}}
        for name, param in local.items():
            key = prefix + name
            if param is None:
                continue
            if key not in state_dict:
                missing.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, EngineTensor):
                errors.append(f'While copying the parameter named "{key}", expected '
                              f"torch.Tensor or Tensor-like object from checkpoint but "
                              f"received {type(value)}")
                continue
            if tuple(value.array.shape) != tuple(param.array.shape):
                from ..._size import Size
                errors.append(f"size mismatch for {key}: copying a param with shape "
                              f"{Size(value.array.shape)!r} from checkpoint, the shape in "
                              f"current model is {Size(param.array.shape)!r}.")
                continue
            assign_(param, value)  # a checkpoint loads onto the parameter's device
        for key in state_dict:
            if key.startswith(prefix):
                rest = key[len(prefix):]
                head = rest.split(".", 1)[0]
                if head not in self._modules and rest not in local:
                    unexpected.append(key)

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing: list = []
        unexpected: list = []
        errors: list = []

        def load(module, prefix=""):
            module._load_from_state_dict(state_dict, prefix, missing, unexpected, errors)
            for name, child in module._modules.items():
                if child is not None:
                    load(child, prefix + name + ".")

        load(self)
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
        child_lines = [f"({key}): " + _addindent(repr(module), 2)
                       for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)

    def __getstate__(self):
        return self.__dict__.copy()


Module.__module__ = "torch.nn.modules.module"


class _Handle:
    _next = 0

    def __init__(self, store, hook) -> None:
        _Handle._next += 1
        self.id = _Handle._next
        self.store = store
        store[self.id] = hook

    def remove(self) -> None:
        self.store.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def _typename(v) -> str:
    t = type(v)
    if isinstance(v, EngineTensor):
        return "torch.FloatTensor" if v.array.dtype.name == "float32" else t.__name__
    return t.__name__


def _forget(d: dict, name: str) -> None:
    """A name re-registered in another role leaves its old role."""
    d.pop(name, None)
    for store in ("_parameters", "_buffers", "_modules"):
        s = d.get(store)
        if s is not None:
            s.pop(name, None)
    nps = d.get("_non_persistent_buffers_set")
    if nps is not None:
        nps.discard(name)


def _retype(t, np_dtype, dev) -> None:
    """Cast (floating tensors only) and move ``t`` and its grad in place: the objects stay,
    their data changes, as torch's ``param.data = fn(param)``."""
    for x in (t, t.grad):
        if x is None:
            continue
        a = x.array
        if np_dtype is not None and a.dtype.kind == "f" and a.dtype != np_dtype:
            a = a.astype(np_dtype)
        if dev is not None:
            a = to_device(a, dev)
        x.array = a
