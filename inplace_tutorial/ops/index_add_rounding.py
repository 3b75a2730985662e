"""How index_add(_) rounds ``alpha * source``: PyTorch's two CPU paths, bit for bit.

A 1-D (or 0-d) self takes PyTorch's element loop: alpha is converted to self's dtype, then
``self[j] += source[i] * alpha`` in that dtype, one index after the other; in float16 and
bfloat16 that rounds twice (the product to 16 bits, then the sum).

A self of more dims with alpha != 1 adds whole slices, ``self.select(dim, j).add_(
source.select(dim, i), alpha)``, through add's kernel. In float16/bfloat16 that kernel
works on rows: where the slice's innermost (coalesced) row is contiguous in both tensors,
it takes vectors of 32 elements in float32 (``self + source * alpha`` rounded once:
the product of two 16-bit floats is exact in float32), and the rest of each row, or every
element of a strided row, element by element in the 16-bit type (rounded twice, as above).
cpu_lanes.py finds which elements take the vectors (64 bytes of them in every x86 build). In
PyTorch's DEFAULT build (cpu_capability.py) the vectors are plain arrays of Half/BFloat16
whose arithmetic rounds each step to 16 bits, so every element rounds twice.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..cpu_capability import VECTOR_INSTRUCTIONS
from ..tensor import Tensor
from .cpu_lanes import vector_mask


def rounded_alpha(np_dtype: np.dtype, alpha) -> np.float32:
    """``alpha.to<scalar_t>()`` of a 16-bit float: through float32, then to 16 bits."""
    return np.float32(np.array(alpha, dtype=np.float32).astype(np_dtype))


def index_add_1d(a: np.ndarray, idx: np.ndarray, s: np.ndarray, alpha, dtype) -> None:
    """PyTorch's element loop: ``a[idx[i]] += s[i] * alpha`` in a's own dtype, in order."""
    n = idx.size
    flat = a.reshape(-1) if a.ndim else a.reshape(1)
    reduced = dtype in (dtypes.float16, dtypes.bfloat16)
    ah = rounded_alpha(a.dtype, alpha) if reduced else alpha
    wide = np.float32 if reduced else a.dtype
    prod_t = Tensor._empty((n,), dtype, "index_add_ (alpha * source)")
    prod = prod_t._array()
    src = s.reshape(-1) if s.ndim else s.reshape(1)
    if np.shares_memory(a, s):  # each source element is read after the earlier writes
        for i in range(n):
            flat[idx[i]] = np.add(flat[idx[i]], (np.multiply(src[i], ah, dtype=wide)
                                                 .astype(a.dtype)), dtype=wide)
        return
    np.multiply(src, ah, out=prod, dtype=wide, casting="unsafe")  # rounded to a's dtype
    seen_t = Tensor._empty((a.size,), dtypes.bool_, "index_add_ (seen)")
    seen = seen_t._array()
    seen.fill(False)
    seen[idx] = True
    if np.count_nonzero(seen) == n:  # no index twice: one vector step
        picked_t = Tensor._empty((n,), dtype, "index_add_ (picked)")
        picked = picked_t._array()
        np.take(flat, idx, out=picked)
        np.add(picked, prod, out=picked, dtype=wide, casting="unsafe")
        flat[idx] = picked
        return
    for i in range(n):  # a repeated index reads what the earlier addition wrote
        j = idx[i]
        flat[j] = np.add(flat[j], prod[i], dtype=wide)


def index_add_slices_16bit(a: np.ndarray, dim: int, idx: np.ndarray, s: np.ndarray,
                           alpha, dtype) -> None:
    """``a.select(dim, j).add_(s.select(dim, i), alpha)`` for every (i, j), in order, as
    PyTorch's float16/bfloat16 add kernel rounds each element (module docstring)."""
    if idx.size == 0:
        return
    at = [slice(None)] * a.ndim
    a_slice = a[tuple(at[:dim]) + (0,)]
    shape, item = a_slice.shape, a.itemsize
    so = tuple(st // item for st in a_slice.strides)
    ss = tuple(st // item for k, st in enumerate(s.strides) if k != dim)
    vector = vector_mask(shape, [so, ss], item) if VECTOR_INSTRUCTIONS else None
    ah = rounded_alpha(a.dtype, alpha)
    buffers = [Tensor._empty(shape, t, "index_add_ (float32)")
               for t in (dtypes.float32, dtypes.float32, dtype)]
    fast, slow, prod16 = (b._array() for b in buffers)
    for i, j in enumerate(idx):
        o = a[tuple(at[:dim]) + (int(j),)]
        src = s[tuple(at[:dim]) + (i,)]
        np.multiply(src, ah, out=fast, dtype=np.float32, casting="unsafe")  # exact
        np.copyto(prod16, fast, casting="unsafe")  # the element loop rounds the product
        np.add(o, prod16, out=slow, dtype=np.float32, casting="unsafe")
        if vector is None:
            np.copyto(o, slow, casting="unsafe")
            continue
        np.add(o, fast, out=fast, dtype=np.float32, casting="unsafe")
        np.copyto(o, slow, casting="unsafe")
        np.copyto(o, fast, casting="unsafe", where=vector)
