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


class UntypedStorage:
    __slots__ = ("_array", "_nbytes", "label", "op", "_ptr", "_saved", "__weakref__")

    def __init__(self, numel: int, np_dtype: np.dtype, op: str = "empty"):
        self._array = np.empty(numel, dtype=np_dtype)
        self._nbytes = self._array.nbytes
        self._ptr = self._array.ctypes.data
        self.label = f"S{next(_labels)}"
        self.op = memory.current_op(op)
        self._saved: weakref.WeakSet | None = None  # SavedTensors that point here (explain())
        memory._on_alloc(self._nbytes, self.label, self.op)

    def __del__(self) -> None:
        # Runs when the last tensor, view or saved tensor lets go: the bytes leave the count.
        try:
            memory._on_free(self._nbytes, self.label, self.op)
        except Exception:  # interpreter shutdown
            pass

    def nbytes(self) -> int:
        return self._nbytes

    def data_ptr(self) -> int:
        return self._ptr

    def size(self) -> int:
        return self._array.size

    def __repr__(self) -> str:
        return f"UntypedStorage({self.label}, {self._nbytes} bytes, from {self.op})"


def reset_labels() -> None:
    """Restart S0, S1 ... numbering (for reproducible pictures in a fresh lesson)."""
    global _labels
    _labels = itertools.count()
