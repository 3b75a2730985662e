"""PyTorch's conversions between dtypes, bit for bit: ``cast_into`` writes an array or a scalar
into another dtype as PyTorch's copy kernel converts it (integer wrap, float truncation, float16
and bfloat16 built from a float32), including the NaN bits its vector and element loops leave.
``tensor()``, ``.to()``, ``copy_`` and every out= that casts come through here.
"""
from __future__ import annotations

import numpy as np

from . import cpu_capability, dtypes
from .storage import UntypedStorage

_REDUCED = (dtypes.float16, dtypes.bfloat16)
_CAST_CHUNK = 64 * 1024  # elements per step when a cast goes through float32


def cast_into(dst: np.ndarray, src, dst_dtype: dtypes.dtype, op: str = "to") -> None:
    """Write ``src`` (an array or a scalar) into ``dst`` converted as PyTorch converts:
    floats truncate toward zero into integers, integers wrap into narrower integers, and
    float64 or wide integers reach float16/bfloat16 through float32 (PyTorch builds Half and
    BFloat16 from a float), one counted float32 chunk at a time."""
    src_np = getattr(src, "dtype", None)
    to_reduced = not (dst_dtype not in _REDUCED or src_np is None or src_np == np.float32
                      or src_np == dst.dtype or (src_np.itemsize <= 2 and src_np.kind != "f"))
    # bfloat16 into integers goes through float32 too (exact), as a float -> int conversion:
    # ml_dtypes 0.7's own cast saturates negative values into unsigned types (-1 -> 0), where
    # PyTorch gives 255 as it does from float32.
    from_bf16 = src_np is not None and src_np.name == "bfloat16" and dst.dtype.kind in "iub"
    if not (to_reduced or from_bf16):
        np.copyto(dst, src, casting="unsafe")
    else:
        src = np.broadcast_to(src, dst.shape)
        scratch = UntypedStorage(min(_CAST_CHUNK, max(dst.size, 1)), np.float32,
                                 op + " (scratch)")
        buf = scratch._array
        for idx in blocks(dst.shape, buf.size):
            d = dst[idx]
            tmp = buf[: d.size].reshape(d.shape)
            np.copyto(tmp, src[idx], casting="unsafe")
            np.copyto(d, tmp, casting="unsafe")
    if src_np is not None and (src_np.name, dst.dtype.name) in _NAN_BITS and dst.size:
        _nan_bits(dst, np.broadcast_to(src, dst.shape), op)


def _payload_f16(d, s, m, m2, v):
    """sign | 0x7E00 | the payload's top 10 bits: the CPU's cvtps2ph quiets the NaN and keeps
    what fits (a payload that was all in the low bits is lost: 0x7E00, where NumPy makes sure
    a bit stays set)."""
    u = s.view(np.uint32)
    np.right_shift(u, 13, out=d, where=m, casting="unsafe")
    np.bitwise_and(d, 0x3FF, out=d, where=m)  # the payload; the sign next
    np.bitwise_or(d, 0x7E00, out=d, where=m)
    _sign_of(s, m2)
    np.logical_and(m, m2, out=m2)
    np.bitwise_or(d, 0x8000, out=d, where=m2)


def _quiet_f32(d, s, m, m2, v):
    """float16 -> float32: the NaN quieted (NumPy keeps a signalling one), except in the
    scalar tail of a conversion of two contiguous tensors (its last n % 8 elements), where
    PyTorch leaves 0x7FFFFFFF (measured alike in the three builds)."""
    np.bitwise_or(d, np.uint32(1 << 22), out=d, where=m)
    if v is not True:
        if v is not False:
            np.greater(m, v, out=m)  # (m and not v)
        np.copyto(d, np.uint32(0x7FFFFFFF), where=m)


def _f16_by_loop(d, s, m, m2, v):
    """float32 -> float16 in the DEFAULT build: its vector loop (arrays converted one by one)
    keeps the payload as the CPU's instruction would, its element loop doesn't."""
    if v is not False:
        _payload_f16(d, s, m, m2, v)
    if v is not True:
        if v is not False:
            np.greater(m, v, out=m)  # (m and not v)
        _signed_canonical_f16(d, s, m, m2, v)


def _bf16_payload_to_f16(d, s, m, m2, v):
    """sign | 0x7e00 | the 7 payload bits moved up by 3: PyTorch keeps the payload."""
    np.bitwise_and(s, 0x7F, out=d, where=m)
    np.left_shift(d, 3, out=d, where=m)
    np.bitwise_or(d, 0x7E00, out=d, where=m)
    np.greater_equal(s, 0x8000, out=m2)
    np.logical_and(m, m2, out=m2)
    np.bitwise_or(d, 0x8000, out=d, where=m2)


def _sign_of(s, out) -> None:
    """The sign bits of a NaN source: 16-bit sources arrive as their unsigned bit patterns."""
    if s.dtype.kind == "u":
        np.greater_equal(s, 0x8000, out=out)
    else:
        np.signbit(s, out=out)


def _signed_canonical_f16(d, s, m, m2, v):
    """sign | 0x7E00: the NaN keeps its sign and loses its payload."""
    np.copyto(d, 0x7E00, where=m)
    _sign_of(s, m2)
    np.logical_and(m, m2, out=m2)
    np.bitwise_or(d, 0x8000, out=d, where=m2)


def _to_bf16_by_loop(d, s, m, m2, v):
    """Into bfloat16: 0xFFFF where the vector loop converted (its NaN mask), 0x7FC0 in the
    element loop (c10's round_to_nearest_even)."""
    np.copyto(d, 0x7FC0, where=m)
    if v is True:
        np.copyto(d, 0xFFFF, where=m)
    elif v is not False:
        np.logical_and(m, v, out=m2)
        np.copyto(d, 0xFFFF, where=m2)


# (source dtype, destination dtype) -> what PyTorch leaves in a NaN's bits where NumPy's or
# ml_dtypes' cast differs (measured on torch 2.13's CPU conversions, every length), in its
# AVX2/AVX512 builds ...
_NAN_BITS = {
    ("float32", "float16"): _payload_f16,
    ("float16", "float32"): _quiet_f32,
    ("bfloat16", "float16"): _bf16_payload_to_f16,
    ("float32", "bfloat16"): _to_bf16_by_loop,
    ("float64", "bfloat16"): _to_bf16_by_loop,
    ("float16", "bfloat16"): lambda d, s, m, m2, v: np.copyto(d, 0x7FC0, where=m),  # canonical
    ("float16", "float64"): lambda d, s, m, m2, v: np.bitwise_or(d, 1 << 51, out=d, where=m),
}
# elements per vector step of the conversions whose bits depend on the loop (measured: float32
# -> bfloat16 converts every element of a contiguous row in vectors, tail included; float64
# -> bfloat16 steps 16 elements and leaves the tail to the element loop)
_CAST_LANES = {("float32", "bfloat16"): 1, ("float64", "bfloat16"): 16}
_WHOLE_ONLY: set = set()
# ... and where its DEFAULT build (ATEN_CPU_CAPABILITY=default, or a CPU without AVX2) differs:
# c10's scalar conversions, BFloat16's round_to_nearest_even (every NaN is 0x7FC0) and Half's
# (sign kept, payload dropped), take the place of the vector instructions' bits.
if cpu_capability.CAPABILITY == cpu_capability.DEFAULT:
    _NAN_BITS.update({
        ("float32", "bfloat16"): lambda d, s, m, m2, v: np.copyto(d, 0x7FC0, where=m),
        ("float64", "bfloat16"): lambda d, s, m, m2, v: np.copyto(d, 0x7FC0, where=m),
        ("bfloat16", "float16"): _signed_canonical_f16,
        ("float64", "float16"): _signed_canonical_f16,
        ("float32", "float16"): _f16_by_loop,
    })
    _CAST_LANES = {("float32", "float16"): 1}
    _WHOLE_ONLY = {("float32", "float16")}  # (rows of a sliced tensor: the element loop)


def _copy_vectors(dst: np.ndarray, src: np.ndarray, lanes: int, whole: bool = False):
    """Where a conversion's loop takes the element in a vector: True/False for all, else a
    counted bool array broadcastable to dst. TensorIterator orders the dims by dst's strides,
    merges the innermost ones that are contiguous in both arrays into one row, and converts
    the row's first ``n - n % lanes`` elements in vectors (none if the row isn't contiguous;
    ``whole``: none unless the row is the whole array)."""
    if dst.size == 0:
        return False
    order = sorted(range(dst.ndim), key=lambda a: dst.strides[a], reverse=True)
    d, s = dst.transpose(order), src.transpose(order)
    row, k = 1, d.ndim
    while k > 0 and (d.shape[k - 1] == 1 or (
            d.strides[k - 1] == row * d.itemsize and s.strides[k - 1] == row * s.itemsize)):
        row *= d.shape[k - 1]
        k -= 1
    if (k == d.ndim or whole and k > 0) and d.size > 1:
        return False  # the innermost dim isn't contiguous in both: the element loop
    vector = row - row % lanes
    if vector == row:
        return True
    if vector == 0:
        return False
    flat = UntypedStorage(row, np.bool_, "cast (vector lanes)")._array
    flat[:vector] = True
    flat[vector:] = False
    mask = np.broadcast_to(flat.reshape(d.shape[k:]), d.shape)
    return mask.transpose(np.argsort(order))


def _nan_bits(dst: np.ndarray, src: np.ndarray, op: str) -> None:
    """A cast's NaN bits as PyTorch's: a quick sum says whether any NaN can be there (a NaN
    or inf - inf makes it NaN), then a counted mask, chunk by chunk, picks the NaN cells."""
    with np.errstate(invalid="ignore", over="ignore"):
        if not np.isnan(np.add.reduce(dst, axis=None, dtype=np.float64)):
            return
    pair = (src.dtype.name, dst.dtype.name)
    fix = _NAN_BITS[pair]
    lanes = _CAST_LANES.get(pair)
    vector = True if lanes is None else _copy_vectors(dst, src, lanes, pair in _WHOLE_ONLY)
    if pair == ("float16", "float32"):  # (the tail rule holds for two whole contiguous arrays)
        contiguous = dst.flags.c_contiguous and src.flags.c_contiguous
        vector = _copy_vectors(dst, src, 8) if contiguous and op == "to" else True
    uint = f"u{dst.dtype.itemsize}"
    n = min(_CAST_CHUNK, dst.size)
    masks = UntypedStorage(2 * n, np.bool_, op + " (NaN masks)")._array
    for idx in blocks(dst.shape, n):
        d = dst[idx]
        m, m2 = (masks[k * n: k * n + d.size].reshape(d.shape) for k in (0, 1))
        np.isnan(d, out=m)
        s = src[idx]
        v = vector if isinstance(vector, bool) else vector[idx]
        fix(d.view(uint), s.view(f"u{s.dtype.itemsize}") if s.dtype.itemsize == 2 else s, m, m2,
            v)


def blocks(shape: tuple, limit: int):
    """Index tuples covering ``shape`` in pieces of at most ``limit`` elements, whole
    trailing dimensions first (the chunking every chunked kernel uses)."""
    inner, k = 1, len(shape)
    while k > 0 and inner * shape[k - 1] <= limit:
        inner *= shape[k - 1]
        k -= 1
    if k == 0:
        yield (Ellipsis,)
        return
    step = max(1, limit // inner)
    for idx in np.ndindex(*shape[: k - 1]):
        for s in range(0, shape[k - 1], step):
            yield idx + (slice(s, min(s + step, shape[k - 1])),)
