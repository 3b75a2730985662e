"""Matrix products through np.matmul, with the copies BLAS needs made in counted memory.

BLAS reads a matrix whose rows (or columns) are contiguous and do not overlap. PyTorch's CPU
``addmm_impl_cpu_`` clones any other operand (``m1.clone(at::MemoryFormat::Contiguous)``)
through its allocator, and ``bmm`` does so one matrix of the batch at a time. NumPy 2.5 does
the same copy in ``np.matmul``, but behind the allocator's back (131 KB beyond the count for a
batch of strided 128x128 float32 pairs, 524 KB for one strided 256x256 pair); NumPy 2.4 and
earlier skip BLAS for such operands and run a slow loop with no copy. ``matmul_into`` makes
the copy itself, counted, on every NumPy, where PyTorch makes it, so np.matmul only ever sees
operands it can hand to BLAS as they are.
"""
from __future__ import annotations

import numpy as np

from ..storage import UntypedStorage


def blas_ready(x: np.ndarray) -> bool:
    """Can BLAS read the matrix (the last two dims of ``x``) as it is? Row-major or
    column-major, with a leading dimension no smaller than a row (column): NumPy's
    ``is_blasable2d`` in either orientation, PyTorch's test before it clones."""
    rows, cols = x.shape[-2:]
    sr, sc = x.strides[-2:]
    item = x.itemsize
    return (sc == item and sr % item == 0 and sr // item >= max(1, cols)) or \
        (sr == item and sc % item == 0 and sc // item >= max(1, rows))


def _plain(x: np.ndarray) -> bool:
    """C order, or a column-major matrix (a transposed one): ready, and quick to tell."""
    flags = x.flags
    return flags.c_contiguous or (x.ndim == 2 and flags.f_contiguous)


def _needs_copy(x: np.ndarray, m: int, k: int, n: int) -> bool:
    # a vector (a dim of 1) goes to gemv/dot, which take any step: NumPy copies nothing then
    return x.ndim >= 2 and min(m, k, n) > 1 and not blas_ready(x)


def _buffer(shape: tuple, dtype: np.dtype, op: str) -> np.ndarray:
    return UntypedStorage(shape[0] * shape[1], dtype, f"{op} (contiguous operand)") \
        ._array.reshape(shape)


def matmul_into(a: np.ndarray, b: np.ndarray, out: np.ndarray, op: str) -> None:
    """``np.matmul(a, b, out=out)``; a matrix BLAS can't read as it is is first copied into a
    counted C-contiguous buffer: a single matrix whole, a batch one matrix at a time (one
    buffer per operand, reused along the batch), as PyTorch's CPU kernels do."""
    if a.ndim < 2 or b.ndim < 2 or (_plain(a) and _plain(b)):
        np.matmul(a, b, out=out)  # (the everyday case, checked first: this is a hot path)
        return
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    copy_a, copy_b = _needs_copy(a, m, k, n), _needs_copy(b, m, k, n)
    if not (copy_a or copy_b) or out.size == 0:
        np.matmul(a, b, out=out)
        return
    bufs = [_buffer(x.shape[-2:], x.dtype, op) if c else None
            for x, c in ((a, copy_a), (b, copy_b))]
    batch = out.shape[:-2]
    a = np.broadcast_to(a, batch + a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    for i in np.ndindex(*batch):
        x, y = a[i], b[i]
        if bufs[0] is not None:
            np.copyto(bufs[0], x)
            x = bufs[0]
        if bufs[1] is not None:
            np.copyto(bufs[1], y)
            y = bufs[1]
        np.matmul(x, y, out=out[i])
