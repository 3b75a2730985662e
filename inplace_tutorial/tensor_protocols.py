"""Python's protocols for a tensor, as torch/_tensor.py writes them in Python: repr(x), len(x),
iter(x), reversed(x), ``v in x``, f"{x}" and NumPy's ``np.asarray(x)``.

Most are made of ops (iter is unbind, reversed is flip, ``in`` is eq and any, a 0-d tensor's
format is item; repr is _repr.py's), so they are attached to Tensor from here when
``inplace_tutorial`` is imported, as tensor_conversions.py attaches item() and numpy();
tensor.py keeps what a tensor is (and ``__hash__``, identity from birth). Each is named
``Tensor.__len__`` ..., so that Python's own errors read as torch's (``Tensor.__len__() takes
1 positional argument ...``).
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ._repr import tensor_repr
from .tensor import Tensor


def __repr__(self: Tensor) -> str:
    return tensor_repr(self)


def __array__(self: Tensor, dtype=None, copy=None) -> np.ndarray:
    a = self._array()
    return a.astype(dtype) if dtype is not None else a


def __len__(self: Tensor) -> int:
    if not self._shape:
        raise TypeError("len() of a 0-d tensor")
    return self._shape[0]


def __iter__(self: Tensor):
    if not self._shape:
        raise TypeError("iteration over a 0-d tensor")
    return iter(self.unbind(0))


def __reversed__(self: Tensor) -> Tensor:
    """reversed(x): x flipped along dim 0 (a 0-d tensor: itself), one new tensor."""
    return self if not self._shape else self.flip(0)


def __contains__(self: Tensor, element: Any) -> bool:
    """``v in x``: any element equal to v (a Tensor or a number), not a walk of the rows."""
    if not isinstance(element, (Tensor, numbers.Number)):
        raise RuntimeError("Tensor.__contains__ only supports Tensor or scalar, but you "
                           f"passed in a {type(element)}.")
    return bool((element == self).any().item())


def __format__(self: Tensor, spec: str) -> str:
    """f"{loss}" of a 0-d tensor formats its number ("2.5", as torch/_tensor.py does; a
    Parameter is not a plain Tensor there); any other tensor only with an empty spec."""
    if not self._shape and type(self) is Tensor:
        return format(self.item(), spec)
    return object.__format__(self, spec)


for _protocol in (__repr__, __array__, __len__, __iter__, __reversed__, __contains__,
                  __format__):
    _protocol.__qualname__ = f"Tensor.{_protocol.__name__}"
    setattr(Tensor, _protocol.__name__, _protocol)
