"""Python operators, mapped onto the ops exactly as PyTorch maps them.

``x += y`` is ``x.add_(y)`` (same storage, version + 1); ``x = x + y`` is a new tensor.
"""
from __future__ import annotations

from ..tensor import Tensor
from . import elementwise as ew


def _rtruediv(self, other):
    return self.reciprocal() * other


Tensor.__add__ = lambda self, other: self.add(other)
Tensor.__radd__ = lambda self, other: self.add(other)
Tensor.__iadd__ = lambda self, other: self.add_(other)
Tensor.__sub__ = lambda self, other: self.sub(other)
Tensor.__rsub__ = lambda self, other: ew.rsub(self, other)
Tensor.__isub__ = lambda self, other: self.sub_(other)
Tensor.__mul__ = lambda self, other: self.mul(other)
Tensor.__rmul__ = lambda self, other: self.mul(other)
Tensor.__imul__ = lambda self, other: self.mul_(other)
Tensor.__truediv__ = lambda self, other: self.div(other)
Tensor.__rtruediv__ = _rtruediv
Tensor.__itruediv__ = lambda self, other: self.div_(other)
Tensor.__pow__ = lambda self, other: self.pow(other)
Tensor.__rpow__ = lambda self, other: ew._rpow(self, other)
Tensor.__ipow__ = lambda self, other: self.pow_(other)
Tensor.__neg__ = lambda self: self.neg()
Tensor.__abs__ = lambda self: self.abs()
Tensor.__gt__ = lambda self, other: self.gt(other)
Tensor.__lt__ = lambda self, other: self.lt(other)
Tensor.__ge__ = lambda self, other: self.ge(other)
Tensor.__le__ = lambda self, other: self.le(other)
Tensor.__eq__ = lambda self, other: self.eq(other)
Tensor.__ne__ = lambda self, other: self.ne(other)
Tensor.__and__ = lambda self, other: self.logical_and(other)
Tensor.__or__ = lambda self, other: self.logical_or(other)
Tensor.negative = Tensor.neg
Tensor.multiply = Tensor.mul
Tensor.subtract = Tensor.sub
Tensor.divide = Tensor.div
Tensor.true_divide = Tensor.div
