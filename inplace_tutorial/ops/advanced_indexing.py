"""Advanced indexing: ``x[index tensors]``, PyTorch's ``at::index``, and the plan that
index_put.py writes with.

indexing.py turns ``x[...]`` into views (ints, slices, None, ...) plus one index tensor per
indexed dim, as PyTorch's applySlicing does; this module takes it from there. It checks the
index tensors in PyTorch's order and words (dtype, mask shapes, broadcasting, bounds), then
gathers into a counted result: unlike basic indexing this COPIES (``x[mask]._base is None``).
IndexBackward0 saves the index tensors themselves, version-checked: change one in place before
backward and backward raises, as in PyTorch.

Every byte is counted: the positions a mask picks (its ``nonzero()``) and the element offsets
of the picked cells live in counted tensors; NumPy only ever gathers a chunk at a time.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..creation import zeros
from ..tensor import Tensor

INDEX_DTYPES = (dtypes.int64, dtypes.int32, dtypes.uint8, dtypes.bool_)
_BAD_DTYPE = "tensors used as indices must be long, int, byte or bool tensors"
_UINT8_MASK = ("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
               "instead.")
_CHUNK = 1024  # result elements NumPy gathers or scatters at a time: its chunk-sized
# temporaries (8 KiB in float64) stay far under what the byte-accounting test tolerates


def _sizes(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def is_mask(t: Tensor) -> bool:
    return t.dtype is dtypes.bool_ or t.dtype is dtypes.uint8


# --------------------------------------------------------------------------- checks
def check_indices(self: Tensor, indices: list, warn: bool = True) -> None:
    """make_info's checks, before anything is read or written: every index tensor is long,
    int, byte or bool; a mask's shape equals the dims it covers (a k-dim mask covers k)."""
    for t in indices:
        if t is not None and t.dtype not in INDEX_DTYPES:
            raise IndexError(_BAD_DTYPE)
    at = 0
    for t in indices:
        if t is not None and is_mask(t):
            if t.dtype is dtypes.uint8 and warn:
                warnings.warn(_UINT8_MASK, UserWarning, stacklevel=4)
            check_mask_shape(self, t, at)
            at += t.dim()
        else:
            at += 1


def check_mask_shape(self: Tensor, mask: Tensor, at: int) -> None:
    for j in range(mask.dim()):
        src = at + j
        if src >= self.dim():
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-self.dim()}, {self.dim() - 1}], but got {src})")
        if mask._shape[j] != self._shape[src]:
            raise IndexError(f"The shape of the mask {_sizes(mask._shape)} at index {j} does not "
                             f"match the shape of the indexed tensor {_sizes(self._shape)} at "
                             f"index {src}")


# --------------------------------------------------------------------------- the plan
@dataclass
class Plan:
    """Where an advanced index reads or writes, in self's dims.

    ``arrays[d]``: the integer positions along dim d (a mask expanded into one array per dim
    it covers), broadcast together to ``bshape``; None for a dim taken whole. The result has
    shape ``shape``: the broadcast dims replace the indexed ones where they sit together, or
    go first when they don't (as in NumPy and PyTorch)."""

    arrays: list
    bshape: tuple
    shape: tuple
    dims: list  # the indexed dims of self, in order
    adjacent: bool
    keep: object  # the counted tensor holding a mask's positions (alive while arrays are used)
    raw: list  # ``arrays`` before the broadcast (what min/max read: a reduction over a
    # broadcast view would go through NumPy's loop buffer)


def nonzero_columns(mask: Tensor) -> tuple[list, Tensor]:
    """One counted int64 row per mask dim: the positions of its True cells (nonzero().t()),
    found a chunk of the mask at a time."""
    m = mask._array()
    flat = m.reshape(-1) if m.flags.c_contiguous else np.ravel(m)  # (a strided mask: copied)
    n = int(np.count_nonzero(flat))
    cols = Tensor._empty((max(m.ndim, 1), n), dtypes.int64, "nonzero")
    c, done = cols._array(), 0
    for s in range(0, flat.size, _CHUNK):
        picked = np.flatnonzero(flat[s:s + _CHUNK])
        picked += s
        if m.ndim:
            for j, pos in enumerate(np.unravel_index(picked, m.shape)):
                c[j, done:done + pos.size] = pos
        done += picked.size
    return [c[j] for j in range(m.ndim)], cols


def make_plan(self: Tensor, indices: list) -> Plan:
    """expandTensors, the broadcast and the result's shape (indices already checked)."""
    arrays, keep = [], []
    for t in indices:
        if t is None:
            arrays.append(None)
        elif is_mask(t):
            cols, held = nonzero_columns(t)
            arrays.extend(cols)
            keep.append(held)
        else:
            arrays.append(t._array())
    given = [a for a in arrays if a is not None]
    try:
        bshape = np.broadcast_shapes(*(a.shape for a in given))
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together "
                         "with shapes " + ", ".join(_sizes(a.shape) for a in given)) from None
    arrays += [None] * (self.dim() - len(arrays))
    dims = [d for d, a in enumerate(arrays) if a is not None]
    raw = arrays
    arrays = [None if a is None else np.broadcast_to(a, bshape) for a in arrays]
    adjacent = dims == list(range(dims[0], dims[-1] + 1))
    rest = tuple(s for d, s in enumerate(self._shape) if arrays[d] is None)
    if adjacent:
        shape = self._shape[:dims[0]] + tuple(bshape) + self._shape[dims[-1] + 1:]
    else:
        shape = tuple(bshape) + rest
    return Plan(arrays, tuple(bshape), shape, dims, adjacent, keep, raw)


def first_out_of_bounds(self: Tensor, plan: Plan) -> tuple[int, str] | None:
    """The first cell, in the order PyTorch's kernel visits them (C order over the broadcast
    index), whose index is out of range: (its flat position in ``bshape``, PyTorch's text,
    which counts dims among the index tensors). None if all are in range or nothing is
    visited (an empty result)."""
    if math.prod(plan.shape) == 0:
        return None
    bad = []
    for rank, d in enumerate(plan.dims):
        a, size = plan.raw[d], self._shape[d]
        if a.min() < -size or a.max() >= size:  # reductions: no index-sized temporary
            bad.append((rank, d))
    if not bad:
        return None
    first = None
    for rank, d in bad:
        a, size = plan.arrays[d], self._shape[d]
        p = int(np.flatnonzero(((a < -size) | (a >= size)).reshape(-1))[0])
        if first is None or p < first[0]:
            value = int(a.reshape(-1)[p])
            first = (p, f"index {value} is out of bounds for dimension {rank} with size {size}")
    return first


# --------------------------------------------------------------------------- gather / scatter
def linear(a: np.ndarray, plan: Plan) -> tuple[np.ndarray, Tensor, tuple]:
    """``a`` seen as (cells along the indexed dims, the other dims...), the counted offsets
    of the picked cells (shape ``bshape``) and the permutation that puts the result's
    broadcast dims first. Works for any strides: the indexed dims collapse into one axis of
    unit step over a's memory, the others keep theirs (a view, nothing copied)."""
    item = a.itemsize
    off_t = Tensor._empty(plan.bshape, dtypes.int64, "index offsets")
    off = off_t._array()
    term_t = Tensor._empty(plan.bshape, dtypes.int64, "index offsets") if len(plan.dims) > 1 \
        else None
    for k, d in enumerate(plan.dims):
        dest = off if k == 0 else term_t._array()
        np.copyto(dest, plan.arrays[d], casting="unsafe")  # (a ufunc would buffer a broadcast)
        np.remainder(dest, a.shape[d], out=dest)  # -1 is the last (bounds already checked)
        step = a.strides[d] // item
        if step != 1:
            np.multiply(dest, step, out=dest)
        if k:
            np.add(off, dest, out=off)
    del term_t
    rest = [d for d in range(a.ndim) if plan.arrays[d] is None]
    span = 1 + sum((a.shape[d] - 1) * (a.strides[d] // item) for d in plan.dims)
    src = np.lib.stride_tricks.as_strided(
        a, (span,) + tuple(a.shape[d] for d in rest), (item,) + tuple(a.strides[d] for d in rest))
    nb = len(plan.bshape)
    first = plan.dims[0] if plan.adjacent else 0
    order = tuple(range(first, first + nb)) + tuple(range(first)) + \
        tuple(range(first + nb, len(plan.shape)))
    return src, off_t, order


def _pieces(bshape: tuple, rest: int):
    """Index tuples that cover ``bshape`` in C order, each at most ~_CHUNK result elements
    (one position at a time when a single position is that large)."""
    if not bshape:
        yield ()
        return
    per = max(1, _CHUNK // max(rest, 1))
    for pos in np.ndindex(*bshape[:-1]):
        for s in range(0, bshape[-1], per):
            yield pos + (slice(s, min(s + per, bshape[-1])),)


def gather(a: np.ndarray, plan: Plan, out: np.ndarray) -> None:
    """out = a[plan], a chunk at a time (the chunk NumPy makes is the only temporary)."""
    if math.prod(plan.shape) == 0:
        return
    src, off_t, order = linear(a, plan)
    off, dest = off_t._array(), out.transpose(order)
    rest = math.prod(src.shape[1:])
    for piece in _pieces(plan.bshape, rest):
        if rest >= _CHUNK:
            for p in np.ndindex(*off[piece].shape):
                np.copyto(dest[piece][p], src[off[piece][p]])
        else:
            dest[piece] = src[off[piece]]


def scatter(a: np.ndarray, plan: Plan, values: np.ndarray, accumulate: bool,
            serial: bool = False) -> None:
    """a[plan] = values (``accumulate``: +=, repeated positions adding up), in PyTorch's
    order. ``serial``: values share memory with ``a`` (a layout PyTorch's overlap check can't judge,
    so it lets it through): one cell at a time, each value read when its turn comes."""
    if math.prod(plan.shape) == 0:
        return
    src, off_t, order = linear(a, plan)
    if serial:
        nb = len(plan.bshape)
        _serial(src, off_t._array(), np.broadcast_to(values, plan.shape), order, nb,
                accumulate)
        return
    vals = np.broadcast_to(values, plan.shape).transpose(order)
    off = off_t._array()
    rest = math.prod(src.shape[1:])
    for piece in _pieces(plan.bshape, rest):
        _write(src, off[piece], vals[piece], accumulate)


def _serial(src, off, vals, order, nb, accumulate) -> None:
    """PyTorch's kernel, cell by cell in the result's C order."""
    for r in np.ndindex(*vals.shape):
        t = tuple(r[k] for k in order)
        cell = (off[t[:nb]],) + t[nb:]
        src[cell] = src[cell] + vals[r] if accumulate else vals[r]


def _write(src: np.ndarray, off: np.ndarray, vals: np.ndarray, accumulate: bool) -> None:
    if math.prod(src.shape[1:]) >= _CHUNK:  # large rows: one at a time, as views
        for p in np.ndindex(*off.shape):
            row = src[off[p]]
            if accumulate:
                np.add(row, vals[p], out=row)
            else:
                np.copyto(row, vals[p])
    elif accumulate:
        np.add.at(src, off, vals)
    else:
        src[off] = vals  # a repeated position keeps the last value, as PyTorch's serial loop


# --------------------------------------------------------------------------- x[indices]
def index(self: Tensor, indices: list) -> Tensor:
    """``at::index``: self indexed by a list of index tensors (None: the dim taken whole),
    into a new counted tensor. IndexBackward0 saves the index tensors (version-checked)."""
    if len(indices) > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()} "
                         f"(got {len(indices)})")
    check_indices(self, indices)
    a = self._array()
    fast = _fast_gather(self, indices)
    if fast is not None:
        out = fast
    else:
        plan = make_plan(self, indices)
        bad = first_out_of_bounds(self, plan)
        if bad is not None:
            raise IndexError(bad[1])
        out = Tensor._empty(plan.shape, self.dtype, "index")
        gather(a, plan, out._array())
        del plan
    return record("index", out, {"self": self}, indices=list(indices),
                  self_sym_sizes=self._shape)


def _fast_gather(self: Tensor, indices: list) -> Tensor | None:
    """The two common cases on a contiguous tensor, gathered straight into the result: one
    integer tensor along dim 0 (np.take), and one mask over the leading dims (the rows it
    picks, a chunk of the mask at a time). None: use the general plan."""
    a = self._array()
    if len(indices) != 1 or not a.flags.c_contiguous or a.ndim == 0:
        return None
    t = indices[0]
    idx = t._array()
    if not is_mask(t):
        size = a.shape[0]
        if idx.size and (idx.min() < -size or idx.max() >= size):
            return None  # the general path finds the first bad index and says so
        out = Tensor._empty(idx.shape + a.shape[1:], self.dtype, "index")
        np.take(a, idx, axis=0, out=out._array(), mode="wrap")  # "wrap": -1 is the last row
        return out
    rows = _mask_rows(self, indices)
    if rows is None:
        return None
    out = Tensor._empty((int(np.count_nonzero(rows.mask)),) + a.shape[idx.ndim:], self.dtype,
                        "index")
    o = out._array()
    for picked, done in rows:
        np.take(rows.target, picked, axis=0, out=o[done:done + picked.size], mode="wrap")
    return out


@derivative("index", "IndexBackward0", saves={"indices": None})
def _index_bw(ctx, g):
    """Zeros of self's shape, the gradient added where each cell was picked (a cell picked
    twice gets both)."""
    out = zeros(ctx.attr("self_sym_sizes"), dtype=g.dtype)
    indices = list(ctx.saved("indices"))
    rows = _mask_rows(out, indices)
    if rows is not None:  # a mask picks each cell once: write its rows back, chunk by chunk
        for picked, done in rows:
            rows.target[picked] = g._array()[done:done + picked.size]
        return (out,)
    scatter(out._array(), make_plan(out, indices), g._array(), accumulate=True)
    return (out,)


class _MaskRows:
    """The rows a bool mask over the leading dims of a contiguous array picks, a chunk of the
    mask at a time: ``(positions, how many came before)``; ``target``: the array as rows."""

    def __init__(self, a: np.ndarray, mask: np.ndarray):
        self.target = a.reshape((-1,) + a.shape[mask.ndim:])  # a view: a is contiguous
        self.mask = mask.reshape(-1)

    def __iter__(self):
        done = 0
        for s in range(0, self.mask.size, _CHUNK):
            picked = np.flatnonzero(self.mask[s:s + _CHUNK])
            picked += s
            yield picked, done
            done += picked.size


def _mask_rows(self: Tensor, indices: list) -> _MaskRows | None:
    """The fast case: one bool mask (at least 1-dim), self contiguous."""
    if len(indices) != 1 or indices[0].dtype is not dtypes.bool_ or not indices[0].dim():
        return None
    a, m = self._array(), indices[0]._array()
    if not (a.flags.c_contiguous and m.flags.c_contiguous):
        return None
    return _MaskRows(a, m)


__all__ = ["INDEX_DTYPES", "Plan", "check_indices", "check_mask_shape", "first_out_of_bounds",
           "gather", "index", "is_mask", "make_plan", "nonzero_columns", "scatter"]
