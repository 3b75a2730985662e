"""mode: the most frequent value of each line along a dim, and an index where it occurs.

PyTorch's CPU kernel sorts (value, index) pairs of a line with std::sort, comparing values
with ``<``, then walks the runs of equal values; the first longest run wins, and its last
pair gives the value and the index. Which of equal values is last in its run is std::sort's
doing: the order sorting.py's sort(stable=False) replays (in counted memory), after which the
runs of all lines are found at once.

NaN is neither smaller nor larger than anything under ``<`` and unequal to itself, so on a
line holding NaN the sort's arrangement is the algorithm's alone: those lines are sorted again
as libstdc++ does it, with _std_sort.py's whole-array steps on keys that rank the values (NaN
kept), in counted memory (_nan_line).
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
from . import _std_sort
from ._chunked import ramp
from .arg_checks import check_int, saved
from .selection import _bool_keepdim, _finish, _isnan, _value_selecting_bw
from .sorting import _LINE_CHUNK, _carve, _return_type, _sort_lines
from .workspace import chunks

ModeResult = _return_type("mode")
_THRESHOLD = _std_sort._THRESHOLD  # libstdc++'s _S_threshold


def _keys(s: np.ndarray, o: np.ndarray, keys: np.ndarray, work: _std_sort.Work) -> None:
    """Into ``keys`` (float64): _std_sort.tie_keys' key of each value (twice its rank among the
    line's values, plus 1 if another equals it: -0.0 equals 0.0), NaN for NaN; ``s`` is the
    line sorted (NaN last), ``o`` its order. The keys compare under ``<`` and ``==`` as the
    values do."""
    n = s.size
    tie, step, ints = work.mask[:n - 1], work.left, work.right[:n]
    np.equal(s[1:], s[:-1], out=tie)
    _std_sort.tie_keys(tie, o, step, ints)
    np.copyto(keys, ints)
    nans = int(np.count_nonzero(np.isnan(s, out=work.mask[:n])))
    keys[o[n - nans:]] = np.nan


def _arrangement_matters(keys: np.ndarray, lo: int, hi: int, work: _std_sort.Work) -> bool:
    """Can the arrangement of [lo, hi) change mode's pick? Not without NaN and with no two
    values that occur twice (odd keys), past the head the final insertion sort works on: the
    tail's stable sort puts such a range's values where they go, whatever their order."""
    if lo < _THRESHOLD:
        return True
    r = hi - lo
    mask = work.mask[:r]
    if np.isnan(keys[lo:hi], out=mask).any():
        return True
    odd = work.comp[:r].view(np.float64)
    np.fmod(keys[lo:hi], 2, out=odd)
    return np.count_nonzero(np.equal(odd, 1, out=mask)) >= 2


def _head_insertion(keys: np.ndarray, pos: np.ndarray, last: int) -> None:
    """``std::__insertion_sort`` over [0, last) (at most _THRESHOLD): a value smaller than the
    first jumps to the front, over NaN too; any other moves left past larger values and stops
    at one that isn't (NaN stops it)."""
    for i in range(1, last):
        v, p = keys[i], pos[i]
        if v < keys[0]:
            keys[1:i + 1], pos[1:i + 1] = keys[:i].copy(), pos[:i].copy()
            keys[0], pos[0] = v, p
            continue
        j = i
        while v < keys[j - 1]:  # (j - 1 >= 0: keys[0] doesn't satisfy it)
            keys[j], pos[j] = keys[j - 1], pos[j - 1]
            j -= 1
        keys[j], pos[j] = v, p


_SEGMENT_BITS = 21  # segment, key and position of a line up to 2**20 in one int64


def _tail_insertion(keys: np.ndarray, pos: np.ndarray, comp: np.ndarray, mask: np.ndarray,
                    held: np.ndarray) -> None:
    """``std::__unguarded_insertion_sort`` from _THRESHOLD on, once the head is done: a value
    moves left past larger ones only, so a NaN never moves and nothing passes one. Each run of
    numbers between NaNs (the head's part of it already sorted) ends up sorted stably: here,
    the int64s ``segment, key + 1 (NaN: 0, first in its segment), position`` sorted in place.
    (A value smaller than all before it, with no NaN between, stops at the line's start, where
    C++'s unguarded loop would read before it.) ``comp``, ``held``: int64 buffers of the
    line's size, ``mask`` a bool one."""
    n = keys.size
    b = (2 * n + 1).bit_length()  # (keys are below 2n)
    np.isnan(keys, out=mask)
    plus_one = comp.view(np.float64)
    np.add(keys, 1, out=plus_one)  # key + 1 ...
    np.copyto(plus_one, 0, where=mask)  # ... NaN 0
    np.copyto(held, plus_one, casting="unsafe")
    segments = [(0, n)]
    if b <= _SEGMENT_BITS:
        np.copyto(comp, mask)
        np.cumsum(comp, out=comp)  # the segment: the NaNs so far
        np.left_shift(comp, b, out=comp)
        np.bitwise_or(comp, held, out=comp)
    else:  # a longer line: segment by segment
        nan_at = [int(i) for i in np.flatnonzero(mask)]
        segments = list(zip([0, *nan_at], [*nan_at, n], strict=True))
        np.copyto(comp, held)
    np.left_shift(comp, b, out=comp)
    np.bitwise_or(comp, ramp(held, 0), out=comp)
    for lo, hi in segments:
        comp[lo:hi].sort()
    np.bitwise_and(comp, (1 << b) - 1, out=comp)  # the positions, in their new order
    np.copyto(held, pos)
    _std_sort._gather_into(pos, held, comp)
    np.copyto(held.view(np.float64), keys)
    _std_sort._gather_into(keys, held.view(np.float64), comp)


def _nan_line(s: np.ndarray, o: np.ndarray, bufs: tuple) -> int:
    """The index mode_kernel_impl reports for one line holding NaN: the line's keys sorted as
    libstdc++'s std::sort arranges them under ``<`` (_std_sort's introsort loop over the
    ranges whose arrangement matters, then the final insertion sort, NaN-aware), then the end
    of the first longest run (``!=`` ends a run: each NaN is a run of its own). ``s``, ``o``:
    the line sorted and its order; ``bufs``: _nan_buffers'."""
    keys, pos, end, work = bufs
    n = s.size
    _keys(s, o, keys, work)
    ramp(pos, 0)
    if n > _THRESHOLD:
        _std_sort.introsort_loop(keys, pos, 0, n, work, _arrangement_matters)
    _head_insertion(keys, pos, min(n, _THRESHOLD))
    if n > _THRESHOLD:
        _tail_insertion(keys, pos, work.comp, work.mask, work.left)
    at = _first_longest_runs(keys[None], work.mask[None, :n], end[None], work.comp[None, :n],
                             ramp(work.left[:n], 0))
    return int(pos[at[0, 0]])


def _short_nan_lines(lines: np.ndarray) -> np.ndarray:
    """_nan_line for lines of at most _THRESHOLD (``lines``: (L, n), a chunk's lines holding
    NaN, at most _LINE_CHUNK values), all at once: std::sort is one insertion sort there, done
    a step for every line together: value i goes to the front if it is smaller than the
    first, else left past the run of larger values just before it. The values themselves are
    the keys (as float64, exact). Returns the (L, 1) indices."""
    keys = lines.astype(np.float64)
    pos = np.broadcast_to(np.arange(lines.shape[-1]), lines.shape).copy()
    for i in range(1, lines.shape[-1]):
        v, p = keys[:, i:i + 1], pos[:, i:i + 1]
        larger = (v < keys[:, :i])[:, ::-1]  # from i - 1 leftwards
        run = np.where(larger.all(axis=1), i, np.argmin(larger, axis=1))
        to = np.where(v[:, 0] < keys[:, 0], 0, i - run)[:, None]
        cell = np.arange(i + 1)
        source = cell - (cell > to)  # cells after ``to`` take their left neighbour's value
        for a, x in ((keys, v), (pos, p)):
            a[:, :i + 1] = np.where(cell == to, x, np.take_along_axis(a[:, :i + 1], source, 1))
    at = _first_longest_runs(keys, np.empty(keys.shape, bool), np.empty(keys.shape, bool),
                             np.empty(keys.shape, np.int64), np.arange(keys.shape[-1]))
    return np.take_along_axis(pos, at, axis=-1)


def _nan_buffers(n: int) -> tuple:
    """Counted buffers for _nan_line on lines of n: keys, positions, a bool, _std_sort's Work."""
    parts = [(np.float64, n), (np.int64, n), (np.bool_, n), *_std_sort.Work.parts(n)]
    raw = UntypedStorage(sum([np.dtype(t).itemsize * k for t, k in parts]), np.uint8,
                         "mode (NaN lines)")._array
    keys, pos, end, *work = _carve(raw, parts)
    return keys, pos, end, _std_sort.Work(*work)


def _first_longest_runs(s: np.ndarray, new: np.ndarray, end: np.ndarray, score: np.ndarray,
                        ramp_n: np.ndarray) -> np.ndarray:
    """Where the first longest run of equal values ends, for each sorted line of ``s`` (the
    ``!=`` ends a run), for all lines at once; ``new``, ``end``: bool buffers shaped as
    ``s``, ``score``: an int64 one; ``ramp_n``: 0, 1, ... n - 1."""
    np.not_equal(s[..., 1:], s[..., :-1], out=new[..., 1:])
    new[..., :1] = True
    end[..., :-1] = new[..., 1:]
    end[..., -1:] = True
    np.copyto(score, new)  # (a bool operand of multiply would be cast in a buffer of NumPy's)
    np.multiply(score, ramp_n, out=score)  # where each run starts ...
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
    # runs of all lines at once; a line with NaN is sorted again by _nan_line
    ordered = Tensor._empty(a.shape, self.dtype, "mode (sorted)")
    order = Tensor._empty(a.shape, dtypes.int64, "mode (order)")
    _sort_lines(a, d, False, None, ordered._array(), order._array(), stable=False,
                numbers_only=True)
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
    nan_bufs = None  # _nan_line's, made at the first line holding NaN
    for part in chunks(lines.shape[:-1], max(1, m // max(n, 1))) if lines.size else ():
        s, o = ss[part], oo[part]
        bufs = [b[:s.size].reshape(s.shape) for b in (score, new, end)]
        at = _first_longest_runs(s, bufs[1], bufs[2], bufs[0], ramp_n)
        idxs[part] = np.take_along_axis(o, at, axis=-1).reshape(idxs[part].shape)
        vals[part] = np.take_along_axis(s, at, axis=-1).reshape(vals[part].shape)
        if floats and n <= _THRESHOLD:  # short lines: all of a chunk's NaN lines at once
            nan_at = _isnan(s[..., -1])  # (NaN sorts last: a line holds one if its last is)
            if nan_at.any():
                line = lines[part][nan_at]
                p = _short_nan_lines(line)
                idxs[part][nan_at] = p
                vals[part][nan_at] = np.take_along_axis(line, p, axis=-1)
        elif floats:
            for w in map(tuple, np.argwhere(_isnan(s[..., -1]))):
                nan_bufs = nan_bufs or _nan_buffers(n)
                p = _nan_line(s[w], o[w], nan_bufs)
                idxs[part][w] = p
                vals[part][w] = lines[part][w][p]
    values, indices = _finish(values, indices, d, keepdim, self)
    record("mode", values, {"self": self}, dim=saved(dim), indices=indices, keepdim=keepdim,
           self_sym_sizes=self._shape)
    return ModeResult((values, indices))


derivative("mode", "ModeBackward0", saves={"indices": None})(_value_selecting_bw)
