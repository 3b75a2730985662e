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
is rounded to odd first, which makes the second rounding exact. float64 is still rounded
twice here in every build (an exact float64 FMA needs a split product, as tanh_backward.py
has for `r * r`: not written for add yet).
"""
from __future__ import annotations

import numpy as np

from ._round_to_odd import FUSED, float32_ties, round_to_odd, two_sum_error
from .cpu_lanes import REGISTER_BYTES, inner_row, row_length, row_mask
from .workspace import Scratch, chunks

SSE_BYTES = 16  # the step of GCC's element loop where alpha * other is computed once

_SMALLEST_NORMAL = 2.0 ** -126  # float32's
BYTES = 33  # scratch bytes per element: the sum, two float64 temporaries, two casts, a flag
_MIN = np.fmin.reduce  # (fmin: a NaN sum must not hide a small one)
CHUNK = 7936  # elements per chunk: 33 bytes each fit the 256 KiB workspace


def fused(np_dtype) -> bool:
    """Does this build round ``x + alpha * y`` once in ``np_dtype`` (float32 for now)?"""
    return FUSED and np_dtype == np.float32


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
                # every cell (s * err can't underflow: both are multiples of 2**-298)
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
