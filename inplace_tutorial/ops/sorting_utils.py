"""PyTorch's quick_select_template (SortingUtils.h), replayed on one line and on many short
lines at once.

kthvalue picks with Sedgewick's median-of-three quickselect; where equal values surround the
k-th, which of them it leaves at k is its doing. ``quick_select`` replays it on one line in
whole-array steps (selection.py calls it on each tied line); for short lines that costs more
per line than the work itself, so in ``quick_select_lines`` up to 128 lines, gathered from
chunk after chunk (LineBatch), take their next step together: each line is in one phase of
the loop (a new range, the left scan, the right scan, the swap of the pivot) and moves one
step per round. Keys order the values (equal values equal keys, NaN the largest).
"""
from __future__ import annotations

import numpy as np

from ..storage import UntypedStorage
from . import _std_sort
from ._chunked import ramp


# --------------------------------------------------------------------------- one line
def quick_select(keys: np.ndarray, k: int, work: _std_sort.Work, *_) -> int:
    """The position (in the line) that PyTorch's quick_select_template leaves at ``k``:
    Sedgewick's median-of-three quickselect over a copy of the line, ``keys`` its order (a
    larger key compares greater; NaN has the largest). Each partition is done in whole-array
    steps, as _std_sort's: the left scan stops where arr >= pivot, the right scan where
    arr <= pivot, and the m-th stops of both are swapped while they haven't crossed."""
    n = keys.size
    arr, pos = work.aux[:n], work.comp[:n]
    np.copyto(arr, keys)
    ramp(pos, 0)
    left, right = 0, n - 1

    def swap(i: int, j: int) -> None:
        arr[i], arr[j] = arr[j], arr[i]
        pos[i], pos[j] = pos[j], pos[i]

    while True:
        if right <= left:
            return int(pos[k])
        if right == left + 1:
            if arr[left] > arr[right]:
                swap(left, right)
            return int(pos[k])
        swap((left + right) >> 1, left + 1)
        if arr[left + 1] > arr[right]:
            swap(left + 1, right)
        if arr[left] > arr[right]:
            swap(left, right)
        if arr[left + 1] > arr[left]:
            swap(left + 1, left)
        i, j = _sedgewick_partition(arr, pos, left, right, work)
        swap(left, j)
        if j <= k:
            left = i
        if j >= k:
            right = j - 1


def _sedgewick_partition(arr: np.ndarray, pos: np.ndarray, left: int, right: int,
                         work: _std_sort.Work) -> tuple[int, int]:
    """The scans of quick_select_template around arr[left], as (i, j) where they stop: the
    left scan (from left + 2) stops at arr >= pivot (arr[right] is one), the right scan (from
    right - 1 down) at arr <= pivot (arr[left + 1] is one). The t-th stops of both are
    swapped while l_t < r_t; after those, each scan also stops at the nearest swapped cell
    (the left one at r_{k-1}, the right one at l_{k-1}); an equal pair is a swap with
    itself, after which both scans take one more step."""
    piv, mask = arr[left], work.mask
    size = right - left - 1  # [left + 2, right] and [left + 1, right - 1]
    np.greater_equal(arr[left + 2:right + 1], piv, out=mask[:size])
    lstops = work.left[:_std_sort.positions(mask[:size], left + 2, work.left)]
    np.less_equal(arr[left + 1:right], piv, out=mask[:size])
    rstops = work.right[:_std_sort.positions(mask[:size], left + 1, work.right)][::-1]
    m = min(lstops.size, rstops.size)
    k = int(np.count_nonzero(np.less(lstops[:m], rstops[:m], out=mask[:m])))  # a prefix
    if k:
        _std_sort.swap_many((arr, pos), lstops[:k], rstops[:k])
    t = k
    i, j = int(lstops[t]), int(rstops[t])
    if k:
        i, j = min(i, int(rstops[k - 1])), max(j, int(lstops[k - 1]))
    if i == j:  # a cell both scans stop at: swapped with itself, one more step each
        i, j = int(lstops[t + 1]), int(rstops[t + 1])
        if k:
            i, j = min(i, int(rstops[k - 1])), max(j, int(lstops[k - 1]))
    return i, j


# --------------------------------------------------------------------------- many lines at once
_START, _SCAN_I, _SCAN_J, _PLACE, _DONE = range(5)


def _swap(arr: np.ndarray, rows: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    arr[rows, a], arr[rows, b] = arr[rows, b], arr[rows, a]


def rank_keys(s: np.ndarray, o: np.ndarray) -> np.ndarray:
    """Keys for quick_select_lines: each value's rank among its line's values (``s``: the lines
    sorted stably, NaN last; ``o``: their order), equal values equal (NaN and NaN too, -0.0
    and 0.0)."""
    new = s[:, 1:] != s[:, :-1]
    if s.dtype.kind == "f" or s.dtype.name == "bfloat16":
        new &= ~(np.isnan(s[:, 1:]) & np.isnan(s[:, :-1]))
    rank = np.zeros(s.shape, np.int64)
    np.cumsum(new, axis=1, out=rank[:, 1:])
    keys = np.empty_like(rank)
    np.put_along_axis(keys, o, rank, axis=1)
    return keys


def quick_select_lines(keys: np.ndarray, k: int, pos: np.ndarray | None = None) -> np.ndarray:
    """The position (in each line) quick_select_template leaves at ``k``, for every row of
    ``keys`` (lines, n) at once (``keys`` is rearranged; ``pos``: an int64 buffer shaped as
    keys, for the positions carried along)."""
    count, n = keys.shape
    if pos is None:
        pos = np.empty(keys.shape, np.int64)
    pos[...] = np.arange(n)
    lo, hi = np.zeros(count, np.int64), np.full(count, n - 1, np.int64)
    i, j, piv = np.zeros(count, np.int64), np.zeros(count, np.int64), keys[:, 0].copy()
    phase = np.full(count, _START)
    while True:
        now = [np.flatnonzero(phase == p) for p in range(_DONE)]
        if not any(x.size for x in now):
            return pos[np.arange(count), k]
        rows = now[_START]
        if rows.size:
            a, b = lo[rows], hi[rows]
            phase[rows[b <= a]] = _DONE
            two = rows[b == a + 1]  # two left: ordered, done
            if two.size:
                c, d = lo[two], hi[two]
                out = two[keys[two, c] > keys[two, d]]
                for arr in (keys, pos):
                    _swap(arr, out, lo[out], hi[out])
                phase[two] = _DONE
            rows = rows[b > a + 1]
            a, b = lo[rows], hi[rows]
            for arr in (keys, pos):  # the middle to L + 1, then the median of three to L
                _swap(arr, rows, (a + b) >> 1, a + 1)
            for x, y in ((a + 1, b), (a, b), (a + 1, a)):
                more = keys[rows, x] > keys[rows, y]
                for arr in (keys, pos):
                    _swap(arr, rows[more], x[more], y[more])
            i[rows], j[rows], piv[rows] = a + 1, b, keys[rows, a]
            phase[rows] = _SCAN_I
        rows = now[_SCAN_I]  # do i++ while arr[i] < piv
        if rows.size:
            i[rows] += 1
            phase[rows[~(keys[rows, i[rows]] < piv[rows])]] = _SCAN_J
        rows = now[_SCAN_J]  # do j-- while arr[j] > piv; then swap, or the scans crossed
        if rows.size:
            j[rows] -= 1
            stop = rows[~(keys[rows, j[rows]] > piv[rows])]
            crossed = stop[j[stop] < i[stop]]
            swap = stop[j[stop] >= i[stop]]
            for arr in (keys, pos):
                _swap(arr, swap, i[swap], j[swap])
            phase[swap] = _SCAN_I
            phase[crossed] = _PLACE
        rows = now[_PLACE]  # the pivot to j; the side holding k is next
        if rows.size:
            for arr in (keys, pos):
                _swap(arr, rows, lo[rows], j[rows])
            jr = j[rows]
            lo[rows] = np.where(jr <= k, i[rows], lo[rows])
            hi[rows] = np.where(jr >= k, jr - 1, hi[rows])
            phase[rows] = _START


class LineBatch:
    """Short lines gathered from chunk after chunk, replayed ``LINES`` at a time: keys and
    positions in counted buffers, every array NumPy makes in a round one per line.
    ``write(where, picks)`` gets each added group back with its (lines, 1) positions."""

    LINES = 128  # (a round makes a dozen arrays of one int64 a line: 1 KiB each)

    def __init__(self, n: int, k: int, lines: int, op: str, write) -> None:
        self.rows = min(self.LINES, lines)  # (``lines``: how many there are in all)
        raw = UntypedStorage(2 * self.rows * n, np.int64, op + " (lines replayed)")._array
        self.keys, self.pos = raw.reshape(2, self.rows, n)
        self.k, self.write, self.pending, self.filled = k, write, [], 0

    def add(self, where, keys: np.ndarray) -> None:
        if self.filled + len(keys) > self.rows:
            self.flush()
        self.keys[self.filled:self.filled + len(keys)] = keys
        self.pending.append((where, len(keys)))
        self.filled += len(keys)

    def flush(self) -> None:
        if not self.filled:
            return
        picks = quick_select_lines(self.keys[:self.filled], self.k, self.pos[:self.filled])
        start = 0
        for where, count in self.pending:
            self.write(where, picks[start:start + count, None])
            start += count
        self.pending, self.filled = [], 0
