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

The steps are whole-array NumPy calls over a range, with ``out=`` into a ``Work`` (counted
scratch the caller carved, four line-sized buffers); where NumPy can only return an array of
its own (np.flatnonzero, a gather by index), it is called on pieces of at most _PIECE
elements, so nothing line-sized is made behind the allocator's back.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..storage import UntypedStorage

_THRESHOLD = 16  # libstdc++'s _S_threshold: ranges this short are left to insertion sort
_PIECE = 256  # elements per NumPy call that returns an array of its own (2 KiB of int64)


class Work(NamedTuple):
    """Counted scratch for replaying on a line of n keys: four int64 buffers and a bool one,
    each at least n long (``parts(n)`` says what to carve)."""

    left: np.ndarray
    right: np.ndarray
    comp: np.ndarray
    aux: np.ndarray
    mask: np.ndarray

    @staticmethod
    def parts(n: int) -> list:
        return [(np.int64, n), (np.int64, n + 1), (np.int64, n), (np.int64, n + 64),
                (np.bool_, n)]

    @staticmethod
    def new(n: int, op: str) -> Work:
        """A Work in storages of its own, counted (the caller has no scratch to carve)."""
        return Work(*[UntypedStorage(size, dt, op + " (scratch)")._array
                      for dt, size in Work.parts(n)])


def positions(mask: np.ndarray, base: int, out: np.ndarray) -> int:
    """np.flatnonzero(mask) + base, written into ``out``, piece by piece; the count."""
    count = 0
    for c in range(0, mask.size, _PIECE):
        found = np.flatnonzero(mask[c:c + _PIECE])
        np.add(found, base + c, out=out[count:count + found.size])
        count += found.size
    return count


def swap_many(arrays: tuple, li: np.ndarray, ri: np.ndarray) -> None:
    """Swap arr[li] with arr[ri] in each of ``arrays``, positions all distinct, piece by
    piece."""
    for c in range(0, li.size, _PIECE):
        a, b = li[c:c + _PIECE], ri[c:c + _PIECE]
        for arr in arrays:
            held = arr[a]
            arr[a] = arr[b]
            arr[b] = held


def _gather_into(out: np.ndarray, src: np.ndarray, index: np.ndarray) -> None:
    """out = src[index], piece by piece."""
    for c in range(0, index.size, _PIECE):
        out[c:c + _PIECE] = src[index[c:c + _PIECE]]


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


def _partition_pivot(keys: np.ndarray, pos: np.ndarray, first: int, last: int,
                     work: Work) -> int:
    """``__unguarded_partition_pivot``: the median of three goes to ``first``, then a Hoare
    partition of [first + 1, last). Done with whole-array steps: the left scan stops at the
    positions whose key is not < the pivot, in order, the right scan at those the pivot is not
    < , from the end; the m-th stops of both are swapped while they haven't crossed."""
    _move_median_to_first(keys, pos, first, first + 1, first + (last - first) // 2, last - 1)
    p, r = keys[first], last - first
    # the stops are where ``key < p`` (left) and ``p < key`` (right) fail. With NaN among the
    # keys (mode's lines) that is no order, yet the scans stay inside the range as C++'s
    # unguarded loops do: a NaN pivot stops both everywhere, and a number is picked as the
    # pivot only with a NaN or a key not below it left among the three
    if r <= _PIECE:  # NumPy's own arrays are small here
        stop = np.less(keys[first + 1:last], p)
        np.logical_not(stop, out=stop)
        left = np.flatnonzero(stop) + (first + 1)
        stop = np.less(p, keys[first:last])  # (the pivot itself stops it: a sentinel)
        np.logical_not(stop, out=stop)
        right = np.flatnonzero(stop)[::-1] + first
    else:
        mask = work.mask
        np.less(keys[first + 1:last], p, out=mask[:r - 1])
        np.logical_not(mask[:r - 1], out=mask[:r - 1])
        left = work.left[:positions(mask[:r - 1], first + 1, work.left)]
        np.less(p, keys[first:last], out=mask[:r])
        np.logical_not(mask[:r], out=mask[:r])
        right = work.right[:positions(mask[:r], first, work.right)][::-1]
    if left.size == r - 1 and right.size == r:  # every key stops both: [first + 1, last)
        _reverse(pos, first + 1, last, work)  # reversed (all equal, or a NaN pivot)
        _reverse(keys, first + 1, last, work)
        return first + (r + 1) // 2
    m = min(left.size, right.size)
    k = int(np.count_nonzero(left[:m] < right[:m]))  # a prefix: left rises, right falls
    if k:
        swap_many((keys, pos), left[:k], right[:k])
    # the left scan stops at its next original stop, or at the last swapped right position
    cut = int(left[k]) if k < left.size else last
    return min(cut, int(right[k - 1])) if k else cut


def _reverse(a: np.ndarray, first: int, last: int, work: Work) -> None:
    """a[first:last] reversed in place (``a``: int64 or float64 keys or positions)."""
    held = work.comp[:last - first].view(a.dtype)
    np.copyto(held, a[first:last][::-1])
    np.copyto(a[first:last], held)


def _equal_run(pos: np.ndarray, lo: int, hi: int, depth: int, stack: list, work: Work) -> None:
    """__introsort_loop over [lo, hi) where every key is equal, one level of ranges at a time.
    Every partition there swaps first with the middle and reverses [first + 1, last) (see
    _partition_pivot), so a level's ranges are done together: each position of the level's
    ranges gets its source index (first + last - p inside them, p elsewhere), then one gather.
    The ranges, their sources and the gather live in ``work``. Below the depth limit, the
    ranges left go back on ``stack`` for the heapsort."""
    r = hi - lo
    cap = r // (_THRESHOLD + 1) + 1  # ranges longer than the threshold one level can hold
    aux = work.aux
    firsts, lasts, cuts, tmp = [aux[i * cap:(i + 1) * cap] for i in range(4)]
    firsts2, lasts2, keep = [aux[(4 + 2 * i) * cap:(6 + 2 * i) * cap] for i in range(3)]
    source, held, mask = work.right[:r + 1], work.comp[:r], work.mask
    firsts[0], lasts[0], c = lo, hi, 1
    while c:
        f, la, cu, t = firsts[:c], lasts[:c], cuts[:c], tmp[:c]
        if depth == 0:
            stack.extend([(int(a), int(b), 0) for a, b in zip(f, la, strict=True)])
            return
        depth -= 1
        np.subtract(la, f, out=cu)  # the middle of each range: its median of three
        np.floor_divide(cu, 2, out=cu)
        np.add(cu, f, out=cu)
        swap_many((pos,), f, cu)
        # source: first + last over (first, last) of each range, by a running sum of steps
        source.fill(0)
        np.add(f, 1 - lo, out=t)
        np.add(f, la, out=cu)
        source[t] = cu
        np.subtract(la, lo, out=t)
        for i in range(0, c, _PIECE):  # (distinct positions)
            source[t[i:i + _PIECE]] -= cu[i:i + _PIECE]
        np.cumsum(source, out=source)
        src = source[:r]
        np.greater(src, 0, out=mask[:r])
        ramp = held
        ramp.fill(1)
        ramp[:1] = lo
        np.cumsum(ramp, out=ramp)
        np.subtract(src, ramp, out=src)
        np.logical_not(mask[:r], out=mask[:r])
        np.copyto(src, ramp, where=mask[:r])
        _gather_into(held, pos, src)
        np.copyto(pos[lo:hi], held)
        # the children: [first, cut) and [cut, last), cut = first + ceil((last - first) / 2)
        np.subtract(la, f, out=cu)
        np.add(cu, 1, out=cu)
        np.floor_divide(cu, 2, out=cu)
        np.add(cu, f, out=cu)
        np.copyto(firsts2[:c], f)
        np.copyto(firsts2[c:2 * c], cu)
        np.copyto(lasts2[:c], cu)
        np.copyto(lasts2[c:2 * c], la)
        np.subtract(lasts2[:2 * c], firsts2[:2 * c], out=keep[:2 * c])
        np.greater(keep[:2 * c], _THRESHOLD, out=mask[:2 * c])
        c = positions(mask[:2 * c], 0, keep)
        _gather_into(firsts[:c], firsts2, keep[:c])
        _gather_into(lasts[:c], lasts2, keep[:c])


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


def _heap_select(keys, pos, first: int, middle: int, last: int, work: Work) -> None:
    """Keep the best ``middle - first`` in a max-heap; only the elements that beat its top
    (found with one comparison over the rest, checked again as the top improves) move."""
    _make_heap(keys, pos, first, middle)
    if middle >= last or middle == first:
        return
    r = last - middle
    np.less(keys[middle:last], keys[first], out=work.mask[:r])
    for i in work.left[:positions(work.mask[:r], middle, work.left)]:
        if keys[i] < keys[first]:
            _pop_heap(keys, pos, first, middle, int(i))


def _sort_heap(keys, pos, first: int, last: int) -> None:
    while last - first > 1:
        last -= 1
        _pop_heap(keys, pos, first, last, last)


def _insertion_sort(keys, pos, first: int, last: int, work: Work) -> None:
    """libstdc++'s insertion sort moves a value only past strictly larger ones: it is a
    stable sort of what it is given. Sorted here in place as distinct int64 pairs
    ``key << 32 | offset`` (keys are ranks, below 2**31), then pos gathered by offset."""
    r = last - first
    if r <= 1:
        return
    comp, held = work.comp[:r], work.left[:r]
    np.left_shift(keys[first:last], 32, out=comp)
    held.fill(1)
    held[:1] = 0
    np.cumsum(held, out=held)
    np.bitwise_or(comp, held, out=comp)
    comp.sort()
    np.right_shift(comp, 32, out=keys[first:last])
    np.bitwise_and(comp, 0xFFFFFFFF, out=comp)  # the offsets, in their new order
    np.copyto(held, pos[first:last])
    for c in range(0, r, _PIECE):
        pos[first + c:min(last, first + c + _PIECE)] = held[comp[c:c + _PIECE]]


def tie_keys(tie: np.ndarray, order: np.ndarray, step: np.ndarray, keys: np.ndarray) -> None:
    """The keys std_sort takes, for one line, into ``keys``: ``tie`` says where neighbours of
    the line's stable ``order`` are equal (n - 1 bools); an element's key is twice the rank
    of its value among the line's distinct values, plus 1 if another element shares it.
    ``step``: an int64 buffer of n."""
    step[:1] = 0
    np.logical_not(tie, out=step[1:], casting="unsafe")  # +1 at each new value
    np.cumsum(step, out=step)
    np.left_shift(step, 1, out=step)
    np.bitwise_or(step[1:], tie, out=step[1:], casting="unsafe")  # equal to the one before
    np.bitwise_or(step[:-1], tie, out=step[:-1], casting="unsafe")  # ... or the one after
    keys[order] = step


def _ties_inside(keys: np.ndarray, lo: int, hi: int, work: Work) -> bool:
    """Two odd keys in [lo, hi)? (tie_keys: only values that occur twice have odd keys.)
    Without two, the range's own arrangement can't change the order of equal values: they
    sit in other ranges, and the final insertion sort keeps the ranges' order."""
    odd = np.bitwise_and(keys[lo:hi], 1, out=work.comp[:hi - lo])
    return np.count_nonzero(odd) >= 2


def _all_equal(keys: np.ndarray, lo: int, hi: int, work: Work) -> bool:
    return bool(np.equal(keys[lo:hi], keys[lo], out=work.mask[:hi - lo]).all())


def std_sort(keys: np.ndarray, pos: np.ndarray, first: int, last: int, work: Work) -> None:
    """``std::sort`` of keys[first:last] (tie_keys' keys), carrying pos along; the ranges
    whose arrangement can't matter are left as they are (_ties_inside)."""
    if last - first > 0:
        introsort_loop(keys, pos, first, last, work, _ties_inside)
        _insertion_sort(keys, pos, first, last, work)  # __final_insertion_sort


def introsort_loop(keys: np.ndarray, pos: np.ndarray, first: int, last: int, work: Work,
                   matters=None) -> None:
    """``std::__introsort_loop`` over keys[first:last], carrying pos along: ranges of at most
    _THRESHOLD keys are left for the final insertion sort. ``matters(keys, lo, hi, work)``,
    if given, says whether a range's arrangement can matter at all (else it is left)."""
    stack = [(first, last, 2 * _lg(last - first))]
    while stack:  # its ranges are disjoint, so any visiting order will do
        lo, hi, depth = stack.pop()
        while hi - lo > _THRESHOLD and (matters is None or matters(keys, lo, hi, work)):
            if depth and keys[lo] == keys[hi - 1] and _all_equal(keys, lo, hi, work):
                _equal_run(pos, lo, hi, depth, stack, work)
                break
            if depth == 0:
                _heap_select(keys, pos, lo, hi, hi, work)
                _sort_heap(keys, pos, lo, hi)
                break
            depth -= 1
            cut = _partition_pivot(keys, pos, lo, hi, work)
            stack.append((cut, hi, depth))
            hi = cut


def nth_element(keys: np.ndarray, pos: np.ndarray, nth: int, work: Work) -> None:
    """``std::nth_element(begin, begin + nth, end)``."""
    first, last = 0, keys.size
    if first == last or nth == last:
        return
    depth = 2 * _lg(last - first)
    while last - first > 3:  # __introselect
        if depth == 0:
            _heap_select(keys, pos, first, nth + 1, last, work)
            _swap(keys, pos, first, nth)
            return
        depth -= 1
        cut = _partition_pivot(keys, pos, first, last, work)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(keys, pos, first, last, work)


def partial_sort(keys: np.ndarray, pos: np.ndarray, middle: int, work: Work) -> None:
    """``std::partial_sort(begin, begin + middle, end)``."""
    _heap_select(keys, pos, 0, middle, keys.size, work)
    _sort_heap(keys, pos, 0, middle)


def topk_order(keys: np.ndarray, pos: np.ndarray, k: int, sorted_: bool,
               work: Work) -> np.ndarray:
    """The positions PyTorch's topk_impl_loop leaves in its first k slots (keys already say
    largest or smallest first; ``pos``: 0, 1, ... n - 1, carried along, then cut to k)."""
    if k == 0:
        return pos[:0]
    if k * 64 <= keys.size:
        partial_sort(keys, pos, k, work)
    else:
        nth_element(keys, pos, k - 1, work)
        if sorted_:
            std_sort(keys, pos, 0, k - 1, work)
    return pos[:k]
