"""TanhBackward0's kernel, tanh_backward: ``g * (1 - r * r)`` as each of PyTorch's CPU builds
rounds it.

The AVX2 and AVX512 builds are compiled for CPUs with FMA, and GCC contracts ``1 - r * r``
into one fused multiply-add, in the vector body and the element loop alike: the square is
not rounded, the difference is (measured on torch 2.13: float32 and float64, contiguous,
tails and strided, ATEN_CPU_CAPABILITY=default/avx2/avx512). The DEFAULT build rounds both,
as the composite does. float16/bfloat16 compute in float32, where a 16-bit square is exact,
so the builds agree there (half_backward.py).

Here the fused ``1 - r * r`` is computed exactly, with rounding to odd (Boldo and Melquiond):
a float64 sum rounded to odd keeps a trace of every bit it lost, so rounding it once more
(to float32, or added to a larger number) gives the correctly rounded result.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from ._chunked import run_chunked
from ._pointwise import new_output
from ._round_to_odd import FUSED, float32_ties, round_to_odd, two_sum_error
from .half_backward import float32_backward

_SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's split of a float64 into two 26-bit halves


def tanh_backward(g: Tensor, r: Tensor) -> Tensor:
    """The gradient of tanh from its saved result r."""
    if g.dtype.itemsize == 2:  # in float32, rounded once
        return float32_backward(_grad32, "tanh_backward", g, r)
    if not FUSED or g.dtype.itemsize not in (4, 8):
        return g * (1 - r * r)
    out = new_output("tanh_backward", r._shape, g.dtype, (g, r))
    kernel = _fused32 if g.dtype.itemsize == 4 else _fused64
    with np.errstate(all="ignore"):
        run_chunked(kernel, "tanh_backward", (np.float64,) * 6 + (np.bool_,),
                    (g._array(), r._array()), out._array(), None)
    return out


def _grad32(g, r, t, narrow) -> None:  # (16-bit g and r, widened to float32)
    np.multiply(r, r, out=r)  # exact: a 16-bit value's square fits a float32
    np.subtract(1, r, out=r)
    np.multiply(g, r, out=g)


def _one_minus(p: np.ndarray, s: np.ndarray, err: np.ndarray) -> None:
    """s + err = 1 - p exactly, s rounded to nearest (Fast2Sum: |p| <= 1 for tanh's r)."""
    np.subtract(1, p, out=s)
    np.subtract(1, s, out=err)
    np.subtract(err, p, out=err)


def _fused32(gs, rs, out, dtype, tmp) -> None:
    """float32: r * r is exact in float64, 1 - r * r rounded there, then to float32, then g
    times it in float32. The two roundings give the one correct rounding unless the float64
    difference lies exactly halfway between two float32 numbers (its 29 bits below float32's
    are 1 and 28 zeros; it is never below float32's normal range): if a chunk has one, the
    difference is rounded to odd instead (53 >= 24 + 2 bits: then the second rounding is
    exact)."""
    p, s, err, t, _, _, flag = tmp
    np.multiply(rs, rs, out=p, dtype=np.float64)
    np.subtract(1, p, out=s)
    if float32_ties(s, t.view(np.int64), flag):
        _one_minus(p, s, err)
        round_to_odd(s, err, t, flag)
    t32 = t.reshape(-1).view(np.float32)[: t.size].reshape(t.shape)
    np.copyto(t32, s, casting="unsafe")
    np.multiply(gs, t32, out=out)


def _fused64(gs, rs, out, dtype, tmp) -> None:
    """float64: r * r = p + e exactly (Dekker's product), then 1 - p - e correctly rounded:
    1 - p = s + err exactly, v = err - e rounded to odd, and s + v rounded to nearest."""
    p, e, s, err, a, b, flag = tmp
    np.multiply(rs, _SPLIT, out=a)  # Veltkamp: hi = c - (c - r), lo = r - hi
    np.subtract(a, rs, out=b)
    np.subtract(a, b, out=a)  # hi
    np.subtract(rs, a, out=b)  # lo
    np.multiply(rs, rs, out=p)
    np.multiply(a, a, out=e)  # e = ((hi*hi - p) + 2*hi*lo) + lo*lo, each step exact
    np.subtract(e, p, out=e)
    np.multiply(a, b, out=a)
    np.add(a, a, out=a)
    np.add(e, a, out=e)
    np.multiply(b, b, out=b)
    np.add(e, b, out=e)
    _one_minus(p, s, err)  # 1 - p = s + err
    np.negative(e, out=e)
    np.add(err, e, out=p)  # v = err - e rounded to nearest, its exact error into e
    two_sum_error(err, e, p, e, a)
    round_to_odd(p, e, a, flag)  # (only where 1 - r * r is 1 can p * e underflow: no matter)
    np.add(s, p, out=s)  # the one rounding of 1 - r * r
    np.multiply(gs, s, out=out)
