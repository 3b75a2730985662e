"""Rounding to odd (Boldo and Melquiond): one correct rounding out of two.

PyTorch's AVX2 and AVX512 builds compute some expressions with a fused multiply-add, which
rounds once where NumPy's separate multiply and add round twice. A float64 sum rounded to
odd (toward zero, then its last bit set if anything was lost) keeps a trace of every bit it
lost, so rounding it once more (to float32, or added to a larger number) gives the correctly
rounded result (53 >= 24 + 2 bits). ``_fma.py`` (add with ``alpha=``) and
``tanh_backward.py`` (``1 - r * r``) build their fused results from these steps.
"""
from __future__ import annotations

import numpy as np

from ..cpu_capability import VECTOR_INSTRUCTIONS

FUSED = VECTOR_INSTRUCTIONS  # the AVX2 and AVX512 builds; DEFAULT is compiled without FMA
TIE, LOW = 1 << 28, (1 << 29) - 1  # float64 fraction bits below float32's 23
_ANY = np.logical_or.reduce  # (ndarray.any goes through a Python-level wrapper)


def float32_ties(s: np.ndarray, low: np.ndarray, flag: np.ndarray) -> bool:
    """Does a float64 in ``s`` lie exactly halfway between two float32 numbers (its 29 bits
    below float32's are 1 and 28 zeros)? Only there can rounding twice differ from once, for
    a result in float32's normal range. ``low`` (int64) and ``flag`` (bool): scratch."""
    np.bitwise_and(s.view(np.int64), LOW, out=low)
    np.equal(low, TIE, out=flag)
    return bool(_ANY(flag, axis=None))


def two_sum_error(x, y, s: np.ndarray, err: np.ndarray, tmp: np.ndarray) -> None:
    """err = (x + y) - s exactly, where s is x + y rounded to nearest (Knuth's TwoSum, no
    assumption on which is larger). ``err`` may be ``y`` itself; ``tmp``: scratch."""
    np.subtract(s, x, out=tmp)  # the part of s that came from y
    np.subtract(y, tmp, out=err)  # what of y was lost
    np.subtract(s, tmp, out=tmp)  # the part of s that came from x
    np.subtract(x, tmp, out=tmp)  # what of x was lost
    np.add(tmp, err, out=err)


def round_to_odd(s: np.ndarray, err: np.ndarray, tmp: np.ndarray, flag: np.ndarray) -> None:
    """s (a sum rounded to nearest, whose exact error is err) rounded to odd instead: one
    step toward zero where the lost part has the other sign, then the last bit set wherever
    anything was lost. err == 0 changes nothing, nor does a NaN err (from NaN or infinite
    operands). ``err`` is overwritten; ``tmp`` (float64) and ``flag`` (bool): scratch."""
    bits = s.view(np.int64)
    np.sign(s, out=tmp)  # (sign(s) * err, not s * err: that product could underflow to 0)
    np.multiply(tmp, err, out=tmp)
    np.less(tmp, 0, out=flag)  # the lost part points toward zero
    np.subtract(bits, flag, out=bits)
    np.absolute(err, out=err)
    np.greater(err, 0, out=flag)
    np.bitwise_or(bits, flag, out=bits)
