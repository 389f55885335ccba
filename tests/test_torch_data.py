"""torch.utils.data in torchlike against real torch 2.13: batching order, collation,
lengths, random_split and Subset."""
from __future__ import annotations

import numpy as np
import pytest

import torchlike
from torchlike.utils import data as jdata

torch = pytest.importorskip("torch")


def _flat(batches):
    """Batches as nested Python lists/values, for comparing across the frameworks."""
    def conv(x):
        if hasattr(x, "tolist"):
            return ("tensor", str(x.dtype).replace("torch.", ""), tuple(x.shape), x.tolist())
        if isinstance(x, dict):
            return {k: conv(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return (type(x).__name__, [conv(v) for v in x])
        return x
    return [conv(b) for b in batches]


class _Items:
    """A map-style dataset of mixed items, defined for either framework."""

    def __init__(self, t, kind):
        self.t, self.kind = t, kind

    def __len__(self):
        return 7

    def __getitem__(self, i):
        t = self.t
        if self.kind == "tuple":
            return t.full((2,), float(i)), i
        if self.kind == "dict":
            return {"x": t.arange(3) * i, "y": float(i) / 2, "name": f"s{i}"}
        if self.kind == "numbers":
            return i * 1.5
        if self.kind == "ints":
            return i
        if self.kind == "list":
            return [t.tensor([i, i]), True]
        raise AssertionError


@pytest.mark.parametrize("kind", ["tuple", "dict", "numbers", "ints", "list"])
@pytest.mark.parametrize("batch_size,drop_last", [(1, False), (3, False), (3, True), (7, True)])
def test_batches_without_shuffle_match_torch(kind, batch_size, drop_last):
    a = torch.utils.data.DataLoader(_Items(torch, kind), batch_size=batch_size,
                                    drop_last=drop_last)
    b = jdata.DataLoader(_Items(torchlike, kind), batch_size=batch_size, drop_last=drop_last)
    assert len(b) == len(a)
    assert _flat(b) == _flat(a)


def test_tensor_dataset_loader_and_no_batching():
    x = np.arange(20, dtype=np.float32).reshape(10, 2)
    y = np.arange(10)
    a = torch.utils.data.TensorDataset(torch.tensor(x), torch.tensor(y))
    b = jdata.TensorDataset(torchlike.tensor(x), torchlike.tensor(y))
    assert len(a) == len(b) and _flat([b[3]]) == _flat([a[3]])
    for kw in ({"batch_size": 4}, {"batch_size": 4, "drop_last": True}, {"batch_size": None}):
        assert _flat(jdata.DataLoader(b, **kw)) == _flat(torch.utils.data.DataLoader(a, **kw))


def test_shuffle_covers_every_sample_once_and_follows_the_seed():
    ds = jdata.TensorDataset(torchlike.arange(50))
    def order(seed):
        torchlike.manual_seed(seed)
        return [int(v) for (b,) in jdata.DataLoader(ds, batch_size=8, shuffle=True) for v in b]
    first = order(3)
    assert sorted(first) == list(range(50)) and first != list(range(50))
    assert order(3) == first
    g = torchlike.Generator().manual_seed(5)
    again = [int(v) for (b,) in jdata.DataLoader(ds, batch_size=8, shuffle=True, generator=g)
             for v in b]
    assert sorted(again) == list(range(50))


def test_collate_fn_and_num_workers_are_honoured():
    ds = jdata.TensorDataset(torchlike.arange(6))
    loader = jdata.DataLoader(ds, batch_size=4, collate_fn=lambda items: len(items),
                              num_workers=2)
    assert list(loader) == [4, 2]


@pytest.mark.parametrize("lengths", [[3, 7], [0.3, 0.7], [0.5, 0.25, 0.25], [0.34, 0.33, 0.33]])
def test_random_split_lengths_match_torch(lengths):
    a = torch.utils.data.random_split(range(10), lengths)
    b = jdata.random_split(range(10), lengths)
    assert [len(s) for s in b] == [len(s) for s in a]
    assert sorted(i for s in b for i in s) == list(range(10))
    assert all(isinstance(s, jdata.Subset) for s in b)


def test_random_split_bad_lengths_like_torch():
    with pytest.raises(ValueError) as ra:
        torch.utils.data.random_split(range(10), [3, 3])
    with pytest.raises(ValueError) as rb:
        jdata.random_split(range(10), [3, 3])
    assert str(rb.value) == str(ra.value)


def test_subset_and_tensor_dataset_size_mismatch():
    ds = jdata.TensorDataset(torchlike.arange(10) * 2)
    sub = jdata.Subset(ds, [1, 5, 7])
    assert len(sub) == 3 and int(sub[1][0]) == 10
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        jdata.TensorDataset(torchlike.ones(3), torchlike.ones(4))
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        torch.utils.data.TensorDataset(torch.ones(3), torch.ones(4))
