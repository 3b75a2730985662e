"""storage: one flat NumPy buffer that tensors and their views look into.

A storage is allocated and freed only through ``memory``. It carries a stable label
(S0, S1 ...) so pictures and traces never show raw addresses. Views share a storage;
``.data`` and ``detach()`` share it too (they differ in the version counter, see tensor.py).
"""
from __future__ import annotations

import itertools
import weakref

import numpy as np

from . import memory

_labels = itertools.count()


class _BufferRef(weakref.ref):
    """A weak reference to a storage's NumPy buffer that gives its bytes back to the count when
    the buffer itself is gone: the storage and every NumPy view of it (a kernel's local
    ``a = t._array()``, a learner's ``t.numpy()``). Counting frees at the storage's death
    instead would miss a buffer that a NumPy view keeps alive."""

    __slots__ = ("nbytes", "label", "op")


# The references live here (and so their callbacks). A dict rebuilds its table every so many
# inserts, as deleted slots aren't reused: one dict for every live buffer would allocate a
# table as large as all of them at an arbitrary moment, outside the count (37 KB with 400 live
# tensors). In 256 small dicts a rebuild stays a few hundred bytes.
_SHARDS = 256
_held: tuple[dict[int, _BufferRef], ...] = tuple({} for _ in range(_SHARDS))


def _hold(ref: _BufferRef) -> None:
    key = id(ref)
    _held[(key >> 4) % _SHARDS][key] = ref


def _buffer_gone(ref: _BufferRef) -> None:
    key = id(ref)
    _held[(key >> 4) % _SHARDS].pop(key, None)
    try:
        memory._on_free(ref.nbytes, ref)
    except Exception:  # interpreter shutdown
        pass


class UntypedStorage:
    __slots__ = ("_array", "_nbytes", "_id", "_ref", "_ptr", "_saved", "_generation",
                 "_shared", "__weakref__")

    def __init__(self, numel: int, np_dtype: np.dtype, op: str = "empty"):
        op = memory.current_op(op)
        if memory._observers:  # someone watches the count (memory.observe)
            memory._on_request(numel * np.dtype(np_dtype).itemsize, op)
        array = self._array = np.empty(numel, dtype=np_dtype)
        self._nbytes = array.nbytes
        self._ptr = 0  # looked up on first data_ptr() (ctypes is slow on the hot path)
        self._id = label = next(_labels)
        ref = self._ref = _BufferRef(array, _buffer_gone)
        # nbytes stays 0 until memory counts the allocation: an interrupt before that point
        # makes the buffer's death give back nothing, as nothing was counted.
        ref.nbytes, ref.label, ref.op = 0, f"S{label}", op
        key = id(ref)
        _held[(key >> 4) % _SHARDS][key] = ref  # (_hold, written out: a hot path)
        self._saved: weakref.WeakSet | None = None  # SavedTensors that point here (explain())
        self._generation = 0  # buffers this storage had before the current one (_resize_bytes)
        memory._on_alloc(self._nbytes, self, ref)

    @property
    def op(self) -> str:
        """The op that created the storage (as traces and pictures name it)."""
        return self._ref.op

    @op.setter
    def op(self, name: str) -> None:
        self._ref.op = name

    @property
    def label(self) -> str:
        """A stable name, S0, S1 ... in order of allocation (never a raw address)."""
        return f"S{self._id}"

    def nbytes(self) -> int:
        return self._nbytes

    def data_ptr(self) -> int:
        if not self._nbytes:  # PyTorch: a storage of no bytes has no buffer (nullptr)
            return 0
        if not self._ptr:
            self._ptr = self._array.__array_interface__["data"][0]
        return self._ptr

    def typed(self, np_dtype) -> np.ndarray:
        """The buffer's bytes read as ``np_dtype`` (for a ``Tensor.view(dtype)``): a NumPy
        view, no copy. Trailing bytes too few for a whole element are left out: no tensor of
        that dtype can address them."""
        raw = self._array.view(np.uint8)
        return raw[:raw.size - raw.size % np.dtype(np_dtype).itemsize].view(np_dtype)

    def _resize_bytes(self, nbytes: int, op: str = "resize_") -> None:
        """PyTorch's resize_bytes_cpu, for a storage that must grow (an ``out=`` too small,
        ``resize_``, ``set_``): a new, larger buffer for THIS storage object, the old bytes
        copied to its front and the rest uninitialised (_new_buffer)."""
        if not self._resizable:
            raise RuntimeError("Trying to resize storage that is not resizable")
        self._new_buffer(nbytes, op, "resize_")

    def _new_buffer(self, nbytes: int, op: str, moved_by: str) -> None:
        """A new buffer of ``nbytes`` for this storage object, the old bytes that fit copied to
        its front. The storage (and its label) stays, so every tensor that looks into it reads
        the new buffer; its data_ptr changes. The old buffer goes back to the count when its
        last NumPy view dies; its receipt is relabelled, so that a trace does not read that
        free as the end of the storage."""
        old = self._array
        # the same element type when the bytes make whole elements of it (a view(dtype) out
        # may ask for others: then bytes, which every tensor reads through typed())
        dtype = old.dtype if nbytes % old.itemsize == 0 else np.dtype(np.uint8)
        op = memory.current_op(op)
        if memory._observers:
            memory._on_request(nbytes, op)
        new = np.empty(nbytes // dtype.itemsize, dtype=dtype)
        keep = min(nbytes, old.nbytes)
        new.view(np.uint8)[:keep] = old.view(np.uint8)[:keep]
        ref = _BufferRef(new, _buffer_gone)
        ref.nbytes, ref.label, ref.op = 0, f"S{self._id}", op
        _hold(ref)
        self._ref.label = f"S{self._id} (before {moved_by})"
        self._array, self._nbytes, self._ptr, self._ref = new, new.nbytes, 0, ref
        # a tensor's cached NumPy window onto the old buffer is stale from now on: it
        # compares this number with the one it was built at (Tensor._array)
        self._generation += 1
        memory._on_alloc(self._nbytes, self, ref)

    def share_memory_(self) -> UntypedStorage:
        """PyTorch moves a CPU storage into shared memory (a file another process can map):
        a new buffer, the bytes copied, the same storage object, so every tensor on it moves
        (its data_ptr changes). Here the new buffer is an ordinary counted one; what stays
        true is the move, and that the storage can no longer grow. A second call does
        nothing."""
        if not self.is_shared():
            self._new_buffer(self._nbytes, "share_memory_", "share_memory_")
            self._shared = True
        return self

    def is_shared(self) -> bool:
        return getattr(self, "_shared", False)  # (unset until share_memory_ sets it)

    @property
    def _resizable(self) -> bool:
        """PyTorch's StorageImpl::resizable(): a buffer the core allocated can be grown;
        from_numpy's (NumPy's own memory) and a shared one cannot."""
        return not self.is_shared()

    def size(self) -> int:
        """Bytes, as for torch.UntypedStorage (it is untyped)."""
        return self._nbytes

    def __len__(self) -> int:
        return self._nbytes

    def __repr__(self) -> str:
        return f"UntypedStorage({self.label}, {self._nbytes} bytes, from {self.op})"


def reset_labels() -> None:
    """Restart S0, S1 ... numbering (for reproducible pictures in a fresh lesson)."""
    global _labels
    _labels = itertools.count()
