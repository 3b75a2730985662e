"""Creation ops: tensor, zeros, ones, empty, full, the *_like family, arange, rand/randn.

Every new tensor gets a fresh storage from the allocator. ``tensor()`` always copies,
like torch.tensor. Randomness comes from one seeded NumPy generator (manual_seed).
"""
from __future__ import annotations

import math

import numpy as np

from . import dtypes
from .layout import contiguous_strides, dense_strides, non_overlapping_and_dense, storage_extent
from .storage import UntypedStorage
from .tensor import Tensor

_generator = np.random.Generator(np.random.PCG64(0))


def manual_seed(seed: int) -> np.random.Generator:
    """Seed the global generator (randn, rand, normal_, uniform_, random_, dropout)."""
    global _generator
    _generator = np.random.Generator(np.random.PCG64(int(seed)))
    return _generator


def default_generator() -> np.random.Generator:
    return _generator


def _shape(size) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def _finish(t: Tensor, requires_grad: bool) -> Tensor:
    if requires_grad:
        if not t.dtype.is_floating_point:
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients")
        t.requires_grad_(True)
    return t


def _infer_dtype(data) -> dtypes.dtype:
    if isinstance(data, np.ndarray):
        return dtypes.from_numpy_dtype(data.dtype)
    if isinstance(data, Tensor):
        return data.dtype
    flat = np.asarray(data)
    if flat.dtype.kind == "b":
        return dtypes.bool_
    if flat.dtype.kind in "iu":
        return dtypes.int64
    return dtypes.float32


def tensor(data, dtype: dtypes.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """A new tensor holding a copy of ``data`` (nested lists, scalars, NumPy arrays)."""
    if isinstance(data, Tensor):
        data = data.detach()._array()
    elif isinstance(data, (list, tuple)):
        _check_nested(data, 0)
    dtype = dtype or _infer_dtype(data)
    arr = np.asarray(data)
    t = _empty_preserving(arr.shape, _dense_layout(arr), dtype, "tensor")
    t._array()[...] = arr
    return _finish(t, requires_grad)


def _check_nested(data, dim: int) -> tuple:
    """torch.tensor's own check of ragged nested lists (NumPy's message is less helpful)."""
    if not isinstance(data, (list, tuple)):
        return ()
    shapes = []
    for item in data:
        if isinstance(item, (list, tuple)) != isinstance(data[0], (list, tuple)):
            raise TypeError("not a sequence")
        shapes.append(_check_nested(item, dim + 1))
    if shapes and isinstance(data[0], (list, tuple)):
        want = len(data[0])
        for item in data:
            if len(item) != want:
                raise ValueError(f"expected sequence of length {want} at dim {dim + 1} "
                                 f"(got {len(item)})")
    return (len(data),) + (shapes[0] if shapes else ())


def _dense_layout(a) -> tuple | None:
    """Element strides of a dense (possibly permuted) array, else None.

    torch.tensor(ndarray) and the *_like functions keep such a layout (preserve_format)."""
    if isinstance(a, Tensor):
        return dense_strides(a._shape, a._stride)
    if not isinstance(a, np.ndarray) or a.ndim < 2 or a.flags.c_contiguous:
        return None
    if any(s < 0 or s % a.itemsize for s in a.strides):
        return None
    strides = tuple(s // a.itemsize for s in a.strides)
    return strides if non_overlapping_and_dense(a.shape, strides) else None


def _empty_preserving(shape, strides, dtype, op: str) -> Tensor:
    if strides is None or tuple(strides) == contiguous_strides(tuple(shape)):
        return Tensor._empty(tuple(shape), dtype, op)
    t = empty_strided(shape, strides, dtype)
    t._storage.op = op
    return t


def empty(*size, dtype: dtypes.dtype | None = None, requires_grad: bool = False) -> Tensor:
    return _finish(Tensor._empty(_shape(size), dtype or dtypes.float32, "empty"), requires_grad)


def empty_strided(size, stride, dtype: dtypes.dtype | None = None) -> Tensor:
    size, stride, dtype = tuple(size), tuple(stride), dtype or dtypes.float32
    storage = UntypedStorage(storage_extent(size, stride), dtype.np, "empty_strided")
    return Tensor._make(storage, size, stride, 0, dtype)


def full(size, fill_value, dtype: dtypes.dtype | None = None,
         requires_grad: bool = False) -> Tensor:
    dtype = dtype or dtypes.scalar_dtype(fill_value)
    t = Tensor._empty(_shape((size,)), dtype, "full")
    t._array().fill(fill_value)
    return _finish(t, requires_grad)


def zeros(*size, dtype: dtypes.dtype | None = None, requires_grad: bool = False) -> Tensor:
    t = Tensor._empty(_shape(size), dtype or dtypes.float32, "zeros")
    t._array().fill(0)
    return _finish(t, requires_grad)


def ones(*size, dtype: dtypes.dtype | None = None, requires_grad: bool = False) -> Tensor:
    t = Tensor._empty(_shape(size), dtype or dtypes.float32, "ones")
    t._array().fill(1)
    return _finish(t, requires_grad)


def _like(t: Tensor, dtype, requires_grad: bool, fill, op: str) -> Tensor:
    out = _empty_preserving(t._shape, _dense_layout(t), dtype or t.dtype, op)
    if fill is not None:
        out._array().fill(fill)
    return _finish(out, requires_grad)


def empty_like(t: Tensor, dtype=None, requires_grad: bool = False) -> Tensor:
    return _like(t, dtype, requires_grad, None, "empty_like")


def zeros_like(t: Tensor, dtype=None, requires_grad: bool = False) -> Tensor:
    return _like(t, dtype, requires_grad, 0, "zeros_like")


def ones_like(t: Tensor, dtype=None, requires_grad: bool = False) -> Tensor:
    return _like(t, dtype, requires_grad, 1, "ones_like")


def full_like(t: Tensor, fill_value, dtype=None, requires_grad: bool = False) -> Tensor:
    return _like(t, dtype, requires_grad, fill_value, "full_like")


def arange(start, end=None, step=1, dtype: dtypes.dtype | None = None,
           requires_grad: bool = False) -> Tensor:
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is None:
        is_int = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        dtype = dtypes.int64 if is_int else dtypes.float32
    n = max(0, math.ceil((end - start) / step))
    t = Tensor._empty((n,), dtype, "arange")
    np.multiply(np.arange(n, dtype=np.float64), step, out=t._array(), casting="unsafe")
    t._array()[...] += start
    return _finish(t, requires_grad)


def randn(*size, dtype: dtypes.dtype | None = None, requires_grad: bool = False,
          generator: np.random.Generator | None = None) -> Tensor:
    dtype = dtype or dtypes.float32
    t = Tensor._empty(_shape(size), dtype, "randn")
    (generator or _generator).standard_normal(out=t._array(), dtype=dtype.np)
    return _finish(t, requires_grad)


def rand(*size, dtype: dtypes.dtype | None = None, requires_grad: bool = False,
         generator: np.random.Generator | None = None) -> Tensor:
    dtype = dtype or dtypes.float32
    t = Tensor._empty(_shape(size), dtype, "rand")
    (generator or _generator).random(out=t._array(), dtype=dtype.np)
    return _finish(t, requires_grad)


__all__ = ["arange", "empty", "empty_like", "empty_strided", "full", "full_like", "manual_seed",
           "ones", "ones_like", "rand", "randn", "tensor", "zeros", "zeros_like"]
