"""paddle.io: datasets, samplers and the DataLoader (single process; num_workers ignored)."""
from __future__ import annotations

from janusgrad.array.backend import is_array
from janusgrad.core.tensor import Tensor as _EngineTensor
from janusgrad.host.dropin import module_getattr as _module_getattr
from janusgrad.nn import data as _D
from janusgrad.ops import shape as _S

from ..creation import to_tensor


class Dataset:
    """Map-style dataset: ``__getitem__`` and ``__len__``."""

    def __getitem__(self, idx):
        raise NotImplementedError(f"'{'__getitem__'}' not implement in class "
                                  f"{type(self).__name__}")

    def __len__(self):
        raise NotImplementedError(f"'{'__len__'}' not implement in class "
                                  f"{type(self).__name__}")


class IterableDataset(Dataset):
    def __iter__(self):
        raise NotImplementedError(f"'{'__iter__'}' not implement in class "
                                  f"{type(self).__name__}")


class TensorDataset(Dataset):
    """Samples are tuples of the i-th rows of the given tensors (a list of tensors)."""

    def __init__(self, tensors) -> None:
        n = len(tensors[0]) if tensors else 0
        if not all(len(t) == n for t in tensors):
            raise AssertionError("tensors not have same shape of the 1st dimension")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return len(self.tensors[0])


class Subset(Dataset):
    def __init__(self, dataset, indices) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset, lengths, generator=None) -> list:
    """Disjoint random subsets of the given lengths (or fractions summing to 1)."""
    parts = _D.random_split_indices(len(dataset), lengths, generator)
    return [Subset(dataset, idx) for idx in parts]


class BatchSampler:
    """Lists of sample indices, in order or shuffled, optionally dropping the short tail."""

    def __init__(self, dataset=None, sampler=None, shuffle: bool = False, batch_size: int = 1,
                 drop_last: bool = False) -> None:
        if not (isinstance(batch_size, int) and batch_size > 0):
            raise AssertionError("batch_size should be a positive integer, but got "
                                 f"{batch_size}")
        self.dataset = dataset
        self.sampler = sampler
        self.shuffle = shuffle
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        if self.sampler is not None:
            yield from _D.group_indices(self.sampler, self.batch_size, self.drop_last)
            return
        yield from _D.batch_index_lists(len(self.dataset), self.batch_size, self.shuffle,
                                        self.drop_last)

    def __len__(self) -> int:
        n = len(self.sampler) if self.sampler is not None else len(self.dataset)
        return _D.number_of_batches(n, self.batch_size, self.drop_last)


def _is_tensor_like(x) -> bool:
    return isinstance(x, _EngineTensor) or is_array(x)


def _stack(items: list):
    ts = [x if isinstance(x, _EngineTensor) else to_tensor(x) for x in items]
    return _S.stack(ts, 0)


def _numbers(items: list):
    if isinstance(items[0], float):
        return to_tensor(items, dtype="float64")
    return to_tensor(items)


def default_collate_fn(batch):
    """Stack tensors/arrays, numbers into one tensor (floats as float64), fields of
    tuples/lists/dicts one by one (sequences come back as lists)."""
    return _D.collate(batch, _is_tensor_like, _stack, _numbers)


class DataLoader:
    """Batches of a map-style dataset, as lists (``return_list=True``)."""

    def __init__(self, dataset, feed_list=None, places=None, return_list: bool = True,
                 batch_sampler=None, batch_size: int = 1, shuffle: bool = False,
                 drop_last: bool = False, collate_fn=None, num_workers: int = 0,
                 use_buffer_reader: bool = True, reader_buffer_size: int = 2,
                 prefetch_factor: int = 2, use_shared_memory: bool = True, timeout: int = 0,
                 worker_init_fn=None, persistent_workers: bool = False) -> None:
        self.dataset = dataset
        self.return_list = return_list
        self.collate_fn = collate_fn
        self.num_workers = num_workers
        if batch_sampler is not None:
            if not (batch_size == 1 and not shuffle and not drop_last):
                raise AssertionError("batch_size/shuffle/drop_last should not be set when "
                                     "batch_sampler is given")
            self.batch_sampler = batch_sampler
            self.batch_size = None
        else:
            if batch_size is not None and not (isinstance(batch_size, int) and batch_size > 0):
                raise AssertionError("batch_size should be None or a positive value when "
                                     "batch_sampler is not given")
            self.batch_size = batch_size
            self.batch_sampler = None if batch_size is None else BatchSampler(
                dataset=dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last)
        self.drop_last = drop_last

    def __len__(self) -> int:
        if self.batch_sampler is None:
            return len(self.dataset)
        return len(self.batch_sampler)

    def __call__(self):
        """Real paddle's loaders are callable: ``for X, y in loader():`` (D2L writes it)."""
        return iter(self)

    def __iter__(self):
        ds = self.dataset
        if isinstance(ds, IterableDataset):
            yield from self._iter_iterable()
            return
        collate = self.collate_fn or default_collate_fn
        if self.batch_sampler is None:
            for i in range(len(ds)):
                yield self._to_list(ds[i]) if self.collate_fn is None else self.collate_fn(ds[i])
            return
        if type(ds) is TensorDataset and self.collate_fn is None and \
                all(isinstance(t, _EngineTensor) for t in ds.tensors):
            # one gather per tensor gives what stacking the rows one by one would
            for indices in self.batch_sampler:
                yield [t[indices] for t in ds.tensors]
            return
        for indices in self.batch_sampler:
            yield collate([ds[i] for i in indices])

    def _to_list(self, sample):
        if isinstance(sample, tuple):
            return [to_tensor(s) if not isinstance(s, _EngineTensor) else s for s in sample]
        return sample

    def _iter_iterable(self):
        collate = self.collate_fn or default_collate_fn
        batch = []
        for sample in self.dataset:
            batch.append(sample)
            if self.batch_size and len(batch) == self.batch_size:
                yield collate(batch)
                batch = []
        if batch and not self.drop_last:
            yield collate(batch)


for _cls in (Dataset, IterableDataset, TensorDataset, Subset):
    _cls.__module__ = "paddle.io.dataloader.dataset"
BatchSampler.__module__ = "paddle.io.dataloader.batch_sampler"
DataLoader.__module__ = "paddle.io.reader"

__getattr__ = _module_getattr("paddlelike", "paddle.io")
