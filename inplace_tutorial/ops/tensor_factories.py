"""``x.new_zeros(2, 3)``, ``new_ones``, ``new_full``, ``new_empty``, ``new_tensor``: fresh
tensors (creation.py) that take their dtype from ``x`` unless ``dtype=`` says otherwise.

Nothing here touches ``x``'s storage or graph: the result is a new leaf, as ``torch.zeros``
makes one. The size arguments bind as PyTorch's do: ``new_zeros`` and ``new_ones`` take
``(2, 3)`` or ``2, 3``; ``new_full`` only a sequence.
"""
from __future__ import annotations

import warnings

from .. import dtypes
from ..arg_parser import argument_error, binding, int_list, is_number
from ..creation import empty, full, tensor
from ..tensor import Tensor, tensor_method


def _size(op: str, size: tuple, varargs: bool = True, kwargs: dict | None = None) -> tuple:
    """The size as positional ints, one sequence, or ``size=`` by keyword."""
    kwargs = kwargs or {}
    if set(kwargs) - {"size"}:
        raise TypeError(f"{op}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if "size" in kwargs and not size:
        size, varargs = (kwargs["size"],), False
    if not size:
        raise TypeError(f'{op}() missing 1 required positional arguments: "size"')
    return int_list(op, "size", size, position=1, varargs=varargs)


def _options(op: str, dtype, requires_grad) -> None:
    if dtype is not None and not isinstance(dtype, dtypes.dtype):
        raise argument_error(op, "dtype", None, "torch.dtype", dtype)
    if not isinstance(requires_grad, bool):
        raise argument_error(op, "requires_grad", None, "bool", requires_grad)


def _filled(op: str, self: Tensor, size: tuple, value, dtype, requires_grad: bool,
            kwargs: dict) -> Tensor:
    shape = _size(op, size, kwargs=kwargs)
    _options(op, dtype, requires_grad)
    return full(shape, value, dtype=dtype or self.dtype, requires_grad=requires_grad)


@tensor_method
def new_zeros(self, *size, dtype=None, requires_grad: bool = False, **kwargs) -> Tensor:
    return _filled("new_zeros", self, size, 0, dtype, requires_grad, kwargs)


@tensor_method
def new_ones(self, *size, dtype=None, requires_grad: bool = False, **kwargs) -> Tensor:
    return _filled("new_ones", self, size, 1, dtype, requires_grad, kwargs)


@tensor_method
def new_empty(self, *size, dtype=None, requires_grad: bool = False, **kwargs) -> Tensor:
    shape = _size("new_empty", size, kwargs=kwargs)
    _options("new_empty", dtype, requires_grad)
    return empty(shape, dtype=dtype or self.dtype, requires_grad=requires_grad)


@binding()
@tensor_method
def new_full(self, size=None, fill_value=None, *, dtype=None,
             requires_grad: bool = False) -> Tensor:
    if fill_value is None and size is not None:
        raise TypeError('new_full() missing 1 required positional arguments: "fill_value"')
    if isinstance(fill_value, Tensor) and fill_value.numel() == 1:
        fill_value = fill_value.item()  # a Number parameter takes a one-element tensor
    shape = _size("new_full", () if size is None else (size,), varargs=False)
    if not is_number(fill_value):
        raise argument_error("new_full", "fill_value", 2, "Number", fill_value)
    _options("new_full", dtype, requires_grad)
    return full(shape, fill_value, dtype=dtype or self.dtype, requires_grad=requires_grad)


_NO_DATA = object()


@tensor_method
def new_tensor(self, data=_NO_DATA, dtype=None, requires_grad: bool = False) -> Tensor:
    """A copy of ``data`` in self's dtype (data's own dtype is not kept, unlike tensor())."""
    if data is _NO_DATA:
        raise TypeError('new_tensor() missing 1 required positional arguments: "data"')
    _options("new_tensor", dtype, requires_grad)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=3)
    return tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)


__all__ = ["new_empty", "new_full", "new_ones", "new_tensor", "new_zeros"]
