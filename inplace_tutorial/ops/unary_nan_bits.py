"""Which NaN a unary op leaves, as PyTorch's CPU builds leave it: float16 and bfloat16
always, float32/float64 for the ops whose bits depend on the build (sinh, cosh, atanh,
log1p ...; nan_sign.py:libm_nan holds the rule the builds share for exp, log, sin ...).

A NaN's bits come from three steps that differ by build (cpu_capability.py) and by loop:
- the 16-bit conversions: the DEFAULT build converts in C++ (a float16 NaN becomes 0x7E00
  with its sign, any bfloat16 NaN 0x7FC0); AVX2/AVX512 convert float16 with the CPU's
  instructions (sign and payload kept, quieted), and a bfloat16 vector with a mask that
  makes every NaN 0xFFFF (its element loop still gives 0x7FC0);
- the function: SLEEF's vectors return an all-ones NaN for sin/cos/tan/tanh of a 16-bit
  type and for sinh/cosh/atanh of any; acos and i0 clear the sign, sigmoid flips it; MKL's
  float32 asin drops the payload's low 13 bits; the DEFAULT build's floor/ceil keep a
  signalling NaN as it is;
- the loop: ops ATen runs through its vml helpers (exp, log, sin, floor ...) take every
  element in vectors, tail included; cpu_kernel_vec ops (sinh, sigmoid, frac ...) leave the
  tail and strided rows to the element loop (cpu_lanes.py); asinh, acosh and sinc have no
  vector loop.
Measured on torch 2.13 under ATEN_CPU_CAPABILITY=default/avx2/avx512: every 16-bit pattern,
and NaNs of each kind (quiet, signalling, with a payload, both signs) plus out-of-domain
numbers for float32/float64. Values other than NaN are left as the kernel computed them.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..cpu_capability import AVX512, CAPABILITY, VECTOR_INSTRUCTIONS
from ..tensor import Tensor
from .cpu_lanes import vector_mask

# per width: (unsigned view, sign bit, canonical NaN, quiet bit), bfloat16 apart from float16
_WIDTH = {"f2": (np.uint16, 0x8000, 0x7E00, 0x200), "b2": (np.uint16, 0x8000, 0x7FC0, 0x40),
          "f4": (np.uint32, 1 << 31, 0x7FC00000, 1 << 22),
          "f8": (np.uint64, 1 << 63, 0x7FF8 << 48, 1 << 51)}


def _rule(name: str, x, o, m, U, S, C, Q) -> None:
    """Write rule ``name``'s bits for the NaN inputs ``x`` into ``o`` where ``m``."""
    if name == "quiet":
        np.bitwise_or(x, U(Q), out=o, where=m)
    elif name == "asis":
        np.copyto(o, x, where=m)
    elif name == "canon+":
        np.copyto(o, U(C), where=m)
    elif name == "absbits":  # a bit operation: the sign cleared, nothing quieted
        np.bitwise_and(x, ~U(S), out=o, where=m)
    elif name == "negbits":
        np.bitwise_xor(x, U(S), out=o, where=m)
    elif name == "ones":
        np.copyto(o, np.iinfo(U).max, where=m)
    elif name in ("canon", "flipcanon"):
        np.bitwise_and(x, U(S), out=o, where=m)
        np.bitwise_xor(o, U(C | S) if name == "flipcanon" else U(C), out=o, where=m)
    else:  # flipquiet, posquiet, trunc13: a mask or a flip, then the quiet bit
        if name == "flipquiet":
            np.bitwise_xor(x, U(S), out=o, where=m)
        else:
            keep = ~U(S) if name == "posquiet" else ~U(0x1FFF)
            np.bitwise_and(x, keep, out=o, where=m)
        np.bitwise_or(o, U(Q), out=o, where=m)


def _invalid(name: str, U, S, C) -> int:
    """A NaN made from a number: its bits by name."""
    return {"ones": np.iinfo(U).max, "ones+": np.iinfo(U).max ^ S, "canon": C,
            "-canon": C | S}[name]


# which loop ATen runs each op in (see the docstring)
_VML = {"exp", "expm1", "log", "log2", "log10", "log1p", "sqrt", "sin", "cos", "tan", "tanh",
        "asin", "acos", "atan", "floor", "ceil", "round", "trunc", "i0"}
_VEC = {"exp2", "rsqrt", "sinh", "cosh", "atanh", "sigmoid", "reciprocal", "frac",
        "deg2rad", "rad2deg", "abs", "neg"}
_SCALAR = {"asinh", "acosh", "sinc"}
_ONE_VECTOR = {"deg2rad", "rad2deg", "frac", "rsqrt", "abs", "neg"}  # 16-bit: one vector
_AVX = VECTOR_INSTRUCTIONS
_AVX2 = _AVX and CAPABILITY != AVX512

# A row: (NaN input in a vector, NaN from a number in a vector as (from +x, from -x) or None
# (where torch's bits depend on x: left as computed), the same two in the element loop).
# A row of two: the element loop alike. Unlisted 16-bit ops: "quiet" (AVX) / "canon"
# (DEFAULT), no NaN made from a number.
_SIN = ("ones", ("ones", "ones"))
_F16_AVX = {
    "sin": _SIN, "cos": _SIN, "tan": _SIN, "tanh": ("ones", None),
    "sinh": ("ones", None, "quiet", None), "cosh": ("ones", None, "quiet", None),
    "atanh": ("ones", ("ones", "ones+"), "quiet", ("-canon", "-canon")),
    "log1p": ("canon+" if _AVX2 else "quiet", ("ones", "ones")),
    "log": ("canon+", ("canon", "canon")) if _AVX2 else ("quiet", None),
    "log2": ("canon+", ("canon", "canon")) if _AVX2 else ("quiet", None),
    "log10": ("canon+", ("canon", "canon")) if _AVX2 else ("quiet", None),
    "sqrt": ("quiet", ("-canon", "-canon")), "rsqrt": ("quiet", ("-canon", "-canon")),
    "acosh": ("quiet", ("-canon", "-canon")), "frac": ("quiet", ("-canon", "-canon")),
    "sinc": ("quiet", ("-canon", "-canon")),
    "asin": ("quiet", ("-canon", "canon")),
    "acos": ("posquiet", ("-canon", "-canon"), "posquiet", ("-canon", "-canon")),
    "i0": ("posquiet", ("-canon", "-canon"), "posquiet", ("-canon", "-canon")),
    "sigmoid": ("flipquiet", None, "flipquiet", None),
    # abs and neg: bit operations on 16-bit vectors, float32 in the element loop
    "abs": ("absbits", None, "posquiet", None), "neg": ("negbits", None, "flipquiet", None),
}
_F16_DEFAULT = {
    "sigmoid": ("flipcanon", None), "i0": ("canon+", ("-canon", "-canon")),
    "abs": ("canon+", None), "neg": ("flipcanon", None),
    "log10": ("canon", ("canon", "canon")),
    "asin": ("canon", ("canon", "canon")), "acos": ("canon", ("canon", "canon")),
    **{op: ("canon", ("-canon", "-canon")) for op in (
        "log", "log2", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "acosh", "atanh",
        "frac", "sinc")},
}
_NEG = ("-canon", "-canon")
# float32/float64: only the ops whose bits libm_nan doesn't already give as torch does
_WIDE = {
    "sinh": ("ones", None, "quiet", None) if _AVX else ("quiet", None),
    "cosh": ("ones", None, "quiet", None) if _AVX else ("quiet", None),
    "atanh": ("quiet", _NEG),  # DEFAULT; AVX in _wide_row
    "sinc": ("quiet", _NEG),
    "floor": ("quiet" if _AVX else "asis", None), "ceil": ("quiet" if _AVX else "asis", None),
}
OPS = _VML | _VEC | _SCALAR


def _wide_row(op: str, itemsize: int):
    if op == "atanh" and _AVX:
        vec_invalid = ("ones", "ones+") if itemsize == 4 else ("ones", "ones")
        return "ones", vec_invalid, "quiet", _NEG
    if op == "log1p":
        if not _AVX:
            return "quiet", _NEG
        if itemsize == 8:
            return "canon+", ("canon", "canon")
        return ("canon+" if _AVX2 else "quiet"), ("ones", "ones")
    if op == "asin":
        return ("trunc13" if itemsize == 4 else "quiet"), _NEG
    return _WIDE.get(op)


def _plan(op: str, kind: str):
    """(vector rule, vector invalid, element rule, element invalid) for this build and
    dtype kind ("f2" float16, "b2" bfloat16, "f4", "f8"); None: leave the kernel's bits."""
    if kind == "b2":  # bfloat16: only the conversion decides
        if _AVX and op in ("abs", "neg"):  # (bit operations on vectors: no conversion)
            return op + "bits", None, "canon+", None
        if _AVX:
            return "ones", ("ones", "ones"), "canon+", ("canon", "canon")
        return "canon+", ("canon", "canon"), "canon+", ("canon", "canon")
    if kind == "f2":
        row = _F16_AVX.get(op, ("quiet", None)) if _AVX else _F16_DEFAULT.get(op, ("canon", None))
    else:
        row = _wide_row(op, int(kind[1]))
        if row is None:
            return None
    if len(row) == 2:
        return row[0], row[1], row[0], row[1]
    return row


def _kind(np_dtype: np.dtype) -> str | None:
    if np_dtype.kind == "f":
        return f"f{np_dtype.itemsize}"
    if np_dtype.itemsize == 2 and np_dtype.kind not in "iub":
        return "b2"  # ml_dtypes' bfloat16
    return None


def tag(op: str, kernel):
    """Mark ``kernel`` as torch's unary ``op``: tensor_iterator.call_kernel then gives its
    NaNs PyTorch's bits (the kernel object is shared by the op's forms)."""
    if op in OPS:
        kernel.nan_op = op
    return kernel


def has_nan(a: np.ndarray) -> bool:
    """Any NaN in a float array, without an array-sized mask (a sum of inf and -inf counts
    too: then the masks below find no NaN and change nothing)."""
    with np.errstate(invalid="ignore", over="ignore"):
        return a.size > 0 and bool(np.isnan(np.add.reduce(a, axis=None)))


# ops whose NaN made from a number takes that number's sign: they make one only outside [-1, 1]
_UNIT_DOMAIN = frozenset({"asin", "atanh"})


def _leaves_domain(op: str, x: np.ndarray) -> bool:
    """Could the kernel make a NaN from a number? Two reductions, no array-sized mask, so an
    in-place asin_/atanh_ inside its domain stays 0 B."""
    if op not in _UNIT_DOMAIN:
        return True
    with np.errstate(invalid="ignore"):
        return x.size > 0 and bool(np.max(x) > 1 or np.min(x) < -1)


def save_input(op: str, x: np.ndarray, out: np.ndarray) -> np.ndarray | None:
    """In place, the input's bits as far as repair() needs them (in counted memory: the
    kernel overwrites them): if it holds a NaN, or if the NaN made from a number depends on
    the number's sign. None otherwise, and out of place (the input stays as it is)."""
    kind = _kind(out.dtype)
    plan = None if kind is None or x.dtype != out.dtype else _plan(op, kind)
    if plan is None or not np.may_share_memory(x, out):
        return None
    by_sign = any(inv is not None and inv[0] != inv[1] for inv in plan[1::2])
    if not ((by_sign and _leaves_domain(op, x)) or has_nan(x)):
        return None
    U = _WIDTH[kind][0]
    saved_t = Tensor._empty(x.shape, dtypes.int64 if U is np.uint64 else (
        dtypes.int32 if U is np.uint32 else dtypes.int16), "NaN bits (input)")
    saved = saved_t._array().view(U)
    np.copyto(saved, x.view(U))
    return saved


def _vector(op: str, x: np.ndarray, out: np.ndarray):
    """True/False if every element takes the vector/element loop, else a mask."""
    if op in _VML:
        return True
    if op in _SCALAR or not _AVX:
        return False
    # bytes one step takes (measured): two vectors, 32 bytes each in AVX2, 64 in AVX512
    # (16-bit loops of _ONE_VECTOR step one 64-byte vector)
    step = 128 if CAPABILITY == AVX512 and not (out.itemsize == 2 and op in _ONE_VECTOR) \
        else 64
    size = out.itemsize
    strides = [tuple(s // size for s in out.strides),
               tuple(s // size for s in np.broadcast_to(x, out.shape).strides)]
    vector = vector_mask(out.shape, strides, size, register_bytes=step)
    return False if vector is None else vector


def repair(op: str, x: np.ndarray, saved: np.ndarray | None, out: np.ndarray) -> None:
    """Give ``out``'s NaNs PyTorch's bits. ``x`` is the input as the kernel read it,
    ``saved`` its bits from save_input() (None: x itself still holds them, or in place they
    aren't needed), ``out`` the result (of x's dtype; other dtypes are left alone)."""
    kind = _kind(out.dtype)
    plan = None if kind is None or x.dtype != out.dtype else _plan(op, kind)
    if plan is None or not has_nan(out):
        return
    U, S, C, Q = _WIDTH[kind]
    vec_rule, vec_invalid, el_rule, el_invalid = plan
    shape = out.shape
    in_place = np.may_share_memory(x, out)
    xb = saved if saved is not None else (
        None if in_place else np.broadcast_to(x, shape).view(U))
    vector = _vector(op, x, out)
    masks_t = Tensor._empty((4, *shape), dtypes.bool_, "NaN bits (masks)")
    out_nan, in_nan, m, neg = masks_t._array()
    np.isnan(out, out=out_nan)
    if xb is not None:
        np.isnan(xb.view(out.dtype), out=in_nan)
        np.greater_equal(xb, U(S), out=neg)
    else:
        in_nan.fill(False)  # in place without saved bits: the input held no NaN
    o = out.view(U)
    for rule, invalid, on_path in ((vec_rule, vec_invalid, True), (el_rule, el_invalid, False)):
        if isinstance(vector, bool) and vector is not on_path:
            continue
        # (m > mask is m and not mask: no array-sized temporary for the negation)
        on = None if isinstance(vector, bool) else (np.logical_and if on_path else np.greater)
        if xb is not None:
            np.logical_and(in_nan, out_nan, out=m)
            if on is not None:
                on(m, vector, out=m)
            _rule(rule, xb, o, m, U, S, C, Q)
        if invalid is None:
            continue
        for sign in ((None,) if invalid[0] == invalid[1] else (False, True)):
            np.logical_not(in_nan, out=m)
            np.logical_and(m, out_nan, out=m)
            if on is not None:
                on(m, vector, out=m)
            if sign is not None:
                (np.logical_and if sign else np.greater)(m, neg, out=m)
            np.copyto(o, U(_invalid(invalid[1] if sign else invalid[0], U, S, C)), where=m)
