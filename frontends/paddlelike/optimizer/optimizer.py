"""paddle.optimizer: SGD, Momentum, Adam, AdamW, RMSProp, Adagrad.

A step takes the parameters that have a gradient, clips the gradients
(``grad_clip``), folds in the regularizer (the parameter's own, else the
optimizer's ``weight_decay``: a float means L2Decay), and applies the update
rule with ``lr = learning rate * param.optimize_attr['learning_rate']``.
Accumulators are named ``<param name>_<accumulator>_0`` as paddle names them.
"""
from __future__ import annotations

from janusgrad.array.backend import device_of, to_device
from janusgrad.core.mode import no_grad
from janusgrad.core.tensor import Tensor as _EngineTensor
from janusgrad.nn import variants as _V
from janusgrad.nn.optim_state import group_params, shared_with

from ..nn.parameter import unique_name
from ..regularizer import L1Decay, L2Decay
from ..tensor import Tensor
from .lr import LRScheduler

_NO_PARAMS = "parameters argument given to the Optimizer should not be None in dygraph mode."


class Optimizer:
    _accumulators: tuple = ()  # accumulator names in paddle's state_dict order

    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None,
                 grad_clip=None, name=None) -> None:
        if parameters is None:
            raise AttributeError(_NO_PARAMS)
        if isinstance(parameters, _EngineTensor):
            raise TypeError("`parameters` argument given to the optimizer should be an "
                            f"iterable of paddle Tensors, but got argument type is "
                            f"`{type(parameters)}`.")
        if isinstance(parameters, dict):
            raise TypeError("`parameters` argument should not get dict type, if parameter "
                            "groups is needed, please set `parameters` as list of dict")
        if not isinstance(learning_rate, (float, int, LRScheduler)):
            raise TypeError("learning rate should be float or LRScheduler, got "
                            f"{type(learning_rate)} here")
        if grad_clip is not None and not callable(grad_clip):
            raise TypeError("'grad_clip' should be an instance of GradientClipBase's derived "
                            "class")
        if isinstance(weight_decay, (int, float)) and not isinstance(weight_decay, bool):
            self.regularization = L2Decay(float(weight_decay))
        else:
            self.regularization = weight_decay
        self._learning_rate = learning_rate
        self._grad_clip = grad_clip
        self._name = name
        self._accumulator_state: dict = {}  # id(param) -> {acc name: array}
        self._accumulator_names: dict = {}  # id(param) -> {acc name: unique tensor name}
        self._accumulators_holder: dict = {}  # loaded by set_state_dict, used on creation
        self._param_groups: list = []
        self._default_dict = {"weight_decay": self.regularization, "grad_clip": grad_clip}
        self._default_dict.update(self._group_defaults())
        parameters = list(parameters)
        if not parameters:
            pass  # paddle keeps no group; step() then fails as paddle's does
        elif isinstance(parameters[0], dict):
            for group in parameters:
                self._add_param_group(dict(group))
        else:
            self._param_groups.append(dict(self._default_dict, params=parameters))
        self._parameter_list = [p for g in self._param_groups for p in g["params"]]

    def _group_defaults(self) -> dict:
        return {}

    def _add_param_group(self, group: dict) -> None:
        group["params"] = group_params(group["params"], TypeError(
            "optimizer parameters should be in ordered collections,but received set, please "
            "use list instead."))
        for k, v in self._default_dict.items():
            group.setdefault(k, v)
        if shared_with(self._param_groups, group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        for p in group["params"]:
            wd = group["weight_decay"]
            p.regularizer = L2Decay(wd) if isinstance(wd, float) else wd
            p.optimize_attr["learning_rate"] = group.get("learning_rate", 1.0)
        self._param_groups.append(group)

    # ---------------------------------------------------------------- learning rate
    def get_lr(self) -> float:
        lr = self._learning_rate
        return lr() if isinstance(lr, LRScheduler) else float(lr)

    def set_lr(self, value: float) -> None:
        if not isinstance(value, (int, float)):
            raise TypeError("The type of 'value' in optimizer.set_lr must be float, but "
                            f"received {type(value)}.")
        if isinstance(self._learning_rate, LRScheduler):
            raise RuntimeError("optimizer's learning rate can't be LRScheduler when invoke this "
                               "API, because this will lead to conflict.")
        self._learning_rate = float(value)

    def set_lr_scheduler(self, scheduler) -> None:
        if not isinstance(scheduler, LRScheduler):
            raise TypeError("The type of 'scheduler' in optimizer.set_lr_schduler must be "
                            f"LRScheduler, but received {type(scheduler)}.")
        self._learning_rate = scheduler

    # ---------------------------------------------------------------- stepping
    def _regularized(self, p, g, group):
        reg = p.regularizer if getattr(p, "regularizer", None) is not None else \
            group.get("weight_decay")
        if isinstance(reg, float):
            reg = L2Decay(reg)
        if reg is None or not self._uses_regularizer():
            return g
        if isinstance(reg, L1Decay):
            return _V.add_l1_decay(p.array, g, reg._coeff)
        return _V.add_l2_decay(p.array, g, reg._coeff)

    def _uses_regularizer(self) -> bool:
        return True

    def _create_accumulators(self, p) -> dict:
        """Name the accumulators of ``p`` (paddle's unique names: a second optimizer over
        the same parameter gets ``_1``) and fill them from a loaded state dict."""
        state = self._accumulator_state.get(id(p))
        if state is not None:
            return state
        state = self._accumulator_state[id(p)] = {}
        names = self._accumulator_names[id(p)] = {}
        pname = getattr(p, "name", None) or unique_name("generated_tensor")
        for acc in self._accumulators:
            name = unique_name(f"{pname}_{self._state_names.get(acc, acc)}")
            names[acc] = name
            if self._accumulators_holder:
                if name not in self._accumulators_holder:
                    raise AssertionError(f"Optimizer set error, {name} should in state dict")
                v = self._accumulators_holder.pop(name)
                state[acc] = _accumulator_like(v, p.array)
        return state

    @no_grad()
    def step(self) -> None:
        base_lr = self.get_lr()
        if not self._param_groups:
            raise IndexError("list index out of range")
        for group in self._param_groups:
            pairs = [(p, p.grad) for p in group["params"]
                     if not p.stop_gradient and p.grad is not None]
            clip = group.get("grad_clip")
            if clip is not None:
                pairs = clip(pairs)
            for p, g in pairs:
                garr = self._regularized(p, g.array, group)
                lr = base_lr * getattr(p, "optimize_attr", {}).get("learning_rate", 1.0)
                state = self._create_accumulators(p)
                self._update(p.array, garr.astype(p.array.dtype, copy=False), state, lr,
                             group, p)
                p.bump_version()

    def _update(self, p, g, state: dict, lr: float, group: dict, param) -> None:
        raise NotImplementedError

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Apply the gradients already computed by ``loss.backward()`` (dygraph)."""
        self.step()
        params = parameters if parameters is not None else self._parameter_list
        return None, [(p, p.grad) for p in params if p.grad is not None]

    def clear_grad(self, set_to_zero: bool = True) -> None:
        for p in self._parameter_list:
            if not p.stop_gradient:
                p.clear_gradient(set_to_zero)

    clear_gradients = clear_grad

    # ---------------------------------------------------------------- state
    def state_dict(self) -> dict:
        out = {}
        for acc in self._accumulators:
            for p in self._parameter_list:
                state = self._accumulator_state.get(id(p))
                if state is not None and acc in state:
                    out[self._accumulator_names[id(p)][acc]] = Tensor.wrap(state[acc])
        if isinstance(self._learning_rate, LRScheduler):
            out["LR_Scheduler"] = self._learning_rate.state_dict()
        return out

    _state_names: dict = {}

    def set_state_dict(self, state_dict: dict) -> None:
        """Accumulators are taken by name when they are created (at the next step)."""
        if isinstance(self._learning_rate, LRScheduler) and "LR_Scheduler" in state_dict:
            self._learning_rate.set_state_dict(state_dict["LR_Scheduler"])
        self._accumulators_holder = {k: v for k, v in state_dict.items()
                                     if k != "LR_Scheduler"}
        for p in self._parameter_list:  # accumulators already made take their values now
            names = self._accumulator_names.get(id(p), {})
            state = self._accumulator_state.get(id(p), {})
            for acc, name in names.items():
                if name in self._accumulators_holder:
                    v = self._accumulators_holder.pop(name)
                    state[acc] = _accumulator_like(v, p.array)

    set_dict = set_state_dict


def _accumulator_like(v, param_array):
    """A loaded accumulator as a fresh array of the parameter's dtype and device."""
    arr = v.array if isinstance(v, _EngineTensor) else v
    if type(arr) is not type(param_array):
        arr = to_device(arr, device_of(param_array))
    return arr.astype(param_array.dtype).copy()


class SGD(Optimizer):
    def _update(self, p, g, state, lr, group, param) -> None:
        _V.sgd_plain(p, g, lr)


class Momentum(Optimizer):
    _accumulators = ("velocity",)

    def __init__(self, learning_rate=0.001, momentum: float = 0.9, parameters=None,
                 use_nesterov: bool = False, weight_decay=None, grad_clip=None,
                 multi_precision: bool = False, rescale_grad: float = 1.0,
                 use_multi_tensor: bool = False, name=None) -> None:
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        if momentum is None:
            raise ValueError("momentum is not set")
        self._momentum = momentum
        self._use_nesterov = bool(use_nesterov)
        self._rescale_grad = rescale_grad
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _group_defaults(self) -> dict:
        return {"momentum": self._momentum, "use_nesterov": self._use_nesterov,
                "rescale_grad": self._rescale_grad}

    def _update(self, p, g, state, lr, group, param) -> None:
        if group["rescale_grad"] != 1.0:
            g = g * group["rescale_grad"]
        _V.momentum_lr_outside(p, g, state, lr, group["momentum"], group["use_nesterov"])


class Adam(Optimizer):
    _accumulators = ("moment1", "moment2", "beta1_pow", "beta2_pow")
    _state_names = {"beta1_pow": "beta1_pow_acc", "beta2_pow": "beta2_pow_acc"}

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 parameters=None, weight_decay=None, grad_clip=None, lazy_mode: bool = False,
                 multi_precision: bool = False, use_multi_tensor: bool = False,
                 amsgrad: bool = False, name=None) -> None:
        _check_adam_args(learning_rate, beta1, beta2, epsilon)
        self._beta1, self._beta2, self._epsilon = float(beta1), float(beta2), float(epsilon)
        self._amsgrad = amsgrad
        if amsgrad:
            self._accumulators = ("moment1", "moment2", "moment2_max", "beta1_pow",
                                  "beta2_pow")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _group_defaults(self) -> dict:
        return {"beta1": self._beta1, "beta2": self._beta2, "epsilon": self._epsilon}

    def _update(self, p, g, state, lr, group, param) -> None:
        _V.adam_scaled_eps(p, g, state, lr, group["beta1"], group["beta2"], group["epsilon"],
                           self._amsgrad)


class AdamW(Adam):
    """Adam with decoupled weight decay: p *= 1 - lr * coeff before the Adam step."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 parameters=None, weight_decay=0.01, use_lowprecision_moment: bool = False,
                 lr_ratio=None, apply_decay_param_fun=None, grad_clip=None,
                 lazy_mode: bool = False, multi_precision: bool = False, amsgrad: bool = False,
                 name=None) -> None:
        if not isinstance(weight_decay, (int, float)) and not isinstance(weight_decay,
                                                                          _EngineTensor):
            raise TypeError("weight_decay should be float or Tensor.")
        self._coeff = float(weight_decay)
        self._lr_ratio = lr_ratio
        self._apply_decay_param_fun = apply_decay_param_fun
        super().__init__(learning_rate, beta1, beta2, epsilon, parameters, None, grad_clip,
                         lazy_mode, multi_precision, False, amsgrad, name)

    def _group_defaults(self) -> dict:
        return dict(super()._group_defaults(), coeff=self._coeff)

    def _add_param_group(self, group: dict) -> None:
        if "weight_decay" in group:
            group["coeff"] = float(group.pop("weight_decay"))
        super()._add_param_group(group)

    def _uses_regularizer(self) -> bool:
        return False

    def _update(self, p, g, state, lr, group, param) -> None:
        coeff = group["coeff"]
        if self._apply_decay_param_fun is not None and \
                not self._apply_decay_param_fun(param.name):
            coeff = 0.0
        ratio = 1.0 if self._lr_ratio is None else self._lr_ratio(param)
        _V.adam_scaled_eps(p, g, state, lr * ratio, group["beta1"], group["beta2"],
                           group["epsilon"], self._amsgrad, decay_first=coeff)


class RMSProp(Optimizer):
    _accumulators = ("momentum", "mean_square", "mean_grad")

    def __init__(self, learning_rate, rho: float = 0.95, epsilon: float = 1e-06,
                 momentum: float = 0.0, centered: bool = False, parameters=None,
                 weight_decay=None, grad_clip=None, name=None) -> None:
        if learning_rate is None:
            raise ValueError("learning_rate is not set.")
        if rho is None:
            raise ValueError("rho is not set.")
        if epsilon is None:
            raise ValueError("epsilon is not set.")
        if momentum is None:
            raise ValueError("momentum is not set.")
        if not 0.0 <= epsilon:
            raise ValueError("Invalid value of epsilon, expect epsilon >= 0.")
        if not 0.0 <= momentum:
            raise ValueError("Invalid value of momentum, expect momentum >= 0.")
        if not 0.0 <= rho:
            raise ValueError("Invalid value of rho, expect rho >= 0.")
        self._rho, self._epsilon, self._momentum = rho, epsilon, momentum
        self._centered = centered
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _group_defaults(self) -> dict:
        return {"rho": self._rho, "epsilon": self._epsilon, "momentum": self._momentum,
                "centered": self._centered}

    def _update(self, p, g, state, lr, group, param) -> None:
        _V.rmsprop_eps_inside(p, g, state, lr, group["rho"], group["epsilon"],
                              group["momentum"], group["centered"])
        if "mean_grad" not in state:
            state["mean_grad"] = _V.zeros_like_array(p)


class Adagrad(Optimizer):
    _accumulators = ("moment",)

    def __init__(self, learning_rate, epsilon: float = 1e-06, parameters=None,
                 weight_decay=None, grad_clip=None, name=None,
                 initial_accumulator_value: float = 0.0) -> None:
        if learning_rate is None:
            raise ValueError("learning_rate is not set.")
        if epsilon is None:
            raise ValueError("epsilon is not set.")
        self._epsilon = epsilon
        self._initial = initial_accumulator_value
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _group_defaults(self) -> dict:
        return {"epsilon": self._epsilon, "initial_accumulator_value": self._initial}

    def _update(self, p, g, state, lr, group, param) -> None:
        _V.adagrad_eps_outside(p, g, state, lr, group["epsilon"],
                               group["initial_accumulator_value"])


def _check_adam_args(learning_rate, beta1, beta2, epsilon) -> None:
    if learning_rate is None:
        raise AssertionError
    if not isinstance(beta1, _EngineTensor) and not 0 <= beta1 < 1:
        raise ValueError("Invaild value of beta1, expect beta1 in [0,1).")
    if not isinstance(beta2, _EngineTensor) and not 0 <= beta2 < 1:
        raise ValueError("Invaild value of beta2, expect beta2 in [0,1).")
    if not isinstance(epsilon, _EngineTensor) and not 0 <= epsilon:
        raise ValueError("Invaild value of epsilon, expect epsilon >= 0.")


for _cls in (Optimizer, SGD, Momentum, Adam, AdamW, RMSProp, Adagrad):
    _cls.__module__ = "paddle.optimizer." + _cls.__name__.lower()
