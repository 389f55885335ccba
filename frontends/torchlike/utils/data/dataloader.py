"""DataLoader and default collation (single process; num_workers is accepted)."""
from __future__ import annotations

from janusgrad.array.backend import is_array
from janusgrad.core.tensor import Tensor as EngineTensor
from janusgrad.nn import data as ND

from .dataset import IterableDataset, TensorDataset


def _is_tensor(x) -> bool:
    return isinstance(x, EngineTensor) or is_array(x)


def _stack(batch):
    from ... import _creation, _table
    items = [b if isinstance(b, EngineTensor) else _creation.as_tensor(b) for b in batch]
    return _table.FUNCTIONS["stack"](items, 0)


def _numbers(batch):
    from ... import _creation, _dtypes
    if isinstance(batch[0], float):
        return _creation.tensor(batch, dtype=_dtypes.float64)
    return _creation.tensor(batch)


def default_collate(batch):
    return ND.collate(list(batch), _is_tensor, _stack, _numbers)


def default_convert(data):
    from ... import _creation
    return ND.map_nested(data, is_array, _creation.as_tensor, tuples_as_lists=True)


class SequentialSampler:
    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler:
    def __init__(self, data_source, replacement: bool = False, num_samples=None,
                 generator=None) -> None:
        self.data_source = data_source
        self.generator = generator

    def __iter__(self):
        return iter(ND.sample_order(len(self.data_source), True, self.generator))

    def __len__(self) -> int:
        return len(self.data_source)


def _check_batching(batch_size, drop_last) -> None:
    # (bool is an int to Python, not a batch size to torch)
    if type(batch_size) is bool or not isinstance(batch_size, int) or batch_size <= 0:
        raise ValueError("batch_size should be a positive integer value, but got "
                         f"batch_size={batch_size}")
    if not isinstance(drop_last, bool):
        raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")


class BatchSampler:
    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
        _check_batching(batch_size, drop_last)
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        return ND.group_indices(self.sampler, self.batch_size, self.drop_last)

    def __len__(self) -> int:
        return ND.number_of_batches(len(self.sampler), self.batch_size, self.drop_last)


class DataLoader:
    def __init__(self, dataset, batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler=None, batch_sampler=None, num_workers: int = 0, collate_fn=None,
                 pin_memory: bool = False, drop_last: bool = False, timeout: float = 0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None and (batch_size != 1 or shuffle or sampler is not None
                                          or drop_last):
            raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                             "shuffle, sampler, and drop_last")
        self.dataset = dataset
        self.batch_size = None if batch_sampler is not None else batch_size
        self.drop_last = drop_last
        self.num_workers = num_workers
        self.generator = generator
        self._iterable = isinstance(dataset, IterableDataset)
        if sampler is None and not self._iterable:
            sampler = (RandomSampler(dataset, generator=generator) if shuffle
                       else SequentialSampler(dataset))
        self.sampler = sampler
        if batch_size is not None and batch_sampler is None:
            if self._iterable:  # (torch batches it through a BatchSampler, which checks)
                _check_batching(batch_size, drop_last)
            else:
                batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_sampler = batch_sampler
        if collate_fn is None:
            collate_fn = default_collate if self.batch_sampler is not None or (
                self._iterable and batch_size is not None) else default_convert
        self.collate_fn = collate_fn
        self._whole_batches = (type(dataset) is TensorDataset and collate_fn is default_collate
                               and self.batch_sampler is not None)

    def _fetch(self, indices):
        if self._whole_batches:
            # one fancy index per tensor gives what stacking the samples would
            from ... import _creation
            key = _creation.tensor(indices)
            return [t[key] for t in self.dataset.tensors]
        getitems = getattr(self.dataset, "__getitems__", None)
        if callable(getitems):
            return getitems(indices)
        return [self.dataset[i] for i in indices]

    def __iter__(self):
        if self._iterable:
            return self._iter_iterable()
        if self.batch_sampler is None:
            return (self.collate_fn(self.dataset[i]) for i in self.sampler)
        if self._whole_batches:
            return (self._fetch(b) for b in self.batch_sampler)
        return (self.collate_fn(self._fetch(b)) for b in self.batch_sampler)

    def _iter_iterable(self):
        if self.batch_size is None:
            for x in self.dataset:
                yield self.collate_fn(x)
            return
        for batch in ND.group_indices(self.dataset, self.batch_size, self.drop_last):
            yield self.collate_fn(batch)

    def __len__(self) -> int:
        if self._iterable:
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return ND.number_of_batches(n, self.batch_size, self.drop_last)
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.sampler)


for _cls in (DataLoader,):
    _cls.__module__ = "torch.utils.data.dataloader"
