"""Which elements PyTorch's CPU loops compute in vector registers, and which one at a time.

Where the two paths differ in the bits they leave (a NaN from maximum is all ones in a vector
register, the canonical NaN in the element loop; a float16 sum rounds once or twice), the
core needs to know which path each element took. PyTorch's TensorIterator orders the dims by
the operands' strides (innermost first), merges dims that are contiguous with each other
into one row, and runs each row's first ``n - n % LANES`` elements in vectors when every
operand is contiguous along the row (one input may be a broadcast scalar); the rest of the
row, and every element of a strided row, goes through the element loop. A step takes 64
bytes (16 float32, 8 float64, 32 float16), two 32-byte vectors, measured alike in the three
builds of torch 2.13's x86 wheel (cpu_capability.py: DEFAULT, AVX2, AVX512). What the vector
loop leaves differs by build, so the callers ask ``cpu_capability.VECTOR_INSTRUCTIONS`` too.
"""
from __future__ import annotations

import functools

import numpy as np

from .. import dtypes
from ..tensor import Tensor

REGISTER_BYTES = 64


def _before(d: int, e: int, strides: list[tuple]) -> bool:
    """TensorIterator's reorder test: does dim d go inside dim e? The first operand with
    nonzero strides in both decides."""
    for st in strides:
        if st[d] and st[e]:
            return st[d] < st[e]
    return False


def inner_row(shape: tuple, strides: list[tuple]) -> tuple[list[int], bool]:
    """The dims merged into the innermost row (innermost first) and whether the row is
    taken in vectors: every operand contiguous along it, or one input a broadcast scalar."""
    dims = [d for d in range(len(shape)) if shape[d] > 1]
    if not dims:
        return [], True
    order = sorted(dims, key=functools.cmp_to_key(
        lambda d, e: -1 if _before(d, e, strides) else (1 if _before(e, d, strides) else 0)))
    row, span = [order[0]], shape[order[0]]
    for d in order[1:]:
        if any(st[d] != st[order[0]] * span for st in strides):
            break
        row.append(d)
        span *= shape[d]
    inner = [st[order[0]] for st in strides]
    contiguous = all(s == 1 for s in inner)
    one_scalar = inner[0] == 1 and sorted(inner[1:]).count(0) == 1 and all(
        s in (0, 1) for s in inner[1:])
    return row, contiguous or one_scalar


def vector_mask(shape: tuple, strides: list[tuple], itemsize: int,
                register_bytes: int = REGISTER_BYTES) -> np.ndarray | None:
    """A bool array broadcastable to ``shape``, True where PyTorch's loop takes the element
    in a vector; None if no element is. ``strides`` are each operand's strides in elements
    (the output's first, a broadcast dim's 0); ``register_bytes``: the bytes one step takes
    (unary ops step 128 bytes in the AVX512 build: unary_nan_bits.py)."""
    lanes = register_bytes // itemsize
    row, vectorised = inner_row(shape, strides)
    n = row_length(shape, row)
    vector = n - n % lanes
    if not vectorised or vector == 0:
        return None
    return row_mask(shape, row, 0, vector)


def row_length(shape: tuple, row: list[int]) -> int:
    """How many elements the merged innermost row ``row`` (inner_row's dims) holds."""
    n = 1
    for d in row:
        n *= shape[d]
    return n


def row_mask(shape: tuple, row: list[int], start: int, stop: int) -> np.ndarray:
    """A bool array broadcastable to ``shape``: True at positions [start, stop) of every
    innermost row (the dims ``row`` from inner_row, innermost first)."""
    n = row_length(shape, row)
    mask_t = Tensor._empty((n,), dtypes.bool_, "vector lanes")
    flat = mask_t._array()
    flat[:] = False
    flat[start:stop] = True
    in_c_order = flat.reshape([shape[d] for d in reversed(row)])  # innermost varies fastest
    order = sorted(range(len(row)), key=lambda k: row[::-1][k])
    full = [shape[d] if d in row else 1 for d in range(len(shape))]
    return np.broadcast_to(in_c_order.transpose(order).reshape(full), shape)


def element_strides(t: Tensor, shape: tuple) -> tuple:
    """t's strides in elements once broadcast to ``shape`` (0 along broadcast dims)."""
    lead = len(shape) - len(t._shape)
    return tuple(0 if k < lead or t._shape[k - lead] == 1 and shape[k] != 1
                 else t._stride[k - lead] for k in range(len(shape)))
