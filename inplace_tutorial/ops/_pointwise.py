"""The shared machinery of the table-driven unary ops (trig.py, unary_math.py): a registry of
kernels, the two drivers that run a registered op out of place or in place, and PyTorch's
``not_implemented`` backward for the in-place forms it refuses to differentiate.

An op module registers each op once (kernel, float result or not, derivative entry) and then
writes its two public methods as one-line ``def``s that call :func:`unary` / :func:`unary_`.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..autograd.derivatives import derivative
from ..autograd.errors import INFERENCE_INPLACE
from ..creation import empty_strided
from ..modes import STATE
from ..tensor import Tensor
from . import dtype_rules, unary_nan_bits
from .tensor_iterator import (
    arr,
    check_inplace_operands,
    inplace_elementwise,
    new_elementwise,
    out_strides,
    pure_kernel,
    write_inplace,
)

# name -> (kernel(x, out, dtype), integer inputs give a float result?)
KERNELS: dict[str, tuple[Callable, bool]] = {}


def register(name: str, kernel: Callable, node: str, float_out: bool = True,
             saves: dict | None = None, refused: dict | None = None,
             inplace_node: str | None = None):
    """Register ``name``'s kernel and, as a decorator, its backward formula.

    ``refused`` maps a dtype's short name ("Bool", "Long") to the kernel name PyTorch's
    NotImplementedError quotes. ``inplace_node`` names the node of an in-place form whose
    derivative PyTorch leaves unimplemented (acosh_, asinh_, atanh_)."""
    KERNELS[name] = (unary_nan_bits.tag(name, kernel), float_out)
    for short, kname in (refused or {}).items():
        dtype_rules.UNSUPPORTED[(name, short)] = _refusal(kname, short)
    if inplace_node is not None:
        derivative(name + "_", inplace_node)(not_implemented(f"inplace version of {name}"))

    def deco(bw):
        return derivative(name, node, saves=saves)(bw)
    return deco


def _refusal(kernel: str, short: str):
    return lambda: NotImplementedError(f'"{kernel}" not implemented for \'{short}\'')


def not_implemented(what: str):
    """PyTorch's not_implemented(...) formula: backward through this node raises."""
    def bw(ctx, g):
        raise NotImplementedError(f"the derivative for '{what}' is not implemented.")
    return bw


def unary(name: str, self: Tensor, kernel: Callable | None = None, **attrs) -> Tensor:
    """Out of place; ``kernel`` overrides the registered one for ops with arguments."""
    registered, float_out = KERNELS[name]
    return new_elementwise(name, float_out, kernel or registered, self, **attrs)


def unary_(name: str, self: Tensor, node_op: str | None = None, kernel: Callable | None = None,
           **attrs) -> Tensor:
    """In place; ``node_op`` picks another derivative row (acosh_'s not-implemented node)."""
    registered, float_out = KERNELS[name]
    kernel = kernel or registered
    if node_op is None:
        return inplace_elementwise(name, float_out, kernel, self, **attrs)
    dtype_rules.check(name, self.dtype)
    return inplace_elementwise(node_op, float_out, kernel, self, **attrs)


def ufunc(f) -> Callable:
    """A one-input NumPy ufunc as a kernel that casts like PyTorch."""
    return pure_kernel(lambda x, out, dtype: f(x, out=out, dtype=dtype, casting="unsafe"))


def integer_identity(f) -> Callable:
    """floor/ceil/trunc/round: integers are already whole, so they are copied unchanged."""
    @pure_kernel
    def kernel(x, out, dtype):
        if np.dtype(dtype).kind in "iub":
            if out is not x:
                np.copyto(out, x, casting="unsafe")
            return
        f(x, out=out, dtype=dtype, casting="unsafe")
    return kernel


def nondiff_inplace(op: str, self: Tensor, others: tuple, kernel: Callable,
                    result_dtype) -> Tensor:
    """An in-place op autograd doesn't see (logical_*_, bitwise_*_): PyTorch neither records
    a node nor runs the leaf/view checks; the kernel's checks and the version bump remain."""
    if self._inference and not STATE["inference"]:
        raise RuntimeError(INFERENCE_INPLACE)
    check_inplace_operands(self, others, result_dtype)
    a = self._array()
    write_inplace(lambda o, xs: kernel(*xs, out=o, dtype=result_dtype.np), op, self,
                  [a, *[arr(o) for o in others]], others)
    self._vc.bump(op)
    return self


def new_output(op: str, shape: tuple, dtype, operands) -> Tensor:
    """A fresh result laid out as TensorIterator lays it out (it follows the operands'
    strides: a transposed input gives a transposed result)."""
    strides = out_strides(shape, operands)
    if strides is None:
        return Tensor._empty(shape, dtype, op)
    out = empty_strided(shape, strides, dtype)
    out._storage.op = op
    return out
