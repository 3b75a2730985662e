"""Logical ops: logical_and/or/xor/not, out of place (a bool result) and in place.

In place, the truth values are written into self in self's dtype (a float tensor gets 1.0 and
0.0). PyTorch does not differentiate them at all: no node is recorded and, unlike every
differentiable in-place op, a leaf that requires grad is not refused; only the version moves.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..layout import broadcast_shapes
from ..tensor import Tensor, tensor_method
from ._pointwise import new_output, nondiff_inplace
from .arg_checks import check_tensor
from .tensor_iterator import arr, shape_of


def _logical(name: str, ufunc, self: Tensor, *others) -> Tensor:
    shape = self._shape
    for o in others:
        shape = broadcast_shapes(shape, shape_of(o))
    out = new_output(name, shape, dtypes.bool_, (self, *others))
    ufunc(arr(self), *[arr(o) for o in others], out=out._array())
    return out


def _kernel(ufunc):
    return lambda *xs, out, dtype: ufunc(*xs, out=out, casting="unsafe")


@binding()
@tensor_method
def logical_and(self, other) -> Tensor:
    check_tensor("logical_and", "other", other)
    return _logical("logical_and", np.logical_and, self, other)


@binding()
@tensor_method
def logical_and_(self, other) -> Tensor:
    check_tensor("logical_and_", "other", other)
    return nondiff_inplace("logical_and_", self, (other,), _kernel(np.logical_and), self.dtype)


@binding()
@tensor_method
def logical_or(self, other) -> Tensor:
    check_tensor("logical_or", "other", other)
    return _logical("logical_or", np.logical_or, self, other)


@binding()
@tensor_method
def logical_or_(self, other) -> Tensor:
    check_tensor("logical_or_", "other", other)
    return nondiff_inplace("logical_or_", self, (other,), _kernel(np.logical_or), self.dtype)


@binding()
@tensor_method
def logical_xor(self, other) -> Tensor:
    check_tensor("logical_xor", "other", other)
    return _logical("logical_xor", np.logical_xor, self, other)


@binding()
@tensor_method
def logical_xor_(self, other) -> Tensor:
    check_tensor("logical_xor_", "other", other)
    return nondiff_inplace("logical_xor_", self, (other,), _kernel(np.logical_xor), self.dtype)


@tensor_method
def logical_not(self) -> Tensor:
    return _logical("logical_not", np.logical_not, self)


@tensor_method
def logical_not_(self) -> Tensor:
    return nondiff_inplace("logical_not_", self, (), _kernel(np.logical_not), self.dtype)
