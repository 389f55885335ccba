"""torch.optim.Optimizer: parameter groups, state, zero_grad and state_dict."""
from __future__ import annotations

import copy
import warnings
from collections import defaultdict

from janusgrad.backend import device_of, to_device
from janusgrad.mode import enable_grad
from janusgrad.params import reset_grads
from janusgrad.tensor import Tensor as EngineTensor


class _RequiredParameter:
    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


class Optimizer:
    """Holds ``param_groups`` (dicts with 'params' and hyper-parameters) and per-parameter
    ``state``; subclasses define ``_update(p, state, group)``."""

    def __init__(self, params, defaults: dict) -> None:
        self.defaults = defaults
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list = []
        if isinstance(params, EngineTensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {params.type()}")
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for g in groups:
            self.add_param_group(g)

    def add_param_group(self, param_group: dict) -> None:
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, EngineTensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            param_group["params"] = list(params)
        for p in param_group["params"]:
            if isinstance(p, tuple):  # named parameters
                raise TypeError("torchlike optimizers take tensors, not (name, tensor) pairs")
            if not isinstance(p, EngineTensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + type(p).__module__ + "." + type(p).__name__)
            if p.node is not None:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)
        ps = param_group["params"]
        if len(ps) != len({id(p) for p in ps}):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see github.com/pytorch/pytorch/"
                          "issues/40967 for more information", UserWarning, stacklevel=3)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if seen & {id(p) for p in ps}:
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    # ------------------------------------------------------------ stepping
    def zero_grad(self, set_to_none: bool = True) -> None:
        reset_grads((p for g in self.param_groups for p in g["params"]), set_to_none)

    def step(self, closure=None):
        self._opt_called = True
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    state = self.state.get(p)
                    if state is None:
                        state = {}
                        self._update(p, state, group)
                        if state:  # torch keeps no entry for a stateless rule (plain SGD)
                            self.state[p] = state
                    else:
                        self._update(p, state, group)
        return loss

    def _update(self, p, state: dict, group: dict) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------ state
    def state_dict(self) -> dict:
        index: dict = {}
        groups = []
        start = 0
        for g in self.param_groups:
            packed = {k: v for k, v in g.items() if k != "params"}
            for i, p in enumerate(g["params"], start):
                index.setdefault(id(p), i)
            packed["params"] = [index[id(p)] for p in g["params"]]
            start += len(packed["params"])
            groups.append(packed)
        state = {index[id(p)]: s for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict) -> None:
        state_dict = copy.copy(state_dict)
        groups = self.param_groups
        saved = state_dict["param_groups"]
        if len(groups) != len(saved):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        id_map = {}
        for g, s in zip(groups, saved):
            for old, p in zip(s["params"], g["params"]):
                id_map[old] = p
        self.state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                p = id_map[k]
                self.state[p] = {name: _cast_like(p, name, value) for name, value in v.items()}
        new_groups = []
        for g, s in zip(groups, saved):
            ng = {k: v for k, v in s.items() if k != "params"}
            ng["params"] = g["params"]
            new_groups.append(ng)
        self.param_groups = new_groups

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        s = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            s += "\n"
            s += f"Parameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    s += f"    {key}: {group[key]}\n"
        return s + ")"


def _cast_like(p, name: str, value):
    """State tensors follow the parameter's dtype and device, except the step counter
    (which torch keeps as it was saved: a CPU scalar)."""
    if not isinstance(value, EngineTensor):
        return value
    t = type(p).wrap(value.array.copy())
    if name != "step":
        if t.array.dtype.kind == "f" and t.array.dtype != p.array.dtype:
            t.array = t.array.astype(p.array.dtype)
        t.array = to_device(t.array, device_of(p.array))
    return t


Optimizer.__module__ = "torch.optim.optimizer"
