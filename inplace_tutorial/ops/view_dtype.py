"""Tensor.view(dtype): the same bytes read as another dtype (PyTorch's ``view_dtype``).

Nothing is copied: the result looks into self's storage, shares its version counter (an
in-place write through either bumps both), and, as PyTorch's derivatives.yaml marks
``view.dtype`` non-differentiable, it is a plain tensor with no history: not a view to
autograd (no ``_base``), never requiring grad, even when the dtypes are the same. A dtype of
another element size rescales the last dim, which must be contiguous (stride 1); the other
strides and the offset are rescaled in elements of the new size. ``view.py:view`` sends a
dtype argument here.
"""
from __future__ import annotations

import builtins

from .. import dtypes
from ..modes import STATE
from ..tensor import Tensor, VersionCounter

# PyTorch's binding takes a Python type where it takes a dtype: float is float64, int int64.
_PYTHON_TYPES = {builtins.float: dtypes.float64, builtins.int: dtypes.int64,
                 builtins.bool: dtypes.bool_}


def as_dtype(value) -> dtypes.dtype | None:
    """``value`` as the dtype PyTorch's parser reads in it, or None if it is no dtype."""
    if isinstance(value, dtypes.dtype):
        return value
    if isinstance(value, type):
        return _PYTHON_TYPES.get(value)
    return None


def _geometry(self: Tensor, dtype: dtypes.dtype) -> tuple[tuple, tuple, int]:
    """view_dtype's shape, strides and offset, with its checks in its order and words."""
    old, new = self.dtype.itemsize, dtype.itemsize
    shape, stride, offset = list(self._shape), list(self._stride), self._offset
    if old == new:
        return tuple(shape), tuple(stride), offset
    what = f"to view {self.dtype.short} as {dtype.short} (different element sizes)"
    if not shape:
        raise RuntimeError(f"self.dim() cannot be 0 {what}")
    if old > new:  # each element becomes `ratio` narrower ones along the last dim
        ratio = old // new
        if stride[-1] != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {stride[-1]}")
        stride = [s * ratio for s in stride[:-1]] + [1]
        shape[-1] *= ratio
        return tuple(shape), tuple(stride), offset * ratio
    ratio = new // old  # `ratio` neighbours along the last dim become one wider element
    if shape[-1] % ratio:
        raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {what}, but got "
                           f"{shape[-1]}")
    if offset % ratio:
        raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} {what}, but "
                           f"got {offset}")
    if stride[-1] != 1:
        raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {stride[-1]}")
    for d, s in enumerate(stride[:-1]):
        if s % ratio:
            raise RuntimeError(f"self.stride({d}) must be divisible by {ratio} {what}, but "
                               f"got {s}")
    stride = [s // ratio for s in stride[:-1]] + [1]
    shape[-1] //= ratio
    return tuple(shape), tuple(stride), offset // ratio


def view_dtype(self: Tensor, dtype: dtypes.dtype) -> Tensor:
    shape, stride, offset = _geometry(self, dtype)
    out = Tensor._make(self._storage, shape, stride, offset, dtype, vc=self._vc)
    if self._inference and not STATE.inference:
        # PyTorch: outside inference mode the reinterpretation is an ordinary tensor with a
        # counter of its own, writable in place (a view of the inference tensor is not)
        out._vc, out._inference = VersionCounter(), False
    return out
