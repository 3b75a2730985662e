"""A tensor's values handed to Python and NumPy: item(), tolist(), numpy(), bool(x),
float(x), int(x) and operator.index(x).

PyTorch defines these in C (python_variable_methods.cpp, tensor_numpy.cpp); tensor.py says
what a tensor is, these read its cells (``Tensor._array``) and are attached to Tensor at the
bottom of this file when ``inplace_tutorial`` is imported, with PyTorch's refusal of extra
arguments (method_flags.py). ``__array__`` and the dunders torch/_tensor.py writes in Python
(``__len__``, ``__iter__``, ``__repr__`` ...) stay in class Tensor, where CPython's own errors
name them as torch's do (``Tensor.__len__() takes 1 positional argument ...``).
"""
from __future__ import annotations

import numpy as np

from .arg_parser import type_name
from .method_flags import keyword_only, no_arguments
from .modes import STATE
from .tensor import Tensor


def item(self: Tensor):
    if self.numel() != 1:
        raise RuntimeError(
            f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
    return self._array().reshape(-1)[0].item()


def tolist(self: Tensor):
    return self._array().tolist()


def numpy(self: Tensor, *, force: bool = False, **unknown) -> np.ndarray:
    """The tensor's own cells as a NumPy array (no copy: writes show through, no version
    bump). PyTorch refuses a tensor that requires grad only while grad mode is on (under
    ``no_grad()`` it converts); ``force=True`` is ``t.detach().numpy()``."""
    # torch's parser checks force's type before it looks at keywords it doesn't know
    if type(force) is not bool:  # the parser's bool: numpy.bool_ and 1 are refused too
        raise TypeError(f"numpy(): argument 'force' must be bool, not {type_name(force)}")
    if unknown:
        raise TypeError(f"numpy() got an unexpected keyword argument '{next(iter(unknown))}'")
    if not force and self._requires_grad and STATE.grad_mode:
        raise RuntimeError(
            "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
            "instead.")
    if self.dtype.short == "BFloat16":  # NumPy has no bfloat16 of its own
        raise TypeError("Got unsupported ScalarType BFloat16")
    return self._array()


def __bool__(self: Tensor) -> bool:
    n = self.numel()
    if n != 1:
        how_many = "no values" if n == 0 else "more than one value"
        raise RuntimeError(f"Boolean value of Tensor with {how_many} is ambiguous")
    return bool(item(self))


def _one_element(t: Tensor) -> None:
    if t.numel() != 1:  # int(x), float(x): Python's conversion, not item()'s words
        raise ValueError("only one element tensors can be converted to Python scalars")


def __float__(self: Tensor) -> float:
    _one_element(self)
    return float(item(self))


def __int__(self: Tensor) -> int:
    _one_element(self)
    return int(item(self))


def __index__(self: Tensor) -> int:
    if self.dtype.category == 2 or self.numel() != 1:
        raise TypeError("only integer tensors of a single element can be converted to an index")
    return int(item(self))


# The registration step: like PyTorch's C methods, these refuse any argument (numpy() a
# positional one).
Tensor.item = no_arguments(item)
Tensor.tolist = no_arguments(tolist)
Tensor.numpy = keyword_only(numpy)
Tensor.__bool__ = no_arguments(__bool__)
Tensor.__float__ = no_arguments(__float__)
Tensor.__int__ = no_arguments(__int__)
Tensor.__index__ = no_arguments(__index__)
