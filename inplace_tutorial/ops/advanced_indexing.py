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
        gathered = self._array()[np_idx]  # NumPy's gather: a short-lived temporary
    except IndexError as e:
        raise IndexError(str(e)) from None
    out = Tensor._empty(gathered.shape, self.dtype, "index")
    out._array()[...] = gathered
    del gathered
    return record("index", out, {"self": self}, indices=np_idx, self_sizes=self._shape)


@derivative("index", "IndexBackward0", saves={"indices": None})
def _index_bw(ctx, g):
    out = zeros(ctx.attr("self_sizes"), dtype=g.dtype)
    np.add.at(out._array(), ctx.attr("indices"), g._array())  # repeated indices accumulate
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
