"""``x + alpha * y`` rounded as PyTorch's CPU builds round it (add, sub, rsub with ``alpha=``,
in place and ``out=``): once (a fused multiply-add, FMA) or twice (the product, then the sum).

torch's add kernel computes ``self + alpha * other`` (ATen/native/ufunc/add.h). The AVX2 and
AVX512 builds are compiled for CPUs with FMA, so each element is one fused multiply-add: the
vector body (``vec::fmadd``) and the element loop (GCC contracts ``a + b * c`` into one
instruction) alike. One exception, measured on torch 2.13: when ``other`` is one number for a
whole row (a Python scalar, a 0-dim tensor, a broadcast column), the element loop after the
vectors (cpu_lanes.py) computes ``alpha * other`` once, rounded, for its 16-byte SSE steps:
the tail's first element is fused, its next whole 16-byte groups are rounded twice, the rest
is fused. The DEFAULT build has no FMA and rounds twice everywhere (workspace.py:axpy_).

float32 is fused through float64: the product of two float32 numbers is exact in float64;
the sum is rounded to float64, then to float32. That second rounding can differ from a single
one only where the float64 sum lies exactly halfway between two float32 numbers (or is below
float32's normal range): a chunk holding such a cell gets each sum's exact error (TwoSum) and
is rounded to odd first, which makes the second rounding exact. float64 (and every other
fused update: lerp, addcmul in ternary.py) goes through ``fma_into``, the one exact fused
multiply-add for both types: float32 as above; float64 by Dekker's exact product (the
product as a sum of two float64 numbers) and Boldo and Melquiond's emulated FMA, whose last
rounding is the only one that counts.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ._round_to_odd import FUSED, float32_ties, round_to_odd, two_sum_error
from .cpu_lanes import REGISTER_BYTES, inner_row, row_length, row_mask
from .workspace import Scratch, chunks

SSE_BYTES = 16  # the step of GCC's element loop where alpha * other is computed once

_SMALLEST_NORMAL = 2.0 ** -126  # float32's
BYTES = 33  # scratch bytes per element: the sum, two float64 temporaries, two casts, a flag
_MIN = np.fmin.reduce  # (fmin: a NaN sum must not hide a small one)
_ALL = np.logical_and.reduce
CHUNK = 7936  # elements per chunk: 33 bytes each fit the 256 KiB workspace


def fused(np_dtype, alpha=None, y=None) -> bool:
    """Does this build round ``x + alpha * y`` once in ``np_dtype`` (float32, float64), in a
    way that can differ from rounding twice? Not in float64 when ``alpha * y`` is exact (alpha
    0 or a power of two at least 1, no product overflowing): the twice-rounded sum is then
    the fused one, and costs two NumPy passes instead of fma_into's thirty."""
    if not FUSED or np_dtype not in (np.float32, np.float64):
        return False
    return np_dtype == np.float32 or not _exact_product(alpha, y)


def _exact_product(alpha, y) -> bool:
    a = abs(float(alpha)) if alpha is not None else 0.5
    if a != 0 and (a < 1 or math.frexp(a)[0] != 0.5):  # not 0, nor 2**k with k >= 0
        return False
    if type(y) is not np.ndarray:
        return abs(float(y)) * a < _HUGE if y is not None else False
    # (floats first: a bool y has no negative, an int64 one may not fit its own; a NaN y: False)
    return not y.size or max(-float(np.min(y)), float(np.max(y))) * a < _HUGE


def axpy(out: np.ndarray, x, y, alpha, op: str) -> None:
    """out = x + alpha * y, rounded as this build rounds it, in out's float type."""
    (axpy_float32 if out.dtype == np.float32 else axpy_float64)(out, x, y, alpha, op)


SLOTS = 6  # float64 scratch arrays fma_into needs, each of the chunk's shape
_SPLIT = 2.0 ** 27 + 1  # Veltkamp's constant: a float64 cut into two 26-bit halves
# below 2**-968 a product's rounding error may not be a float64 itself (or the product
# underflows to 0): fma_into tests a * b * 2**54 against _TINY, and hands those cells over
_TINY = 2.0 ** -914
_TINY_BITS = np.float64(_TINY).view(np.uint64) - np.uint64(1)
_ABS = np.uint64(2 ** 63 - 1)  # every bit but the sign
_SUM, _UMIN = np.add.reduce, np.minimum.reduce
_HUGE = 2.0 ** 1023  # a product below it in magnitude has not overflowed


def fma_into(out: np.ndarray, a, b, c, dtype, work: np.ndarray) -> None:
    """out = a * b + c rounded once, in ``dtype`` (float32 or float64), as an FMA instruction
    rounds it. ``a``, ``b``, ``c``: arrays of out's shape or numbers, already in ``dtype``
    (``c`` may be ``out`` itself); ``work``: SLOTS float64 scratch arrays of out's shape (an
    array of shape (SLOTS,) + out.shape, or a list), so nothing escapes the count. To save
    scratch, ``a`` may be ``work[5]`` (viewed in ``dtype``), ``b`` may be ``work[2]`` if
    ``a`` is a number, and in float32 ``work[1]`` may be ``out``: nothing is read after its
    slot is first written. (A 0-dim ``out`` comes in as shape (1,): the slots must be arrays.)
    Not matched: a float64 product below 2**-1128 (0 even times 2**54) counts as a zero
    product, so added to a zero it gives +0 where an FMA gives the product's sign."""
    if out.size == 0:
        return  # nothing to round (and NumPy's minimum of no elements raises)
    p, h, lo, t, e, v = work
    if dtype == np.float32:
        np.multiply(a, b, out=p, dtype=np.float64)  # exact: 24 + 24 bits fit in 53
        np.add(p, c, out=h)
        flag = _bools(lo, out.shape)
        ties = float32_ties(h, t.view(np.int64), flag)
        np.absolute(h, out=t)
        if ties or _MIN(t, axis=None) < _SMALLEST_NORMAL:  # (only there can it matter)
            two_sum_error(p, c, h, e, t)
            round_to_odd(h, e, t, flag)  # then rounding to float32 is correct
        out[...] = h
        return
    np.multiply(a, b, out=p)
    np.multiply(a, _SPLIT, out=h)  # the splits' first steps (Veltkamp), and a test:
    np.multiply(b, _SPLIT, out=t)
    np.multiply(h, t, out=e)  # a * b * 2**54: not finite if a split or the product overflows
    rare = not np.isfinite(_SUM(e, axis=None) + _SUM(c, axis=None))  # (or c is not finite)
    bits = e.view(np.uint64)  # its magnitude's bits, minus 1: a zero comes out largest
    np.bitwise_and(bits, _ABS, out=bits)
    np.subtract(bits, 1, out=bits)
    cells, exact = (), []
    if rare or _UMIN(bits, axis=None) < _TINY_BITS:  # the exact rationals take those cells
        g = h * t
        cells = np.nonzero(~np.isfinite(g + c) | ((np.absolute(g) < _TINY) & (g != 0)))
        exact = [_fma_one(*(float(x[k] if isinstance(x, np.ndarray) else x) for x in (a, b, c)))
                 for k in zip(*cells)]
    # a * b = p + e exactly (Dekker): each factor cut into two halves of 26 bits
    a_hi, a_lo = _split(a, h, lo)
    b_hi, b_lo = _split(b, t, v)
    np.multiply(a_hi, b_hi, out=e)
    np.subtract(e, p, out=e)
    np.multiply(a_hi, b_lo, out=h)  # (each half is read for the last time as it is replaced)
    np.add(e, h, out=e)
    np.multiply(a_lo, b_hi, out=t)
    np.add(e, t, out=e)
    np.multiply(a_lo, b_lo, out=t)
    np.add(e, t, out=e)  # the product's rounding error
    # c + p = h + lo exactly (TwoSum); lo + e rounded to odd; then the one rounding that counts
    np.add(c, p, out=h)
    two_sum_error(c, p, h, lo, t)
    np.add(lo, e, out=v)
    two_sum_error(lo, e, v, e, t)
    zero = _bools(p, out.shape)
    round_to_odd(v, e, t, zero)
    np.equal(v, 0, out=zero)  # h + 0 must keep h's zero: -0 + -0 is -0
    np.copysign(v, h, out=v, where=zero)
    np.add(h, v, out=out)
    if exact:
        out[cells] = exact


def _bools(slot: np.ndarray, shape: tuple) -> np.ndarray:
    """A bool array of ``shape`` in a float64 scratch slot's first bytes."""
    return slot.reshape(-1).view(np.bool_)[:slot.size].reshape(shape)


def _split(x, hi: np.ndarray, lo: np.ndarray):
    """Veltkamp's split, x = hi + lo with 26 bits in each, so that the products of two split
    numbers' halves are exact; ``hi`` already holds x * _SPLIT. A number is split in Python."""
    if not isinstance(x, np.ndarray):
        big = x * _SPLIT
        x_hi = big - (big - x)
        return x_hi, x - x_hi
    np.subtract(hi, x, out=lo)
    np.subtract(hi, lo, out=hi)
    np.subtract(x, hi, out=lo)
    return hi, lo


def _fma_one(a: float, b: float, c: float) -> float:
    """One cell exactly, with Python's rationals (float() of a Fraction rounds correctly, to
    subnormals too). A finite product is exact inside an FMA, so an infinite or NaN ``c``
    is the result; an infinite or NaN factor is IEEE arithmetic's business."""
    if not (np.isfinite(a) and np.isfinite(b)):
        return a * b + c
    if not np.isfinite(c):
        return c
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:  # which zero: IEEE's rules (a zero product is exact, as is one equal to -c)
        return a * b + c
    try:
        return float(exact)
    except OverflowError:
        return float("inf") if exact > 0 else float("-inf")


def _strides(v, shape: tuple) -> tuple:
    """An operand's strides in elements once broadcast to ``shape`` (a scalar's all 0)."""
    if not isinstance(v, np.ndarray):
        return (0,) * len(shape)
    return tuple(s // v.itemsize for s in np.broadcast_to(v, shape).strides)


def rounded_twice(shape: tuple, strides: list[tuple], itemsize: int) -> np.ndarray | None:
    """Where the fused builds round twice: in a row taken in vectors whose ``other`` (the
    third operand, after out and self) is one number, the tail cells after the first that
    fill whole 16-byte steps. ``strides``: out's, self's, other's, in elements."""
    row, vectorised = inner_row(shape, strides)
    if not row or not vectorised or strides[2][row[0]] != 0 or strides[1][row[0]] != 1:
        return None
    n = row_length(shape, row)
    tail = n % (REGISTER_BYTES // itemsize)
    group = SSE_BYTES // itemsize
    twice = group * ((tail - 1) // group) if tail else 0
    if not twice:
        return None
    start = n - tail + 1
    return row_mask(shape, row, start, start + twice)


def axpy_float64(out: np.ndarray, x, y, alpha, op: str) -> None:
    """out = x + alpha * y in float64, one rounding (fma_into) but in the tail cells that
    ``rounded_twice`` names. ``x``, ``y``: arrays broadcastable to out, or numbers."""
    if not out.size:
        return
    out = out.reshape(out.shape or (1,))  # (a 0-dim out as one cell: the slots stay arrays)
    shape = out.shape
    twice = None
    if not (type(y) is np.ndarray and y.shape == shape and 0 not in y.strides):
        twice = rounded_twice(shape, [_strides(v, shape) for v in (out, x, y)], 8)
    x, y = (np.broadcast_to(v, shape) if type(v) is np.ndarray else np.float64(v) for v in (x, y))
    ops = [x, y]
    casts = [k for k, v in enumerate(ops) if type(v) is np.ndarray and v.dtype != np.float64]
    slots = SLOTS + len(casts) + (twice is not None)  # [the FMA's][casts][rounded twice]
    with Scratch(np.float64, op, slots * out.size) as scratch:
        for idx in chunks(shape, max(1, scratch.capacity // slots)):
            o = out[idx]
            work = scratch.view((slots,) + o.shape)
            xv = x[idx] if type(x) is np.ndarray else x
            yv = y[idx] if type(y) is np.ndarray else y
            for j, k in enumerate(casts):  # an integer operand, in float64 first
                np.copyto(work[SLOTS + j, ...], (xv, yv)[k], casting="unsafe")
                xv, yv = (work[SLOTS + j, ...], yv) if k == 0 else (xv, work[SLOTS + j, ...])
            tail = twice is not None and twice[idx].any()
            if tail:  # (read before o, which may be x, is written)
                np.multiply(yv, alpha, out=work[-1, ...])
                np.add(work[-1, ...], xv, out=work[-1, ...])
            fma_into(o, np.float64(alpha), yv, xv, np.float64, work[:SLOTS])
            if tail:
                np.copyto(o, work[-1, ...], where=twice[idx])


def axpy_float32(out: np.ndarray, x, y, alpha, op: str) -> None:
    """out = x + alpha * y computed in float32, each cell rounded as this build rounds it.
    (Written out without helpers: an optimizer calls it once per parameter per step.)"""
    shape = out.shape
    if not out.size:
        return
    a = np.float64(np.float32(alpha))  # PyTorch reads alpha as the tensor's type
    twice = None  # (a y of out's shape without broadcast dims is no number along a row)
    if not (type(y) is np.ndarray and y.shape == shape and 0 not in y.strides):
        twice = rounded_twice(shape, [_strides(v, shape) for v in (out, x, y)], 4)
    nd_x, nd_y = type(x) is np.ndarray, type(y) is np.ndarray
    if nd_x and x.shape != shape:
        x = np.broadcast_to(x, shape)
    if nd_y and y.shape != shape:
        y = np.broadcast_to(y, shape)
    m = min(CHUNK, out.size)
    if (twice is None and out.flags.c_contiguous and (not nd_x or x.flags.c_contiguous)
            and (not nd_y or y.flags.c_contiguous)):
        # the common case (an optimizer's update): flat ranges, no Python call per chunk
        n = out.size
        out = out.reshape(-1)
        x = x.reshape(-1) if nd_x else x
        y = y.reshape(-1) if nd_y else y
        pieces = map(slice, range(0, n, m), range(m, n + m, m))
    else:
        pieces = chunks(shape, m)
    with Scratch(np.float64, op, -(-BYTES * m // 8)) as scratch:
        raw = scratch.view((-(-BYTES * m // 8),)).view(np.uint8)
        for idx in pieces:
            o = out[idx]
            cs, k = o.shape, o.size
            s = raw[:8 * k].view(np.float64).reshape(cs)
            work = raw[8 * m:8 * m + 8 * k].view(np.float64).reshape(cs)
            err = raw[16 * m:16 * m + 8 * k].view(np.float64).reshape(cs)
            flag = raw[32 * m:32 * m + k].view(np.bool_).reshape(cs)
            xv = x[idx] if nd_x else np.float32(x)
            if xv.dtype != np.float32:  # an integer or 0-dim float64 operand: float32 first
                cast = raw[24 * m:24 * m + 4 * k].view(np.float32).reshape(cs)
                cast[...] = xv
                xv = cast
            yv = y[idx] if nd_y else np.float32(y)
            if yv.dtype != np.float32:
                cast = raw[28 * m:28 * m + 4 * k].view(np.float32).reshape(cs)
                cast[...] = yv
                yv = cast
            np.multiply(yv, a, out=s)  # exact: 24 + 24 bits fit float64's 53
            np.add(s, xv, out=s)  # the one rounding that matters, to float64
            ties = float32_ties(s, work.view(np.int64), flag)
            np.absolute(s, out=work)  # or is any sum below float32's normal range?
            if ties or _MIN(work, axis=None) < _SMALLEST_NORMAL:
                # the whole chunk rounded to odd: then rounding to float32 is exact in
                # every cell
                np.multiply(yv, a, out=err)
                two_sum_error(xv, err, s, err, work)
                round_to_odd(s, err, work, flag)
            if twice is not None and twice[idx].any():  # float32 product, then float32 sum
                w = raw[16 * m:16 * m + 4 * k].view(np.float32).reshape(cs)
                np.multiply(yv, np.float32(a), out=w)
                np.add(w, xv, out=w)
                np.copyto(s, w, where=twice[idx])
            if o.dtype == np.float32:
                o[...] = s  # the rounding to float32
            else:  # out= of another dtype: the float32 result, then PyTorch's cast
                r = raw[16 * m:16 * m + 4 * k].view(np.float32).reshape(cs)
                r[...] = s
                o[...] = r
