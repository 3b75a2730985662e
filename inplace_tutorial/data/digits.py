"""The UCI handwritten digits (1797 images of 8x8 pixels, values 0..16, ten classes).

``load_digits()`` gives float32 images (N, 1, 8, 8) scaled to [0, 1] and int64 targets;
``train_test_split`` holds out a fixed, seeded, stratified-free random fraction.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..dtypes import float32, int64
from ..tensor import Tensor
from ..tensor_new import tensor

_PATH = Path(__file__).with_name("digits.npz")


def load_digits() -> tuple[Tensor, Tensor]:
    """(images float32 (1797, 1, 8, 8) in [0, 1], targets int64 (1797,))."""
    with np.load(_PATH) as d:
        images = d["images"].astype(np.float32)[:, None] / 16.0
        targets = d["target"].astype(np.int64)
    return tensor(images, dtype=float32), tensor(targets, dtype=int64)


def train_test_split(*tensors: Tensor, test_size: float = 0.2, seed: int = 0) -> list[Tensor]:
    """Split each tensor along dim 0 with one seeded permutation: [a_train, a_test, b_train ...]."""
    n = tensors[0].shape[0]
    if any(t.shape[0] != n for t in tensors):
        raise ValueError("all tensors must have the same first dimension")
    perm = np.random.Generator(np.random.PCG64(seed)).permutation(n)
    n_test = int(round(n * test_size))
    test_idx, train_idx = np.sort(perm[:n_test]), np.sort(perm[n_test:])
    out = []
    for t in tensors:
        a = t._array()
        out += [tensor(a[train_idx], dtype=t.dtype), tensor(a[test_idx], dtype=t.dtype)]
    return out


def digits_split(test_size: float = 0.2, seed: int = 0) -> tuple:
    """(x_train, x_test, y_train, y_test) of the digits, held out with ``seed``."""
    x, y = load_digits()
    x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=test_size, seed=seed)
    return x_train, x_test, y_train, y_test
