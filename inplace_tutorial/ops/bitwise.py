"""Bitwise ops on integer and bool tensors: and, or, xor, not and the shifts, out of place and
in place. They are what ``&``, ``|``, ``^``, ``~``, ``<<`` and ``>>`` call (operators.py); on
bool tensors and/or/xor/not are the logical ones, on integers they work bit by bit.

Floating-point tensors are refused with PyTorch's kernel names ("bitwise_and_cpu" not
implemented for 'Float'). Autograd never sees these ops (integer results carry no gradient),
so the in-place forms only check their operands and bump the version.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..layout import broadcast_shapes
from ..tensor import Tensor, tensor_method
from ._pointwise import new_output, nondiff_inplace
from .arg_checks import check_overloads
from .tensor_iterator import arr, shape_of

# op -> (NumPy ufunc, PyTorch's kernel name, works on bool?)
OPS = {
    "bitwise_and": (np.bitwise_and, "bitwise_and_cpu", True),
    "bitwise_or": (np.bitwise_or, "bitwise_or_cpu", True),
    "bitwise_xor": (np.bitwise_xor, "bitwise_xor_cpu", True),
    "bitwise_left_shift": (np.left_shift, "lshift_cpu", False),
    "bitwise_right_shift": (np.right_shift, "rshift_cpu", False),
    "bitwise_not": (np.invert, "bitwise_not_cpu", True),
}


def _check_dtype(op: str, rd: dtypes.dtype) -> None:
    _, kernel, on_bool = OPS[op]
    if rd.is_floating_point or (rd is dtypes.bool_ and not on_bool):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{rd.short}\'')


def _kernel(op: str, rd: dtypes.dtype):
    ufunc = OPS[op][0]

    def kernel(*xs, out, dtype):
        _check_dtype(op, rd)  # after the cast check, before the first write (as PyTorch)
        # a Python int is a Scalar of 64 bits, signed or unsigned (2**63 .. 2**64-1), cast to
        # the result's type as C++ casts: i & 2**63 is i & INT64_MIN (NumPy would refuse it)
        xs = [dtypes.kernel_scalar(x, rd.np) if type(x) is int else x for x in xs]
        ufunc(*xs, out=out, dtype=rd.np, casting="unsafe")
    return kernel


def bitwise(op: str, self: Tensor, *others) -> Tensor:
    """Out of place: a result of the promoted dtype and the broadcast shape."""
    if others:
        check_overloads(op, ["other"], others)
    rd = dtypes.result_type(self, *others)
    _check_dtype(op, rd)
    shape = self._shape
    for o in others:
        shape = broadcast_shapes(shape, shape_of(o))
    out = new_output(op, shape, rd, (self, *others))
    _kernel(op, rd)(arr(self), *[arr(o) for o in others], out=out._array(), dtype=rd.np)
    return out


def bitwise_(op: str, self: Tensor, *others) -> Tensor:
    if others:
        check_overloads(op + "_", ["other"], others)
    rd = dtypes.result_type(self, *others)
    return nondiff_inplace(op + "_", self, others, _kernel(op, rd), rd)


@binding()
@tensor_method
def bitwise_and(self, other) -> Tensor:
    return bitwise("bitwise_and", self, other)


@binding()
@tensor_method
def bitwise_and_(self, other) -> Tensor:
    return bitwise_("bitwise_and", self, other)


@binding()
@tensor_method
def bitwise_or(self, other) -> Tensor:
    return bitwise("bitwise_or", self, other)


@binding()
@tensor_method
def bitwise_or_(self, other) -> Tensor:
    return bitwise_("bitwise_or", self, other)


@binding()
@tensor_method
def bitwise_xor(self, other) -> Tensor:
    return bitwise("bitwise_xor", self, other)


@binding()
@tensor_method
def bitwise_xor_(self, other) -> Tensor:
    return bitwise_("bitwise_xor", self, other)


@binding()
@tensor_method
def bitwise_left_shift(self, other) -> Tensor:
    return bitwise("bitwise_left_shift", self, other)


@binding()
@tensor_method
def bitwise_left_shift_(self, other) -> Tensor:
    return bitwise_("bitwise_left_shift", self, other)


@binding()
@tensor_method
def bitwise_right_shift(self, other) -> Tensor:
    return bitwise("bitwise_right_shift", self, other)


@binding()
@tensor_method
def bitwise_right_shift_(self, other) -> Tensor:
    return bitwise_("bitwise_right_shift", self, other)


@tensor_method
def bitwise_not(self) -> Tensor:
    return bitwise("bitwise_not", self)


@tensor_method
def bitwise_not_(self) -> Tensor:
    return bitwise_("bitwise_not", self)
