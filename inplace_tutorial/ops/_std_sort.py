"""The order equal values come out in, as PyTorch's CPU sort and topk leave them.

PyTorch sorts a line with C++'s ``std::sort`` (``stable=False``, the default) or
``std::stable_sort``, and topk uses ``std::partial_sort`` (k * 64 <= n) or
``std::nth_element`` followed by ``std::sort`` of the first k - 1. Those are not stable, so
which of several equal values comes first is decided by the algorithm itself: this module
replays GCC's libstdc++ versions of them (introsort: median-of-three pivot, Hoare partition,
heapsort below a depth limit, one insertion sort at the end) on integer keys.

Only the order of equal keys depends on this; sorting.py calls in here only for a line that
has ties. Keys are ranks: a smaller key comes first, equal keys are "equivalent" under
PyTorch's comparator (NaN == NaN, -0.0 == 0.0).
"""
from __future__ import annotations

import numpy as np

_THRESHOLD = 16  # libstdc++'s _S_threshold: ranges this short are left to insertion sort


def _lg(n: int) -> int:
    return n.bit_length() - 1


def _swap(keys: np.ndarray, pos: np.ndarray, i, j) -> None:
    keys[[i, j]] = keys[[j, i]]
    pos[[i, j]] = pos[[j, i]]


def _move_median_to_first(keys, pos, result: int, a: int, b: int, c: int) -> None:
    ka, kb, kc = keys[a], keys[b], keys[c]
    if ka < kb:
        m = b if kb < kc else (c if ka < kc else a)
    elif ka < kc:
        m = a
    else:
        m = c if kb < kc else b
    _swap(keys, pos, result, m)


def _partition_pivot(keys: np.ndarray, pos: np.ndarray, first: int, last: int) -> int:
    """``__unguarded_partition_pivot``: the median of three goes to ``first``, then a Hoare
    partition of [first + 1, last). Done with whole-array steps: the left scan stops at the
    positions whose key is >= the pivot, in order, the right scan at those <= the pivot, from
    the end; the m-th stops of both are swapped while they haven't crossed."""
    _move_median_to_first(keys, pos, first, first + 1, first + (last - first) // 2, last - 1)
    p = keys[first]
    seg = keys[first + 1:last]
    left = np.flatnonzero(seg >= p) + (first + 1)
    right = np.flatnonzero(keys[first:last] <= p)[::-1] + first  # the pivot: a sentinel
    m = min(left.size, right.size)
    k = int(np.count_nonzero(left[:m] < right[:m]))  # a prefix: left rises, right falls
    if k:
        li, ri = left[:k], right[:k]
        keys[li], keys[ri] = keys[ri], keys[li].copy()
        pos[li], pos[ri] = pos[ri], pos[li].copy()
    # the left scan stops at its next original stop, or at the last swapped right position
    cut = int(left[k]) if k < left.size else last
    return min(cut, int(right[k - 1])) if k else cut


def _adjust_heap(keys, pos, first: int, hole: int, length: int, vk, vp) -> None:
    top, child = hole, hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if keys[first + child] < keys[first + child - 1]:
            child -= 1
        keys[first + hole], pos[first + hole] = keys[first + child], pos[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        keys[first + hole], pos[first + hole] = keys[first + child - 1], pos[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2  # __push_heap
    while hole > top and keys[first + parent] < vk:
        keys[first + hole], pos[first + hole] = keys[first + parent], pos[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    keys[first + hole], pos[first + hole] = vk, vp


def _make_heap(keys, pos, first: int, last: int) -> None:
    n = last - first
    for parent in range((n - 2) // 2, -1, -1) if n >= 2 else ():
        _adjust_heap(keys, pos, first, parent, n, keys[first + parent], pos[first + parent])


def _pop_heap(keys, pos, first: int, last: int, result: int) -> None:
    vk, vp = keys[result], pos[result]
    keys[result], pos[result] = keys[first], pos[first]
    _adjust_heap(keys, pos, first, 0, last - first, vk, vp)


def _heap_select(keys, pos, first: int, middle: int, last: int) -> None:
    """Keep the best ``middle - first`` in a max-heap; only the elements that beat its top
    (found with one comparison over the rest, checked again as the top improves) move."""
    _make_heap(keys, pos, first, middle)
    if middle >= last or middle == first:
        return
    for i in np.flatnonzero(keys[middle:last] < keys[first]) + middle:
        if keys[i] < keys[first]:
            _pop_heap(keys, pos, first, middle, int(i))


def _sort_heap(keys, pos, first: int, last: int) -> None:
    while last - first > 1:
        last -= 1
        _pop_heap(keys, pos, first, last, last)


def _insertion_sort(keys, pos, first: int, last: int) -> None:
    """libstdc++'s insertion sort moves a value only past strictly larger ones: it is a
    stable sort of what it is given."""
    if last - first > 1:
        order = np.argsort(keys[first:last], kind="stable") + first
        keys[first:last], pos[first:last] = keys[order], pos[order]


def std_sort(keys: np.ndarray, pos: np.ndarray, first: int, last: int) -> None:
    """``std::sort`` of keys[first:last], carrying pos along."""
    n = last - first
    if n <= 0:
        return
    stack = [(first, last, 2 * _lg(n))]
    while stack:  # __introsort_loop; its ranges are disjoint, so any visiting order will do
        lo, hi, depth = stack.pop()
        while hi - lo > _THRESHOLD:
            if depth == 0:
                _heap_select(keys, pos, lo, hi, hi)
                _sort_heap(keys, pos, lo, hi)
                break
            depth -= 1
            cut = _partition_pivot(keys, pos, lo, hi)
            stack.append((cut, hi, depth))
            hi = cut
    _insertion_sort(keys, pos, first, last)  # __final_insertion_sort over the whole range


def nth_element(keys: np.ndarray, pos: np.ndarray, nth: int) -> None:
    """``std::nth_element(begin, begin + nth, end)``."""
    first, last = 0, keys.size
    if first == last or nth == last:
        return
    depth = 2 * _lg(last - first)
    while last - first > 3:  # __introselect
        if depth == 0:
            _heap_select(keys, pos, first, nth + 1, last)
            _swap(keys, pos, first, nth)
            return
        depth -= 1
        cut = _partition_pivot(keys, pos, first, last)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(keys, pos, first, last)


def partial_sort(keys: np.ndarray, pos: np.ndarray, middle: int) -> None:
    """``std::partial_sort(begin, begin + middle, end)``."""
    _heap_select(keys, pos, 0, middle, keys.size)
    _sort_heap(keys, pos, 0, middle)


def topk_order(keys: np.ndarray, pos: np.ndarray, k: int, sorted_: bool) -> np.ndarray:
    """The positions PyTorch's topk_impl_loop leaves in its first k slots (keys already say
    largest or smallest first; ``pos``: 0, 1, ... n - 1, carried along, then cut to k)."""
    if k == 0:
        return pos[:0]
    if k * 64 <= keys.size:
        partial_sort(keys, pos, k)
    else:
        nth_element(keys, pos, k - 1)
        if sorted_:
            std_sort(keys, pos, 0, k - 1)
    return pos[:k]
