"""Sums along short axes as BLAS matrix-vector products with a vector of ones.

NumPy's ``np.sum`` over axes (0, 2, 3) of a (64, 32, 4, 4) batch, or along rows of 64, runs
its reduction loop once per short row (44 us for BatchNorm's per-channel sums, where two
``gemv`` calls take 8). The ones vector and the per-row partial sums live in the shared
workspace (workspace.py), so nothing uncounted is made; the float32 bits differ from
``np.sum``'s pairwise order as BLAS's do (PyTorch's own kernels sum in yet another order).
batch_norm.py uses ``channel_sums``; normalization.py (layer_norm) ``row_sums`` and
``column_sums``.
"""
from __future__ import annotations

import numpy as np

from .workspace import Scratch, chunk_len

_BLAS_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def channel_sums(a: np.ndarray, out: np.ndarray, op: str) -> None:
    """``out[c] = a[:, c, ...].sum()`` for ``a`` of shape (N, C, ...) into ``out`` (C,).

    Row sums of the (N*C, L) matrix, then the column sums of those (N, C) partials: two gemv
    calls a block of samples at a time. Falls back to ``np.sum`` when BLAS can't read ``a``
    as it is (a non-contiguous or non-float input) or a row of ones doesn't fit the workspace."""
    n, c = a.shape[:2]
    rows = a.size // max(n * c, 1)
    if (a.dtype not in _BLAS_DTYPES or not a.flags.c_contiguous or out.dtype != a.dtype
            or a.size == 0):
        np.sum(a, axis=(0,) + tuple(range(2, a.ndim)), out=out)
        return
    with Scratch(a.dtype, op, rows + n + n * c + c) as s:
        # the workspace holds ones (rows + block), a block's partials (block * c), and one
        # block's column sums (c) when there is more than one block
        block = min(n, (s._buf.size - rows - c) // (c + 1))
        if block < 1:
            np.sum(a, axis=(0,) + tuple(range(2, a.ndim)), out=out)
            return
        buf = s._buf
        ones = buf[: rows + block]
        ones.fill(1)
        part = buf[rows + block: rows + block + block * c]
        col = buf[rows + block + block * c: rows + block + block * c + c]
        m = a.reshape(n * c, rows)
        for i in range(0, n, block):
            nb = min(block, n - i)
            p = part[: nb * c]
            np.matmul(m[i * c:(i + nb) * c], ones[:rows], out=p)
            np.matmul(ones[rows: rows + nb], p.reshape(nb, c), out=out if i == 0 else col)
            if i:
                out += col


def row_sums(a: np.ndarray, out: np.ndarray, op: str) -> None:
    """``out[i] = a[i].sum()`` for a matrix ``a`` (R, K) into ``out`` (R,): one gemv with K
    ones (layer_norm's statistics over rows of 64). ``np.sum`` where BLAS can't take ``a``."""
    if (a.dtype not in _BLAS_DTYPES or not a.flags.c_contiguous or out.dtype != a.dtype
            or a.size == 0 or a.shape[1] > chunk_len(a.dtype)):
        np.sum(a, axis=1, out=out)
        return
    with Scratch(a.dtype, op, a.shape[1]) as s:
        ones = s._buf[: a.shape[1]]
        ones.fill(1)
        np.matmul(a, ones, out=out)


def column_sums(a: np.ndarray, out: np.ndarray, op: str) -> None:
    """``out[j] = a[:, j].sum()`` for a matrix ``a`` (R, K) into ``out`` (K,): one gemv with R
    ones (layer_norm's weight and bias gradients over the batch's rows)."""
    if (a.dtype not in _BLAS_DTYPES or not a.flags.c_contiguous or out.dtype != a.dtype
            or a.size == 0 or a.shape[0] > chunk_len(a.dtype)):
        np.sum(a, axis=0, out=out)
        return
    with Scratch(a.dtype, op, a.shape[0]) as s:
        ones = s._buf[: a.shape[0]]
        ones.fill(1)
        np.matmul(ones, a, out=out)

