"""paddle.optimizer.lr: schedulers that step once per call of ``step()``.

Made with ``last_epoch=-1``, a scheduler steps once at construction (epoch 0,
the base rate); ``scheduler()`` returns the current rate.
"""
from __future__ import annotations

import warnings

from janusgrad.host.dropin import module_getattr as _module_getattr
from janusgrad.nn import schedule as _S


class LRScheduler:
    def __init__(self, learning_rate: float = 0.1, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if not isinstance(learning_rate, (float, int)):
            raise TypeError("The type of learning rate must be float, but received "
                            f"{type(learning_rate)}")
        if learning_rate < 0:
            raise ValueError(f"Invalid learning rate: {learning_rate}")
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self._var_name = None
        self.step()

    def __call__(self) -> float:
        return self.last_lr

    def step(self, epoch: int | None = None) -> None:
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
        else:
            self.last_epoch = epoch
            closed = getattr(self, "_get_closed_form_lr", None)
            self.last_lr = closed() if closed is not None else self.get_lr()
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to "
                  f"{self.last_lr}.")

    def state_keys(self) -> None:
        self.keys = ["last_epoch", "last_lr"]

    def state_dict(self) -> dict:
        self.state_keys()
        return {k: self.__dict__[k] for k in self.keys if k in self.__dict__}

    def set_state_dict(self, state_dict: dict) -> None:
        self.state_keys()
        for key in self.keys:
            if key not in state_dict:
                raise RuntimeError("Please check whether state_dict is correct for optimizer. "
                                   f"Can't find [ {key} ] in state_dict")
            self.__dict__[key] = state_dict[key]
        if len(state_dict) > len(self.keys):
            warnings.warn("There are some unused values in state_dict. Maybe the optimizer have "
                          "different 'LearningRateDecay' when invoking state_dict and set_dict",
                          stacklevel=2)

    set_dict = set_state_dict

    def get_lr(self) -> float:
        raise NotImplementedError


class StepDecay(LRScheduler):
    def __init__(self, learning_rate: float, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1, verbose: bool = False) -> None:
        if not isinstance(step_size, int):
            raise TypeError("The type of 'step_size' must be 'int', but received "
                            f"{type(step_size)}.")
        if gamma >= 1.0:
            raise ValueError("gamma should be < 1.0.")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return _S.step_lr(self.base_lr, self.last_epoch, self.step_size, self.gamma)


class ExponentialDecay(LRScheduler):
    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if gamma <= 0.0 or gamma >= 1.0:
            raise ValueError(" 'gamma' must be in interval (0.0, 1.0) so that the learning "
                             "rate will decay.")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return _S.exponential_lr(self.base_lr, self.last_epoch, self.gamma)


class CosineAnnealingDecay(LRScheduler):
    def __init__(self, learning_rate: float, T_max: int, eta_min: float = 0,  # noqa: N803
                 last_epoch: int = -1, verbose: bool = False) -> None:
        if not isinstance(T_max, int):
            raise TypeError("The type of 'T_max' in 'CosineAnnealingDecay' must be 'int', but "
                            f"received {type(T_max)}.")
        if not isinstance(eta_min, (float, int)):
            raise TypeError("The type of 'eta_min' in 'CosineAnnealingDecay' must be 'float, "
                            f"int', but received {type(eta_min)}.")
        if T_max <= 0:
            raise AssertionError(" 'T_max' must be a positive integer.")
        self.T_max = T_max
        self.eta_min = float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return _S.cosine_annealing_chained(self.last_lr, self.base_lr, self.last_epoch,
                                           self.T_max, self.eta_min)

    def _get_closed_form_lr(self) -> float:
        return _S.cosine_annealing(self.base_lr, self.last_epoch, self.T_max, self.eta_min)


for _cls in (LRScheduler, StepDecay, ExponentialDecay, CosineAnnealingDecay):
    _cls.__module__ = "paddle.optimizer.lr"

__getattr__ = _module_getattr("paddlelike", "paddle.optimizer.lr")
