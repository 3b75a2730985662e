"""Python operators, mapped onto the ops exactly as PyTorch maps them.

``x += y`` is ``x.add_(y)`` (same storage, version + 1); ``x = x + y`` is a new tensor.
"""
from __future__ import annotations

from ..tensor import Tensor, tensor_method
from .elementwise import rpow, rsub


@tensor_method
def __add__(self, other) -> Tensor:
    return self.add(other)


@tensor_method
def __radd__(self, other) -> Tensor:
    return self.add(other)


@tensor_method
def __iadd__(self, other) -> Tensor:
    return self.add_(other)


@tensor_method
def __sub__(self, other) -> Tensor:
    return self.sub(other)


@tensor_method
def __rsub__(self, other) -> Tensor:
    return rsub(self, other)


@tensor_method
def __isub__(self, other) -> Tensor:
    return self.sub_(other)


@tensor_method
def __mul__(self, other) -> Tensor:
    return self.mul(other)


@tensor_method
def __rmul__(self, other) -> Tensor:
    return self.mul(other)


@tensor_method
def __imul__(self, other) -> Tensor:
    return self.mul_(other)


@tensor_method
def __truediv__(self, other) -> Tensor:
    return self.div(other)


@tensor_method
def __rtruediv__(self, other) -> Tensor:
    return self.reciprocal() * other


@tensor_method
def __itruediv__(self, other) -> Tensor:
    return self.div_(other)


@tensor_method
def __pow__(self, other) -> Tensor:
    return self.pow(other)


@tensor_method
def __rpow__(self, other) -> Tensor:
    return rpow(self, other)


@tensor_method
def __ipow__(self, other) -> Tensor:
    return self.pow_(other)


@tensor_method
def __neg__(self) -> Tensor:
    return self.neg()


@tensor_method
def __abs__(self) -> Tensor:
    return self.abs()


@tensor_method
def __gt__(self, other) -> Tensor:
    return self.gt(other)


@tensor_method
def __lt__(self, other) -> Tensor:
    return self.lt(other)


@tensor_method
def __ge__(self, other) -> Tensor:
    return self.ge(other)


@tensor_method
def __le__(self, other) -> Tensor:
    return self.le(other)


@tensor_method
def __eq__(self, other) -> Tensor:
    return self.eq(other)


@tensor_method
def __ne__(self, other) -> Tensor:
    return self.ne(other)


@tensor_method
def __and__(self, other) -> Tensor:
    return self.logical_and(other)


@tensor_method
def __or__(self, other) -> Tensor:
    return self.logical_or(other)
