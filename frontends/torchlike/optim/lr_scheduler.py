"""torch.optim.lr_scheduler: StepLR, ExponentialLR, CosineAnnealingLR (chained forms)."""
from __future__ import annotations

import warnings

from janusgrad.nn import schedule as NS

from .optimizer import Optimizer

_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and "
    "later, you should call them in the opposite order: `optimizer.step()` before "
    "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first "
    "value of the learning rate schedule. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")


class LRScheduler:
    def __init__(self, optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] "
                                   "when resuming an optimizer")
        self.base_lrs = [g["initial_lr"] for g in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._step_count = 0
        self._initial_step()

    def _initial_step(self) -> None:
        self._step_count = 0
        self._is_initial = True
        self._get_lr_called_within_step = False
        self.step()
        self._is_initial = False

    def get_last_lr(self) -> list:
        return self._last_lr

    def get_lr(self) -> list:
        raise NotImplementedError

    def step(self, epoch=None) -> None:
        if self._step_count == 1 and not getattr(self.optimizer, "_opt_called", False):
            warnings.warn(_ORDER_WARNING, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn("The epoch parameter in `scheduler.step()` was not necessary and is "
                          "being deprecated where possible. Please use `scheduler.step()` to "
                          "step the scheduler. During the deprecation, if epoch is different "
                          "from None, the closed form is used instead of the new chainable "
                          "form, where available. Please open an issue if you are unable to "
                          "replicate your use case: https://github.com/pytorch/pytorch/issues/"
                          "new/choose.", UserWarning, stacklevel=2)
            self.last_epoch = epoch
            values = self._closed_form() if hasattr(self, "_closed_form") else self.get_lr()
        else:
            self.last_epoch += 1
            values = self.get_lr()
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = [g["lr"] for g in self.optimizer.param_groups]

    def state_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)


class StepLR(LRScheduler):
    def __init__(self, optimizer, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        return [NS.step_lr_chained(g["lr"], self.last_epoch, self.step_size, self.gamma)
                for g in self.optimizer.param_groups]

    def _closed_form(self) -> list:
        return [NS.step_lr(b, self.last_epoch, self.step_size, self.gamma)
                for b in self.base_lrs]


class ExponentialLR(LRScheduler):
    def __init__(self, optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        return [NS.exponential_lr_chained(g["lr"], self.last_epoch, self.gamma)
                for g in self.optimizer.param_groups]

    def _closed_form(self) -> list:
        return [NS.exponential_lr(b, self.last_epoch, self.gamma) for b in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    def __init__(self, optimizer, T_max: int, eta_min: float = 0.0,  # noqa: N803
                 last_epoch: int = -1) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        return [NS.cosine_annealing_chained(g["lr"], b, self.last_epoch, self.T_max,
                                            self.eta_min)
                for g, b in zip(self.optimizer.param_groups, self.base_lrs)]

    def _closed_form(self) -> list:
        return [NS.cosine_annealing(b, self.last_epoch, self.T_max, self.eta_min)
                for b in self.base_lrs]


_LRScheduler = LRScheduler
for _cls in (LRScheduler, StepLR, ExponentialLR, CosineAnnealingLR):
    _cls.__module__ = "torch.optim.lr_scheduler"
