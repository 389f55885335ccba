"""The bookkeeping of an optimiser, independent of any framework's names: parameter groups
(dicts with 'params' and hyper-parameters), per-parameter state, the state as a
picklable dict of plain indices, and one step over all groups.

The update math is engine.nn.optim; a dialect's optimiser class holds the groups and the
state, words the errors (passed in as exceptions or callables) and picks the rule.
"""
from __future__ import annotations

from janusgrad.array.backend import device_of, to_device
from janusgrad.core.tensor import Tensor


def group_params(params, set_error: Exception) -> list:
    """A group's 'params' as a list: one tensor becomes a list of it; a set is refused
    (its order changes between runs, so state could not be matched back)."""
    if isinstance(params, Tensor):
        return [params]
    if isinstance(params, set):
        raise set_error
    return list(params)


def shared_with(groups: list, params: list) -> bool:
    """Whether any of ``params`` is already in one of ``groups``."""
    seen = {id(p) for g in groups for p in g["params"]}
    return any(id(p) in seen for p in params)


def has_duplicates(params: list) -> bool:
    return len(params) != len({id(p) for p in params})


def step_groups(groups: list, state: dict, update) -> None:
    """``update(p, state_of_p, group)`` for every parameter that has a gradient. A
    parameter's state dict is made on its first update and kept only if the rule put
    something in it (a stateless rule leaves no entry)."""
    get = state.get
    for group in groups:
        for p in group["params"]:
            if p._grad is not None:
                s = get(p)
                if s is None:
                    s = {}
                    update(p, s, group)
                    if s:
                        state[p] = s
                else:
                    update(p, s, group)


def pack_state(groups: list, state: dict) -> dict:
    """{'state': {index: state}, 'param_groups': [group with 'params' as indices]}: each
    parameter numbered by its first place across the groups, as checkpoints store it."""
    index: dict = {}
    packed_groups = []
    start = 0
    for g in groups:
        packed = {k: v for k, v in g.items() if k != "params"}
        for i, p in enumerate(g["params"], start):
            index.setdefault(id(p), i)
        packed["params"] = [index[id(p)] for p in g["params"]]
        start += len(packed["params"])
        packed_groups.append(packed)
    packed_state = {index[id(p)]: s for p, s in state.items() if id(p) in index}
    return {"state": packed_state, "param_groups": packed_groups}


def unpack_state(groups: list, packed: dict, count_error: Exception,
                 size_error: Exception) -> tuple[dict, list]:
    """(state keyed by parameter, new groups) from ``pack_state``'s form, matched to
    ``groups`` by position; the saved hyper-parameters replace the current ones. State
    tensors are copied onto their parameter (see ``follow_param``)."""
    saved = packed["param_groups"]
    if len(groups) != len(saved):
        raise count_error
    if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved)):
        raise size_error
    by_index = {old: p for g, s in zip(groups, saved) for old, p in zip(s["params"],
                                                                       g["params"])}
    state = {}
    for k, v in packed["state"].items():
        if k in by_index:
            p = by_index[k]
            state[p] = {name: follow_param(p, value, name != "step")
                        for name, value in v.items()}
    new_groups = []
    for g, s in zip(groups, saved):
        ng = {k: v for k, v in s.items() if k != "params"}
        ng["params"] = g["params"]
        new_groups.append(ng)
    return state, new_groups


def follow_param(p, value, cast: bool = True):
    """A copy of state ``value`` for parameter ``p``: when ``cast``, a floating tensor
    takes the parameter's dtype and device (a step counter stays as saved); anything
    other than a tensor is returned as is."""
    if not isinstance(value, Tensor):
        return value
    a = value.array.copy()
    if cast:
        if a.dtype.kind == "f" and a.dtype != p.array.dtype:
            a = a.astype(p.array.dtype)
        a = to_device(a, device_of(p.array))
    return type(p).wrap(a)
