"""Creation ops: tensor, zeros, ones, empty, full, the *_like family, arange, rand/randn.

Every new tensor gets a fresh storage from the allocator. ``tensor()`` always copies,
like torch.tensor. Randomness comes from one seeded NumPy generator (manual_seed).
"""
from __future__ import annotations

import math

import numpy as np

from . import dtypes
from .autograd import grad_mode
from .tensor import Tensor, contiguous_strides
from .storage import UntypedStorage

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
    dtype = dtype or _infer_dtype(data)
    arr = np.asarray(data)
    t = Tensor._empty(arr.shape, dtype, "tensor")
    t._array()[...] = arr
    return _finish(t, requires_grad)


def empty(*size, dtype: dtypes.dtype | None = None, requires_grad: bool = False) -> Tensor:
    return _finish(Tensor._empty(_shape(size), dtype or dtypes.float32, "empty"), requires_grad)


def empty_strided(size, stride, dtype: dtypes.dtype | None = None) -> Tensor:
    size, stride = tuple(size), tuple(stride)
    extent = 1 + sum((s - 1) * st for s, st in zip(size, stride)) if all(size) else 0
    storage = UntypedStorage(extent, (dtype or dtypes.float32).np, "empty_strided")
    return Tensor._make(storage, size, stride, 0, dtype or dtypes.float32)


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


def empty_like(t: Tensor, dtype=None, requires_grad: bool = False) -> Tensor:
    return empty(t._shape, dtype=dtype or t.dtype, requires_grad=requires_grad)


def zeros_like(t: Tensor, dtype=None, requires_grad: bool = False) -> Tensor:
    return zeros(t._shape, dtype=dtype or t.dtype, requires_grad=requires_grad)


def ones_like(t: Tensor, dtype=None, requires_grad: bool = False) -> Tensor:
    return ones(t._shape, dtype=dtype or t.dtype, requires_grad=requires_grad)


def full_like(t: Tensor, fill_value, dtype=None, requires_grad: bool = False) -> Tensor:
    return full(t._shape, fill_value, dtype=dtype or t.dtype, requires_grad=requires_grad)


def arange(start, end=None, step=1, dtype: dtypes.dtype | None = None,
           requires_grad: bool = False) -> Tensor:
    if end is None:
        start, end = 0, start
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


def _contiguous_like(shape) -> tuple:
    return contiguous_strides(tuple(shape))


__all__ = ["arange", "empty", "empty_like", "empty_strided", "full", "full_like", "grad_mode",
           "manual_seed", "ones", "ones_like", "rand", "randn", "tensor", "zeros", "zeros_like"]
