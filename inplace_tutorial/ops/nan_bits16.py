"""Which NaN a float16 or bfloat16 unary op leaves, as PyTorch's CPU builds leave it.

PyTorch computes a 16-bit op in float32 and rounds back; the NaN that comes out depends on
three steps that differ by build (cpu_capability.py) and by loop (cpu_lanes.py):
- the conversions: the DEFAULT build converts in C++ (a float16 NaN becomes 0x7E00 with its
  sign, any bfloat16 NaN 0x7FC0); AVX2/AVX512 convert float16 with the CPU's instructions
  (sign and payload kept, quieted), and a bfloat16 vector with a mask that makes every NaN
  0xFFFF (its element loop still gives 0x7FC0);
- the float32 function: SLEEF's vector sin/cos/tan/tanh (and sinh/cosh/atanh's vector loop)
  return an all-ones NaN; acos and i0 clear the sign; sigmoid flips it (1 / (1 + exp(-x)));
- the loop: ops ATen runs through its vml helpers (exp, log, sin, floor ...) take every
  element in vectors, tail included; cpu_kernel_vec ops (sinh, sigmoid, frac ...) leave the
  tail and strided rows to the element loop; a few (asinh, acosh, sinc) have no vector loop.
Measured on torch 2.13 over all 65,536 bit patterns of each dtype in the three builds.
Values other than NaN are left as reduced.py computed them.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..cpu_capability import AVX512, CAPABILITY, VECTOR_INSTRUCTIONS
from ..tensor import Tensor
from .cpu_lanes import vector_mask

_SIGN = 0x8000

# How a NaN input comes out, on 16-bit patterns; C is the canonical NaN, Q the quiet bit.
_RULES = {
    "canon": lambda x, o, m, C, Q: (np.bitwise_and(x, _SIGN, out=o, where=m),
                                    np.bitwise_or(o, C, out=o, where=m)),
    "canon+": lambda x, o, m, C, Q: np.copyto(o, C, where=m),
    "quiet": lambda x, o, m, C, Q: np.bitwise_or(x, Q, out=o, where=m),
    "ones": lambda x, o, m, C, Q: np.copyto(o, np.uint16(0xFFFF), where=m),
    "flipquiet": lambda x, o, m, C, Q: (np.bitwise_xor(x, _SIGN, out=o, where=m),
                                        np.bitwise_or(o, Q, out=o, where=m)),
    "flipcanon": lambda x, o, m, C, Q: (np.bitwise_and(x, _SIGN, out=o, where=m),
                                        np.bitwise_xor(o, _SIGN | C, out=o, where=m)),
    "posquiet": lambda x, o, m, C, Q: (np.bitwise_and(x, 0x7FFF, out=o, where=m),
                                       np.bitwise_or(o, Q, out=o, where=m)),
}

# which loop ATen runs each op in (see the docstring)
_VML = {"exp", "expm1", "log", "log2", "log10", "log1p", "sqrt", "sin", "cos", "tan", "tanh",
        "asin", "acos", "atan", "floor", "ceil", "round", "trunc", "i0"}
_VEC = {"exp2", "rsqrt", "sinh", "cosh", "atanh", "sigmoid", "reciprocal", "frac",
        "deg2rad", "rad2deg"}
_SCALAR = {"asinh", "acosh", "sinc"}
_ONE_VECTOR = {"deg2rad", "rad2deg", "frac", "rsqrt"}
OPS = _VML | _VEC | _SCALAR

# float16 under AVX2/AVX512: op -> (NaN input in a vector, a NaN made from a number in a
# vector as (from +x, from -x) bits or None where torch's bits depend on x; the same two in
# the element loop). Unlisted ops: "quiet", and no NaN made from a number.
_F16_AVX = {
    "sin": ("ones", (0xFFFF, 0xFFFF)), "cos": ("ones", (0xFFFF, 0xFFFF)),
    "tan": ("ones", (0xFFFF, 0xFFFF)), "tanh": ("ones", None),
    "sinh": ("ones", None, "quiet", None), "cosh": ("ones", None, "quiet", None),
    "atanh": ("ones", (0xFFFF, 0x7FFF), "quiet", (0xFE00, 0xFE00)),
    "log1p": ("canon+" if CAPABILITY != AVX512 else "quiet", (0xFFFF, 0xFFFF)),
    "log": ("canon+", (0x7E00, 0x7E00)) if CAPABILITY != AVX512 else ("quiet", None),
    "log2": ("canon+", (0x7E00, 0x7E00)) if CAPABILITY != AVX512 else ("quiet", None),
    "log10": ("canon+", (0x7E00, 0x7E00)) if CAPABILITY != AVX512 else ("quiet", None),
    "sqrt": ("quiet", (0xFE00, 0xFE00)), "rsqrt": ("quiet", (0xFE00, 0xFE00)),
    "acosh": ("quiet", (0xFE00, 0xFE00)), "frac": ("quiet", (0xFE00, 0xFE00)),
    "sinc": ("quiet", (0xFE00, 0xFE00)),
    "asin": ("quiet", (0xFE00, 0x7E00)), "acos": ("posquiet", (0xFE00, 0xFE00)),
    "i0": ("posquiet", (0xFE00, 0xFE00)), "sigmoid": ("flipquiet", None),
}
# float16 under DEFAULT (every loop alike): the rule and the NaN made from a number
_F16_DEFAULT = {
    "sigmoid": ("flipcanon", None), "i0": ("canon+", (0xFE00, 0xFE00)),
    "log": ("canon", (0xFE00, 0xFE00)), "log2": ("canon", (0xFE00, 0xFE00)),
    "log10": ("canon", (0x7E00, 0x7E00)), "log1p": ("canon", (0xFE00, 0xFE00)),
    "sqrt": ("canon", (0xFE00, 0xFE00)), "rsqrt": ("canon", (0xFE00, 0xFE00)),
    "sin": ("canon", (0xFE00, 0xFE00)), "cos": ("canon", (0xFE00, 0xFE00)),
    "tan": ("canon", (0xFE00, 0xFE00)), "acosh": ("canon", (0xFE00, 0xFE00)),
    "atanh": ("canon", (0xFE00, 0xFE00)), "frac": ("canon", (0xFE00, 0xFE00)),
    "sinc": ("canon", (0xFE00, 0xFE00)),
    "asin": ("canon", (0x7E00, 0x7E00)), "acos": ("canon", (0x7E00, 0x7E00)),
}


def _plan(op: str, is_f16: bool):
    """(vector rule, vector invalid, element rule, element invalid) for this build."""
    if not is_f16:  # bfloat16: only the conversion decides
        if VECTOR_INSTRUCTIONS:
            return "ones", (0xFFFF, 0xFFFF), "canon+", (0x7FC0, 0x7FC0)
        return "canon+", (0x7FC0, 0x7FC0), "canon+", (0x7FC0, 0x7FC0)
    if not VECTOR_INSTRUCTIONS:
        rule, invalid = _F16_DEFAULT.get(op, ("canon", None))
        return rule, invalid, rule, invalid
    row = _F16_AVX.get(op, ("quiet", None))
    if len(row) == 2:
        if op in _SCALAR:
            return row[0], row[1], row[0], row[1]
        scalar = {"sigmoid": "flipquiet", "acos": "posquiet", "i0": "posquiet"}.get(op, "quiet")
        return row[0], row[1], scalar, row[1]
    return row


def tag(op: str, kernel):
    """Mark ``kernel`` as torch's unary ``op``: tensor_iterator.call_kernel then gives its
    16-bit NaNs PyTorch's bits (the kernel object is shared by the op's forms)."""
    if op in OPS:
        kernel.nan16_op = op
    return kernel


def has_nan(a: np.ndarray) -> bool:
    """Any NaN in a 16-bit array, without an array-sized mask (a sum of inf and -inf counts
    too: then the masks below find no NaN and change nothing)."""
    with np.errstate(invalid="ignore", over="ignore"):
        return a.size > 0 and bool(np.isnan(np.add.reduce(a, axis=None)))


def save_input(op: str, x: np.ndarray, out: np.ndarray) -> np.ndarray | None:
    """In place, the input's bits as far as repair() needs them (in counted memory: the
    kernel overwrites them): if it holds a NaN, or if the NaN made from a number depends on
    the number's sign. None otherwise, and out of place (the input stays as it is)."""
    if not np.may_share_memory(x, out):
        return None
    rules = _plan(op, out.dtype == np.float16)
    by_sign = any(inv is not None and inv[0] != inv[1] for inv in rules[1::2])
    if not (by_sign or has_nan(x)):
        return None
    saved_t = Tensor._empty(x.shape, dtypes.int16, "NaN bits (16-bit input)")
    saved = saved_t._array().view(np.uint16)
    np.copyto(saved, x.view(np.uint16))
    return saved


def _vector(op: str, x: np.ndarray, out: np.ndarray):
    """True/False if every element takes the vector/element loop, else a mask."""
    if op in _VML:
        return True
    if op in _SCALAR or not VECTOR_INSTRUCTIONS:
        return False
    # bytes one step takes (measured): AVX512's 16-bit loops take two 64-byte vectors, except
    # those that step one vector at a time
    step = 128 if CAPABILITY == AVX512 and op not in _ONE_VECTOR else 64
    strides = [tuple(s // 2 for s in out.strides),
               tuple(s // 2 for s in np.broadcast_to(x, out.shape).strides)]
    vector = vector_mask(out.shape, strides, 2, register_bytes=step)
    return False if vector is None else vector


def repair(op: str, x: np.ndarray, saved: np.ndarray | None, out: np.ndarray) -> None:
    """Give ``out``'s NaNs PyTorch's bits. ``x`` is the input as the kernel read it,
    ``saved`` its bits from save_input() (None: x itself still holds them, or in place they
    aren't needed), ``out`` the 16-bit result."""
    if out.dtype.itemsize != 2 or out.dtype.kind in "iu" or not has_nan(out):
        return  # (float16 and bfloat16 only)
    is_f16 = out.dtype == np.float16
    C, Q = (np.uint16(0x7E00), np.uint16(0x200)) if is_f16 else (np.uint16(0x7FC0),
                                                                  np.uint16(0x40))
    vec_rule, vec_invalid, el_rule, el_invalid = _plan(op, is_f16)
    shape = out.shape
    in_place = np.may_share_memory(x, out)
    xb = saved if saved is not None else (
        None if in_place else np.broadcast_to(x, shape).view(np.uint16))
    vector = _vector(op, x, out)
    masks_t = Tensor._empty((4, *shape), dtypes.bool_, "NaN bits (16-bit masks)")
    out_nan, in_nan, m, neg = masks_t._array()
    np.isnan(out, out=out_nan)
    if xb is not None:
        np.isnan(xb.view(out.dtype), out=in_nan)
        np.greater_equal(xb, _SIGN, out=neg)
    else:
        in_nan.fill(False)  # in place without saved bits: the input held no NaN
    o = out.view(np.uint16)
    for rule, invalid, on_path in ((vec_rule, vec_invalid, True), (el_rule, el_invalid, False)):
        if isinstance(vector, bool) and vector is not on_path:
            continue
        # (m > mask is m and not mask: no array-sized temporary for the negation)
        on = None if isinstance(vector, bool) else (np.logical_and if on_path else np.greater)
        if xb is not None:
            np.logical_and(in_nan, out_nan, out=m)
            if on is not None:
                on(m, vector, out=m)
            _RULES[rule](xb, o, m, C, Q)
        if invalid is None:
            continue
        for sign in ((None,) if invalid[0] == invalid[1] else (False, True)):
            np.logical_not(in_nan, out=m)
            np.logical_and(m, out_nan, out=m)
            if on is not None:
                on(m, vector, out=m)
            if sign is not None:
                (np.logical_and if sign else np.greater)(m, neg, out=m)
            np.copyto(o, np.uint16(invalid[1] if sign else invalid[0]), where=m)
