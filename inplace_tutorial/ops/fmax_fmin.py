"""fmax and fmin: maximum and minimum that skip a NaN (C's ``fmax``), with their backward.

Where exactly one operand is NaN the other wins, so a NaN in the data does not spread;
``maximum``/``minimum`` (compare.py) propagate it instead. NumPy's ``np.fmax`` gives PyTorch's
values but not always its bits, measured on torch 2.13 (``fminmax_bits``): of two equal values
(0.0 and -0.0) PyTorch keeps the same operand at every length (NumPy's choice changes with
it); a signalling NaN against a number gives a NaN (IEEE 754's maxNum), quieted; of two NaNs
one is kept, quieted. float16 and bfloat16 go through float32 and back, with rules of their
own. Integer and bool operands take ``maximum``'s kernel (no NaN there). Neither op has an
in-place form.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..cpu_capability import VECTOR_INSTRUCTIONS
from ..tensor import Tensor, tensor_method
from .arg_checks import check_tensor
from .tensor_iterator import new_elementwise

# the quiet bit of a NaN, in the bits of each float type
_QUIET = {"float16": 0x0200, "bfloat16": 0x0040, "float32": 0x0040_0000,
          "float64": 0x0008_0000_0000_0000}


_SAME_SIZE_INT = {2: dtypes.int16, 4: dtypes.int32, 8: dtypes.int64}


def fminmax_bits(out: Tensor, a: Tensor, b: Tensor) -> None:
    """The bits of fmax/fmin where PyTorch's differ from NumPy's (module docstring). Ties
    keep ``a`` (bfloat16, and float16 in the DEFAULT build: ``b``). float32/float64: a
    signalling NaN against a number gives it quieted, two NaNs give ``b`` quieted. float16
    (whose widening to float32 quiets every NaN): two NaNs give ``b`` quieted in the AVX2/AVX512
    builds, the canonical NaN with ``a``'s sign in the DEFAULT build (cpu_capability.py).
    bfloat16 (widened exactly): a NaN result, also from a signalling NaN against a number, is
    the canonical 0x7FC0. Operands of another dtype than the result (promotion) are left as
    NumPy computed them."""
    if not out.dtype.is_floating_point or out.numel() == 0 or not (
            a.dtype is out.dtype and b.dtype is out.dtype):
        return
    shape, name = out._shape, out.dtype.name
    o = out._array()
    first, second = np.broadcast_to(a._array(), shape), np.broadcast_to(b._array(), shape)
    masks = Tensor._empty((4, *shape), dtypes.bool_, f"{name} fmax/fmin (masks)")
    m, a_nan, b_nan, s = (masks._array()[k, ...] for k in range(4))  # (arrays, also 0-dim)
    np.equal(first, second, out=m)
    # 0.0 and -0.0: a's, but b's where the 16-bit path calls its float function the other way
    keep_b = name == "bfloat16" or (name == "float16" and not VECTOR_INSTRUCTIONS)
    np.copyto(o, second if keep_b else first, where=m)
    np.isnan(first, out=a_nan)
    np.isnan(second, out=b_nan)
    if not (a_nan.any() or b_nan.any()):
        return
    uint = f"u{out.dtype.itemsize}"
    ou, au, bu = o.view(uint), first.view(uint), second.view(uint)
    quiet = _QUIET[name]
    bits_t = Tensor._empty(shape, _SAME_SIZE_INT[out.dtype.itemsize], f"{name} fmax/fmin (bits)")
    bits = bits_t._array().view(uint)

    def signalling(u: np.ndarray, nan: np.ndarray) -> np.ndarray:
        """s = a NaN without its quiet bit."""
        np.bitwise_and(u, quiet, out=bits)
        np.equal(bits, 0, out=s)
        np.logical_and(s, nan, out=s)
        return s

    np.logical_and(a_nan, b_nan, out=m)  # two NaNs
    if name == "float16":
        if VECTOR_INSTRUCTIONS:  # F16C's conversions keep the payload and set the quiet bit
            np.bitwise_or(bu, quiet, out=ou, where=m)
        else:  # c10's scalar conversion keeps only the sign
            np.bitwise_and(au, 0x8000, out=ou, where=m)
            np.bitwise_or(ou, 0x7E00, out=ou, where=m)
        return
    if name == "bfloat16":  # every NaN the float32 result holds becomes 0x7FC0
        m |= signalling(au, a_nan)
        m |= signalling(bu, b_nan)
        np.copyto(ou, 0x7FC0, where=m)
        return
    np.bitwise_or(bu, quiet, out=ou, where=m)
    for u, own, other in ((au, a_nan, b_nan), (bu, b_nan, a_nan)):  # a signalling NaN alone
        np.logical_not(other, out=m)
        m &= signalling(u, own)
        np.bitwise_or(u, quiet, out=ou, where=m)


def _fminmax(name: str, ufunc, self: Tensor, other: Tensor) -> Tensor:
    check_tensor(name, "other", other)
    out = new_elementwise(name, False, lambda a, b, out, dtype: ufunc(
        a, b, out=out, dtype=dtype, casting="unsafe"), self, other)
    fminmax_bits(out, self, other)
    return out


@binding()
@tensor_method
def fmax(self, other: Tensor) -> Tensor:
    return _fminmax("fmax", np.fmax, self, other)


@binding()
@tensor_method
def fmin(self, other: Tensor) -> Tensor:
    return _fminmax("fmin", np.fmin, self, other)


def _fminmax_bw(ctx, g, self_wins):
    """derivatives.yaml: self gets the gradient where it was picked (it wins, ties included,
    or other is NaN), other everywhere else; ``masked_fill``, so a NaN gradient stays put."""
    a, b = ctx.saved("self"), ctx.saved("other")
    picked = self_wins(a, b).logical_or_(b.isnan())
    ga = g.masked_fill(picked.logical_not(), 0) if ctx.needs(0) else None
    gb = g.masked_fill(picked, 0) if ctx.needs(1) else None
    return (ga, gb)


@derivative("fmax", "FmaxBackward0", inputs=("self", "other"),
            saves={"self": None, "other": None})
def _fmax_bw(ctx, g):
    return _fminmax_bw(ctx, g, lambda a, b: a >= b)


@derivative("fmin", "FminBackward0", inputs=("self", "other"),
            saves={"self": None, "other": None})
def _fmin_bw(ctx, g):
    return _fminmax_bw(ctx, g, lambda a, b: a <= b)
