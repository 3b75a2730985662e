"""softmax and log_softmax (PyTorch's SoftMax.cpp): a row's max subtracted, exponentials summed
in counted intermediates, and the backward rows that read the saved result.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from . import dtype_rules
from .arg_checks import (
    argument_error,
    check_int,
)
from .workspace import Scratch, chunk_len


def _keep_dim(shape: tuple, dim: int) -> tuple:
    """``shape`` with ``dim`` reduced to 1: a row max's or row sum's shape."""
    return shape[:dim] + (1,) + shape[dim + 1:]


def _softmax_into(self, dim: int, name: str, log: bool) -> Tensor:
    if 0 in self._shape:  # PyTorch never reaches the kernel (or its dtype check)
        return Tensor._empty(self._shape, self.dtype, name)
    if 0 <= dim < len(self._shape) - 1 and (name, self.dtype.short) in dtype_rules.UNSUPPORTED:
        # PyTorch's kernel for a dim that is not the last one has its own name
        raise dtype_rules._not_impl(f"{name}_kernel_impl", self.dtype.short)
    dtype_rules.check(name, self.dtype)
    a = self._array()
    out = Tensor._empty(self._shape, dtypes.float_result(self.dtype), name)
    o = out._array()
    if a.ndim == 0:  # a 0-dim tensor is one row of one element
        a, o, self = a.reshape(1), o.reshape(1), self.reshape(1)
    if a.size == 0:
        return out
    rowmax = Tensor._empty(_keep_dim(self._shape, dim), out.dtype, name + " (row max)")
    m = rowmax._array()
    # ufunc.reduce itself: np.max/np.sum add a Python wrapper (2-3 us of the 64x10 op)
    np.maximum.reduce(a, axis=dim, keepdims=True, out=m)
    np.subtract(a, m, out=o, casting="unsafe")
    if log:
        # the row sums of exp(x - max) without an input-sized temporary (PyTorch's kernel
        # sums as it goes): in the shared workspace when it holds them all (a batch of
        # class scores) or, along the last dim, a block of whole rows at a time; else exp
        # in place and x - max computed again (the same bits every way)
        room = chunk_len(o.dtype)
        if o.size <= room:
            with Scratch(o.dtype, name, o.size) as scratch:
                e = scratch.view(o.shape)
                np.exp(o, out=e)
                np.add.reduce(e, axis=dim, keepdims=True, out=m)
        elif dim == o.ndim - 1 and o.shape[-1] <= room:
            rows_o, rows_m = o.reshape(-1, o.shape[-1]), m.reshape(-1, 1)  # fresh: views
            step = room // o.shape[-1]
            with Scratch(o.dtype, name, o.size) as scratch:
                for r in range(0, rows_o.shape[0], step):
                    block = rows_o[r:r + step]
                    e = scratch.view(block.shape)
                    np.exp(block, out=e)
                    np.add.reduce(e, axis=1, keepdims=True, out=rows_m[r:r + step])
        else:
            rowsum = Tensor._empty(rowmax._shape, out.dtype, name + " (row sum)")
            s = rowsum._array()
            np.exp(o, out=o)
            np.add.reduce(o, axis=dim, keepdims=True, out=s)
            np.subtract(a, m, out=o, casting="unsafe")
            m = s
        np.log(m, out=m)
        np.subtract(o, m, out=o)
    else:
        np.exp(o, out=o)
        np.add.reduce(o, axis=dim, keepdims=True, out=m)  # the row max's buffer, reused
        np.divide(o, m, out=o)
    return out


def _softmax(op: str, self: Tensor, dim, dtype, log: bool) -> Tensor:
    """softmax(int dim, torch.dtype dtype = None): with a dtype, the input is cast first (a
    ToCopyBackward0 under the node, as PyTorch's input.toType(dtype))."""
    d = wrap_dim(check_int(op, "dim", dim, 1), self.dim())
    if dtype is not None:
        if not isinstance(dtype, dtypes.dtype):
            raise argument_error(op, "dtype", 2, "torch.dtype", dtype)
        self = self.to(dtype)
    return record(op, _softmax_into(self, d, op, log), {"self": self}, dim=d)


@binding()
@tensor_method
def softmax(self, dim: int, dtype=None) -> Tensor:
    return _softmax("softmax", self, dim, dtype, False)


@binding()
@tensor_method
def log_softmax(self, dim: int, dtype=None) -> Tensor:
    return _softmax("log_softmax", self, dim, dtype, True)


@derivative("softmax", "SoftmaxBackward0", saves={"result": None})
def _softmax_bw(ctx, g):
    r = ctx.saved("result")
    return (r * (g - (g * r).sum(dim=ctx.attr("dim"), keepdim=True)),)


@derivative("log_softmax", "LogSoftmaxBackward0", saves={"result": None})
def _log_softmax_bw(ctx, g):
    # g - exp(result) * g.sum(dim): fused into one output buffer and one row-sum buffer
    r, dim = ctx.saved("result"), ctx.attr("dim")
    out = Tensor._empty(r._shape, g.dtype, "log_softmax_backward")
    if not r._shape:
        return (g * 0,)  # log_softmax of one element is constant 0
    rows = Tensor._empty(_keep_dim(r._shape, dim), g.dtype, "log_softmax_backward (sum)")
    o, ga = out._array(), g._array()
    np.add.reduce(ga, axis=dim, keepdims=True, out=rows._array())
    np.exp(r._array(), out=o)
    np.multiply(o, rows._array(), out=o)
    np.subtract(ga, o, out=o)
    return (out,)
