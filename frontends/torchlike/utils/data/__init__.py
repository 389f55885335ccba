"""torch.utils.data: datasets, samplers and the DataLoader."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr

from .dataloader import (
    BatchSampler,
    DataLoader,
    RandomSampler,
    SequentialSampler,
    default_collate,
    default_convert,
)
from .dataset import ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split

__all__ = [
    "BatchSampler", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset",
    "RandomSampler", "SequentialSampler", "Subset", "TensorDataset", "default_collate",
    "default_convert", "random_split",
]
__getattr__ = module_getattr("torchlike", "torch.utils.data")
