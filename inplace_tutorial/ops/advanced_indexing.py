"""Advanced indexing: integer lists/tensors and boolean masks.

Unlike basic indexing this COPIES (``x[mask]._base is None``), and ``x[mask] = v`` is the
in-place ``index_put_``. NumPy gathers the values; the result lives in a counted storage.
"""
from __future__ import annotations

import numpy as np

from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..creation import zeros
from ..tensor import Tensor, tensor_method


def is_advanced(index) -> bool:
    items = index if isinstance(index, tuple) else (index,)
    return any(isinstance(i, (Tensor, list, np.ndarray)) for i in items)


def _numpy_index(index):
    items = index if isinstance(index, tuple) else (index,)
    out = []
    for i in items:
        if isinstance(i, Tensor):
            out.append(i._array())
        elif isinstance(i, list):
            out.append(np.asarray(i))
        else:
            out.append(i)
    return tuple(out)


_NO_BYTES = np.dtype([])  # a structured dtype with no fields: 0 bytes an element


def _selection_shape(shape: tuple, np_idx: tuple) -> tuple:
    """The shape ``x[np_idx]`` would have, and NumPy's IndexError for a bad index, found by
    indexing a stand-in of ``shape`` whose elements take 0 bytes: nothing data-sized is made
    (a bool stand-in would cost one byte an element, and its selection as much again)."""
    return np.broadcast_to(np.empty((), _NO_BYTES), shape)[np_idx].shape


def index(self: Tensor, idx) -> Tensor:
    """x[idx] with an advanced index: a new tensor (IndexBackward0 saves the indices)."""
    np_idx = _numpy_index(idx)
    try:
        shape = _selection_shape(self._shape, np_idx)
    except IndexError as e:
        raise IndexError(str(e)) from None
    out = Tensor._empty(shape, self.dtype, "index")
    _gather(self._array(), np_idx, out._array())
    return record("index", out, {"self": self}, indices=np_idx, self_sizes=self._shape)


_GATHER_CHUNK = 8192  # mask cells a masked gather reads at a time (NumPy's own buffer size)


def _gather(a: np.ndarray, np_idx: tuple, out: np.ndarray) -> None:
    """out = a[np_idx], straight into the counted result where NumPy allows it (the index is
    already checked): on a contiguous tensor, one integer array is a take along dim 0, and a
    boolean mask over the leading dims takes the rows it picks, a chunk of the mask at a time
    (their positions, at most 64 KiB, are the only temporary). Any other index goes through
    NumPy's own gather, a temporary the size of the result."""
    only = np_idx[0] if len(np_idx) == 1 and isinstance(np_idx[0], np.ndarray) else None
    if only is None or not a.flags.c_contiguous:
        out[...] = a[np_idx]
    elif only.dtype.kind in "iu" and a.ndim:
        np.take(a, only, axis=0, out=out, mode="wrap")  # "wrap": -1 is the last row, as a[-1]
    elif only.dtype == np.bool_ and only.shape == a.shape[:only.ndim]:
        rows = a.reshape((-1,) + a.shape[only.ndim:])  # a view: a is contiguous
        mask, done = only.reshape(-1), 0
        for s in range(0, mask.size, _GATHER_CHUNK):
            picked = np.flatnonzero(mask[s:s + _GATHER_CHUNK])
            picked += s
            np.take(rows, picked, axis=0, out=out[done:done + picked.size], mode="wrap")
            done += picked.size
    else:
        out[...] = a[np_idx]


@derivative("index", "IndexBackward0", saves={"indices": None})
def _index_bw(ctx, g):
    out = zeros(ctx.attr("self_sizes"), dtype=g.dtype)
    idx = ctx.attr("indices")
    if len(idx) == 1 and getattr(idx[0], "dtype", None) == np.bool_:
        out._array()[idx] = g._array()  # a mask picks each cell once: no accumulation needed
    else:
        np.add.at(out._array(), idx, g._array())  # repeated indices accumulate
    return (out,)


@tensor_method
def index_put_(self: Tensor, idx, values) -> Tensor:
    """x[idx] = values with an advanced index, in place (IndexPutBackward0).

    Also ``x.index_put_(indices, values)`` as in torch, with ``indices`` a tuple of tensors."""
    np_idx = _numpy_index(idx)
    a = self._array()

    def compute():
        a[np_idx] = values._array() if isinstance(values, Tensor) else values

    def check():
        if isinstance(values, Tensor):
            np.broadcast_shapes(values._shape, _selection_shape(self._shape, np_idx))
        else:
            _selection_shape(self._shape, np_idx)  # NumPy's IndexError before any write

    return record_inplace("index_put_", self, {"self": self, "values": values}, compute,
                          check=check, indices=np_idx)


@derivative("index_put_", "IndexPutBackward0", inputs=("self", "values"))
def _index_put_bw(ctx, g):
    idx = ctx.attr("indices")
    g_self = g.clone()
    g_self._array()[idx] = 0  # overwritten cells get no gradient from before the write
    g_values = None
    if ctx.needs(1):
        picked = g._array()[idx]
        g_values = Tensor._empty(picked.shape, g.dtype, "index_put_ backward")
        g_values._array()[...] = picked
    return (g_self, g_values)
