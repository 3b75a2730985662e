"""dtype casts: ``to(dtype)`` and its shorthands float(), double(), long(), bool(), type_as().

A cast makes a new tensor (ToCopyBackward0) unless the dtype already matches, in which case
``to`` returns self, as PyTorch does. (This module defines methods named float and bool, so
it uses neither builtin.)
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..tensor import Tensor, tensor_method


@tensor_method
def to(self, dtype=None, *args, **kwargs) -> Tensor:
    dtype = kwargs.get("dtype", dtype)
    if not isinstance(dtype, dtypes.dtype) or dtype is self.dtype:
        return self
    out = Tensor._empty(self._shape, dtype, "to")
    np.copyto(out._array(), self._array(), casting="unsafe")
    return record("to", out, {"self": self})


@derivative("to", "ToCopyBackward0")
def _to_bw(ctx, g):
    return (g,)


@tensor_method
def float(self) -> Tensor:  # noqa: A001
    return self.to(dtypes.float32)


@tensor_method
def double(self) -> Tensor:
    return self.to(dtypes.float64)


@tensor_method
def long(self) -> Tensor:
    return self.to(dtypes.int64)


@tensor_method
def bool(self) -> Tensor:  # noqa: A001
    return self.to(dtypes.bool_)


@tensor_method
def type_as(self, other: Tensor) -> Tensor:
    return self.to(other.dtype)
