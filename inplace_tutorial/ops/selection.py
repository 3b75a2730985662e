"""Selection: kthvalue, median and nanmedian, one value picked out of each line, with its index.

PyTorch picks the k-th smallest value of a line (NaN counts as the largest) by partitioning a
copy of it, not by sorting it. Where the value is unique the partitioning doesn't matter: it is
the value at position k - 1 of the line sorted stably, and that is how it is computed here
(sorting.py's sort, into counted memory). Where several elements compare equal to it (NaN
equals NaN, -0.0 equals 0.0), which of them is picked, so the index and the zero's sign, is
the partitioning's doing; those lines are replayed: kthvalue's quickselect (Sedgewick's, from
PyTorch's SortingUtils) and nanmedian's std::nth_element (_std_sort.py).

The nodes save the picked indices, as derivatives.yaml's value_selecting_reduction_backward
reads them; the whole-tensor median saves self and result and shares the gradient evenly.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..creation import zeros
from ..layout import contiguous_strides, wrap_dim
from ..storage import UntypedStorage
from ..tensor import Tensor, tensor_method
from . import _std_sort
from ._chunked import ramp
from .arg_checks import argument_error, check_int, saved, signed
from .max_min import evenly_distribute_bw
from .sorting import _LINE_CHUNK, _carve, _gather, _return_type, _sort_lines, _ties
from .sorting_utils import LineBatch, quick_select, rank_keys
from .workspace import chunks

KthvalueResult = _return_type("kthvalue")
MedianResult = _return_type("median")
NanmedianResult = _return_type("nanmedian")


def _bool_keepdim(op: str, keepdim, position: int) -> bool:
    if not isinstance(keepdim, (bool, np.bool_)):
        raise argument_error(op, "keepdim", position, "bool", keepdim)
    return bool(keepdim)


def _reduced(self: Tensor, d: int, keepdim: bool) -> tuple:
    """The result's shape: ``d`` kept as 1 (keepdim) or dropped; a 0-dim input stays 0-dim."""
    if self.dim() == 0:
        return ()
    shape = list(self._shape)
    if keepdim:
        shape[d] = 1
    else:
        del shape[d]
    return tuple(shape)


def _check_nonempty_dim(op: str, self: Tensor, d: int) -> None:
    """zero_numel_check_dims: an empty tensor may be reduced only along a dim that isn't."""
    if self.numel() == 0 and self.dim() and self._shape[d] == 0:
        raise IndexError(f"{op}: Expected reduction dim {d} to have non-zero size.")


def _isnan(a: np.ndarray) -> np.ndarray:
    return np.isnan(a) if a.dtype.kind == "f" or a.dtype.name == "bfloat16" else \
        np.zeros(a.shape, dtype=bool)


def _same(a, b) -> np.ndarray:
    """PyTorch's equivalence under its comparators: equal, or both NaN (-0.0 equals 0.0)."""
    return (a == b) | (_isnan(a) & _isnan(b))


# --------------------------------------------------------------------------- the picking
def _pick(a: np.ndarray, dtype: dtypes.dtype, d: int, rank, op: str, replay
          ) -> tuple[Tensor, Tensor]:
    """For every line of ``a`` (at least 1-D) along ``d``: the element at position
    ``rank(nan_count, n)`` of the line sorted stably (NaN last), as a (values, indices) pair
    with ``d`` kept as 1. ``replay(keys, r, work, value, nan_count)``, when given, returns the
    position PyTorch's algorithm picks on a line where that element (``value``) ties with a
    neighbour (``keys``: _std_sort.tie_keys of the line, equal for equivalent values), or
    None where the stable pick stands. Everything line-sized is in counted memory."""
    shape = a.shape[:d] + (1,) + a.shape[d + 1:]
    values = Tensor._empty(shape, dtype, op)
    indices = Tensor._empty(shape, dtypes.int64, op + " (indices)")
    if values.numel() == 0:
        return values, indices
    # the stable order of every line, in counted memory (PyTorch too copies each line and
    # keeps an int64 index per element while it partitions)
    order = Tensor._empty(a.shape, dtypes.int64, op + " (order)")
    _sort_lines(a, d, False, None, None, order._array(), stable=True)
    lines, ordered = np.moveaxis(a, d, -1), np.moveaxis(order._array(), d, -1)
    vals, idxs = np.moveaxis(values._array(), d, -1), np.moveaxis(indices._array(), d, -1)
    n = lines.shape[-1]
    m = min(max(1, _LINE_CHUNK // n), lines.size // n) * n  # elements of a chunk
    floats = a.dtype.kind == "f" or a.dtype.name == "bfloat16"
    parts = [(np.bool_, m * floats)]
    if replay is not None:  # the lines in stable order, tie_keys' and the replay's buffers
        parts += [(a.dtype, m), (np.int64, n), (np.int64, n), (np.bool_, n), (np.bool_, n),
                  (np.bool_, n), *_std_sort.Work.parts(n)]
    nbytes = sum([np.dtype(t).itemsize * size for t, size in parts])
    nan_buf, *rest = _carve(UntypedStorage(nbytes, np.uint8, op + " (scratch)")._array, parts)
    together = None  # short tied lines of kthvalue, replayed many at a time

    def write(where: tuple, p: np.ndarray) -> None:
        part, tied = where
        idxs[part][tied] = p
        vals[part][tied] = np.take_along_axis(lines[part][tied], p, axis=-1)

    for part in chunks(lines.shape[:-1], m // n):
        line, o = lines[part], ordered[part]
        if n > _LINE_CHUNK:  # one line: 1-D views of it
            line, o = line.reshape(n), o.reshape(n)
        nans = np.zeros(line.shape[:-1] + (1,), dtype=np.int64)
        if floats:
            mask = nan_buf[:line.size].reshape(line.shape)
            nans[..., 0] = np.count_nonzero(np.isnan(line, out=mask), axis=-1)
        r = rank(nans, n)
        pos = np.take_along_axis(o, r, axis=-1)
        idxs[part] = pos.reshape(idxs[part].shape)
        vals[part] = np.take_along_axis(line, pos, axis=-1).reshape(vals[part].shape)
        if replay is None:
            continue
        s_buf, step, keys, *tie = rest[:6]
        s = s_buf[:line.size].reshape(line.shape)
        _gather(line, o, s)  # the lines in stable order
        here = np.take_along_axis(s, r, axis=-1)
        tie_at = (_same(np.take_along_axis(s, np.maximum(r - 1, 0), axis=-1), here) & (r > 0)) | (
            _same(np.take_along_axis(s, np.minimum(r + 1, n - 1), axis=-1), here) & (r < n - 1))
        if replay is quick_select and n <= _LOCKSTEP:  # short lines: many at once
            tied = tie_at[..., 0]
            if tied.any():
                together = together or LineBatch(n, int(r.flat[0]), lines.size // n, op,
                                                 write)
                together.add((part, tied), rank_keys(s[tied], o[tied]))
            continue
        for w in map(tuple, np.argwhere(tie_at[..., 0])):
            _std_sort.tie_keys(_ties(s[w], *[t[:n - 1] for t in tie]), o[w], step, keys)
            p = replay(keys, int(r[w][0]), _std_sort.Work(*rest[6:]), here[w][0],
                       int(nans[w][0]))
            if p is None:
                continue
            idxs[part][w] = p
            vals[part][w] = line[w][p]
    if together is not None:
        together.flush()
    return values, indices


_LOCKSTEP = 64  # lines up to this long are replayed 128 at a time (sorting_utils.py)


def _kth_rank(k: int):
    return lambda nans, n: np.full(nans.shape, k - 1, dtype=np.int64)


def _lines(self: Tensor) -> np.ndarray:
    """self's cells, a 0-dim tensor as one line of one."""
    a = self._array()
    return a.reshape(1) if a.ndim == 0 else a


def _finish(values: Tensor, indices: Tensor, d: int, keepdim: bool, self: Tensor) -> tuple:
    """The picked pair at the result's shape: the same storages, the kept dim dropped (new
    tensors, not views: nothing else refers to those storages)."""
    shape = _reduced(self, d, keepdim)
    if values._shape == shape:
        return values, indices
    return tuple(Tensor._make(t._storage, shape, contiguous_strides(shape), 0, t.dtype)
                 for t in (values, indices))


# --------------------------------------------------------------------------- kthvalue
@binding()
@tensor_method
def kthvalue(self, k: int, dim: int = -1, keepdim: bool = False):
    """The k-th smallest value along dim (NaN counts as the largest) and its index."""
    k = check_int("kthvalue", "k", k, 1)
    dim = check_int("kthvalue", "dim", dim, 2)
    keepdim = _bool_keepdim("kthvalue", keepdim, 3)
    d = wrap_dim(dim, self.dim()) if self.dim() else wrap_dim(dim, 1)
    _check_nonempty_dim("kthvalue()", self, d)
    size = self._shape[d] if self.dim() else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    if self.dtype is dtypes.bool_ and self.dim():  # (a 0-dim tensor is copied, not picked)
        raise NotImplementedError("\"kthvalue_cpu\" not implemented for 'Bool'")
    values, indices = _pick(_lines(self), self.dtype, d, _kth_rank(k), "kthvalue",
                            quick_select)
    values, indices = _finish(values, indices, d, keepdim, self)
    record("kthvalue", values, {"self": self}, dim=saved(dim), indices=indices,
           keepdim=keepdim, self_sym_sizes=self._shape)
    return KthvalueResult((values, indices))


# --------------------------------------------------------------------------- median
def _median_rank(nans, n):
    """median(dim): the lower median of a line, or its first NaN if it has one."""
    return np.where(nans > 0, n - nans, (n - 1) // 2)


def _nanmedian_rank(nans, n):
    """nanmedian(dim): the lower median of the line's numbers (an all-NaN line: position 0,
    C++'s (-1) / 2)."""
    return np.maximum((n - nans - 1) // 2, 0)


def _nth_element(keys: np.ndarray, r: int, work: _std_sort.Work) -> int:
    """The position std::nth_element leaves at ``r`` (``keys`` are rearranged)."""
    pos = ramp(work.aux[:keys.size], 0)
    _std_sort.nth_element(keys, pos, r, work)
    return int(pos[r])


def _median_dim(self: Tensor, op: str, dim, keepdim, ignore_nan: bool):
    d = wrap_dim(dim, self.dim()) if self.dim() else wrap_dim(dim, 1)
    _check_nonempty_dim("median()", self, d)  # (nanmedian shares median's checks)
    if self.dtype is dtypes.bool_:  # (nanmedian shares median's kernel, and its name)
        raise NotImplementedError("\"median_out\" not implemented for 'Bool'")
    rank = _nanmedian_rank if ignore_nan else _median_rank
    # median's comparator breaks ties by index (a stable order): only nanmedian's all-NaN
    # lines are left to std::nth_element
    replay = _all_nan_line if ignore_nan else None
    values, indices = _pick(_lines(self), self.dtype, d, rank, op, replay)
    values, indices = _finish(values, indices, d, keepdim, self)
    record(op + "_dim", values, {"self": self}, dim=saved(dim), indices=indices,
           keepdim=keepdim, self_sym_sizes=self._shape)
    pair = NanmedianResult if ignore_nan else MedianResult
    return pair((values, indices))


# NaN converted to each dtype as PyTorch's at::full(NaN).to(dtype) does on x86 (an empty
# median): floats keep NaN, int64 is INT64_MIN, the narrower ints wrap INT32_MIN's bits
_EMPTY_MEDIAN = {"int64": -2**63, "int32": -2**31, "int16": 0, "int8": 0, "uint8": 0,
                 "bool": True}


def _median_all(self: Tensor, op: str, ignore_nan: bool) -> Tensor:
    out = Tensor._empty((), self.dtype, op)
    o = out._array()
    if self.numel() == 0:
        o[...] = _EMPTY_MEDIAN.get(self.dtype.np.name, np.nan)
        return out
    if self.dtype is dtypes.bool_:
        raise NotImplementedError("\"median_cpu\" not implemented for 'Bool'")
    # as PyTorch: a copy of the values, partitioned in place around the median (bfloat16 as
    # float32, exact: NumPy can't order ml_dtypes' NaN)
    wide = np.float32 if self.dtype is dtypes.bfloat16 else self.dtype.np
    copy = UntypedStorage(self.numel(), wide, op + " (copy)")._array
    np.copyto(copy.reshape(self._shape), self._array(), casting="unsafe")
    nans = 0
    if copy.dtype.kind == "f":
        mask = UntypedStorage(copy.size, np.bool_, op + " (NaN mask)")._array
        nans = int(np.count_nonzero(np.isnan(copy, out=mask)))
        del mask
    if nans and not ignore_nan:
        o[...] = np.nan  # torch.median of a tensor holding NaN: the quiet NaN, whatever bits
        return out
    r = max((copy.size - nans - 1) // 2, 0)
    copy.partition(r)  # NumPy too puts NaN last
    o[...] = copy[r]
    if copy[r] == 0 and copy.dtype.kind == "f":  # -0.0 or 0.0: std::nth_element decides
        values, _ = _pick(self._array().reshape(-1), self.dtype, 0, _nanmedian_rank, op,
                          _nth_whole)
        o[...] = values._array().reshape(())
    return out


def _all_nan_line(keys: np.ndarray, r: int, work: _std_sort.Work, value,
                  nans: int) -> int | None:
    """nanmedian(dim) breaks ties by index, except among NaNs: an all-NaN line's pick is
    std::nth_element's."""
    return _nth_element(keys, r, work) if nans == keys.size else None


def _nth_whole(keys: np.ndarray, r: int, work: _std_sort.Work, value, nans: int) -> int | None:
    """The whole-tensor median's std::nth_element compares values only, so of equal values
    only -0.0 and 0.0 can be told apart: where the median is a zero, its sign is the one
    nth_element leaves there."""
    return _nth_element(keys, r, work) if value == 0 else None


_ABSENT = object()  # median() without a dim: the whole-tensor form
_MEDIAN_FORMS = ["", "int dim, bool keepdim = False"]


@binding(_MEDIAN_FORMS)
@tensor_method
def median(self, dim=_ABSENT, keepdim: bool = False):
    """median(): the lower median of all values (NaN if any is NaN); median(dim): per line,
    with its index."""
    if dim is _ABSENT:
        return record("median", _median_all(self, "median", False), {"self": self})
    dim = check_int("median", "dim", dim, 1)
    keepdim = _bool_keepdim("median", keepdim, 2)
    return _median_dim(self, "median", dim, keepdim, False)


@binding(_MEDIAN_FORMS)
@tensor_method
def nanmedian(self, dim=_ABSENT, keepdim: bool = False):
    """nanmedian(): the lower median of the values that aren't NaN; nanmedian(dim): per line,
    with its index."""
    if dim is _ABSENT:
        return record("nanmedian", _median_all(self, "nanmedian", True), {"self": self})
    dim = check_int("nanmedian", "dim", dim, 1)
    keepdim = _bool_keepdim("nanmedian", keepdim, 2)
    return _median_dim(self, "nanmedian", dim, keepdim, True)


# --------------------------------------------------------------------------- backward
def _value_selecting_bw(ctx, g):
    """value_selecting_reduction_backward: the gradient goes to the saved index, zeros
    elsewhere."""
    sizes, idx = ctx.attr("self_sym_sizes"), ctx.saved("indices")
    out = zeros(sizes, dtype=g.dtype)
    if not sizes:
        out._array()[...] = g._array()
        return (out,)
    d = wrap_dim(signed(ctx.attr("dim")), len(sizes))
    i, v = idx._array(), g._array()
    if not ctx.attr("keepdim"):
        i, v = np.expand_dims(i, d), np.expand_dims(v, d)
    np.put_along_axis(out._array(), i, v, axis=d)
    return (out,)


_SELECTING = {"indices": None}
derivative("kthvalue", "KthvalueBackward0", saves=_SELECTING)(_value_selecting_bw)
derivative("median_dim", "MedianBackward1", saves=_SELECTING)(_value_selecting_bw)
derivative("nanmedian_dim", "NanmedianBackward1", saves=_SELECTING)(_value_selecting_bw)


_EVENLY = {"self": None, "result": None}
derivative("median", "MedianBackward0", saves=_EVENLY)(evenly_distribute_bw)
derivative("nanmedian", "NanmedianBackward0", saves=_EVENLY)(evenly_distribute_bw)
