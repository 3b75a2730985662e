"""float16 and bfloat16 ``a + b``, ``a - b`` (and bfloat16 ``a * b``) on the bits, in float32
lanes, as PyTorch's Half and BFloat16 kernels.

PyTorch's CPU loop loads float16 into float32 registers (F16C), adds there and rounds back
once, to nearest even. NumPy's own float16 casts and arithmetic run one element at a time
(about 8 ms for a million additions, where PyTorch takes 0.4 ms), so here those three steps
are integer passes over chunks of the shared workspace, one NumPy call with ``out=`` each:

- widen: a float16's sign, exponent and mantissa bits moved to a float32's places (the sign
  to bit 31, the rest 13 bits up) make the float32 ``value * 2**-112``. Normal float16s land
  on normal float32s, subnormal ones on subnormal ones, each exactly.
- add in that scaled float32: a power-of-two scale commutes with rounding here, so the sum
  is PyTorch's float32 sum, scaled, bit for bit (a sum small enough to be subnormal is exact).
- narrow: the scaled sum's bits, rounded to nearest even at bit 13 and shifted down, *are*
  the float16's bits: subnormals and a carry into the exponent come out right by themselves.
  Only the sign has to be carried past the three exponent bits float16 lacks: the mask that
  picks the rounding bit fills them with the sign's copies in the same pass.

bfloat16 is float32's upper half, and ml_dtypes' own casts between the two are vectorised
loops (a shift by 16; the rounding at bit 16 to nearest even, c10's round_to_nearest_even for
every finite float32 and inf), so there the three steps are one NumPy call each. Its range is
float32's: a sum that overflows is float32's inf, which the rounding keeps, without the
warning NumPy would print (PyTorch prints none).

Infinity and NaN operands, and float16 sums that could reach 65520 (where float16
overflows), take the general path (reduced.run); two reductions per operand decide before
anything is written. Everything else gives reduced.run's bits: tests/test_half_add.py
compares both on every exponent pair and on random bit patterns.
"""
from __future__ import annotations

import sys

import numpy as np

from . import reduced
from .tensor_iterator import ufunc_kernel
from .workspace import Scratch, chunk_len

_SIGN_EXP_MANT = -0x70002000  # 0x8FFFE000 as int32: bit 31 and bits 27..13
_SIGN_FILL_KEPT_BIT = 0x70000001  # of s >> 13: the sign's copies for bits 30..28, bit 13
_LARGEST_SAFE = 65520.0  # float16's overflow threshold: |a| + |b| below it stays finite


def _magnitude_bound(h: np.ndarray) -> float | None:
    """The largest magnitude among float16 bits ``h`` (an int16 view), or None if any is an
    infinity or a NaN: int16's max is the largest positive pattern, uint16's the largest
    negative one (the sign bit set sorts negatives above positives)."""
    top = int(h.max())
    utop = int(h.view(np.uint16).max())
    if top >= 0x7C00 or utop >= 0xFC00:  # exponent all ones: inf or NaN
        return None
    return float(np.uint16(max(top, utop & 0x7FFF)).view(np.float16))


def _bf16_finite(h: np.ndarray) -> bool:
    """No infinity or NaN among bfloat16 bits ``h`` (int16): exponent all ones is 0x7F80."""
    return int(h.max()) < 0x7F80 and int(h.view(np.uint16).max()) < 0xFF80


def _widen_bf16(a: np.ndarray, b: np.ndarray, w: np.ndarray) -> None:
    """bfloat16 ``a`` and ``b`` into the rows of int32 ``w``: their float32 bits."""
    np.copyto(w[0].view(np.float32), a)  # ml_dtypes' cast: the bits 16 up, exactly
    np.copyto(w[1].view(np.float32), b)


def _narrow_bf16(s: np.ndarray, t: np.ndarray, out: np.ndarray) -> None:
    """The bfloat16 ``out`` of the float32 whose bits are int32 ``s``, rounded to nearest
    even (``t``, scratch for the float16 narrowing, isn't needed)."""
    np.copyto(out, s.view(np.float32), casting="unsafe")  # ml_dtypes' cast, vectorised


def _widen(a: np.ndarray, b: np.ndarray, w: np.ndarray) -> None:
    """float16 bits ``a`` and ``b`` (int16) into the rows of int32 ``w`` (2, n): the bits of
    the float32 values * 2**-112."""
    np.copyto(w[0], a, casting="unsafe")  # sign-extended: the sign fills bits 31..15
    np.copyto(w[1], b, casting="unsafe")
    np.left_shift(w, 13, out=w)
    np.bitwise_and(w, _SIGN_EXP_MANT, out=w)  # clear the sign's copies in bits 30..28


def _narrow(s: np.ndarray, t: np.ndarray, out: np.ndarray) -> None:
    """The float16 bits (into int16 ``out``) of the scaled float32 whose bits are int32
    ``s``, rounded to nearest even; ``t`` is int32 scratch. ``s`` is overwritten.

    Bits 30..28 of a scaled sum are zero (three exponent bits float16 lacks), so between the
    sign (bit 31) and the 15 bits kept (27..13) lie three bits: filled with the sign's copies,
    bits 28..13 are the float16's. One mask on ``s >> 13`` gives both what rounding adds
    (bit 13, the lowest bit kept: a tie goes to the even neighbour) and that fill."""
    np.right_shift(s, 13, out=t)  # arithmetic: bits 30..28 of t are copies of the sign
    np.bitwise_and(t, _SIGN_FILL_KEPT_BIT, out=t)
    np.add(s, t, out=s)  # a magnitude below 2**28 never carries into bit 28
    np.add(s, 0xFFF, out=s)
    np.right_shift(s, 13, out=s)  # bits 15..0 are now the sign and the 15 bits kept
    np.copyto(out, s, casting="unsafe")  # int32 -> int16 keeps the low 16 bits


def add_sub(ufunc, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> bool:
    """``out = ufunc(a, b)`` (np.add or np.subtract; for bfloat16 also np.multiply) for
    float16 or bfloat16 arrays of out's shape and dtype, all C-contiguous, each either out
    itself or apart from it. False, with nothing written, when another path must do it (an
    operand that isn't such an array, inf or NaN, a float16 sum that may overflow).

    bfloat16's product takes the same route: two widened bfloat16 multiply exactly as
    PyTorch's float32 lanes do (underflow included: bfloat16 has float32's exponents), and
    the one rounding follows. A float16 product does not: scaled by 2**-112 twice it would
    underflow, and a product in float16's subnormal range would be rounded twice."""
    half = out.dtype == np.float16
    if half and ufunc is np.multiply:
        return False
    if not (sys.byteorder == "little" and (half or out.dtype.kind == "V") and out.size
            and out.flags.c_contiguous):  # (kind V, two bytes: ml_dtypes' bfloat16)
        return False
    for x in (a, b):
        if not (isinstance(x, np.ndarray) and x.dtype == out.dtype and x.shape == out.shape
                and x.flags.c_contiguous):
            return False
        if x.ctypes.data != out.ctypes.data and np.may_share_memory(x, out):
            return False
    ha, hb = a.reshape(-1).view(np.int16), b.reshape(-1).view(np.int16)
    if half:
        bound_a = _magnitude_bound(ha)
        bound_b = None if bound_a is None else _magnitude_bound(hb)
        if bound_b is None or bound_a + bound_b >= _LARGEST_SAFE:
            return False
        widen, narrow, xa, xb, o = _widen, _narrow, ha, hb, out.reshape(-1).view(np.int16)
    elif _bf16_finite(ha) and _bf16_finite(hb):
        widen, narrow = _widen_bf16, _narrow_bf16
        xa, xb, o = a.reshape(-1), b.reshape(-1), out.reshape(-1)
    else:
        return False
    n = min(chunk_len(np.int32) // 2, o.size)
    with Scratch(np.int32, ufunc.__name__, 2 * n) as scratch, np.errstate(over="ignore"):
        flat = scratch.view((2 * n,))
        # a NumPy call costs about 1 us here and a chunk makes up to 11: views are made once
        # per chunk length (the last chunk may be shorter), not once per chunk
        k = 0
        for start in range(0, o.size, n):
            stop = min(start + n, o.size)
            if stop - start != k:
                k = stop - start  # a contiguous (2, k): NumPy 2.2 buffers a strided one
                w = flat[: 2 * k].reshape(2, k)
                s, t = w[0], w[1]
                sf, tf = s.view(np.float32), t.view(np.float32)
            widen(xa[start:stop], xb[start:stop], w)
            ufunc(sf, tf, out=sf)
            narrow(s, t, o[start:stop])
    return True


def add_sub_kernel(ufunc, opmath_scalar: bool = False):
    """add's, sub's or mul's kernel (np.add, np.subtract, np.multiply): float16 and bfloat16
    through add_sub where it applies, other 16-bit cases through reduced.run (which reads a
    Python scalar in float32 if ``opmath_scalar``), every other dtype as a plain
    ufunc_kernel."""
    plain = ufunc_kernel(ufunc)
    plain.opmath_scalar = opmath_scalar

    def kernel(*xs, out, dtype):
        if reduced.is_reduced(out.dtype):
            if len(xs) == 2 and add_sub(ufunc, *xs, out):
                return
            reduced.run(plain, xs, out)
        else:
            plain(*xs, out=out, dtype=dtype)
    kernel.__name__ = ufunc.__name__
    kernel.chunkable = True  # it reads only its arguments
    kernel.rounds_16_bits_itself = True  # (tensor_iterator.call_kernel: not reduced.run)
    return kernel
