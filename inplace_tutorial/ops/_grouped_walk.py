"""The overlap walk of cpu_loops.py, computed many steps per NumPy call with the same result.

Each cell is written once, so a step reads either a cell's new value (its writer ran
earlier) or its old one. When no row reads a cell another row writes (and the operands' rows
are laid out alike), the rows advance side by side; and consecutive steps of a row run as one
NumPy call, their operands loaded before anything is stored, as long as none of them reads a
cell an earlier one of them writes. Same operations per element, so the same values as the
step-by-step walk (cpu_loops.py:_walk_exact), which runs whenever these conditions fail.
"""
from __future__ import annotations

import itertools

import numpy as np

from ..storage import UntypedStorage

GROUP_ELEMENTS = 16384  # elements per operand in one call (counted buffers of this size)


class Loop:
    """One walk's geometry: rows of ``n`` (``views``, outermost dim first), each operand's
    iteration strides ``st`` (elements, innermost first), the vector loop's segments
    ``(start, end, lanes)`` of a row, then its tail (one block, or element by element)."""

    def __init__(self, views, arrays, sh, st, kind, segs, block_tail):
        self.views, self.arrays, self.sh, self.st = views, arrays, sh, st
        self.kind, self.segs, self.n = kind, segs, sh[0]
        self.vector_end = segs[-1][1] if segs else 0
        self.block_tail = block_tail and self.vector_end < sh[0]
        self.lanes = max([w for _, _, w in segs]  # the widest step
                         + [sh[0] - self.vector_end if self.block_tail else 1])
        self.steps = sum((e - s) // w for s, e, w in segs)  # vector steps in a row

    def step_start(self, p: int) -> int:
        """The first element of a row's step ``p`` (vector steps, then the tail's)."""
        for s, e, w in self.segs:
            if p < (e - s) // w:
                return s + p * w
            p -= (e - s) // w
        if self.block_tail:
            return self.vector_end if p == 0 else self.n
        return min(self.vector_end + p, self.n)

    def cuts(self, e0: int, e1: int, most: int) -> list[int]:
        """Step boundaries from ``e0`` to ``e1`` (both boundaries), a cut at least every
        ``most`` elements where a step allows and at the end of the vector loop."""
        out, i = [e0], e0
        for s, e, w in [*self.segs, (self.vector_end, self.n, 1)]:
            if self.block_tail and s == self.vector_end:
                w = self.n - s
            lo, hi = max(s, i), min(e, e1)
            if lo >= hi:
                continue
            chunk = max(w, most // w * w)
            out += list(range(lo + chunk, hi, chunk)) + [hi]
            i = hi
        return sorted(set(out))


def _addr(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def _counted(n: int, np_dtype, op: str) -> np.ndarray:
    return UntypedStorage(max(n, 1), np_dtype, op + " (overlap walk)")._array


def _min_row_gap(sizes: list[int], strides: list[int], op: str) -> int:
    """The smallest distance (elements) between the first cells of two rows of the output."""
    dims = [(s, t) for s, t in zip(sizes, strides) if s > 1]
    if len(dims) == 1:
        return dims[0][1]
    rows = 1
    for size, _ in dims:
        rows *= size
    store = _counted(2 * rows + 1, np.int64, op)
    bases, scratch = store[:rows], store[rows:]
    bases[0], m = 0, 1
    for size, stride in dims:  # the lattice of row starts, one dim at a time
        steps, prev = scratch[:size], scratch[size: size + m]
        steps.fill(stride)
        steps[0] = 0
        np.cumsum(steps, out=steps)
        np.copyto(prev, bases[:m])
        np.add.outer(steps, prev, out=bases[: m * size].reshape(size, m))
        m *= size
    bases.sort()
    np.subtract(bases[1:], bases[:-1], out=scratch[: rows - 1])
    return int(scratch[: rows - 1].min())


def _group_starts(loop: Loop, deltas: dict, op: str) -> tuple[np.ndarray, int]:
    """Where the calls of one row start (element indices), given each overlapping operand's
    distance ``deltas[k]`` from the output (elements): a new call wherever a step reads a cell
    that an earlier step of the current call writes."""
    n, vector_end, kind = loop.n, loop.vector_end, loop.kind
    so = loop.st[0][0]
    nvec = loop.steps
    npos = nvec + (1 if loop.block_tail else n - vector_end)
    ints = _counted(5 * n + 1, np.int64, op)
    j, pos, rel, pw, dep = (ints[i * n: (i + 1) * n] for i in range(5))
    bools = _counted(2 * n, np.bool_, op)
    ok, ok2 = bools[:n], bools[n:]
    j.fill(1)
    j[0] = 0
    np.cumsum(j, out=j)
    first = 0  # the step each element belongs to
    for s, e, w in loop.segs:
        np.subtract(j[s:e], s, out=pos[s:e])
        np.floor_divide(pos[s:e], w, out=pos[s:e])
        pos[s:e] += first
        first += (e - s) // w
    if loop.block_tail:
        pos[vector_end:] = nvec
    else:
        np.subtract(j[vector_end:], vector_end - nvec, out=pos[vector_end:])
    dep.fill(-1)
    for k, delta in deltas.items():
        np.multiply(j, loop.st[k][0], out=rel)
        rel += delta  # the cell element j reads, counted from the row's first written cell
        np.remainder(rel, so, out=pw)
        np.equal(pw, 0, out=ok)
        np.greater_equal(rel, 0, out=ok2)
        ok &= ok2
        np.less_equal(rel, so * (n - 1), out=ok2)
        ok &= ok2
        if k == kind:
            ok[:vector_end] = False  # read once before the row's first store
        np.floor_divide(rel, so, out=rel)
        np.clip(rel, 0, n - 1, out=rel)
        np.take(pos, rel, out=pw)  # the step that writes that cell
        np.less(pw, pos, out=ok2)  # ... earlier than the reader's
        ok &= ok2
        np.maximum(dep, pw, out=dep, where=ok)
    last = pw[:npos]  # per step: the latest earlier step it reads from
    first = 0
    for s, e, w in loop.segs:
        np.max(dep[s:e].reshape(-1, w), axis=1, out=last[first: first + (e - s) // w])
        first += (e - s) // w
    if loop.block_tail:
        last[nvec] = dep[vector_end:].max()
    else:
        last[nvec:] = dep[vector_end:]
    starts, count, current = rel, 1, 0
    starts[0] = 0
    np.greater_equal(last, 0, out=ok[:npos])
    for b in range(0, npos, 4096):  # (flatnonzero by pieces: its result isn't counted)
        for p in np.flatnonzero(ok[b: min(b + 4096, npos)]):
            if last[b + p] >= current:
                current = int(b + p)
                starts[count] = current
                count += 1
    return starts[:count], count


def walk_grouped(call, loop: Loop, op: str) -> bool:
    """The walk's result with many steps per NumPy call; False (nothing done) if the
    operands' rows aren't laid out alike, or rows read each other's cells other than along
    one row dim (_band)."""
    views, arrays, st, n, kind = loop.views, loop.arrays, loop.st, loop.n, loop.kind
    out = arrays[0]
    if any(s < 0 for ss in st for s in ss):
        return False
    deltas = {}
    for k in range(1, len(arrays)):  # (an in-place op's own self is its kernel's output)
        if not (k == 1 and arrays[1] is out) and np.may_share_memory(arrays[k], out):
            d, r = divmod(_addr(arrays[k]) - _addr(out), out.itemsize)
            if r or st[k][1:] != st[0][1:]:
                return False
            deltas[k] = d
    rows = 1
    for s in loop.sh[1:]:
        rows *= s
    outer = views[0].shape[:-1]
    band = _band(loop, deltas, rows, op)  # rows that can run side by side
    if band == 0:
        return False
    starts, count = _group_starts(loop, deltas, op) if n > 1 and deltas else ((0,), 1)

    def first(g):  # the first element of call g (its first step)
        return n if g == count else loop.step_start(int(starts[g]))

    held = None
    if kind and loop.vector_end:  # the broadcast input, read as each row starts
        held = _counted(rows, out.dtype, op)[:rows].reshape(outer)
    copied = list(deltas)
    buf = _counted(GROUP_ELEMENTS * len(copied), out.dtype, op)
    for r0 in range(0, rows, band):  # bands one after another, their rows side by side
        r1 = min(r0 + band, rows)
        if held is not None:
            band_rows = (slice(r0, r1),) if band < rows else (...,)
            np.copyto(held[band_rows], views[kind][band_rows + (0,)])
        for g in range(count):
            e0, e1 = first(g), first(g + 1)
            cuts = loop.cuts(e0, e1, GROUP_ELEMENTS // (r1 - r0))
            for c0, c1 in zip(cuts, cuts[1:]):
                for idx in _row_blocks(outer, max(1, GROUP_ELEMENTS // (c1 - c0)), r0, r1):
                    parts = [v[idx + (slice(c0, c1),)] for v in views]
                    for i, k in enumerate(copied):
                        p = buf[i * GROUP_ELEMENTS:][: parts[k].size].reshape(parts[k].shape)
                        np.copyto(p, parts[k])
                        parts[k] = p
                    if held is not None and c1 <= loop.vector_end:
                        parts[kind] = np.broadcast_to(held[idx + (..., None)], parts[0].shape)
                    call(parts[0], parts[1:])
    return True


def _band(loop: Loop, deltas: dict, rows: int, op: str) -> int:
    """How many consecutive rows can run side by side: all of them if no row reads a cell
    another row writes; with one row dim, as many as lie between a row and the nearest row
    it may read from or be read by; 0 if the rows can't be told apart that way."""
    if rows == 1 or not deltas:
        return rows
    st, n = loop.st, loop.n
    gap = _min_row_gap(loop.sh[1:], st[0][1:], op)
    span = st[0][0] * (n - 1)
    band = rows
    for k, d in deltas.items():
        lo, hi = d - span, d + st[k][0] * (n - 1)  # a writer's row start minus a reader's
        if hi < gap and lo > -gap:
            continue
        if len([s for s in loop.sh[1:] if s > 1]) != 1 or len(loop.sh) != 2:
            return 0
        first, last = -(-lo // gap), hi // gap  # rows apart that may meet
        if first <= 0 <= last:
            near = 1 if (first < 0 or last > 0) else rows
        else:
            near = first if first > 0 else -last
        band = min(band, near)
    return band


def _row_blocks(outer: tuple, most: int, r0: int = 0, r1: int | None = None):
    """Index tuples over the rows' dims, at most ``most`` rows each (the innermost row dim
    sliced from ``r0`` to ``r1``, the others one index at a time)."""
    if not outer:
        yield ()
        return
    last = outer[-1] if r1 is None or len(outer) > 1 else r1
    step = min(last - r0, most)
    for head in itertools.product(*(range(s) for s in outer[:-1])):
        for s in range(r0 if len(outer) == 1 else 0, last, step):
            yield head + (slice(s, min(s + step, last)),)
