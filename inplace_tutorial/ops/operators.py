"""Python operators, mapped onto the ops exactly as PyTorch maps them.

``x += y`` is ``x.add_(y)`` (same storage, version + 1); ``x = x + y`` is a new tensor. The
same holds for ``&=``, ``|=``, ``^=``, ``<<=``, ``>>=``, ``//=`` and ``%=``. As in PyTorch, an
operator whose op refuses the other operand's type (``x + None``) returns NotImplemented, so
Python raises its own "unsupported operand type(s)" error; for ``==`` and ``!=`` Python then
falls back to identity, so ``x == None`` is plain ``False``.
"""
from __future__ import annotations

import functools

from ..tensor import Tensor, tensor_method
from ..tensor_new import tensor
from .arg_checks import check_tensor, is_number
from .elementwise import rpow, rsub


def _not_implemented_on_type_error(fn):
    """PyTorch's operators answer an argument TypeError with NotImplemented."""
    @functools.wraps(fn)
    def wrapper(self, other):
        try:
            return fn(self, other)
        except TypeError:
            return NotImplemented
    return wrapper


@tensor_method
@_not_implemented_on_type_error
def __add__(self, other) -> Tensor:
    return self.add(other)


@tensor_method
@_not_implemented_on_type_error
def __radd__(self, other) -> Tensor:
    return self.add(other)


@tensor_method
@_not_implemented_on_type_error
def __iadd__(self, other) -> Tensor:
    return self.add_(other)


@tensor_method
@_not_implemented_on_type_error
def __sub__(self, other) -> Tensor:
    return self.sub(other)


@tensor_method
@_not_implemented_on_type_error
def __rsub__(self, other) -> Tensor:
    return rsub(self, other)


@tensor_method
@_not_implemented_on_type_error
def __isub__(self, other) -> Tensor:
    return self.sub_(other)


@tensor_method
@_not_implemented_on_type_error
def __mul__(self, other) -> Tensor:
    return self.mul(other)


@tensor_method
@_not_implemented_on_type_error
def __rmul__(self, other) -> Tensor:
    return self.mul(other)


@tensor_method
@_not_implemented_on_type_error
def __imul__(self, other) -> Tensor:
    return self.mul_(other)


@tensor_method
@_not_implemented_on_type_error
def __truediv__(self, other) -> Tensor:
    return self.div(other)


@tensor_method
@_not_implemented_on_type_error
def __rtruediv__(self, other) -> Tensor:
    return self.reciprocal() * other


@tensor_method
@_not_implemented_on_type_error
def __itruediv__(self, other) -> Tensor:
    return self.div_(other)


@tensor_method
@_not_implemented_on_type_error
def __pow__(self, other) -> Tensor:
    return self.pow(other)


@tensor_method
@_not_implemented_on_type_error
def __rpow__(self, other) -> Tensor:
    return rpow(self, other)


@tensor_method
@_not_implemented_on_type_error
def __ipow__(self, other) -> Tensor:
    return self.pow_(other)


@tensor_method
@_not_implemented_on_type_error
def __matmul__(self, other) -> Tensor:
    return self.matmul(other)


@tensor_method
@_not_implemented_on_type_error
def __rmatmul__(self, other) -> Tensor:
    check_tensor("matmul", "input", other)  # other @ self with other not a tensor
    return other.matmul(self)


@tensor_method
def __neg__(self) -> Tensor:
    return self.neg()


@tensor_method
def __abs__(self) -> Tensor:
    return self.abs()


@tensor_method
@_not_implemented_on_type_error
def __gt__(self, other) -> Tensor:
    return self.gt(other)


@tensor_method
@_not_implemented_on_type_error
def __lt__(self, other) -> Tensor:
    return self.lt(other)


@tensor_method
@_not_implemented_on_type_error
def __ge__(self, other) -> Tensor:
    return self.ge(other)


@tensor_method
@_not_implemented_on_type_error
def __le__(self, other) -> Tensor:
    return self.le(other)


@tensor_method
@_not_implemented_on_type_error
def __eq__(self, other) -> Tensor:
    return self.eq(other)


@tensor_method
@_not_implemented_on_type_error
def __ne__(self, other) -> Tensor:
    return self.ne(other)


@tensor_method
def __invert__(self) -> Tensor:
    if self.dtype.is_floating_point:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return self.bitwise_not()

@tensor_method
@_not_implemented_on_type_error
def __and__(self, other) -> Tensor:
    return self.bitwise_and(other)


@tensor_method
@_not_implemented_on_type_error
def __iand__(self, other) -> Tensor:
    return self.bitwise_and_(other)

@tensor_method
@_not_implemented_on_type_error
def __or__(self, other) -> Tensor:
    return self.bitwise_or(other)


@tensor_method
@_not_implemented_on_type_error
def __ior__(self, other) -> Tensor:
    return self.bitwise_or_(other)

@tensor_method
@_not_implemented_on_type_error
def __xor__(self, other) -> Tensor:
    return self.bitwise_xor(other)


@tensor_method
@_not_implemented_on_type_error
def __ixor__(self, other) -> Tensor:
    return self.bitwise_xor_(other)

@tensor_method
@_not_implemented_on_type_error
def __lshift__(self, other) -> Tensor:
    return self.bitwise_left_shift(other)


@tensor_method
@_not_implemented_on_type_error
def __ilshift__(self, other) -> Tensor:
    return self.bitwise_left_shift_(other)

@tensor_method
@_not_implemented_on_type_error
def __rshift__(self, other) -> Tensor:
    return self.bitwise_right_shift(other)


@tensor_method
@_not_implemented_on_type_error
def __irshift__(self, other) -> Tensor:
    return self.bitwise_right_shift_(other)

@tensor_method
@_not_implemented_on_type_error
def __floordiv__(self, other) -> Tensor:
    return self.floor_divide(other)


@tensor_method
@_not_implemented_on_type_error
def __ifloordiv__(self, other) -> Tensor:
    return self.floor_divide_(other)

@tensor_method
@_not_implemented_on_type_error
def __mod__(self, other) -> Tensor:
    return self.remainder(other)


@tensor_method
@_not_implemented_on_type_error
def __imod__(self, other) -> Tensor:
    return self.remainder_(other)

@tensor_method
@_not_implemented_on_type_error
def __rand__(self, other) -> Tensor:
    return self.bitwise_and(other)

@tensor_method
@_not_implemented_on_type_error
def __ror__(self, other) -> Tensor:
    return self.bitwise_or(other)

@tensor_method
@_not_implemented_on_type_error
def __rxor__(self, other) -> Tensor:
    return self.bitwise_xor(other)

@tensor_method
@_not_implemented_on_type_error
def __rlshift__(self, other) -> Tensor:
    """other << self, for a Python number on the left."""
    return _scalar_tensor(other, self).bitwise_left_shift(self)

@tensor_method
@_not_implemented_on_type_error
def __rrshift__(self, other) -> Tensor:
    """other >> self, for a Python number on the left."""
    return _scalar_tensor(other, self).bitwise_right_shift(self)

@tensor_method
@_not_implemented_on_type_error
def __rfloordiv__(self, other) -> Tensor:
    """other // self, for a Python number on the left."""
    return _scalar_tensor(other, self).floor_divide(self)

@tensor_method
@_not_implemented_on_type_error
def __rmod__(self, other) -> Tensor:
    """other % self, for a Python number on the left."""
    return _scalar_tensor(other, self).remainder(self)


def _scalar_tensor(value, like: Tensor) -> Tensor:
    """A Python number on the left of an operator, as PyTorch wraps it (a 0-dim tensor)."""
    if not is_number(value):
        raise TypeError(f"unsupported operand: {type(value).__name__}")  # -> NotImplemented
    return tensor(value)
