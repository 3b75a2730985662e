"""Ops that overwrite self wholesale: copy_, zero_, fill_ (the random fills: random.py).

Their backward for self is zero (the old values no longer matter), so they save nothing.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record_inplace
from ..copy_kernel import cast_into
from ..tensor import Tensor, tensor_method
from .arg_checks import check_overloads
from .tensor_iterator import (
    arr,
    broadcast_shapes,
    check_internal_overlap,
    check_operands,
    check_partial_overlap,
    shape_of,
    write_inplace,
)


def _zeros_for(ctx, g):
    return (g * 0,)


@binding()
@tensor_method
def copy_(self, other, non_blocking: bool = False) -> Tensor:
    """PyTorch binds copy_'s source as ``other`` (its derivative row calls it src)."""
    check_operands("copy_", (other,))  # a NumPy array is refused before any write, as PyTorch
    def check():
        check_internal_overlap(self)

        check_partial_overlap(self, other)
        shape = broadcast_shapes(self._shape, shape_of(other))
        if shape != self._shape:
            raise RuntimeError(
                f"output with shape [{', '.join(map(str, self._shape))}] doesn't match the "
                f"broadcast shape [{', '.join(map(str, shape))}]")

    same_cells = (isinstance(other, Tensor) and other._storage is self._storage
                  and (other._offset, other._shape, other._stride)
                  == (self._offset, self._shape, self._stride))
    if same_cells and other.dtype is self.dtype:
        # PyTorch returns early when other is exactly self's cells (the version still bumps)
        return record_inplace("copy_", self, {"self": self, "src": other}, compute=lambda: None)
    a = self._array()
    return record_inplace(
        "copy_", self, {"self": self, "src": other},
        compute=lambda: write_inplace(lambda o, xs: np.copyto(o, xs[1], casting="unsafe"),
                                      "copy_", self, [a, arr(other)], (other,)),
        check=check)


@derivative("copy_", "CopyBackwards", inputs=("self", "src"), qualified=True)
def _copy_bw(ctx, g):
    return (g * 0 if ctx.needs(0) else None, g if ctx.needs(1) else None)


def _simple_inplace(op: str, self: Tensor, fill, inputs=None) -> Tensor:
    a = self._array()
    # No overlap check: filling an expanded tensor writes the same value twice, which is fine
    return record_inplace(op, self, inputs or {"self": self}, compute=lambda: fill(a))


@tensor_method
def zero_(self) -> Tensor:
    return _simple_inplace("zero_", self, lambda a: a.fill(0))


@binding()
@tensor_method
def fill_(self, value) -> Tensor:
    check_overloads("fill_", ["value"], (value,))
    if isinstance(value, Tensor):
        return _fill_tensor(self, value)
    # PyTorch's checked conversion (int8 refuses 300, NaN ...)
    value = dtypes.checked_scalar(value, self.dtype, "fill", self.numel())
    return _simple_inplace("fill_", self, lambda a: a.fill(value))


def _fill_tensor(self: Tensor, value: Tensor) -> Tensor:
    """fill_(0-dim tensor): PyTorch reads value.item() and fills without the overflow check of
    a Python number (int8 takes 300 as 44); unlike the number form it refuses an expanded self."""
    if value.dim() != 0:
        raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with "
                           f"{value.dim()} dimensions.")
    a = self._array()

    def compute():
        v = np.array(value._array(), copy=True)  # read first: value may be one of self's cells
        cast_into(a, v, self.dtype, "fill_")
    return record_inplace("fill_tensor", self, {"self": self, "value": value}, compute=compute,
                          check=lambda: check_internal_overlap(self))


derivative("zero_", "ZeroBackward0")(_zeros_for)
derivative("fill_", "FillBackward2")(_zeros_for)


@derivative("fill_tensor", "FillBackward3", inputs=("self", "value"))
def _fill_tensor_bw(ctx, g):
    return (g * 0 if ctx.needs(0) else None, g.sum() if ctx.needs(1) else None)
