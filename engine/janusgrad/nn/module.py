"""The neutral core of a layer class: parameters, buffers and child layers registered by
attribute, walks over the tree, state as flat dicts, hooks around ``forward``.

A dialect's layer class subclasses ``ModuleCore`` and keeps its own names, signatures,
printed form and the wording of its errors. What the core needs from it:

- ``_PARAMETER``: the parameter class (assigning one registers a parameter);
- ``_CHILDREN``, ``_NON_PERSISTENT``, ``_POST_HOOKS``: the instance attributes holding the
  child layers, the names of buffers kept out of the state, and the forward post-hooks,
  as the dialect spells them (the parameters and buffers live in ``_parameters`` and
  ``_buffers``, the pre-hooks in ``_forward_pre_hooks``, in both dialects), and
  ``_STORES``, the three registries in the order attribute lookup probes them;
- ``_early_error(role)`` and ``_assign_error(role, name, value)``: the exception for an
  assignment before the stores exist, and for assigning a wrong type to a name registered
  as ``role`` ('parameter', 'child', 'buffer').

All stores are plain dicts in the instance ``__dict__`` (so pickling and deep copies see
them); the hot path, ``layer.weight`` inside ``forward``, is one ``__getattr__`` probing
three dicts.
"""
from __future__ import annotations

import itertools
from collections.abc import Mapping

from janusgrad.array.backend import to_device
from janusgrad.core.mode import state
from janusgrad.core.params import assign_
from janusgrad.core.tensor import Tensor

_hook_ids = itertools.count()


class ModuleCore:
    _PARAMETER: type = Tensor
    _CHILDREN = "_children"
    _NON_PERSISTENT = "_non_persistent"
    _POST_HOOKS = "_forward_post_hooks"
    _STORES = ("_parameters", "_buffers", "_children")  # __getattr__'s probe order

    def _fresh_stores(self) -> dict:
        """The attributes a new layer starts with, in order: the core's stores (a dialect
        may add its framework's own, so that a pickled layer has that framework's layout
        and loads in it)."""
        return {"training": True, "_parameters": {}, "_buffers": {},
                self._NON_PERSISTENT: set(), self._CHILDREN: {}, "_forward_pre_hooks": {},
                self._POST_HOOKS: {}}

    def _init_stores(self) -> None:
        self.__dict__.update(self._fresh_stores())

    # ---------------------------------------------------------------- pickling
    def __getstate__(self) -> dict:
        return self.__dict__.copy()

    def __setstate__(self, state: dict) -> None:
        """A pickled layer's attributes; the stores a pickle lacks (one written by another
        version of the framework) start empty, as in a new layer."""
        d = self.__dict__
        d.update(state)
        for name, value in self._fresh_stores().items():
            d.setdefault(name, value)

    # ---------------------------------------------------------------- dialect policy
    def _early_error(self, role: str) -> Exception:
        return AttributeError(f"cannot assign {role} before the layer is initialised")

    def _assign_error(self, role: str, name: str, value) -> Exception:
        return TypeError(f"cannot assign '{type(value).__name__}' as {role} '{name}'")

    def _put_parameter(self, name: str, value) -> None:
        """Store a parameter (or None) by assignment; a dialect may check the name first."""
        self._parameters[name] = value

    # ---------------------------------------------------------------- attribute routing
    def __setattr__(self, name: str, value) -> None:
        if state.tracing is not None and isinstance(value, Tensor):
            # (d2l's attention keeps its weights so: a replay would not set them again)
            state.tracing.escape("a tensor stored on a module inside the function (a Python "
                              "side effect a replay would not repeat)")
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, self._PARAMETER):
            if params is None:
                raise self._early_error("parameter")
            if name not in params:  # a re-assigned name keeps its place in the order
                self._forget(name)
            self._put_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise self._assign_error("parameter", name, value)
            self._put_parameter(name, None)
            return
        children = d.get(self._CHILDREN)
        if isinstance(value, ModuleCore):
            if children is None:
                raise self._early_error("child")
            if name not in children:
                self._forget(name)
            children[name] = value
            return
        if children is not None and name in children:
            if value is not None:
                raise self._assign_error("child", name, value)
            children[name] = None
            return
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise self._assign_error("buffer", name, value)
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def __getattr__(self, name: str):
        d = self.__dict__
        for store in self._STORES:
            s = d.get(store)
            if s is not None and name in s:
                return s[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        d = self.__dict__
        for store in self._STORES:
            s = d[store]
            if name in s:
                del s[name]
                d[self._NON_PERSISTENT].discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        d = self.__dict__
        return sorted(set(object.__dir__(self)).union(*(d[s] for s in self._STORES)))

    def _forget(self, name: str) -> None:
        """A name re-registered in another role leaves its old role."""
        d = self.__dict__
        d.pop(name, None)
        for store in self._STORES:
            s = d.get(store)
            if s is not None:
                s.pop(name, None)
        nps = d.get(self._NON_PERSISTENT)
        if nps is not None:
            nps.discard(name)

    def _set_buffer(self, name: str, tensor, persistent: bool) -> None:
        self._buffers[name] = tensor
        nps = self.__dict__[self._NON_PERSISTENT]
        if persistent:
            nps.discard(name)
        else:
            nps.add(name)

    def _renumber(self, children) -> None:
        """Register ``children`` afresh as '0', '1', ... (after a list-like edit)."""
        store = self.__dict__[self._CHILDREN]
        store.clear()
        for i, child in enumerate(children):
            store[str(i)] = child

    # ---------------------------------------------------------------- calling
    def _call_with_hooks(self, args, kwargs):
        """forward between the pre-hooks (which may replace the positional inputs) and the
        post-hooks (which may replace the output)."""
        for hook in list(self._forward_pre_hooks.values()):
            r = hook(self, args)
            if r is not None:
                args = r if isinstance(r, tuple) else (r,)
        out = self.forward(*args, **kwargs)
        for hook in list(self.__dict__[self._POST_HOOKS].values()):
            r = hook(self, args, out)
            if r is not None:
                out = r
        return out

    @staticmethod
    def _add_hook(table: dict, hook, handle_cls):
        k = next(_hook_ids)
        table[k] = hook
        return handle_cls(table, k)

    # ---------------------------------------------------------------- walks
    def _walk(self, prefix: str = "", memo: set | None = None, remove_duplicate: bool = True):
        """(dotted name, layer) for this layer and every layer below it, depth first;
        ``memo`` holds the layers already seen (each is yielded once unless
        ``remove_duplicate`` is false)."""
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, child in self.__dict__[self._CHILDREN].items():
            if child is not None:
                yield from child._walk(prefix + ("." if prefix else "") + name, memo,
                                       remove_duplicate)

    def _named_members(self, store: str, prefix: str, recurse: bool,
                       remove_duplicate: bool = True, unique_layers: bool | None = None):
        """(dotted name, tensor) of ``store`` ('_parameters' or '_buffers'), each tensor
        once unless ``remove_duplicate`` is false; None entries are skipped. Each layer is
        visited once unless ``unique_layers`` (default: ``remove_duplicate``) is false."""
        memo = set()
        if unique_layers is None:
            unique_layers = remove_duplicate
        layers = self._walk(prefix, None, unique_layers) if recurse else [(prefix, self)]
        for layer_prefix, layer in layers:
            for name, value in getattr(layer, store).items():
                if value is None or id(value) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(value))
                yield layer_prefix + ("." if layer_prefix else "") + name, value

    def named_children(self):
        memo = set()
        for name, child in self.__dict__[self._CHILDREN].items():
            if child is not None and id(child) not in memo:
                memo.add(id(child))
                yield name, child

    def children(self):
        for _, child in self.named_children():
            yield child

    def apply(self, fn):
        """``fn`` on every child (recursively, children first), then on this layer."""
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    def _own_tensors(self, buffers: bool = True):
        yield from (p for p in self._parameters.values() if p is not None)
        if buffers:
            yield from (b for b in self._buffers.values() if b is not None)

    def _cast_and_move(self, np_dtype=None, device=None, buffers: bool = True,
                       grads: bool = True):
        """Cast floating parameters (and buffers) to ``np_dtype`` and move them to engine
        ``device``, in place: the same objects afterwards with new data (and so their
        gradients, when ``grads``)."""
        for _, layer in self._walk():
            for t in layer._own_tensors(buffers):
                retype(t, np_dtype, device)
                if grads and t.grad is not None:
                    retype(t.grad, np_dtype, device)
        return self

    # ---------------------------------------------------------------- state
    def _persistent_items(self):
        """(name, tensor) of this layer's own state: parameters, then persistent buffers."""
        nps = self.__dict__[self._NON_PERSISTENT]
        for name, p in self._parameters.items():
            if p is not None:
                yield name, p
        for name, b in self._buffers.items():
            if b is not None and name not in nps:
                yield name, b

    def _collect_state(self, destination: dict, prefix: str = "", keep_vars: bool = True,
                       visit=None) -> dict:
        """Fill ``destination`` with 'child.name' -> tensor for the whole tree (detached
        unless ``keep_vars``); ``visit(layer, prefix)`` is called on each layer first."""
        if visit is not None:
            visit(self, prefix)
        for name, t in self._persistent_items():
            destination[prefix + name] = t if keep_vars else t.detach()
        for name, child in self.__dict__[self._CHILDREN].items():
            if child is not None:
                child._collect_state(destination, prefix + name + ".", keep_vars, visit)
        return destination

    def _load_state(self, state: Mapping) -> StateLoad:
        """Copy the matching entries of ``state`` into this tree's tensors (onto their
        devices) and report the rest as facts; nothing is raised."""
        result = StateLoad()
        self._load_walk(state, "", result)
        return result

    def _load_walk(self, state: Mapping, prefix: str, result: StateLoad) -> None:
        nps = self.__dict__[self._NON_PERSISTENT]
        children = self.__dict__[self._CHILDREN]
        local = dict(self._parameters)
        local.update((k, v) for k, v in self._buffers.items() if k not in nps)
        for name, target in local.items():
            key = prefix + name
            if target is None:
                continue
            if key not in state:
                result.missing.append(key)
                continue
            value = state[key]
            if isinstance(value, Tensor) and value.array.shape == target.array.shape:
                assign_(target, value)
                result.loaded.append(key)
            else:
                result.mismatched.append((key, value, target))
        for key in state:
            if key.startswith(prefix):
                rest = key[len(prefix):]
                if rest.split(".", 1)[0] not in children and rest not in local:
                    result.unexpected.append(key)
        for name, child in children.items():
            if child is not None:
                child._load_walk(state, prefix + name + ".", result)


class ChildList:
    """The list side of a container layer (mixed in before a ``ModuleCore`` subclass):
    children in registration order, positions as ints (negative from the end), and list
    edits that renumber the children '0', '1', ....

    The dialect supplies ``_add_child(name, child)`` (its registering call, with its
    checks) and may reword ``_range_error``; slicing builds ``type(self)(children)`` unless
    ``_slice`` says otherwise.
    """

    def __len__(self) -> int:
        return len(self.__dict__[self._CHILDREN])

    def __iter__(self):
        return iter(self.__dict__[self._CHILDREN].values())

    def _range_error(self, idx: int, n: int) -> Exception:
        return IndexError(f"index {idx} is out of range")

    def _position(self, idx: int) -> int:
        n = len(self)
        if not -n <= idx < n:
            raise self._range_error(idx, n)
        return idx + n if idx < 0 else idx

    def _key_at(self, idx: int) -> str:
        return list(self.__dict__[self._CHILDREN])[self._position(idx)]

    def _slice(self, idx: slice):
        return type(self)(list(self)[idx])

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self._slice(idx)
        return list(self)[self._position(idx)]

    def __setitem__(self, idx: int, child) -> None:
        setattr(self, self._key_at(idx), child)

    def __delitem__(self, idx) -> None:
        children = list(self)
        del children[idx if isinstance(idx, slice) else self._position(idx)]
        self._renumber(children)

    def append(self, child):
        self._add_child(str(len(self)), child)
        return self

    def extend(self, children):
        for child in children:
            self.append(child)
        return self

    def insert(self, index: int, child) -> None:
        """Before position ``index``, as ``list.insert`` places it."""
        children = list(self)
        children.insert(index, child)
        self._renumber(children)

    def _run_in_order(self, x):
        """Each child applied to the previous one's output (a sequential forward)."""
        for child in self.__dict__[self._CHILDREN].values():
            x = child(x)
        return x


class StateLoad:
    """What loading a state dict found: keys ``loaded``, ``missing`` (the layer has them,
    the dict does not), ``unexpected`` (the dict has them, no layer does), and, in the order
    met, ``mismatched`` entries (key, given value, own tensor) whose value is not a tensor
    or has another shape (left as they were)."""

    __slots__ = ("loaded", "missing", "unexpected", "mismatched")

    def __init__(self) -> None:
        self.loaded: list = []
        self.missing: list = []
        self.unexpected: list = []
        self.mismatched: list = []


def retype(t, np_dtype=None, device=None) -> None:
    """Cast ``t`` (when floating) to ``np_dtype`` and move it to ``device``, in place."""
    a = t.array
    if np_dtype is not None and a.dtype.kind == "f" and a.dtype != np_dtype:
        a = a.astype(np_dtype)
    if device is not None:
        a = to_device(a, device)
    t.array = a


def add_indent(text: str, spaces: int) -> str:
    """Every line of ``text`` after the first indented by ``spaces`` (nested reprs)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])
