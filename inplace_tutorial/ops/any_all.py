"""Tensor.any / Tensor.all (and torch.any / torch.all with out=): is any / every element
non-zero, over all dims, one dim or a tuple of dims (``()`` reduces nothing).

Not differentiable: no node, whatever the input. The result is bool, except for a uint8 input,
whose result stays uint8 (0 or 1), as in PyTorch (a leftover of the days before bool tensors).
NaN is non-zero, so it counts as true. out= takes a bool or uint8 tensor, nothing else.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import as_called, binding, int_list, invalid_combination, is_index
from ..tensor import Tensor, tensor_method
from .out_functions import computed, out_form
from .reduce import _dims, _out_shape

_FORMS = ["", "tuple of ints dim = None, bool keepdim = False", "int dim, bool keepdim = False"]


def _check_args(op: str, dim, keepdim) -> None:
    """dim is None, an int or a sequence of ints, keepdim a bool; else no overload fits. The
    parser takes a sequence led by an int as ``tuple of ints`` and unpacks it later, element by
    element (``any(): argument 'dim' failed to unpack the object at pos 2 ...``)."""
    led_by_int = isinstance(dim, (list, tuple)) and (not dim or is_index(dim[0]))
    if (dim is None or is_index(dim) or led_by_int) and isinstance(keepdim, bool):
        if led_by_int:
            int_list(op, "dim", (dim,), varargs=False)
        return
    args, kwargs = as_called(["dim", "keepdim"], (dim, keepdim), defaults=(None, False))
    raise invalid_combination(op, args, _FORMS, kwargs)


def _any_all(self: Tensor, op: str, dim, keepdim: bool) -> Tensor:
    _check_args(op, dim, keepdim)
    dims = _dims(self, None if dim is None else (int(dim),) if is_index(dim) else
                 tuple(int(d) for d in dim))
    rd = dtypes.uint8 if self.dtype is dtypes.uint8 else dtypes.bool_
    out = Tensor._empty(_out_shape(self, dims, keepdim), rd, op)
    kernel = np.any if op == "any" else np.all
    # NumPy's any/all keep the out array's type: a uint8 result is written as 0 / 1
    kernel(self._array(), axis=dims, keepdims=keepdim, out=out._array())
    return out


@binding()
@tensor_method
def any(self, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A001  (PyTorch's name)
    return _any_all(self, "any", dim, keepdim)


@binding()
@tensor_method
def all(self, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A001  (PyTorch's name)
    return _any_all(self, "all", dim, keepdim)


def _any_all_out(op: str, self: Tensor, dim, keepdim, out) -> Tensor:
    def rule(o: Tensor, r: Tensor) -> None:
        if o.dtype not in (dtypes.bool_, dtypes.uint8):
            raise RuntimeError(f"{op} only supports bool tensor for result, got: "
                               f"{o.dtype.short}")
    return computed(op, out, (self,), lambda: _any_all(self, op, dim, keepdim), rule,
                    internal=False, differentiable=False)


@out_form("any")
def any_out(self: Tensor, dim=None, keepdim: bool = False, *, out=None) -> Tensor:
    return _any_all_out("any", self, dim, keepdim, out)


@out_form("all")
def all_out(self: Tensor, dim=None, keepdim: bool = False, *, out=None) -> Tensor:
    return _any_all_out("all", self, dim, keepdim, out)
