"""Reordering copies: flip, roll and repeat.

Each writes a new tensor whose cells are self's cells moved: flip reverses dims, roll
shifts them cyclically, repeat tiles self. The kernels copy block by block from NumPy views
of self (no NumPy temporaries). Backward moves the gradient back: flip flips it again, roll
rolls it the other way, repeat sums the tiles. Their nodes save only the int arguments.
"""
from __future__ import annotations

import itertools

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..creation import empty_strided, zeros
from ..layout import dense_strides, wrap_dim
from ..tensor import Tensor, tensor_method
from .arg_checks import int_list, saved, signed, size_arg


def _like(self: Tensor, op: str, dtype: dtypes.dtype | None = None) -> Tensor:
    """A new tensor (of self's dtype unless given) laid out as empty_like(self) lays it out
    (preserve_format): self's strides when self is dense, else dense in self's memory order."""
    dtype = dtype or self.dtype
    strides = dense_strides(self._shape, self._stride)
    if strides is None:
        return Tensor._empty(self._shape, dtype, op)
    out = empty_strided(self._shape, strides, dtype)
    out._storage.op = op
    return out


# --------------------------------------------------------------------------- flip
@tensor_method
def flip(self, *dims, **kwargs) -> Tensor:
    dims = size_arg("flip", "dims", dims, kwargs)
    wrapped = [wrap_dim(d, self.dim()) for d in dims]
    for d in wrapped:
        if wrapped.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    out = _like(self, "flip")
    a = self._array()
    out._array()[...] = np.flip(a, axis=tuple(wrapped)) if self.dim() else a
    return record("flip", out, {"self": self}, dims=saved(dims))


@derivative("flip", "FlipBackward0")
def _flip_bw(ctx, g):
    return (g.flip(signed(ctx.attr("dims"))),)


# --------------------------------------------------------------------------- roll
def _roll_into(out: np.ndarray, a: np.ndarray, shifts: dict) -> None:
    """out = a rolled by shifts {dim: s}: every dim splits into two blocks, so 2**len(dims)
    block copies, each one slice assignment."""
    pieces = []
    for d, s in shifts.items():
        n = a.shape[d]
        s = s % n if n else 0
        pieces.append([(d, slice(s, None), slice(None, n - s)),
                       (d, slice(None, s), slice(n - s, None))])
    for combo in itertools.product(*pieces):
        dst, src = [slice(None)] * a.ndim, [slice(None)] * a.ndim
        for d, to, frm in combo:
            dst[d], src[d] = to, frm
        out[tuple(dst)] = a[tuple(src)]


@binding()
@tensor_method
def roll(self, shifts, dims=()) -> Tensor:
    shifts = int_list("roll", "shifts", (shifts,))  # an int or a sequence of ints
    dims = () if dims is None else int_list("roll", "dims", (dims,), position=2)
    if not shifts:
        raise RuntimeError("`shifts` required")
    if not dims and len(shifts) == 1:  # roll the flattened tensor, then view it back
        out = Tensor._empty(self._shape, self.dtype, "roll")
        src = self if self.is_contiguous() else self.contiguous()
        _roll_into(out._array().reshape(-1), src._array().reshape(-1), {0: shifts[0]})
        return record("roll", out, {"self": self}, dims=(), shifts=saved(shifts))
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                           f"dims:{len(dims)}")
    if self.dim() == 0:  # with dims given, even 0 and -1 are refused (no scalar wrapping)
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    total: dict = {}
    for s, d in zip(shifts, dims):
        d = wrap_dim(d, self.dim())
        total[d] = total.get(d, 0) + s
    out = Tensor._empty(self._shape, self.dtype, "roll")
    _roll_into(out._array(), self._array(), total)
    return record("roll", out, {"self": self}, dims=saved(dims), shifts=saved(shifts))


@derivative("roll", "RollBackward0")
def _roll_bw(ctx, g):
    back = tuple(-s for s in signed(ctx.attr("shifts")))
    return (g.roll(back, signed(ctx.attr("dims"))),)


# --------------------------------------------------------------------------- repeat
@tensor_method
def repeat(self, *repeats, **kwargs) -> Tensor:
    repeats = size_arg("repeat", "repeats", repeats, kwargs)
    if len(repeats) < self.dim():
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    lead = len(repeats) - self.dim()
    sizes = (1,) * lead + tuple(self._shape)
    target = [s * r for s, r in zip(sizes, repeats)]
    if any(r < 0 for r in repeats):
        bad = next(t for t, r in zip(target, repeats) if r < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: {target}")
    out = Tensor._empty(tuple(target), self.dtype, "repeat")
    if out.numel():
        # out seen as (r0, s0, r1, s1, ...): every tile is self, broadcast along the r's
        tiles = out._array().reshape([x for pair in zip(repeats, sizes) for x in pair])
        src = self._array().reshape(sizes)
        tiles[...] = src.reshape([x for s in sizes for x in (1, s)])
    return record("repeat", out, {"self": self}, repeats=saved(repeats),
                  self_sym_sizes=self._shape)


@derivative("repeat", "RepeatBackward0")
def _repeat_bw(ctx, g):
    repeats, sizes = signed(ctx.attr("repeats")), ctx.attr("self_sym_sizes")
    lead = len(repeats) - len(sizes)
    padded = (1,) * lead + tuple(sizes)
    if 0 in repeats or 0 in padded:
        return (zeros(sizes, dtype=g.dtype),)
    tiles = g.reshape(*[x for pair in zip(repeats, padded) for x in pair])
    summed = tiles.sum(dim=tuple(range(0, 2 * len(repeats), 2)))
    return (summed.reshape(*sizes),)
