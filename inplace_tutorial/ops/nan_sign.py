"""Which sign a zero keeps, and which NaN comes out, where PyTorch's CPU kernels decide it.

NumPy and PyTorch agree on values but not always on these bits. Clamping to a scalar bound
(clamp, clamp_min, clamp_max, relu, whose CPU kernel is ``clamp_min(x, 0)``) is
``x < lo ? lo : x`` in PyTorch: a tie keeps x, so ``relu(-0.0)`` is -0.0 and
``clamp_min(0.0, -0.0)`` is 0.0; a NaN x comes out as it went in (sign and payload); a NaN
bound gives the canonical NaN everywhere. ``np.maximum`` returns one of its operands on a tie,
which one depends on NumPy's loop for the dtype, so the order of operands is chosen by asking
NumPy once (float32/float64 keep the second, float16 the first, in NumPy 2.2 to 2.4).
float16/bfloat16 clamps to numbers compare the 16-bit values themselves (``clamp16``).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..copy_kernel import blocks
from ..cpu_capability import VECTOR_INSTRUCTIONS
from ..tensor import Tensor
from .cpu_lanes import element_strides, vector_mask
from .reduced import CHUNK


def _keeps_second(np_dtype: np.dtype) -> bool:
    """Does ``np.maximum``/``np.minimum`` of two equal zeros return its second operand?"""
    x = np.array([-0.0, -0.0], dtype=np_dtype)
    zero = np.zeros(2, dtype=np_dtype)
    return bool(np.signbit(np.maximum(zero, x)).all() and np.signbit(np.minimum(zero, x)).all())


_KEEPS_SECOND: dict = {}


def keeps_second(np_dtype) -> bool:
    np_dtype = np.dtype(np_dtype)
    found = _KEEPS_SECOND.get(np_dtype)
    if found is None:
        found = _KEEPS_SECOND[np_dtype] = _keeps_second(np_dtype)
    return found


def clamp_bound(ufunc, x, bound, out: np.ndarray, dtype) -> None:
    """``np.maximum``/``np.minimum`` of ``x`` and a bound with PyTorch's tie rule (x wins)
    and NaN rule (x's NaN as it is; a NaN scalar bound: the canonical NaN everywhere)."""
    if isinstance(bound, float) and bound != bound:
        out.fill(np.nan)
        return
    if keeps_second(dtype if dtype is not None else out.dtype):
        ufunc(bound, x, out=out, dtype=dtype, casting="unsafe")
    else:
        ufunc(x, bound, out=out, dtype=dtype, casting="unsafe")


def _bound16(value, np_dtype: np.dtype) -> np.ndarray:
    """A scalar bound as PyTorch's 16-bit kernels take it: ``Scalar::to<Half>`` goes through
    float32 (a double rounded twice, as reduced.py rounds scalar operands)."""
    return np.array(np.float32(value)).astype(np_dtype)


def clamp16(x: np.ndarray, lo, hi, out: np.ndarray) -> None:
    """clamp/clamp_min/clamp_max/relu of a float16/bfloat16 tensor to number bounds (not NaN:
    clamp_bound fills those), as PyTorch's two loops leave the bits. The element loop compares
    16-bit values, ``x < lo ? lo : x`` then ``hi < r ? hi : r``, so a NaN x comes out as it
    went in, signalling bit and payload kept, and a tie keeps x; NumPy's float16 maximum
    would quiet it and ml_dtypes' bfloat16 drop its payload, so the kernel is written with
    comparisons and copies, which move bits as they are (a chunk-sized mask at a time). The
    vector loop (64 bytes a step, cpu_lanes.py) widens to float32 and back: the DEFAULT
    build's plain arrays keep the NaN as it is, the AVX2/AVX512 instructions quiet a float16
    NaN and make a bfloat16 one all ones (measured on torch 2.13 in the three builds)."""
    bounds = [(_bound16(b, out.dtype), first) for b, first in ((lo, True), (hi, False))
              if b is not None]
    mask_t = Tensor._empty((max(1, min(CHUNK, out.size)),), dtypes.bool_, "clamp (16-bit mask)")
    pieces = list(blocks(out.shape, mask_t.numel()))
    for idx in pieces:
        os_ = out[idx]
        m = mask_t._array()[:os_.size].reshape(os_.shape)
        if out is not x:  # (in place the kernel gets self's array as both)
            np.copyto(os_, x[idx])
        for b, first in bounds:
            np.less(os_, b, out=m) if first else np.less(b, os_, out=m)
            np.copyto(os_, b, where=m)
    if not VECTOR_INSTRUCTIONS or not out.size:
        return
    with np.errstate(invalid="ignore", over="ignore"):
        if not np.isnan(np.add.reduce(out, axis=None)):
            return  # no NaN (a sum of inf and -inf only costs the masks below)
    size = out.itemsize
    vector = vector_mask(out.shape, [tuple(s // size for s in out.strides),
                                     tuple(s // size for s in x.strides)], size)
    if vector is None:
        return
    u = out.view(np.uint16)
    for idx in pieces:
        m = mask_t._array()[:u[idx].size].reshape(u[idx].shape)
        np.isnan(out[idx], out=m)
        np.logical_and(m, vector[idx], out=m)
        if out.dtype.kind == "f":  # float16: quieted
            np.bitwise_or(u[idx], np.uint16(0x0200), out=u[idx], where=m)
        else:  # bfloat16: all ones
            np.copyto(u[idx], np.uint16(0xFFFF), where=m)


def is_float16_pair(x, out: np.ndarray) -> bool:
    """Is this a float16/bfloat16 kernel call whose input already has the result's dtype?"""
    return out.itemsize == 2 and out.dtype.kind in "fV" and getattr(x, "dtype", None) == out.dtype


def _operand_nan(o: np.ndarray, first: np.ndarray, second: np.ndarray, m: np.ndarray) -> None:
    """Where ``m``: ``first``'s NaN if it is one, else ``second``'s, bits as they are."""
    np.copyto(o, second, where=m)
    a_nan_t = Tensor._empty(o.shape, dtypes.bool_, "maximum (NaN operand)")
    a_nan = a_nan_t._array()
    np.isnan(first, out=a_nan)
    np.logical_and(a_nan, m, out=a_nan)
    np.copyto(o, first, where=a_nan)


_ALL_ONES = {2: np.uint16(0xFFFF), 4: np.uint32(0xFFFFFFFF), 8: np.uint64(0xFFFFFFFFFFFFFFFF)}


def _before(t: Tensor, a: Tensor, a_bits: np.ndarray | None) -> np.ndarray:
    """t's values as the kernel read them: ``a_bits`` if t is a's very cells (an in-place
    op has overwritten them since), else t's array."""
    if a_bits is not None and t._storage is a._storage and (
            t._offset, t._shape, t._stride) == (a._offset, a._shape, a._stride):
        return a_bits
    return t._array()


def minmax_bits(out: Tensor, a: Tensor, b: Tensor, a_bits: np.ndarray | None = None) -> None:
    """maximum/minimum (and clamp_min/clamp_max with a tensor bound) as PyTorch's two loops
    leave them (cpu_lanes.py): a NaN is the canonical NaN in the element loop; in the vector
    loop it is all ones (AVX2/AVX512 builds), or in the DEFAULT build, whose vectors are plain
    arrays, the operand's own NaN (``a``'s if ``a`` is one, else ``b``'s). Of two equal
    values (0.0 and -0.0) the element loop keeps ``a`` (``a < b ? b : a``), the vector loop
    ``b`` (``a > b ? a : b``), in every build. Operands of another dtype than the result
    (promotion) are left as NumPy computed them. ``a_bits``: a's values before an in-place
    op overwrote them."""
    if not out.dtype.is_floating_point or out.numel() == 0 or not (
            a.dtype is out.dtype and b.dtype is out.dtype):
        return
    o = out._array()
    with np.errstate(invalid="ignore"):
        has_nan = bool(np.isnan(o.min()))
    if not has_nan and np.count_nonzero(o) == o.size:
        return  # the two loops differ only on NaNs and on ties of 0.0 with -0.0: no masks
    shape = out._shape
    vector = vector_mask(shape, [out._stride, element_strides(a, shape),
                                 element_strides(b, shape)], out.dtype.itemsize)
    mask_t = Tensor._empty(shape, dtypes.bool_, "maximum (NaN and tie masks)")
    m = mask_t._array()
    first = np.broadcast_to(_before(a, a, a_bits), shape)
    second = np.broadcast_to(_before(b, a, a_bits), shape)
    np.isnan(o, out=m)
    if m.any():
        np.copyto(o, np.nan, where=m)
        if vector is not None:
            np.logical_and(m, vector, out=m)
            if VECTOR_INSTRUCTIONS:
                np.copyto(o.view(f"u{out.dtype.itemsize}"), _ALL_ONES[out.dtype.itemsize],
                          where=m)
            else:
                _operand_nan(o, first, second, m)
    np.equal(first, second, out=m)
    if m.any():
        np.copyto(o, first, where=m)
        if vector is not None:
            np.logical_and(m, vector, out=m)
            np.copyto(o, second, where=m)


def clamp_bits(out: Tensor, a: Tensor, lo: Tensor, hi: Tensor,
               a_bits: np.ndarray | None = None) -> None:
    """clamp with two tensor bounds as PyTorch's two loops leave it (``clamp_kernel_impl``).
    The element loop: a NaN bound gives the canonical NaN, else ``min(max(a, lo), hi)`` of
    std::max/std::min, so a NaN a comes out as it went in and a tie keeps a. The vector loop:
    ``minimum(maximum(a, lo), hi)``, which on a tie keeps the bound, and makes any NaN all
    ones (AVX2/AVX512) or, in the DEFAULT build, passes the first NaN it meets (a's, else
    lo's, else hi's) as it is. Bounds of another dtype than the result are left as NumPy
    computed them. ``a_bits``: a's values before an in-place op overwrote them."""
    if not out.dtype.is_floating_point or out.numel() == 0 or not all(
            t.dtype is out.dtype for t in (a, lo, hi)):
        return
    o = out._array()
    with np.errstate(invalid="ignore"):
        has_nan = bool(np.isnan(o.min()))
    if not has_nan and np.count_nonzero(o) == o.size:
        return  # the loops differ only on NaNs and on ties of 0.0 with -0.0
    shape = out._shape
    vector = vector_mask(shape, [out._stride, element_strides(a, shape),
                                 element_strides(lo, shape), element_strides(hi, shape)],
                         out.dtype.itemsize)
    x, low, high = (np.broadcast_to(_before(t, a, a_bits), shape) for t in (a, lo, hi))
    masks_t = Tensor._empty((4, *shape), dtypes.bool_, "clamp (NaN and tie masks)")
    m, lane, nan, other = masks_t._array()
    np.copyto(lane, False if vector is None else vector)
    u = o.view(f"u{out.dtype.itemsize}")
    # the element loop: x < lo ? lo : x, then hi < r ? hi : r; a NaN bound: canonical NaN
    np.logical_not(lane, out=nan)
    np.copyto(o, x, where=nan)
    np.less(x, low, out=m)
    np.logical_and(m, nan, out=m)
    np.copyto(o, low, where=m)
    np.less(high, o, out=m)
    np.logical_and(m, nan, out=m)
    np.copyto(o, high, where=m)
    np.isnan(low, out=m)
    np.logical_or(m, np.isnan(high, out=other), out=m)
    np.logical_and(m, nan, out=m)
    np.copyto(o, np.nan, where=m)
    if vector is None:
        return
    # the vector loop: maximum(x, lo) = x > lo ? x : lo, minimum(r, hi) = r < hi ? r : hi
    np.copyto(o, low, where=lane)
    np.greater(x, low, out=m)
    np.logical_and(m, lane, out=m)
    np.copyto(o, x, where=m)
    if VECTOR_INSTRUCTIONS:
        np.isnan(x, out=nan)
        np.logical_or(nan, np.isnan(low, out=other), out=nan)
        np.logical_or(nan, np.isnan(high, out=other), out=nan)
    else:  # the first NaN met passes as it is
        np.isnan(x, out=m)
        np.logical_and(m, lane, out=m)
        np.copyto(o, x, where=m)
        np.isnan(o, out=nan)
    np.less(o, high, out=m)
    np.logical_or(m, nan, out=m)
    np.greater(lane, m, out=m)  # (lane and not m: no array-sized negation)
    np.copyto(o, high, where=m)
    if VECTOR_INSTRUCTIONS:
        np.logical_and(nan, lane, out=nan)
        np.copyto(u, _ALL_ONES[out.dtype.itemsize], where=nan)


def clamp_tensor_bits(out: Tensor, a: Tensor, lo: Tensor | None, hi: Tensor | None,
                      a_bits: np.ndarray | None = None) -> None:
    """clamp/clamp_min/clamp_max with tensor bounds: one bound is maximum's or minimum's
    loop, two bounds clamp's own. ``a_bits``: a's values before an in-place op."""
    if lo is not None and hi is not None:
        clamp_bits(out, a, lo, hi, a_bits)
    else:
        minmax_bits(out, a, lo if hi is None else hi, a_bits)


_INT_OF = {4: (dtypes.int32, "u4", np.uint32(1 << 22), np.uint32(1 << 31), np.uint32(0x7FC00000)),
           8: (dtypes.int64, "u8", np.uint64(1 << 51), np.uint64(1 << 63),
               np.uint64(0x7FF8000000000000))}


def libm_nan(kernel, negate: bool = False, invalid_positive: bool = False):
    """A float32/float64 unary kernel with the NaN bits PyTorch's leave (measured on torch
    2.13, alike in its DEFAULT, AVX2 and AVX512 builds): a NaN input comes out as it went in,
    quieted (sign and payload kept, as the C library's functions and SLEEF's return it), where
    NumPy's own float32 loops return the canonical NaN; ``negate``: with its sign flipped
    (sigmoid is 1 / (1 + exp(-x))). ``invalid_positive``: a NaN made from a number (log or
    sqrt of a negative) is +NaN, where NumPy leaves the CPU's -NaN. Other dtypes (float16,
    bfloat16 compute in float32 and round) pass through unchanged."""
    def wrapped(x, out, dtype):
        if not (x.dtype == out.dtype and x.dtype.kind == "f" and x.dtype.itemsize in _INT_OF
                and x.size):
            kernel(x, out=out, dtype=dtype)
            return
        int_dtype, uint, quiet, sign, canonical = _INT_OF[x.dtype.itemsize]
        with np.errstate(invalid="ignore", over="ignore"):
            nan_in = bool(np.isnan(np.add.reduce(x, axis=None)))  # (inf - inf counts too)
        saved = None
        if nan_in:  # keep the input's bits: in place, the kernel overwrites them
            saved_t = Tensor._empty(x.shape, int_dtype, "NaN bits (input)")
            saved = saved_t._array().view(uint)
            np.copyto(saved, x.view(uint))
        kernel(x, out=out, dtype=dtype)
        if saved is None:
            if not invalid_positive:
                return
            with np.errstate(invalid="ignore", over="ignore"):
                if not np.isnan(np.add.reduce(out, axis=None)):
                    return  # no negative input made a NaN: no masks (in-place ops stay 0 B)
        mask_t = Tensor._empty((2, *x.shape), dtypes.bool_, "NaN bits (masks)")
        was_nan, now_nan = mask_t._array()
        ou = out.view(uint)
        if saved is not None:
            np.isnan(saved.view(x.dtype), out=was_nan)
            np.bitwise_or(saved, quiet, out=ou, where=was_nan)
            if negate:
                np.bitwise_xor(ou, sign, out=ou, where=was_nan)
        else:
            was_nan.fill(False)
        if invalid_positive:
            np.isnan(out, out=now_nan)
            np.logical_and(now_nan, np.logical_not(was_nan, out=was_nan), out=now_nan)
            np.copyto(ou, canonical, where=now_nan)
    wrapped.chunkable = getattr(kernel, "chunkable", False)
    return wrapped
