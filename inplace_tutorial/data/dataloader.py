"""TensorDataset and a minimal DataLoader: fixed-size batches, deterministic shuffling.

The loader owns its own seeded generator, so the batch order of each epoch is the same
on every run, independent of ``ipt.manual_seed`` and of whatever else draws numbers.
"""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..tensor import Tensor
from ..tensor_new import tensor


class TensorDataset:
    def __init__(self, *tensors: Tensor) -> None:
        n = tensors[0].shape[0]
        if any(t.shape[0] != n for t in tensors):
            raise ValueError("Size mismatch between tensors")
        self.tensors = tensors

    def __len__(self) -> int:
        return self.tensors[0].shape[0]

    def __getitem__(self, index: int) -> tuple:
        return tuple(t[index] for t in self.tensors)


class DataLoader:
    def __init__(self, dataset: TensorDataset, batch_size: int = 1, shuffle: bool = False,
                 seed: int = 0, drop_last: bool = False) -> None:
        self.dataset, self.batch_size = dataset, batch_size
        self.shuffle, self.drop_last = shuffle, drop_last
        self._rng = np.random.Generator(np.random.PCG64(seed))

    def __len__(self) -> int:
        n = len(self.dataset)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def __iter__(self) -> Iterator[tuple]:
        n = len(self.dataset)
        order = self._rng.permutation(n) if self.shuffle else np.arange(n)
        arrays = [t._array() for t in self.dataset.tensors]
        for b in range(len(self)):
            idx = order[b * self.batch_size:(b + 1) * self.batch_size]
            if not self.shuffle:  # contiguous rows: a slice, still copied like torch's collate
                idx = slice(int(idx[0]), int(idx[-1]) + 1)
            yield tuple(tensor(a[idx], dtype=t.dtype)
                        for a, t in zip(arrays, self.dataset.tensors, strict=True))
