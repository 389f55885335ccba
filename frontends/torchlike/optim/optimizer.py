"""torch.optim.Optimizer: parameter groups, state, zero_grad and state_dict."""
from __future__ import annotations

import warnings
from collections import defaultdict

from janusgrad.core.mode import enable_grad
from janusgrad.core.params import reset_grads
from janusgrad.core.tensor import Tensor as EngineTensor
from janusgrad.nn import optim_state as OS


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
        ps = param_group["params"] = OS.group_params(param_group["params"], TypeError(
            "optimizer parameters need to be organized in ordered collections, but the "
            "ordering of tensors in sets will change between runs. Please use a list instead."))
        for p in ps:
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
        if OS.has_duplicates(ps):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see github.com/pytorch/pytorch/"
                          "issues/40967 for more information", UserWarning, stacklevel=3)
        if OS.shared_with(self.param_groups, ps):
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
        OS.step_groups(self.param_groups, self.state, self._update)
        return loss

    def _update(self, p, state: dict, group: dict) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------ state
    def state_dict(self) -> dict:
        return OS.pack_state(self.param_groups, self.state)

    def load_state_dict(self, state_dict: dict) -> None:
        state, self.param_groups = OS.unpack_state(
            self.param_groups, state_dict,
            ValueError("loaded state dict has a different number of parameter groups"),
            ValueError("loaded state dict contains a parameter group that doesn't match the "
                       "size of optimizer's group"))
        self.state = defaultdict(dict, state)

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


Optimizer.__module__ = "torch.optim.optimizer"
