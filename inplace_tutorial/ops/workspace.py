"""The workspace: one counted 256 KiB buffer every chunked kernel borrows (as BLAS and cuDNN
keep a workspace), so an element-wise op, a var/std or an ``axpy_`` never makes an input-sized
temporary behind the allocator's back, and an in-place op allocates nothing per call.

``Scratch`` lends it (or a small counted buffer when it is taken), ``chunks`` cuts a shape into
pieces that fit, and NumPy's own loop buffer is capped here. tensor_iterator.py, above, drives
the element-wise ops through it.
"""
from __future__ import annotations

import math
import sys

import numpy as np

from ..copy_kernel import blocks
from ..storage import UntypedStorage

WORKSPACE_BYTES = 256 * 1024  # the one scratch buffer every chunked kernel shares
CHUNK = WORKSPACE_BYTES // 8  # elements per chunk for float64 (twice as many for float32)

# NumPy's ufuncs take a loop buffer of their own, uncounted, for the length of a call whenever
# they cannot run straight through their operands (a cast, a broadcast or transposed operand):
# 8192 elements by default, 64 KiB in float64, which tests/test_byte_accounting.py sees in
# half the ops. Capped at 1024 elements (8 KiB in float64: the size of a few Python objects);
# as fast on this machine as 8192, where 512 made casts 1.4x slower. It is NumPy's setting
# for the importing thread (np.setbufsize), so a learner's own NumPy code shares it.
LOOP_BUFFER_ELEMENTS = 1024
np.setbufsize(LOOP_BUFFER_ELEMENTS)


def chunk_len(np_dtype) -> int:
    """Elements of ``np_dtype`` that fit the workspace: fewer, bigger NumPy calls."""
    return WORKSPACE_BYTES // np.dtype(np_dtype).itemsize


def chunks(shape: tuple, limit: int = CHUNK):
    """Index tuples that cover ``shape`` in pieces of at most ``limit`` elements (a workspace
    chunk unless told), whole trailing dimensions first: copy_kernel.blocks's walk."""
    return blocks(shape, limit)


class _Workspace:
    """One counted 256 KiB buffer, made once and reused by every chunked kernel (as BLAS and
    cuDNN keep a workspace), so an in-place op allocates nothing per call. It shows up in
    ``memory_allocated()`` from the first import on, labelled "core workspace"."""

    def __init__(self):
        self.storage = UntypedStorage(WORKSPACE_BYTES, np.uint8, "core workspace")
        self.storage._array.fill(0)
        self.owner: Scratch | None = None  # the Scratch using it now

    @property
    def busy(self) -> bool:
        return self.owner is not None and not _abandoned(self.owner)


def _abandoned(owner: Scratch) -> bool:
    """True if the function that took the workspace is no longer running in any thread.

    A KeyboardInterrupt that lands right where a ``with`` block ends (after its last line,
    before ``__exit__`` starts) skips ``__exit__``; Python offers no way to close that gap, so
    the next user looks for the owner's frame on every thread's stack instead."""
    for frame in sys._current_frames().values():
        while frame is not None:
            if frame is owner._frame:
                return False
            frame = frame.f_back
    return True


_WORKSPACE = _Workspace()


class Scratch:
    """Chunk-sized scratch: the shared workspace, or (if another caller or thread holds it) a
    small counted buffer of its own. Use only as ``with Scratch(dtype, op, n) as s: s.view(shape)``.

    The workspace is taken in ``__enter__`` and given back in ``__exit__``. A KeyboardInterrupt
    (delivered between two bytecodes, never inside a NumPy call) can't leave it taken: taking
    and giving back are statements without calls, whatever fails inside ``__enter__`` gives it
    back, and an owner whose function stopped running is recognised (``_abandoned``)."""

    __slots__ = ("_dtype", "capacity", "_n", "_op", "_frame", "_buf", "_storage")

    def __init__(self, np_dtype, op: str, needed: int = CHUNK):
        self._dtype = np.dtype(np_dtype)
        self.capacity = WORKSPACE_BYTES // self._dtype.itemsize  # chunk_len's count
        self._n = min(self.capacity, max(needed, 1))  # never larger than the work itself
        self._op = op

    def __enter__(self) -> Scratch:
        try:
            self._frame = sys._getframe(1)  # the kernel using the scratch
            owner = _WORKSPACE.owner
            if owner is not None and owner is not self and _abandoned(owner):
                _WORKSPACE.owner = None if _WORKSPACE.owner is owner else _WORKSPACE.owner
            if _WORKSPACE.owner is None:  # check and take without a call in between: atomic
                _WORKSPACE.owner = self  # under the GIL and for signals
            dt, n = self._dtype, self._n
            if _WORKSPACE.owner is self:
                nbytes = n * dt.itemsize
                self._buf = _WORKSPACE.storage._array[:nbytes].view(dt)
            else:
                self._storage = UntypedStorage(n, dt, self._op + " (scratch)")
                self._buf = self._storage._array
            return self
        except BaseException:
            self.__exit__()
            raise

    def __exit__(self, *exc) -> None:
        _WORKSPACE.owner = None if _WORKSPACE.owner is self else _WORKSPACE.owner
        self._frame = None

    def view(self, shape: tuple) -> np.ndarray:
        return self._buf[:math.prod(shape)].reshape(shape)

    def view_at(self, offset: int, shape: tuple, np_dtype) -> np.ndarray:
        """``shape`` in ``np_dtype``, ``offset`` bytes into the scratch: several arrays of one
        chunk side by side (_fma.py's sum, its bit test and its operands' casts)."""
        nbytes = math.prod(shape) * np.dtype(np_dtype).itemsize
        return self._buf.view(np.uint8)[offset:offset + nbytes].view(np_dtype).reshape(shape)


def axpy_(out: np.ndarray, x, alpha, op: str, loop_dtype) -> None:
    """out += alpha * x, chunked so no full-size temporary of alpha * x ever exists."""
    if not isinstance(x, np.ndarray):
        np.add(out, alpha * x, out=out, dtype=loop_dtype, casting="unsafe")
        return
    with Scratch(loop_dtype, op, out.size) as scratch:
        if x.shape == out.shape and out.size <= scratch.capacity:  # one chunk: no slicing
            tmp = scratch.view(out.shape)
            np.multiply(x, alpha, out=tmp, dtype=loop_dtype, casting="unsafe")
            np.add(out, tmp, out=out, dtype=loop_dtype, casting="unsafe")
            return
        xb = np.broadcast_to(x, out.shape)
        for idx in chunks(out.shape, scratch.capacity):
            o = out[idx]
            tmp = scratch.view(o.shape)
            np.multiply(xb[idx], alpha, out=tmp, dtype=loop_dtype, casting="unsafe")
            np.add(o, tmp, out=o, dtype=loop_dtype, casting="unsafe")


def var_into(a: np.ndarray, axis: tuple, correction, out: np.ndarray, op: str,
             sqrt: bool = False) -> None:
    """var (or std) of ``a`` over ``axis`` into ``out``, without an input-sized temporary.

    NumPy's ``np.var`` builds ``a - mean`` in full. Here the means go into a counted buffer of
    the output's size, and the squared deviations are summed chunk by chunk in the workspace
    (half of it holds a chunk, the other half that chunk's partial sums) onto ``out``."""
    keep = tuple(1 if i in axis else s for i, s in enumerate(a.shape))
    acc = out.reshape(keep)  # a view: out is freshly allocated and contiguous
    n = 1
    for d in axis:
        n *= a.shape[d]
    if n == 0:  # the mean of nothing (NumPy would warn): PyTorch gives nan
        acc.fill(np.nan)
        return
    means = UntypedStorage(max(acc.size, 1), out.dtype, op + " (means)")._array
    m = means[: acc.size].reshape(keep)
    with np.errstate(all="ignore"), Scratch(out.dtype, op, chunk_len(out.dtype)) as scratch:
        np.mean(a, axis=axis, keepdims=True, out=m, dtype=out.dtype)
        mean = np.broadcast_to(m, a.shape)
        acc.fill(0)
        half = scratch.capacity // 2
        for idx in chunks(a.shape, half):
            if idx == (Ellipsis,):
                idx = ()
            idx = tuple(slice(i, i + 1) if isinstance(i, int) else i for i in idx)
            idx += (slice(None),) * (a.ndim - len(idx))
            rows = tuple(slice(None) if i in axis else x for i, x in enumerate(idx)) + (...,)
            idx += (...,)  # views even of a 0-dim array
            part = a[idx]
            tmp = scratch.view(part.shape)
            np.subtract(part, mean[idx], out=tmp, dtype=out.dtype, casting="unsafe")
            np.multiply(tmp, tmp, out=tmp)
            target = acc[rows]
            red = scratch._buf[half:half + target.size].reshape(target.shape)
            np.add.reduce(tmp, axis=axis, keepdims=True, out=red)
            np.add(target, red, out=target)
        np.divide(acc, max(n - correction, 0), out=acc)  # (Welford's project: no negatives)
        if sqrt:
            np.sqrt(acc, out=acc)
