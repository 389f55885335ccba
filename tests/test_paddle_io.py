"""paddlelike.io against real paddle 3.3.1: dataset indexing, DataLoader batching order
with shuffle off, drop_last, default collation, collate_fn, random_split, Subset."""
import numpy as np
import pytest

import paddlelike

paddle = pytest.importorskip("paddle")


def _plain(obj):
    """Batches as comparable Python data (dtype name, shape, values)."""
    if hasattr(obj, "numpy"):
        return (str(obj.dtype), list(obj.shape), obj.numpy().tolist())
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, [_plain(v) for v in obj])
    return obj


def _both(fn):
    return fn(paddle), fn(paddlelike)


@pytest.mark.parametrize("batch_size,drop_last", [(1, False), (4, False), (4, True),
                                                  (6, False), (10, False)])
def test_tensor_dataset_batches_in_order(batch_size, drop_last):
    def run(m):
        X = m.arange(14, dtype="float32").reshape([7, 2])
        y = m.arange(7)
        ds = m.io.TensorDataset([X, y])
        dl = m.io.DataLoader(ds, batch_size=batch_size, shuffle=False, drop_last=drop_last)
        return len(ds), _plain(ds[3]), len(dl), [_plain(b) for b in dl]
    a, b = _both(run)
    assert a == b


class _Samples:
    def __init__(self, m):
        self.m = m

    def make(self):
        class D(self.m.io.Dataset):
            def __len__(self):
                return 5

            def __getitem__(self, i):
                return np.array([i, 2 * i], "float32"), i, i / 2, {"a": i}
        return D()


def test_default_collation_of_arrays_numbers_and_dicts():
    a, b = _both(lambda m: [_plain(x) for x in m.io.DataLoader(_Samples(m).make(),
                                                                batch_size=2)])
    assert a == b


def test_dataloader_shuffle_is_a_permutation():
    def run(m):
        m.seed(0)
        ds = m.io.TensorDataset([m.arange(20)])
        batches = [b[0].numpy().tolist() for b in m.io.DataLoader(ds, batch_size=6,
                                                                    shuffle=True)]
        return sorted(sum(batches, [])), [len(b) for b in batches]
    a, b = _both(run)
    assert a == b


def test_random_split_and_subset():
    def run(m):
        ds = m.io.TensorDataset([m.arange(10)])
        parts = m.io.random_split(ds, [7, 3])
        items = sorted(int(p[i][0]) for p in parts for i in range(len(p)))
        sub = m.io.Subset(ds, [1, 4, 8])
        return [len(p) for p in parts], items, len(sub), int(sub[2][0])
    a, b = _both(run)
    assert a == b


def test_tensor_dataset_length_mismatch():
    def run(m):
        try:
            m.io.TensorDataset([m.ones([3, 2]), m.ones([4])])
        except Exception as e:  # noqa: BLE001
            return type(e).__name__, str(e)
    a, b = _both(run)
    assert a == b and a[0] == "AssertionError"


def test_bad_batch_size():
    def run(m):
        try:
            m.io.DataLoader(m.io.TensorDataset([m.ones([3])]), batch_size=0)
        except Exception as e:  # noqa: BLE001
            return type(e).__name__, str(e)
    a, b = _both(run)
    assert a == b


def test_dataset_base_is_abstract():
    def run(m):
        try:
            m.io.Dataset()[0]
        except Exception as e:  # noqa: BLE001
            return type(e).__name__, str(e)
    a, b = _both(run)
    assert a == b


def test_dataloader_is_callable_as_in_paddle():
    """issue 14 §4: real paddle's DataLoader objects are callable (``for X, y in
    data_iter():``), giving the same batches as iterating the loader."""
    real = pytest.importorskip("paddle")
    import paddlelike
    data = np.arange(10.0, dtype=np.float32).reshape(5, 2)
    out = []
    for m in (real, paddlelike):
        ds = m.io.TensorDataset([m.to_tensor(data), m.to_tensor(data[:, 0])])
        loader = m.io.DataLoader(ds, batch_size=2, shuffle=False)
        out.append([[b.numpy().tolist() for b in batch] for batch in loader()])
    assert out[1] == out[0]
