"""mode of a line holding NaN, against libstdc++'s std::sort written out step by step.

ops/mode.py sorts such a line with _std_sort.py's whole-array steps (in counted memory); the
reference here is the plain transcription of GCC's introsort, heapsort and insertion sort on a
Python list of (value, index) pairs, as the core used before (its unguarded loops stop at the
range's ends, where C++ would read past them). Many random lines, short and long, few and many
distinct values, few and many NaN, ±0, every float dtype; the parity suite checks the same
against torch (test_selection_parity.py, test_sort_long_lines_parity.py).
"""
from __future__ import annotations

import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial.ops import mode as mode_module

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


def reference_mode_index(line: np.ndarray) -> int:
    """The index mode_kernel_impl reports for one line: std::sort of (value, index) pairs
    under ``<``, then the last pair of the first longest run."""
    pairs = _LibstdcxxSort([(float(v), i) for i, v in enumerate(line.tolist())]).sort()
    return pairs[_runs_pick([v for v, _ in pairs])][1]


def _line(rng, n: int, levels: int, nan_share: float) -> np.ndarray:
    a = rng.integers(0, levels, n).astype(np.float64) - levels // 2
    a[a == 0] = rng.choice([0.0, -0.0], size=int((a == 0).sum()))
    a[rng.random(n) < nan_share] = np.nan
    if not np.isnan(a).any():
        a[rng.integers(0, n)] = np.nan
    return a


CASES = [(n, levels, share) for n in (2, 5, 16, 17, 33, 100, 300, 1100)
         for levels in (2, 7, 1000) for share in (0.02, 0.3, 0.9)]


@pytest.mark.parametrize(("n", "levels", "share"), CASES)
def test_mode_index_of_nan_lines_is_libstdcxx_sorts(n, levels, share):
    rng = np.random.default_rng(n * 7919 + levels * 31 + int(share * 100))
    lines = np.stack([_line(rng, n, levels, share) for _ in range(6)])
    for dtype in (ipt.float32, ipt.float64, ipt.float16, ipt.bfloat16):
        x = ipt.tensor(lines).to(dtype)
        got = x.mode(1).indices.tolist()
        want = [reference_mode_index(row) for row in x.to(ipt.float64).numpy()]
        assert got == want, (dtype, got, want)


def test_mode_of_all_nan_and_one_nan_lines():
    for n in (1, 3, 16, 17, 40, 600):
        line = np.full(n, np.nan)
        assert ipt.tensor(line).mode().indices.item() == reference_mode_index(line)
        line = np.arange(n, dtype=np.float64) % 5
        line[n // 2] = np.nan
        assert ipt.tensor(line).mode().indices.item() == reference_mode_index(line)


def test_the_tail_insertion_sorts_segment_by_segment_on_long_lines(monkeypatch):
    """Lines longer than 2**21 sort each run between NaNs on its own: forced here."""
    rng = np.random.default_rng(5)
    lines = np.stack([_line(rng, 200, 9, 0.2) for _ in range(4)])
    want = ipt.tensor(lines).mode(1).indices.tolist()
    monkeypatch.setattr(mode_module, "_SEGMENT_BITS", 0)
    assert ipt.tensor(lines).mode(1).indices.tolist() == want
    assert want == [reference_mode_index(row) for row in lines]
