"""paddle.nn.Layer: parameters, sub-layers and buffers registered by attribute.

Registration, traversal order, state-dict keys, ``set_state_dict``'s
(missing, unexpected) result and warnings, and the repr are paddle 3.3.1's.
"""
from __future__ import annotations

import warnings
from collections import OrderedDict

from janusgrad import params as _params
from janusgrad.tensor import Tensor as _EngineTensor

from .parameter import Parameter, make_parameter, snake_case, unique_name


def _indent(text: str, n: int) -> str:
    lines = text.split("\n")
    return "\n".join([lines[0]] + [" " * n + ln for ln in lines[1:]])


class Layer:
    """The base of every paddle layer (``forward`` is the subclass's)."""

    training: bool

    def __init__(self, name_scope: str | None = None, dtype="float32") -> None:
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = OrderedDict()
        d["_sub_layers"] = OrderedDict()
        d["_buffers"] = OrderedDict()
        d["_non_persistable_buffer_names_set"] = set()
        d["_forward_pre_hooks"] = OrderedDict()
        d["_forward_post_hooks"] = OrderedDict()
        d["_dtype"] = dtype
        d["_full_name"] = unique_name(name_scope or snake_case(type(self).__name__))

    # ---------------------------------------------------------------- calling
    def forward(self, *inputs, **kwargs):
        raise NotImplementedError

    def __call__(self, *inputs, **kwargs):
        for hook in self._forward_pre_hooks.values():
            out = hook(self, inputs)
            if out is not None:
                inputs = out if isinstance(out, tuple) else (out,)
        outputs = self.forward(*inputs, **kwargs)
        for hook in self._forward_post_hooks.values():
            out = hook(self, inputs, outputs)
            if out is not None:
                outputs = out
        return outputs

    def register_forward_pre_hook(self, hook):
        return _Handle(self._forward_pre_hooks, hook)

    def register_forward_post_hook(self, hook):
        return _Handle(self._forward_post_hooks, hook)

    # ---------------------------------------------------------------- registration
    def __setattr__(self, name: str, value) -> None:
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise ValueError("super().__init__() should be called first")
            for store in (d, d["_sub_layers"], d["_buffers"]):
                store.pop(name, None)
            params[name] = value
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(f"assignment to parameter '{name}' should be of type Parameter "
                                f"or None, but got '{type(value).__name__}'")
            params[name] = None
            return
        if isinstance(value, Layer):
            if params is None:
                raise ValueError("super().__init__() should be called first")
            for store in (d, params, d["_buffers"]):
                store.pop(name, None)
            d["_sub_layers"][name] = value
            return
        subs = d.get("_sub_layers")
        if subs is not None and name in subs:
            if value is not None:
                raise TypeError(f"assignment to sublayer '{name}' should be of type Layer or "
                                f"None, but got '{type(value).__name__}'")
            subs[name] = None
            return
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, _EngineTensor):
                raise TypeError(f"assignment to buffers '{name}' should be of type core.Tensor"
                                f" or None, but got '{type(value).__name__}'")
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def __getattr__(self, name: str):
        d = self.__dict__
        for store in ("_parameters", "_sub_layers", "_buffers"):
            s = d.get(store)
            if s is not None and name in s:
                return s[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for store in ("_parameters", "_sub_layers", "_buffers"):
            s = self.__dict__[store]
            if name in s:
                del s[name]
                return
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(self._parameters) | set(self._sub_layers)
                      | set(self._buffers))

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
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names_set.discard(name)
        else:
            self._non_persistable_buffer_names_set.add(name)

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
        seen = set()
        layers = (self.named_sublayers(prefix=prefix, include_self=True)
                  if include_sublayers else [(prefix, self)])
        for layer_prefix, layer in layers:
            for name, p in layer._parameters.items():
                if p is None or (remove_duplicate and id(p) in seen):
                    continue
                seen.add(id(p))
                yield (layer_prefix + "." + name if layer_prefix else name), p

    def parameters(self, include_sublayers: bool = True) -> list:
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_sublayers(self, prefix: str = "", include_self: bool = False, layers_set=None):
        if layers_set is None:
            layers_set = set()
        if include_self and id(self) not in layers_set:
            layers_set.add(id(self))
            yield prefix, self
        for key, layer in self._sub_layers.items():
            if layer is None:
                continue
            layer_prefix = prefix + ("." if prefix else "") + key
            yield from layer.named_sublayers(prefix=layer_prefix, include_self=True,
                                             layers_set=layers_set)

    def sublayers(self, include_self: bool = False) -> list:
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_children(self):
        seen = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and id(layer) not in seen:
                seen.add(id(layer))
                yield name, layer

    def children(self):
        for _, layer in self.named_children():
            yield layer

    def named_buffers(self, prefix: str = "", include_sublayers: bool = True):
        seen = set()
        layers = (self.named_sublayers(prefix=prefix, include_self=True)
                  if include_sublayers else [(prefix, self)])
        for layer_prefix, layer in layers:
            for name, b in layer._buffers.items():
                if b is None or id(b) in seen:
                    continue
                seen.add(id(b))
                yield (layer_prefix + "." + name if layer_prefix else name), b

    def buffers(self, include_sublayers: bool = True) -> list:
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    def apply(self, fn):
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    # ---------------------------------------------------------------- modes
    def train(self):
        for layer in self.sublayers(include_self=True):
            layer.__dict__["training"] = True
        return self

    def eval(self):
        for layer in self.sublayers(include_self=True):
            layer.__dict__["training"] = False
        return self

    def clear_gradients(self, set_to_zero: bool = True) -> None:
        for p in self.parameters():
            if p.trainable:
                p.clear_gradient(set_to_zero)

    def to(self, device=None, dtype=None, blocking=None):
        """Move (and/or cast) parameters, their grads and buffers in place: the same
        parameter objects afterwards, as in paddle."""
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
            from janusgrad.backend import to_device
            for t in self.parameters() + self.buffers():
                t.array = to_device(t.array, device.device)
                if t.grad is not None:
                    t.grad.array = to_device(t.grad.array, device.device)
        if dtype is not None:
            from ..meta import to_np
            np_dtype = to_np(dtype)
            for p in self.parameters():
                if p.array.dtype.kind == "f":
                    p.array = p.array.astype(np_dtype)
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
        for name, p in self._parameters.items():
            if p is not None:
                out[structured_name_prefix + name] = p
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistable_buffer_names_set:
                out[structured_name_prefix + name] = b
        if include_sublayers:
            for name, layer in self._sub_layers.items():
                if layer is not None:
                    layer.state_dict(out, True, structured_name_prefix + name + ".", use_hook)
        return out

    def set_state_dict(self, state_dict, use_structured_name: bool = True):
        """Copy matching entries in; returns (missing_keys, unexpected_keys) and warns per
        skipped key as paddle does (a shape mismatch counts as both missing and unexpected)."""
        own = self.state_dict()
        missing, matched = [], set()
        for key, target in own.items():
            name = key if use_structured_name else getattr(target, "name", key)
            if name not in state_dict:
                missing.append(key)
                warnings.warn(f"Skip loading for {key}. {key} is not found in the provided "
                              "dict.", UserWarning, stacklevel=2)
                continue
            value = state_dict[name]
            arr = _params.values_of(value)
            if list(arr.shape) != list(target.array.shape):
                missing.append(key)
                warnings.warn(f"Skip loading for {key}. {key} receives a shape "
                              f"{list(arr.shape)}, but the expected shape is "
                              f"{list(target.array.shape)}.", UserWarning, stacklevel=2)
                continue
            matched.add(name)
            _params.assign_(target, arr)
        unexpected = [k for k in state_dict if k not in matched]
        return missing, unexpected

    set_dict = set_state_dict
    load_dict = set_state_dict

    # ---------------------------------------------------------------- repr
    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        lines = []
        extra = self.extra_repr()
        for key, layer in self._sub_layers.items():
            lines.append("(" + key + "): " + _indent(repr(layer), 2))
        main = type(self).__name__ + "("
        if extra:
            main += extra
        if lines:
            main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"


class _Handle:
    _next = 0

    def __init__(self, hooks: dict, hook) -> None:
        self._hooks = hooks
        self._id = _Handle._next
        _Handle._next += 1
        hooks[self._id] = hook

    def remove(self) -> None:
        self._hooks.pop(self._id, None)


Layer.__module__ = "paddle.nn.layer.layers"
