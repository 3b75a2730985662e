"""torch.Size: the tuple ``x.shape`` and ``x.size()`` return (PyTorch's torch/csrc/Size.cpp).

A tuple of ints that prints as PyTorch prints it and knows its number of elements. As in
PyTorch, ``torch.Size(...)`` checks its items, and a slice, ``+`` or ``*`` of a Size is a Size
again (``x.shape[1:]`` prints ``torch.Size([3, 4])``). tensor.py keeps shapes as bare tuples
and wraps them (``size_of``) only when asked.
"""
from __future__ import annotations

import numbers
import operator


def _size_item(i: int, v):
    """Item ``i`` as THPSize_pynew takes it: an int (a NumPy integer kept as it is), else its
    __index__ (True is 1, a one-element integer tensor its value), else refused."""
    if isinstance(v, numbers.Integral) and type(v) is not bool:
        return v
    try:
        return operator.index(v)
    except TypeError:
        pass
    raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is "
                    f"'{type(v).__name__}')")


class Size(tuple):
    """torch.Size: a tuple that prints as ``torch.Size([2, 3])``."""

    __slots__ = ()

    def __new__(cls, *args, **kwargs):
        items = tuple.__new__(cls, *args, **kwargs)  # tuple's own refusals (Size(3) ...)
        if all(type(v) is int for v in items):
            return items
        return tuple.__new__(cls, [_size_item(i, v) for i, v in enumerate(items)])

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        return tuple.__new__(Size, item) if type(key) is slice else item

    def __add__(self, other):
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to "
                            "torch.Size")
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):  # (5,) + x.shape: a Size too (Python asks the subclass first)
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, n):
        if not hasattr(n, "__index__"):  # what Python says for a plain tuple
            raise TypeError(f"can't multiply sequence by non-int of type '{type(n).__name__}'")
        return tuple.__new__(Size, tuple.__mul__(self, n))

    def __rmul__(self, n):  # 2 * x.shape
        return self.__mul__(n)

    def __reduce__(self):  # pickled and copied as torch.Size([...]) is: Size(tuple)
        return (Size, (tuple(self),))

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n


def size_of(shape: tuple) -> Size:
    """A tensor's own shape as a Size: its sizes are ints already, so nothing is checked."""
    return tuple.__new__(Size, shape)
