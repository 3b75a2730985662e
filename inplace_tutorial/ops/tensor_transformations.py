"""rot90, fliplr and flipud: the rotations and mirrorings of PyTorch's TensorTransformations.cpp.

``fliplr``/``flipud`` are ``flip`` over one dim (FlipBackward0 in the graph, ops/reorder.py).
``rot90`` has its own node, Rot90Backward0, which saves ``k`` and ``dims`` as typed and turns
the gradient back by ``-k``. Its result is a new tensor laid out as PyTorch's composite leaves
it: k = 1 or 3 is a flip transposed (the flip's strides with the two dims swapped), k = 2 a
flip, k = 0 a contiguous clone.
"""
from __future__ import annotations

import numpy as np

from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..creation import empty_strided
from ..layout import contiguous_strides, dense_strides, wrap_dim
from ..tensor import Tensor, tensor_method
from .arg_checks import check_int, int_list, saved, signed


# --------------------------------------------------------------------------- fliplr, flipud
@binding()
@tensor_method
def fliplr(self) -> Tensor:
    """Mirror left-right: flip(1), for at least 2 dims."""
    if self.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return self.flip(1)


@binding()
@tensor_method
def flipud(self) -> Tensor:
    """Mirror up-down: flip(0), for at least 1 dim."""
    if self.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return self.flip(0)


# --------------------------------------------------------------------------- rot90
def _rot90_dims(self: Tensor, dims: tuple[int, ...]) -> tuple[int, int]:
    """rot90's checks in PyTorch's order: two dims, a tensor of at least 2 dims, each dim in
    range (wrapped), then two different dims (compared as typed)."""
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    n = self.dim()
    if n < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {n}")
    d0, d1 = wrap_dim(dims[0], n), wrap_dim(dims[1], n)
    if dims[0] == dims[1] or abs(dims[0] - dims[1]) == n:
        raise RuntimeError("expected rotation dims to be different, but got dim0 = "
                           f"{dims[0]} and dim1 = {dims[1]}")
    return d0, d1


def _rotated(self: Tensor, turns: int, d0: int, d1: int) -> Tensor:
    """A new tensor holding self turned ``turns`` quarter turns from d0 towards d1, in the
    layout PyTorch's clone/flip/transpose leave (see the module docstring)."""
    shape = list(self._shape)
    strides = dense_strides(self._shape, self._stride)  # empty_like's: the flip's layout
    if turns == 0 or strides is None:
        strides = contiguous_strides(self._shape)
    strides = list(strides)
    if turns % 2:
        shape[d0], shape[d1] = shape[d1], shape[d0]
        strides[d0], strides[d1] = strides[d1], strides[d0]
    out = empty_strided(tuple(shape), tuple(strides), self.dtype)
    out._storage.op = "rot90"
    out._array()[...] = np.rot90(self._array(), turns, axes=(d0, d1))
    return out


@binding()
@tensor_method
def rot90(self, k=1, dims=(0, 1)) -> Tensor:
    """Rotate by 90 degrees k times in the plane of dims, from dims[0] towards dims[1]."""
    k = check_int("rot90", "k", k, 1)
    dims = int_list("rot90", "dims", (dims,), position=2, varargs=False)
    d0, d1 = _rot90_dims(self, dims)
    out = _rotated(self, k % 4, d0, d1)
    return record("rot90", out, {"self": self}, k=saved(k), dims=saved(dims))


@derivative("rot90", "Rot90Backward0")
def _rot90_bw(ctx, g):
    return (g.rot90(-signed(ctx.attr("k")), signed(ctx.attr("dims"))),)


__all__ = ["fliplr", "flipud", "rot90"]
