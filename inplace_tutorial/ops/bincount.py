"""bincount: how many times each non-negative integer occurs (PyTorch's SummaryOps.cpp).

The result has max(input) + 1 cells (at least ``minlength``): int64 counts, or the sums of
``weights`` at each value: float32 weights add up in float32, any other weights in float64,
one at a time in input order, as PyTorch's loop does (``np.add.at`` keeps that order). An
empty input gives ``minlength`` int64 zeros, weights or not. Weights that require grad make a
result that requires grad, whose node (NotImplemented) refuses backward.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.grad_mode import no_grad
from ..autograd.record import record
from ..creation import zeros
from ..tensor import Tensor, tensor_method
from .arg_checks import argument_error, check_int


@binding()
@tensor_method
def bincount(self, weights=None, minlength=0) -> Tensor:
    """The count (or weight sum) of each value 0, 1, ... max(self)."""
    if weights is not None and not isinstance(weights, Tensor):
        raise argument_error("bincount", "weights", 1, "Tensor", weights)
    minlength = check_int("bincount", "minlength", minlength, 2)
    if self.dtype.category != dtypes.INTEGER or self.dtype is dtypes.bool_:
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{self.dtype.short}'")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if self.dim() == 1 and self.numel() == 0:
        return zeros(minlength, dtype=dtypes.int64)
    a = self._array()
    if self.dim() != 1 or a.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and (weights.dim() != 1 or weights._shape[0] != self._shape[0]):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    length = max(minlength, int(a.max()) + 1)
    if weights is None:
        out = zeros(length, dtype=dtypes.int64)
        np.add.at(out._array(), a, 1)
        return out
    summed = weights
    if weights.dtype not in (dtypes.float32, dtypes.float64):
        with no_grad():  # (the conversion is inside the op: no node of its own)
            summed = weights.to(dtypes.float64)
    out = zeros(length, dtype=summed.dtype)
    np.add.at(out._array(), a, summed._array())
    return record("bincount", out, {"weights": weights})


@derivative("bincount", "NotImplemented", inputs=("weights",), qualified=True)
def _bincount_bw(ctx, g):
    """Weights that require grad give a result that requires grad too, but PyTorch has no
    formula for it: its NotImplemented node refuses when backward reaches it."""
    raise RuntimeError("derivative for aten::bincount is not implemented")


__all__ = ["bincount"]
