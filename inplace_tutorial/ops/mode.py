"""mode: the most frequent value of each line along a dim, and an index where it occurs.

PyTorch's CPU kernel sorts (value, index) pairs of a line with std::sort, comparing values
with ``<``, then walks the runs of equal values; the first longest run wins, and its last
pair gives the value and the index. Which of equal values is last in its run is std::sort's
doing: the order sorting.py's sort(stable=False) replays (in counted memory), after which the
runs of all lines are found at once.

NaN is neither smaller nor larger than anything under ``<`` and unequal to itself, so on a
line holding NaN the sort's arrangement is the algorithm's alone: those lines are sorted here
step by step as libstdc++ does it, on the values themselves (_LibstdcxxSort).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..layout import wrap_dim
from ..storage import UntypedStorage
from ..tensor import Tensor, tensor_method
from ._chunked import ramp
from .arg_checks import check_int, saved
from .selection import _bool_keepdim, _finish, _isnan, _value_selecting_bw
from .sorting import _LINE_CHUNK, _carve, _return_type, _sort_lines
from .tensor_iterator import chunks

ModeResult = _return_type("mode")
_THRESHOLD = 16  # libstdc++'s _S_threshold


class _LibstdcxxSort:
    """std::sort of a list of (value, index) pairs by value with ``<``, step by step as GCC's
    libstdc++ does it (introsort, heapsort below the depth limit, a final insertion sort).
    Its unguarded loops rely on ``<`` being an order; with NaN they stop at the range's ends
    here, where C++ would read past them."""

    def __init__(self, pairs: list):
        self.a = pairs

    def less(self, i: int, j: int) -> bool:
        return self.a[i][0] < self.a[j][0]

    def swap(self, i: int, j: int) -> None:
        self.a[i], self.a[j] = self.a[j], self.a[i]

    def sort(self) -> list:
        n = len(self.a)
        if n > 1:
            self._introsort(0, n, 2 * (n.bit_length() - 1))
            if n > _THRESHOLD:
                self._insertion(0, _THRESHOLD)
                for i in range(_THRESHOLD, n):
                    self._linear_insert(i, 0)
            else:
                self._insertion(0, n)
        return self.a

    def _introsort(self, first: int, last: int, depth: int) -> None:
        while last - first > _THRESHOLD:
            if depth == 0:
                self._heap_sort(first, last)
                return
            depth -= 1
            cut = self._partition_pivot(first, last)
            self._introsort(cut, last, depth)
            last = cut

    def _partition_pivot(self, first: int, last: int) -> int:
        mid = first + (last - first) // 2
        a, b, c, less = first + 1, mid, last - 1, self.less
        if less(a, b):
            m = b if less(b, c) else (c if less(a, c) else a)
        elif less(a, c):
            m = a
        else:
            m = c if less(b, c) else b
        self.swap(first, m)
        lo, hi = first + 1, last
        while True:
            while lo < last - 1 and less(lo, first):
                lo += 1
            hi -= 1
            while hi > first and less(first, hi):
                hi -= 1
            if not lo < hi:
                return lo
            self.swap(lo, hi)
            lo += 1

    def _insertion(self, first: int, last: int) -> None:
        for i in range(first + 1, last):
            if self.less(i, first):
                self.a[first:i + 1] = [self.a[i]] + self.a[first:i]
            else:
                self._linear_insert(i, first)

    def _linear_insert(self, last: int, floor: int) -> None:
        val = self.a[last]
        while last - 1 >= floor and val[0] < self.a[last - 1][0]:
            self.a[last] = self.a[last - 1]
            last -= 1
        self.a[last] = val

    def _heap_sort(self, first: int, last: int) -> None:
        """std::partial_sort(first, last, last): make_heap, then pop to the end."""
        n = last - first
        for parent in range((n - 2) // 2, -1, -1):
            self._adjust(first, parent, n, self.a[first + parent])
        while last - first > 1:
            last -= 1
            val = self.a[last]
            self.a[last] = self.a[first]
            self._adjust(first, 0, last - first, val)

    def _adjust(self, first: int, hole: int, length: int, val) -> None:
        top, child, a = hole, hole, self.a
        while child < (length - 1) // 2:
            child = 2 * (child + 1)
            if a[first + child][0] < a[first + child - 1][0]:
                child -= 1
            a[first + hole] = a[first + child]
            hole = child
        if length % 2 == 0 and child == (length - 2) // 2:
            child = 2 * (child + 1)
            a[first + hole] = a[first + child - 1]
            hole = child - 1
        parent = (hole - 1) // 2
        while hole > top and a[first + parent][0] < val[0]:
            a[first + hole] = a[first + parent]
            hole = parent
            parent = (hole - 1) // 2
        a[first + hole] = val


def _runs_pick(values: list) -> int:
    """Where the first longest run of equal values (``!=`` ends a run) ends."""
    best, best_at, run = 0, 0, 0
    for i in range(len(values)):
        run += 1
        if i == len(values) - 1 or values[i] != values[i + 1]:
            if run > best:
                best, best_at = run, i
            run = 0
    return best_at


def _mode_nan_line(line: np.ndarray) -> int:
    """The index mode_kernel_impl reports for one line holding NaN (libstdc++'s sort step by
    step, on Python lists: the one part of mode not in counted memory)."""
    pairs = _LibstdcxxSort([(float(v), i) for i, v in enumerate(line.tolist())]).sort()
    return pairs[_runs_pick([v for v, _ in pairs])][1]


def _first_longest_runs(s: np.ndarray, new: np.ndarray, end: np.ndarray, score: np.ndarray,
                        ramp_n: np.ndarray) -> np.ndarray:
    """Where the first longest run of equal values ends, for each sorted line of ``s`` (the
    pick of _runs_pick, for all lines at once); ``new``, ``end``: bool buffers shaped as
    ``s``, ``score``: an int64 one; ``ramp_n``: 0, 1, ... n - 1."""
    np.not_equal(s[..., 1:], s[..., :-1], out=new[..., 1:])
    new[..., :1] = True
    end[..., :-1] = new[..., 1:]
    end[..., -1:] = True
    np.multiply(new, ramp_n, out=score)  # where each run starts ...
    np.maximum.accumulate(score, axis=-1, out=score)
    np.subtract(ramp_n, score, out=score)  # ... so each cell's place in its run
    np.logical_not(end, out=end)
    np.copyto(score, -1, where=end)  # only the runs' last cells compete
    return np.argmax(score, axis=-1)[..., None]


@binding()
@tensor_method
def mode(self, dim: int = -1, keepdim: bool = False):
    """The most frequent value along dim (the smallest of equally frequent ones) and an
    index of it."""
    dim = check_int("mode", "dim", dim, 1)
    keepdim = _bool_keepdim("mode", keepdim, 2)
    d = wrap_dim(dim, max(self.dim(), 1))
    if self.numel() == 0 and self.dim() and self._shape[d] == 0:
        raise IndexError(f"mode(): Expected reduction dim {d} to have non-zero size.")
    a = self._array().reshape(1) if self.dim() == 0 else self._array()
    shape = a.shape[:d] + (1,) + a.shape[d + 1:]
    values = Tensor._empty(shape, self.dtype, "mode")
    indices = Tensor._empty(shape, dtypes.int64, "mode (indices)")
    # every line as std::sort leaves it (sorting.py replays it, in counted memory), then the
    # runs of all lines at once; a line with NaN is sorted again by _LibstdcxxSort
    ordered = Tensor._empty(a.shape, self.dtype, "mode (sorted)")
    order = Tensor._empty(a.shape, dtypes.int64, "mode (order)")
    _sort_lines(a, d, False, None, ordered._array(), order._array(), stable=False)
    lines, ss = np.moveaxis(a, d, -1), np.moveaxis(ordered._array(), d, -1)
    oo = np.moveaxis(order._array(), d, -1)
    vals, idxs = np.moveaxis(values._array(), d, -1), np.moveaxis(indices._array(), d, -1)
    n = lines.shape[-1]
    m = min(max(1, _LINE_CHUNK // n), lines.size // n) * n if lines.size else 0
    parts = [(np.int64, n), (np.int64, m), (np.bool_, m), (np.bool_, m)]
    raw = UntypedStorage(sum([np.dtype(t).itemsize * k for t, k in parts]), np.uint8,
                         "mode (scratch)")._array
    ramp_n, score, new, end = _carve(raw, parts)
    ramp(ramp_n, 0)
    floats = self.dtype.category == dtypes.FLOATING
    for part in chunks(lines.shape[:-1], max(1, m // max(n, 1))) if lines.size else ():
        s, o = ss[part], oo[part]
        bufs = [b[:s.size].reshape(s.shape) for b in (score, new, end)]
        at = _first_longest_runs(s, bufs[1], bufs[2], bufs[0], ramp_n)
        idxs[part] = np.take_along_axis(o, at, axis=-1).reshape(idxs[part].shape)
        vals[part] = np.take_along_axis(s, at, axis=-1).reshape(vals[part].shape)
        if floats:  # (NaN sorts last: a line holds one if its last value is NaN)
            for w in map(tuple, np.argwhere(_isnan(s[..., -1]))):
                line = lines[part][w]
                p = _mode_nan_line(line.astype(np.float32) if line.dtype.name == "bfloat16"
                                   else line)
                idxs[part][w] = p
                vals[part][w] = line[p]
    values, indices = _finish(values, indices, d, keepdim, self)
    record("mode", values, {"self": self}, dim=saved(dim), indices=indices, keepdim=keepdim,
           self_sym_sizes=self._shape)
    return ModeResult((values, indices))


derivative("mode", "ModeBackward0", saves={"indices": None})(_value_selecting_bw)
