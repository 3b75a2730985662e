"""Comparisons: ``x.gt(y)``, ``x.eq(0)`` ... out of place, in place (``x.lt_(0)``), and their
aliases (greater, less_equal ...).

Out of place, a comparison gives a bool tensor of the broadcast shape and records no graph
node. In place, ``x.eq_(y)`` writes 1/0 (True/False) into x in x's own dtype: a float tensor
stays float. Unlike the logical ops, PyTorch records a node for those (EqBackward0 for a
Number, EqBackward1 for a Tensor): the gradient is zero everywhere, and a leaf that requires
grad is refused.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..layout import broadcast_shapes
from ..tensor import Tensor, tensor_method
from ._pointwise import new_output
from .arg_checks import check_overloads
from .tensor_iterator import arr, inplace_elementwise, pure_kernel, shape_of

UFUNCS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
          "gt": np.greater, "ge": np.greater_equal}


def _kernel(ufunc):
    @pure_kernel
    def kernel(x, y, out, dtype):
        ufunc(x, y, out=out, casting="unsafe")
    return kernel


def _zero_bw(ctx, g):
    return (g * 0, g * 0 if len(ctx.next_functions) > 1 and ctx.needs(1) else None)


for _op in UFUNCS:
    _node = _op.capitalize() + "Backward"
    derivative(_op + "_", _node + "0")(_zero_bw)
    derivative(_op + "_tensor_", _node + "1", inputs=("self", "other"))(_zero_bw)


# --------------------------------------------------------------------------- out of place
def _compare(name: str, ufunc, self, other) -> Tensor:
    """A bool result of the broadcast shape; comparisons record no graph node. ``other`` is a
    Tensor or a Number (PyTorch's two overloads): a list, an array or None is refused."""
    check_overloads(name, ["other"], (other,))
    shape = broadcast_shapes(shape_of(self), shape_of(other))
    out = new_output(name, shape, dtypes.bool_, (self, other))
    ufunc(arr(self), arr(other), out=out._array())
    return out


@binding()
@tensor_method
def gt(self, other) -> Tensor:
    return _compare("gt", np.greater, self, other)


@binding()
@tensor_method
def lt(self, other) -> Tensor:
    return _compare("lt", np.less, self, other)


@binding()
@tensor_method
def ge(self, other) -> Tensor:
    return _compare("ge", np.greater_equal, self, other)


@binding()
@tensor_method
def le(self, other) -> Tensor:
    return _compare("le", np.less_equal, self, other)


@binding()
@tensor_method
def eq(self, other) -> Tensor:
    return _compare("eq", np.equal, self, other)


@binding()
@tensor_method
def ne(self, other) -> Tensor:
    return _compare("ne", np.not_equal, self, other)


# --------------------------------------------------------------------------- in place
def compare_(op: str, self: Tensor, other, name: str | None = None) -> Tensor:
    """The in-place comparison ``op`` ("eq" ...); the result takes self's dtype. ``name``:
    the method called (an alias such as greater_), for error texts."""
    check_overloads(name or op + "_", ["other"], (other,))
    row = op + ("_tensor_" if isinstance(other, Tensor) else "_")
    return inplace_elementwise(row, False, _kernel(UFUNCS[op]), self, other,
                               result_dtype=self.dtype)


@binding()
@tensor_method
def eq_(self, other) -> Tensor:
    return compare_("eq", self, other)


@binding()
@tensor_method
def ne_(self, other) -> Tensor:
    return compare_("ne", self, other)


@binding()
@tensor_method
def lt_(self, other) -> Tensor:
    return compare_("lt", self, other)


@binding()
@tensor_method
def le_(self, other) -> Tensor:
    return compare_("le", self, other)


@binding()
@tensor_method
def gt_(self, other) -> Tensor:
    return compare_("gt", self, other)


@binding()
@tensor_method
def ge_(self, other) -> Tensor:
    return compare_("ge", self, other)


# --------------------------------------------------------------------------- aliases
@binding()
@tensor_method
def greater(self, other) -> Tensor:
    """PyTorch's alias of gt."""
    return self.gt(other)


@binding()
@tensor_method
def greater_(self, other) -> Tensor:
    """PyTorch's alias of gt_."""
    return compare_("gt", self, other, "greater_")


@binding()
@tensor_method
def greater_equal(self, other) -> Tensor:
    """PyTorch's alias of ge."""
    return self.ge(other)


@binding()
@tensor_method
def greater_equal_(self, other) -> Tensor:
    """PyTorch's alias of ge_."""
    return compare_("ge", self, other, "greater_equal_")


@binding()
@tensor_method
def less(self, other) -> Tensor:
    """PyTorch's alias of lt."""
    return self.lt(other)


@binding()
@tensor_method
def less_(self, other) -> Tensor:
    """PyTorch's alias of lt_."""
    return compare_("lt", self, other, "less_")


@binding()
@tensor_method
def less_equal(self, other) -> Tensor:
    """PyTorch's alias of le."""
    return self.le(other)


@binding()
@tensor_method
def less_equal_(self, other) -> Tensor:
    """PyTorch's alias of le_."""
    return compare_("le", self, other, "less_equal_")


@binding()
@tensor_method
def not_equal(self, other) -> Tensor:
    """PyTorch's alias of ne."""
    return self.ne(other)


@binding()
@tensor_method
def not_equal_(self, other) -> Tensor:
    """PyTorch's alias of ne_."""
    return compare_("ne", self, other, "not_equal_")
