"""float16 and bfloat16 element-wise kernels: compute in float32, round once.

PyTorch's CPU kernels load 16-bit floats into float32 registers, compute there and round
once on the way back (Python scalars join in float32 without being rounded to 16 bits
first). Asking a NumPy ufunc for ``dtype=float32`` gives the same numbers, but NumPy then
converts through small internal buffers, slowly. Here the operands go through float32
scratch one chunk at a time instead: float16 is widened with a 65,536-entry table (every
float16 bit pattern), and the scratch is counted like any other buffer. Layouts this fast
path does not cover fall back to the ufunc's own float32 loop (same values, slower).
"""
from __future__ import annotations

import numpy as np

from ..storage import UntypedStorage

CHUNK = 32 * 1024  # float32 elements per scratch buffer (128 KiB)
_F16_TABLE: list = []  # [float32 value of every float16 bit pattern], built on first use


def is_reduced(np_dtype: np.dtype) -> bool:
    """float16 or bfloat16 (bfloat16 is ml_dtypes' type, NumPy kind 'V')."""
    return np_dtype.itemsize == 2 and np_dtype.kind != "i"


def _widen(src: np.ndarray, dst: np.ndarray) -> None:
    if src.dtype == np.float16:
        if not _F16_TABLE:
            _F16_TABLE.append(np.arange(65536, dtype=np.uint32).astype(np.uint16)
                              .view(np.float16).astype(np.float32))
        np.take(_F16_TABLE[0], src.view(np.uint16), out=dst)
    else:
        np.copyto(dst, src, casting="unsafe")


def run(f, xs: tuple, out: np.ndarray) -> None:
    """out[...] = f(*xs), computed in float32 and rounded once into out's 16-bit type."""
    arrays = [x for x in xs if isinstance(x, np.ndarray)]
    flat = out.flags.c_contiguous and all(
        a.shape == out.shape and a.flags.c_contiguous for a in arrays)
    if not flat or out.size <= 1:
        f(*xs, out=out, dtype=np.float32, casting="unsafe")
        return
    n = min(CHUNK, out.size)
    label = f"{getattr(f, '__name__', 'kernel')} (float32 scratch)"
    scratch = [UntypedStorage(n, np.float32, label) for _ in range(max(1, len(arrays)))]
    bufs = [s._array for s in scratch]
    out_flat = out.reshape(-1)
    flats = [x.reshape(-1) if isinstance(x, np.ndarray) else x for x in xs]
    for s in range(0, out.size, n):
        e = min(s + n, out.size)
        k = e - s
        args, b = [], 0
        for x in flats:
            if isinstance(x, np.ndarray):
                _widen(x[s:e], bufs[b][:k])
                args.append(bufs[b][:k])
                b += 1
            else:
                args.append(x)
        f(*args, out=bufs[0][:k])
        np.copyto(out_flat[s:e], bufs[0][:k], casting="unsafe")
