"""Batching, splitting and collation, independent of any framework's names."""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from janusgrad.ops.creation import default_generator


def _gen(generator):
    return default_generator if generator is None else generator


def sample_order(n: int, shuffle: bool, generator=None) -> list[int]:
    if shuffle:
        return [int(i) for i in _gen(generator).permutation(n)]
    return list(range(n))


def batch_index_lists(n: int, batch_size: int, shuffle: bool = False, drop_last: bool = False,
                      generator=None) -> list[list[int]]:
    """The sample indices of each batch of one epoch."""
    order = sample_order(n, shuffle, generator)
    batches = [order[i:i + batch_size] for i in range(0, n, batch_size)]
    if drop_last and batches and len(batches[-1]) < batch_size:
        batches.pop()
    return batches


def number_of_batches(n: int, batch_size: int, drop_last: bool) -> int:
    return n // batch_size if drop_last else math.ceil(n / batch_size)


def split_lengths(n: int, lengths: Sequence) -> list[int]:
    """Absolute lengths; fractions summing to 1 are turned into counts the way torch
    does (floor, then the remainder handed out one by one from the first subset)."""
    lengths = list(lengths)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            counts.append(int(math.floor(n * frac)))
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        return counts
    return [int(x) for x in lengths]


def random_split_indices(n: int, lengths: Sequence, generator=None) -> list[list[int]]:
    counts = split_lengths(n, lengths)
    if sum(counts) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = [int(i) for i in _gen(generator).permutation(n)]
    out, start = [], 0
    for c in counts:
        out.append(order[start:start + c])
        start += c
    return out


def collate(batch: list, is_tensor: Callable, stack: Callable, numbers: Callable):
    """Default collation: tensors are stacked, numbers become one tensor (``numbers``
    receives the list), mappings and sequences are collated field by field (tuples
    give lists, as torch's default_collate does), anything else is returned as is."""
    elem = batch[0]
    if is_tensor(elem):
        return stack(batch)
    if isinstance(elem, (bool, int, float)):
        return numbers(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, Mapping):
        return {k: collate([d[k] for d in batch], is_tensor, stack, numbers) for k in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return type(elem)(*(collate(list(s), is_tensor, stack, numbers) for s in zip(*batch)))
    if isinstance(elem, Sequence):
        size = len(elem)
        if any(len(e) != size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [collate(list(s), is_tensor, stack, numbers) for s in zip(*batch)]
    return batch


def group_indices(indices, batch_size: int, drop_last: bool):
    """Consecutive lists of ``batch_size`` items from any iterable (a sampler's indices, an
    iterable dataset's samples); the short last one is kept unless ``drop_last``."""
    batch = []
    for i in indices:
        batch.append(i)
        if len(batch) == batch_size:
            yield batch
            batch = []
    if batch and not drop_last:
        yield batch


def map_nested(obj, is_leaf: Callable, fn: Callable, tuples_as_lists: bool = False):
    """``fn`` applied to every leaf of nested dicts, lists, tuples and named tuples (the
    containers rebuilt, a dict as its own type when that type can be built from a dict, as
    torch's default_convert does; tuples as lists when ``tuples_as_lists``); anything else
    is returned as is."""
    if is_leaf(obj):
        return fn(obj)
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*(map_nested(x, is_leaf, fn, tuples_as_lists) for x in obj))
    if isinstance(obj, tuple):
        items = [map_nested(x, is_leaf, fn, tuples_as_lists) for x in obj]
        return items if tuples_as_lists else tuple(items)
    if isinstance(obj, list):
        return [map_nested(x, is_leaf, fn, tuples_as_lists) for x in obj]
    if isinstance(obj, dict):
        items = {k: map_nested(v, is_leaf, fn, tuples_as_lists) for k, v in obj.items()}
        try:
            return items if type(obj) is dict else type(obj)(items)
        except TypeError:  # a mapping type not made from a dict (defaultdict)
            return items
    return obj


def any_nested(obj, cond: Callable) -> bool:
    """Whether ``cond`` holds for ``obj`` or anything inside its (nested) dict values,
    lists, tuples and sets."""
    if cond(obj):
        return True
    if isinstance(obj, dict):
        return any(any_nested(v, cond) for v in obj.values())
    if isinstance(obj, (list, tuple, set, frozenset)):
        return any(any_nested(v, cond) for v in obj)
    return False
