"""Flat indexing: put_(index, source) writes, take(index) reads, as if self were 1-D.

``x.put_(idx, src)`` sets ``x.view(-1)[idx[i]] = src[i]`` (i in the logical, row-major order of
idx and src, whatever their strides; negative indices count from the end), or adds with
``accumulate=True``; ``x.take(idx)`` reads those cells into a tensor of idx's shape. Self may
be non-contiguous: the logical position is turned into a storage cell with self's strides.

The nodes save the index (with its version: changing it in place before backward raises) and
their backward formulas are each other: put's source gradient is ``grad.take(index)``, take's
gradient a ``put_(..., accumulate=True)`` into zeros. PyTorch checks an index's range while
it writes, so an out-of-range index leaves its earlier cells written; here every index is
checked before the first write, as the course promises. A source that shares self's cells
(not refused when neither is dense) is read element by element in torch's order, each just
before its own write (``_put_in_order``).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd import grad_mode
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..creation import zeros
from ..tensor import Tensor, tensor_method
from .arg_checks import check_tensor, type_name
from .cpu_loops import iteration_dims
from .index_ops import check_no_overlap, first_bad_index
from .tensor_iterator import check_internal_overlap


def _check_accumulate(op: str, accumulate, positional: bool) -> None:
    if not isinstance(accumulate, (bool, np.bool_)):
        where = " (position 3)" if positional else ""
        raise TypeError(f"{op}(): argument 'accumulate'{where} must be bool, not "
                        f"{type_name(accumulate)}")


def _long_index(op: str, index: Tensor) -> None:
    if index.dtype is not dtypes.int64:
        raise RuntimeError(f"{op}(): Expected a long tensor for index, but got "
                           f"{index.dtype.short}")


def check_range(idx: np.ndarray, n: int) -> None:
    bad = first_bad_index(idx, -n, n)
    if bad is not None:
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} "
                         "elements.")


def _flat(t: Tensor, op: str) -> tuple[np.ndarray, Tensor | None]:
    """t's values in logical order as a 1-D array: a view when t is contiguous, else a
    counted copy (returned too, so the buffer lives while the array is used)."""
    a = t._array()
    if a.flags.c_contiguous:
        return a.reshape(-1), None
    copy = Tensor._empty(t._shape, t.dtype, op + " (contiguous copy)")
    np.copyto(copy._array(), a)
    return copy._array().reshape(-1), copy


def _cells(self: Tensor, index: Tensor, op: str) -> tuple[np.ndarray, np.ndarray, list]:
    """(array to index, positions in it, buffers to keep alive): the positions of index's
    entries in self's logical order, turned into storage cells when self is strided.
    All buffers are counted: positions are index-sized int64 arrays."""
    idx, keep = _flat(index, op)
    n = self.numel()
    pos_t = Tensor._empty((idx.size,), dtypes.int64, op + " (positions)")
    pos = pos_t._array()
    np.remainder(idx, n, out=pos)  # -1 is the last element (checked in range already)
    a = self._array()
    if a.flags.c_contiguous:
        return a.reshape(-1), pos, [keep, pos_t]
    _storage_cells(self, pos, op)
    return self._storage.typed(self.dtype.np), pos, [keep, pos_t]


def _storage_cells(self: Tensor, pos: np.ndarray, op: str) -> None:
    """Logical positions in self -> cells of its storage, in place: the offset plus, over
    the dims, coordinate * stride (two counted int64 arrays as long as ``pos``)."""
    rem_t = Tensor._empty((pos.size,), dtypes.int64, op + " (coordinates)")
    tmp_t = Tensor._empty((pos.size,), dtypes.int64, op + " (coordinates)")
    rem, tmp = rem_t._array(), tmp_t._array()
    np.copyto(rem, pos)
    pos.fill(self._offset)
    for size, stride in zip(reversed(self._shape), reversed(self._stride)):
        np.remainder(rem, size, out=tmp)
        np.multiply(tmp, stride, out=tmp)
        np.add(pos, tmp, out=pos)
        np.floor_divide(rem, size, out=rem)


# --------------------------------------------------------------------------- put_
def _put_checks(op: str, self: Tensor, index: Tensor, source: Tensor) -> None:
    """put_'s checks in its order; then the range, which PyTorch checks while it writes."""
    _long_index(op, index)
    if self.dtype is not source.dtype:
        raise RuntimeError(f"{op}(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {self.dtype.short} and source.dtype = "
                           f"{source.dtype.short}")
    if source.numel() != index.numel():
        raise IndexError(f"{op}(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {source.numel()}, index.numel() "
                         f"= {index.numel()}")
    if self.numel() == 0 and index.numel() != 0:
        raise IndexError(f"{op}(): Tried to put elements into an empty tensor")
    check_internal_overlap(self)
    check_no_overlap(self, index)
    check_no_overlap(self, source)
    check_range(index._array(), self.numel())


def _put_kernel(self: Tensor, index: Tensor, source: Tensor, accumulate: bool) -> None:
    if index.numel() == 0:
        return
    if source._storage is self._storage:
        _put_in_order(self, index, source, accumulate)
        return
    a, pos, keep = _cells(self, index, "put_")
    src, copy = _flat(source, "put_")
    if accumulate:
        np.add.at(a, pos, src)  # a repeated index adds every time
    else:
        a[pos] = src  # a repeated index: the last one wins, as PyTorch's CPU loop
    del keep, copy


def _in_order(t: Tensor, sh: list, st: list, label: str) -> tuple[np.ndarray, Tensor]:
    """The storage cells (``t`` the source) or values (``t`` the index) that TensorIterator's
    walk ``sh``/``st`` (innermost dim first) visits, in its order: a counted int64 array."""
    n = t.numel()
    keep = Tensor._empty((n,), dtypes.int64, label)
    a = keep._array()
    if label.endswith("(index)"):
        view = np.lib.stride_tricks.as_strided(
            t._array(), tuple(reversed(sh)), tuple(s * 8 for s in reversed(st)))
        np.copyto(a.reshape(tuple(reversed(sh))), view)
        return a, keep
    m = sh[0]
    a[:m].fill(st[0])
    a[0] = t._offset
    np.cumsum(a[:m], out=a[:m])  # the innermost dim's cells
    for size, stride in zip(sh[1:], st[1:]):  # each outer dim repeats what is inside it
        for i in range(1, size):
            np.add(a[:m], i * stride, out=a[i * m:(i + 1) * m])
        m *= size
    return a, keep


def _last_write_before(reads: np.ndarray, writes: np.ndarray) -> np.ndarray:
    """For each element k, the last element j < k that writes the cell k reads (-1: none):
    every read and write sorted by (cell, time code: 2k for k's read, 2k + 1 for its write),
    then the latest write so far carried along. Counted buffers, no NumPy temporaries."""
    n = reads.size
    span = 2 * n + 2
    buf = Tensor._empty((9 * n,), dtypes.int64, "put_ (reads and writes)")._array()
    keys, last, tmp, tmp2, prev = (buf[:2 * n], buf[2 * n:4 * n], buf[4 * n:6 * n],
                                   buf[6 * n:8 * n], buf[8 * n:])
    prev.fill(2)
    prev[0] = 0
    np.cumsum(prev, out=prev)  # 0, 2, 4 ...
    np.multiply(reads, span, out=keys[:n])
    np.add(keys[:n], prev, out=keys[:n])
    np.multiply(writes, span, out=keys[n:])
    np.add(keys[n:], prev, out=keys[n:])
    keys[n:] += 1
    keys.sort()
    np.remainder(keys, span, out=tmp2)  # time codes
    np.bitwise_and(tmp2, 1, out=tmp)  # 1: a write
    np.add(keys, 1, out=last)
    np.multiply(last, tmp, out=last)
    last -= 1  # a write's key, -1 for a read
    np.maximum.accumulate(last, out=last)  # the latest write so far
    np.floor_divide(last, span, out=tmp)  # ... its cell
    np.remainder(last, span, out=last)
    np.floor_divide(last, 2, out=last)  # ... its element
    np.floor_divide(keys, span, out=keys)
    np.equal(tmp, keys, out=tmp)  # 1: the same cell as this event's
    np.bitwise_and(tmp2, 1, out=keys)
    np.subtract(1, keys, out=keys)  # 1: this event is a read
    np.multiply(tmp, keys, out=tmp)
    np.floor_divide(tmp2, 2, out=tmp2)  # this event's element
    np.multiply(last, tmp, out=last)
    np.add(last, tmp, out=last)
    last -= 1  # the writer's element for a read that has one, else -1
    prev.fill(-1)
    np.maximum.at(prev, tmp2, last)
    return prev


def _put_in_order(self: Tensor, index: Tensor, source: Tensor, accumulate: bool) -> None:
    """put_ whose source shares self's storage (where the overlap check lets it through):
    torch reads each source element just before its own write, in TensorIterator's order over
    (source, index), so a source cell written earlier is read new. Runs of elements that read
    no cell written earlier in the same run are gathered, then written, together."""
    if index._shape != source._shape:  # torch walks index.reshape(source.sizes())
        with grad_mode.no_grad():
            index = index.reshape(source._shape)
    sh, st = iteration_dims(source._shape, [source._stride, index._stride])
    reads, keep_r = _in_order(source, sh, st[0], "put_ (source cells)")
    idx, keep_i = _in_order(index, sh, st[1], "put_ (index)")
    n = self.numel()
    writes = idx  # logical position -> storage cell, in place
    np.remainder(idx, n, out=writes)
    if not (self._array().flags.c_contiguous and self._offset == 0):
        _storage_cells(self, writes, "put_")
    flat = self._storage.typed(self.dtype.np)
    vals = Tensor._empty((idx.size,), self.dtype, "put_ (source values)")._array()

    def run(a: int, b: int) -> None:
        np.take(flat, reads[a:b], out=vals[a:b], mode="clip")  # (raise: a buffer)
        if accumulate:
            np.add.at(flat, writes[a:b], vals[a:b])
        else:
            flat[writes[a:b]] = vals[a:b]

    prev = _last_write_before(reads, writes)
    start = 0
    for b in range(0, idx.size, 4096):  # (flatnonzero by pieces: its result isn't counted)
        for k in np.flatnonzero(prev[b: b + 4096] >= 0):
            if prev[b + k] >= start:  # reads a cell this run wrote: starts the next run
                run(start, b + k)
                start = int(b + k)
    run(start, idx.size)
    del keep_r, keep_i


def _put_args(op: str, index, source, accumulate, positional: bool) -> None:
    check_tensor(op, "index", index, position=1)
    check_tensor(op, "source", source, position=2)
    _check_accumulate(op, accumulate, positional)


@binding()
@tensor_method
def put_(self, index: Tensor, source: Tensor, *args, accumulate: bool = False) -> Tensor:
    accumulate = _positional_accumulate("put_", args, accumulate)
    _put_args("put_", index, source, accumulate, bool(args))
    return record_inplace(
        "put", self, {"self": self, "source": source, "index": index},
        compute=lambda: _put_kernel(self, index, source, bool(accumulate)),
        check=lambda: _put_checks("put_", self, index, source), accumulate=bool(accumulate))


@binding()
@tensor_method
def put(self, index: Tensor, source: Tensor, *args, accumulate: bool = False) -> Tensor:
    accumulate = _positional_accumulate("put", args, accumulate)
    _put_args("put", index, source, accumulate, bool(args))
    _put_checks("put_", self, index, source)  # (PyTorch's put calls put_ on a clone)
    with grad_mode.no_grad():
        out = self.clone()  # preserve_format: a transposed self gives a transposed result
    _put_kernel(out, index, source, bool(accumulate))
    return record("put", out, {"self": self, "source": source, "index": index},
                  accumulate=bool(accumulate))


def _positional_accumulate(op: str, args: tuple, accumulate):
    if len(args) > 1:
        raise TypeError(f"{op}() takes from 2 to 3 positional arguments but {len(args) + 2} "
                        "were given")
    return args[0] if args else accumulate


@derivative("put", "PutBackward0", inputs=("self", "source"),
            saves={"index": None, "source": "source"})
def _put_bw(ctx, g):
    index = ctx.saved("index")
    g_self = g_source = None
    if ctx.needs(0):
        if ctx.attr("accumulate"):
            g_self = g
        else:  # the overwritten cells had no say in the result
            g_self = g.clone()
            _put_kernel(g_self, index, zeros(index._shape, dtype=g.dtype), False)
    if ctx.needs(1):
        source = ctx.saved("source")
        g_source = _take_kernel(g, index).reshape(source.shape)
    return (g_self, g_source)


# --------------------------------------------------------------------------- take
def take_checks(self: Tensor, index: Tensor, out: Tensor | None = None) -> None:
    """take_out's checks in its order (the index's dtype, out's dtype, an empty self)."""
    _long_index("take", index)
    if out is not None and out.dtype is not self.dtype:
        raise RuntimeError(f"take(): self and out expected to have the same dtype, but got "
                           f"self.dtype = {self.dtype.short} and out.dtype = {out.dtype.short}")
    if self.numel() == 0 and index.numel() != 0:
        raise IndexError("take(): tried to take from an empty tensor")


def _take_kernel(self: Tensor, index: Tensor, out: Tensor | None = None) -> Tensor:
    """self's cells at index into ``out`` (a new contiguous tensor of index's shape)."""
    if out is None:
        out = Tensor._empty(index._shape, self.dtype, "take")
    if index.numel() == 0:
        return out
    a, pos, keep = _cells(self, index, "take")
    o = out._array()
    if o.flags.c_contiguous:
        np.take(a, pos, out=o.reshape(-1), mode="clip")  # (in range: checked; the default
        # mode would buffer the whole output)
    else:
        tmp = Tensor._empty(index._shape, self.dtype, "take (contiguous result)")
        np.take(a, pos, out=tmp._array().reshape(-1), mode="clip")
        np.copyto(o, tmp._array())
    del keep
    return out


@binding()
@tensor_method
def take(self, index: Tensor) -> Tensor:
    check_tensor("take", "index", index, position=1)
    take_checks(self, index)
    check_range(index._array(), self.numel())
    return record("take", _take_kernel(self, index), {"self": self, "index": index})


@derivative("take", "TakeBackward0", saves={"self": None, "index": None})
def _take_bw(ctx, g):
    self, index = ctx.saved("self"), ctx.saved("index")
    out = zeros(self.shape, dtype=g.dtype)
    _put_kernel(out, index, g, True)  # PyTorch's take_backward: a repeated index adds up
    return (out,)


def take_into(self: Tensor, index: Tensor, out: Tensor) -> None:
    """take's out= kernel (the checks are the caller's)."""
    _take_kernel(self, index, out)


__all__ = ["check_range", "put", "put_", "take", "take_checks", "take_into"]
