"""isclose, allclose and equal, from PyTorch's TensorCompare.cpp: closeness within tolerances
and exact equality. None is differentiable (bool results, or a Python bool).

isclose(a, b) is ``a == b`` or ``|a - b| <= atol + |rtol * b|`` with a finite error (so inf
is close only to the same inf), NaN close to NaN only with equal_nan=True. Both tensors must
have the same dtype; the errors are computed in it (bool in the default float), through
counted buffers.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import argument_error, binding, type_name
from ..layout import broadcast_shapes
from ..tensor import Tensor, tensor_method


def _check_other(op: str, other) -> None:
    if not isinstance(other, Tensor):
        raise TypeError(f"{op}(): argument 'other' (position 1) must be Tensor, not "
                        f"{type_name(other)}")


def _check_float(op: str, name: str, v, position: int) -> None:
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise argument_error(op, name, position, "float", v)


def _check_args(op: str, other, rtol, atol, equal_nan) -> None:
    """The binding's checks, in its order (positions as the method counts them)."""
    _check_other(op, other)
    _check_float(op, "rtol", rtol, 2)
    _check_float(op, "atol", atol, 3)
    if not isinstance(equal_nan, bool):
        raise argument_error(op, "equal_nan", 4, "bool", equal_nan)


@binding()
@tensor_method
def isclose(self, other, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    _check_args("isclose", other, rtol, atol, equal_nan)
    if self.dtype is not other.dtype:
        raise RuntimeError(f"{self.dtype.short} did not match {other.dtype.short}")
    if not rtol >= 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol:g}")
    if not atol >= 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol:g}")
    shape = broadcast_shapes(self._shape, other._shape)
    a, b = self._array(), other._array()
    close = Tensor._empty(shape, dtypes.bool_, "isclose")
    c = close._array()
    np.equal(a, b, out=c)
    floating = self.dtype.category == dtypes.FLOATING
    mask = Tensor._empty(shape, dtypes.bool_, "isclose (mask)")._array()
    if equal_nan and floating:
        both = Tensor._empty(shape, dtypes.bool_, "isclose (NaN in b)")._array()
        np.isnan(a, out=mask)
        np.isnan(b, out=both)
        np.logical_and(mask, both, out=mask)
        np.logical_or(c, mask, out=c)
        del both
    if rtol == 0 and atol == 0:
        return close
    ct = self.dtype if floating else dtypes.float32  # bool and integers: the default float
    # allowed = atol + |rtol * b|, each step rounded to ct as PyTorch's kernels round
    allowed = Tensor._empty(other._shape, ct, "isclose (allowed)")._array()
    np.multiply(b, ct.np.type(rtol), out=allowed, dtype=ct.np, casting="unsafe")
    np.abs(allowed, out=allowed)
    np.add(allowed, ct.np.type(atol), out=allowed)
    err = Tensor._empty(shape, ct, "isclose (error)")._array()
    with np.errstate(invalid="ignore", over="ignore"):
        np.subtract(a, b, out=err, casting="unsafe",
                    dtype=ct.np if self.dtype is dtypes.bool_ else None)
        np.abs(err, out=err)
        np.less_equal(err, allowed, out=mask)
        del allowed
        finite = Tensor._empty(shape, dtypes.bool_, "isclose (finite)")._array()
        np.isfinite(err, out=finite)
        np.logical_and(mask, finite, out=mask)  # within the tolerance, with a finite error
        np.logical_or(c, mask, out=c)
    return close


@binding()
@tensor_method
def allclose(self, other, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    _check_args("allclose", other, rtol, atol, equal_nan)
    return bool(self.isclose(other, rtol, atol, equal_nan).all().item())


@binding()
@tensor_method
def equal(self, other) -> bool:
    """Same shape and the same values (NaN equals nothing); the dtypes may differ."""
    _check_other("equal", other)
    if self._shape != other._shape:
        return False
    same = Tensor._empty(self._shape, dtypes.bool_, "equal")._array()
    np.equal(self._array(), other._array(), out=same)
    return bool(same.all())
