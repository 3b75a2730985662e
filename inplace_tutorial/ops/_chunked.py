"""Element-wise kernels that need temporaries of their own (frac's ``trunc(x)``, sinc's
``pi * x``, xlogy's masks ...): they run chunk by chunk, with their temporaries carved out of
the shared workspace (``workspace.Scratch``), so no input-sized NumPy array is ever
made behind the allocator's back. Each step is one NumPy call with ``out=``, so a kernel
still reads like the NumPy expression it replaces.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .reduced import is_reduced
from .workspace import WORKSPACE_BYTES, Scratch, chunks


def with_temporaries(op: str, *temps) -> Callable:
    """Make ``body(*xs, out, dtype, tmp)`` a kernel ``(*xs, out, dtype)``.

    ``temps`` gives each temporary's dtype (``None``: the kernel's compute dtype); ``body``
    gets them as ``tmp``, one chunk-shaped array each, and the operands and ``out`` sliced to
    the same chunk (array operands broadcast to ``out``'s shape, scalars as they are)."""
    def deco(body: Callable) -> Callable:
        def kernel(*xs, out, dtype, casting="unsafe"):
            run_chunked(body, op, temps, xs, out, dtype)
        kernel.__name__ = getattr(body, "__name__", op)
        kernel.chunkable = True  # reads only its arguments (reduced.py may split them)
        return kernel
    return deco


def run_chunked(body: Callable, op: str, temps: tuple, xs: tuple, out: np.ndarray,
                dtype) -> None:
    """Run ``body`` over ``out`` in chunks whose temporaries all fit the workspace."""
    dts = [np.dtype(dtype if t is None else t) for t in temps]
    per = max(1, sum(d.itemsize for d in dts))
    n = max(1, min(WORKSPACE_BYTES // per, out.size))  # elements per chunk
    widest_first = sorted(range(len(dts)), key=lambda k: -dts[k].itemsize)  # keeps alignment
    views = [np.broadcast_to(x, out.shape) if isinstance(x, np.ndarray) else x for x in xs]
    with Scratch(np.uint8, op, n * per) as scratch:
        raw = scratch.view((n * per,))
        for idx in chunks(out.shape, n):
            o = out[idx]
            tmp: list = [None] * len(dts)
            start = 0
            for k in widest_first:
                size = o.size * dts[k].itemsize
                tmp[k] = raw[start:start + size].view(dts[k]).reshape(o.shape)
                start += n * dts[k].itemsize
            body(*[v[idx] if isinstance(v, np.ndarray) else v for v in views], out=o,
                 dtype=dtype, tmp=tmp)


def store_float64(out: np.ndarray, src: np.ndarray, single: np.ndarray) -> None:
    """Write float64 ``src`` into ``out`` as ``copy_kernel.cast_into`` converts it: to float16 or
    bfloat16 through float32 (``single``, a float32 temporary), as PyTorch does."""
    if is_reduced(out.dtype):
        np.copyto(single, src, casting="unsafe")
        np.copyto(out, single, casting="unsafe")
    else:
        np.copyto(out, src, casting="unsafe")


def ramp(buf: np.ndarray, start: int, step: int = 1) -> np.ndarray:
    """Fill ``buf`` with start, start + step, ... in place (np.arange would make a new array)."""
    buf.fill(step)
    buf[:1] = start
    if buf.ndim == 1:  # what cumsum runs on a 1-D buffer, without its Python wrapper (3 us)
        return np.add.accumulate(buf, out=buf)
    return np.cumsum(buf, out=buf)
