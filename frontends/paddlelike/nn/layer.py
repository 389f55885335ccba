"""paddle.nn.Layer: parameters, sub-layers and buffers registered by attribute.

Registries, walks and hooks are the engine's ModuleCore; paddle 3.3.1's names, signatures,
state-dict keys, ``set_state_dict``'s (missing, unexpected) result and warnings, messages and
repr are here.
"""
from __future__ import annotations

import warnings
from collections import OrderedDict

from janusgrad.core import params as _params
from janusgrad.core.hooks import HookHandle
from janusgrad.core.tensor import Tensor as _EngineTensor
from janusgrad.nn.module import ModuleCore, add_indent

from .parameter import Parameter, make_parameter, snake_case, unique_name

_ASSIGN = {"parameter": ("parameter", "Parameter"), "child": ("sublayer", "Layer"),
           "buffer": ("buffers", "core.Tensor")}


class Layer(ModuleCore):
    """The base of every paddle layer (``forward`` is the subclass's)."""

    training: bool
    _PARAMETER = Parameter
    _CHILDREN = "_sub_layers"
    _NON_PERSISTENT = "_non_persistable_buffer_names_set"
    _POST_HOOKS = "_forward_post_hooks"
    _STORES = ("_parameters", "_sub_layers", "_buffers")

    def __init__(self, name_scope: str | None = None, dtype="float32") -> None:
        self._init_stores()
        d = self.__dict__
        d["_dtype"] = dtype
        d["_full_name"] = unique_name(name_scope or snake_case(type(self).__name__))

    # ---------------------------------------------------------------- calling
    def forward(self, *inputs, **kwargs):
        raise NotImplementedError

    def __call__(self, *inputs, **kwargs):
        if self._forward_pre_hooks or self._forward_post_hooks:
            return self._call_with_hooks(inputs, kwargs)
        return self.forward(*inputs, **kwargs)

    def register_forward_pre_hook(self, hook):
        return self._add_hook(self._forward_pre_hooks, hook, HookHandle)

    def register_forward_post_hook(self, hook):
        return self._add_hook(self._forward_post_hooks, hook, HookHandle)

    # ---------------------------------------------------------------- registration
    def _early_error(self, role: str) -> Exception:
        return ValueError("super().__init__() should be called first")

    def _assign_error(self, role: str, name: str, value) -> Exception:
        as_what, expected = _ASSIGN[role]
        return TypeError(f"assignment to {as_what} '{name}' should be of type {expected} or "
                         f"None, but got '{type(value).__name__}'")

    def add_sublayer(self, name: str, sublayer):
        if not (isinstance(sublayer, Layer) or sublayer is None):
            raise AssertionError
        self._sub_layers[str(name)] = sublayer
        return sublayer

    def add_parameter(self, name: str, parameter):
        if "." in name:
            raise KeyError("The name of parameter can not contain `.`, because when you access "
                           "the newly added parameter in the form of `self.**.**`, it will "
                           "cause AttributeError.")
        if parameter is not None and not isinstance(parameter, Parameter):
            raise TypeError(f"The parameter to be added should be a Parameter, but received "
                            f"{type(parameter).__name__}.")
        self._parameters[name] = parameter
        return parameter

    def register_buffer(self, name: str, tensor, persistable: bool = True) -> None:
        if tensor is not None and not isinstance(tensor, _EngineTensor):
            raise TypeError(f"The registered buffer should be a Paddle.Tensor, but received "
                            f"{type(tensor).__name__}.")
        self._set_buffer(name, tensor, persistable)

    def create_parameter(self, shape, attr=None, dtype=None, is_bias: bool = False,
                         default_initializer=None, device=None):
        return make_parameter(list(shape), dtype if dtype is not None else self._dtype, attr,
                              is_bias, default_initializer, self._full_name)

    def create_tensor(self, name=None, persistable=None, dtype=None):
        from ..creation import zeros
        return zeros([0], dtype or self._dtype)

    def full_name(self) -> str:
        return self._full_name

    # ---------------------------------------------------------------- traversal
    def named_parameters(self, prefix: str = "", include_sublayers: bool = True,
                         remove_duplicate: bool = True):
        # paddle visits each layer once even when it keeps repeated parameters
        return self._named_members("_parameters", prefix, include_sublayers, remove_duplicate,
                                   unique_layers=True)

    def parameters(self, include_sublayers: bool = True) -> list:
        return [p for _, p in self._named_members("_parameters", "", include_sublayers)]

    def named_sublayers(self, prefix: str = "", include_self: bool = False, layers_set=None):
        walk = self._walk(prefix, layers_set)
        if not include_self:
            next(walk, None)
        return walk

    def sublayers(self, include_self: bool = False) -> list:
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_buffers(self, prefix: str = "", include_sublayers: bool = True):
        return self._named_members("_buffers", prefix, include_sublayers)

    def buffers(self, include_sublayers: bool = True) -> list:
        return [b for _, b in self._named_members("_buffers", "", include_sublayers)]

    # ---------------------------------------------------------------- modes
    def train(self):
        for _, layer in self._walk():
            layer.__dict__["training"] = True
        return self

    def eval(self):
        for _, layer in self._walk():
            layer.__dict__["training"] = False
        return self

    def clear_gradients(self, set_to_zero: bool = True) -> None:
        for p in self.parameters():
            if p.trainable:
                p.clear_gradient(set_to_zero)

    def to(self, device=None, dtype=None, blocking=None):
        """Move parameters, their grads and buffers in place (and/or cast the floating
        parameters): the same parameter objects afterwards, as in paddle."""
        if device is not None:
            from ..meta import Place
            if isinstance(device, str):
                from ..device import to_place
                device = to_place(device)
            elif not isinstance(device, Place):
                raise ValueError(
                    "device value error, must be str, paddle.CPUPlace(), paddle.CUDAPlace(), "
                    "paddle.CUDAPinnedPlace() or paddle.XPUPlace(), but the type of device is "
                    + type(device).__name__)
            self._cast_and_move(None, device.device)
        if dtype is not None:
            from ..meta import to_np
            self._cast_and_move(to_np(dtype), None, buffers=False, grads=False)
            self.__dict__["_dtype"] = dtype
        return self

    def float(self, excluded_layers=None):
        return self.to(dtype="float32")

    def double(self, excluded_layers=None):
        return self.to(dtype="float64")

    # ---------------------------------------------------------------- state
    def state_dict(self, destination=None, include_sublayers: bool = True,
                   structured_name_prefix: str = "", use_hook: bool = True,
                   keep_vars: bool = True):
        """Parameters (the Parameter objects themselves) then persistable buffers, per layer."""
        out = OrderedDict() if destination is None else destination
        if include_sublayers:
            return self._collect_state(out, structured_name_prefix)
        out.update((structured_name_prefix + k, t) for k, t in self._persistent_items())
        return out

    def set_state_dict(self, state_dict, use_structured_name: bool = True):
        """Copy matching entries in; returns (missing_keys, unexpected_keys) and warns per
        skipped key as paddle does (a shape mismatch counts as both missing and unexpected)."""
        missing, matched = [], set()
        for key, target in self.state_dict().items():
            name = key if use_structured_name else getattr(target, "name", key)
            if name not in state_dict:
                missing.append(key)
                warnings.warn(f"Skip loading for {key}. {key} is not found in the provided "
                              "dict.", UserWarning, stacklevel=2)
                continue
            arr = _params.values_of(state_dict[name])
            if list(arr.shape) != list(target.array.shape):
                missing.append(key)
                warnings.warn(f"Skip loading for {key}. {key} receives a shape "
                              f"{list(arr.shape)}, but the expected shape is "
                              f"{list(target.array.shape)}.", UserWarning, stacklevel=2)
                continue
            matched.add(name)
            _params.assign_(target, arr)
        return missing, [k for k in state_dict if k not in matched]

    set_dict = set_state_dict
    load_dict = set_state_dict

    # ---------------------------------------------------------------- repr
    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        lines = ["(" + key + "): " + add_indent(repr(layer), 2)
                 for key, layer in self._sub_layers.items()]
        main = type(self).__name__ + "(" + self.extra_repr()
        if lines:
            main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"


Layer.__module__ = "paddle.nn.layer.layers"
