"""GELU (approximate='none') on float16/bfloat16 as GeluKernelImpl's reduced branch computes
it: in float32, ``x * 0.5 * (1 + erf(x * sqrt(1/2)))``, rounded once to 16 bits.

The erf depends on the loop. The element loop (row tails, strided rows, every element in the
DEFAULT build) calls glibc's erff; here Cody's erf in float64 (erf.py), rounded to float32.
The AVX2/AVX512 vector loop evaluates vec512_float.h's ``Vectorized<float>::erf``: Abramowitz
and Stegun's 7.1.26 with fused multiply-adds and SLEEF's expf; here each fused step is a
float64 product and sum rounded once to float32, and the exp is float64's, rounded (SLEEF's
agrees on every 16-bit input). Measured against torch 2.13 with oneDNN off (on a CPU with
AVX512-FP16 torch hands contiguous 16-bit tensors of 2 or more elements to oneDNN's own GELU,
whose bits are that library's): every bit pattern of both types agrees in the three builds.
"""
from __future__ import annotations

import math

import numpy as np

from ..cpu_capability import AVX512, CAPABILITY, VECTOR_INSTRUCTIONS
from ..tensor import Tensor
from ._chunked import run_chunked
from .cpu_lanes import vector_mask
from .erf import erf_into
from .half_backward import nan_bits

_ALPHA = np.float32(math.sqrt(0.5))  # (float)M_SQRT1_2
_HALF, _ONE = np.float32(0.5), np.float32(1.0)
# 7.1.26's constants as vec512_float.h writes them (float literals)
_P, _P1, _P2, _P3, _P4, _P5 = (np.float32(c) for c in (
    0.3275911, 0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429))
_TEMPS = (np.float32,) * 7 + (np.float64,) * 7 + (np.bool_,)


def _fma32(a, b, c, out: np.ndarray, wide: np.ndarray) -> None:
    """out = a * b + c rounded once to float32 (the product of two float32s is exact in
    float64; the sum is rounded to float64 first, which on 16-bit inputs never shows)."""
    np.multiply(a, b, out=wide, dtype=np.float64)
    np.add(wide, c, out=wide)
    np.copyto(out, wide, casting="unsafe")


def _erf_vector(z: np.ndarray, out: np.ndarray, f32: tuple, wide: np.ndarray) -> None:
    """Vectorized<float>::erf: sign(z) (1 - r(t) t exp(-z^2)), t = 1 / (1 + p |z|)."""
    t, r, s = f32
    np.abs(z, out=s)
    _fma32(_P, s, _ONE, t, wide)
    np.divide(_ONE, t, out=t)
    _fma32(_P5, t, _P4, r, wide)
    for c in (_P3, _P2, _P1):
        _fma32(r, t, c, r, wide)
    np.multiply(z, z, out=s)
    np.negative(s, out=wide, dtype=np.float64)
    np.exp(wide, out=wide)
    np.copyto(s, wide, casting="unsafe")
    np.negative(s, out=s)
    s *= t
    _fma32(s, r, _ONE, out, wide)
    np.copysign(out, z, out=out)


def _body(x, lanes, out, dtype, tmp) -> None:
    xf, z, e, v, t, r, s, x64, r64, *erf_tmp = tmp
    np.copyto(xf, x, casting="unsafe")  # (exact)
    np.multiply(xf, _ALPHA, out=z)
    np.copyto(x64, z)
    erf_into(x64, r64, erf_tmp)
    np.copyto(e, r64, casting="unsafe")
    if lanes is not None:
        _erf_vector(z, v, (t, r, s), x64)
        np.copyto(e, v, where=lanes)
    e += _ONE
    np.multiply(xf, _HALF, out=v)
    v *= e
    np.copyto(out, v, casting="unsafe")


def gelu16(input: Tensor, out: Tensor) -> None:
    """out = GELU(input), both float16 or both bfloat16, out laid out densely."""
    x, o = input._array(), out._array()
    # cpu_kernel_vec steps two vectors: 32 bytes each in AVX2, 64 in AVX512
    step = 128 if CAPABILITY == AVX512 else 64
    lanes = vector_mask(out._shape, [out._stride, input._stride], 2, step) \
        if VECTOR_INSTRUCTIONS else None
    with np.errstate(all="ignore"):
        run_chunked(_body, "gelu", _TEMPS, (x, lanes), o, np.float32)
    nan_bits(o, lanes, selects=False)
