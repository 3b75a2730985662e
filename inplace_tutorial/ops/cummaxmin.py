"""cummax and cummin: the running maximum (minimum) along a dim, and where it was taken.

PyTorch's kernel walks each line keeping the best value so far and its index; an element
replaces it when it is NaN, or when the best is no NaN and the element is >= it (<= for cummin).
So among equal values the later one wins (its index, and its zero's sign), and every NaN takes
over. Here: NumPy's running maximum says where a line's value reaches it (or is NaN); the
running maximum of those positions is the index, and the values are read back through it, so
they are the very elements PyTorch copies. The node saves self and the indices; backward adds
each gradient into the element it came from (cummaxmin_backward: a scatter_add).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..creation import zeros
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from .arg_checks import check_int, saved, signed
from .sorting import _return_type
from .workspace import chunks

CummaxResult = _return_type("cummax")
CumminResult = _return_type("cummin")


def check_scan_dim(op: str, self: Tensor, dim: int) -> int | None:
    """The dim, wrapped; a 0-dim tensor takes only -1 or 0 (in cummax's own words), and an
    empty one any dim at all (PyTorch returns before wrapping it): None then."""
    if self.dim() == 0:
        if dim not in (-1, 0):
            raise IndexError(f"{op}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
        return None
    if self.numel() == 0:
        return None
    return wrap_dim(dim, self.dim())


def _running(a: np.ndarray, values: np.ndarray, indices: np.ndarray, greatest: bool) -> None:
    """The running best of each line (the last axis), chunk by chunk of lines."""
    n = a.shape[-1]
    best = np.maximum if greatest else np.minimum
    ramp = np.arange(n)
    wide = np.float32 if a.dtype.name == "bfloat16" else None  # NumPy orders it as float32
    with np.errstate(invalid="ignore"):
        for part in chunks(a.shape[:-1], max(1, 512 // n)):
            line = a[part] if wide is None else a[part].astype(wide)
            run = best.accumulate(line, axis=-1)  # NaN, once met, stays
            taken = line == run
            if line.dtype.kind == "f":
                taken |= np.isnan(line)
            idx = indices[part]
            np.multiply(taken, ramp, out=idx)
            np.maximum.accumulate(idx, axis=-1, out=idx)
            values[part] = np.take_along_axis(a[part], idx, axis=-1)


def _cummaxmin(self: Tensor, op: str, dim) -> tuple[Tensor, Tensor]:
    dim = check_int(op, "dim", dim, 1)
    d = check_scan_dim(op, self, dim)
    values = Tensor._empty(self._shape, self.dtype, op)
    indices = Tensor._empty(self._shape, dtypes.int64, op + " (indices)")
    if self.dim() == 0:
        values._array()[...] = self._array()
        indices._array()[...] = 0
    elif d is not None:
        _running(np.moveaxis(self._array(), d, -1), np.moveaxis(values._array(), d, -1),
                 np.moveaxis(indices._array(), d, -1), op == "cummax")
    record(op, values, {"self": self}, dim=saved(dim), indices=indices)
    return values, indices


@binding()
@tensor_method
def cummax(self, dim: int):
    """The running maximum along dim, and the index it was taken from (ties: the later)."""
    return CummaxResult(_cummaxmin(self, "cummax", dim))


@binding()
@tensor_method
def cummin(self, dim: int):
    """The running minimum along dim, and the index it was taken from (ties: the later)."""
    return CumminResult(_cummaxmin(self, "cummin", dim))


def _cummaxmin_bw(ctx, g):
    """cummaxmin_backward: zeros of self's shape, each gradient added at its index."""
    x, idx = ctx.saved("self"), ctx.saved("indices")
    out = zeros(x._shape, dtype=g.dtype)
    if x.numel() == 0:
        return (out,)
    if x.dim() == 0:
        out._array()[...] = g._array()
        return (out,)
    return (out.scatter_add_(wrap_dim(signed(ctx.attr("dim")), x.dim()), idx, g),)


derivative("cummax", "CummaxBackward0", saves={"self": None, "indices": None})(_cummaxmin_bw)
derivative("cummin", "CumminBackward0", saves={"self": None, "indices": None})(_cummaxmin_bw)
