"""Ops that overwrite self wholesale: copy_, zero_, fill_ and the random fills.

Their backward for self is zero (the old values no longer matter), so they save nothing.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record_inplace
from ..creation import default_generator
from ..tensor import Tensor, tensor_method
from ._iter import (
    CHUNK,
    Scratch,
    arr,
    broadcast_shapes,
    check_internal_overlap,
    check_operands,
    check_partial_overlap,
    chunks,
    shape_of,
)


def _zeros_for(ctx, g):
    return (g * 0,)


@tensor_method
def copy_(self, src, non_blocking: bool = False) -> Tensor:
    check_operands("copy_", (src,))  # a NumPy array is refused before any write, as PyTorch
    def check():
        check_internal_overlap(self)

        check_partial_overlap(self, src)
        shape = broadcast_shapes(self._shape, shape_of(src))
        if shape != self._shape:
            raise RuntimeError(
                f"output with shape [{', '.join(map(str, self._shape))}] doesn't match the "
                f"broadcast shape [{', '.join(map(str, shape))}]")

    same_cells = (isinstance(src, Tensor) and src._storage is self._storage
                  and (src._offset, src._shape, src._stride) == (self._offset, self._shape,
                                                                  self._stride))
    if same_cells and src.dtype is self.dtype:
        # PyTorch returns early when src is exactly self's cells (the version still bumps)
        return record_inplace("copy_", self, {"self": self, "src": src}, compute=lambda: None)
    a = self._array()
    return record_inplace("copy_", self, {"self": self, "src": src},
                          compute=lambda: np.copyto(a, arr(src), casting="unsafe"), check=check)


@derivative("copy_", "CopyBackwards", inputs=("self", "src"), qualified=True)
def _copy_bw(ctx, g):
    return (g * 0 if ctx.needs(0) else None, g if ctx.needs(1) else None)


def _simple_inplace(op: str, self: Tensor, fill, inputs=None) -> Tensor:
    a = self._array()
    # No overlap check: filling an expanded tensor writes the same value twice, which is fine
    return record_inplace(op, self, inputs or {"self": self}, compute=lambda: fill(a))


@tensor_method
def zero_(self) -> Tensor:
    return _simple_inplace("zero_", self, lambda a: a.fill(0))


@tensor_method
def fill_(self, value) -> Tensor:
    if isinstance(value, Tensor):
        value = value.item()
    if dtypes.is_number(value):  # PyTorch's checked conversion (int8 refuses 300, NaN ...)
        value = dtypes.checked_scalar(value, self.dtype, "fill", self.numel())
    return _simple_inplace("fill_", self, lambda a: a.fill(value))


derivative("zero_", "ZeroBackward0")(_zeros_for)


derivative("fill_", "FillBackward2")(_zeros_for)


def _fill_chunked(a: np.ndarray, draw, op: str) -> None:
    """Fill ``a`` from ``draw(n)->array``; contiguous arrays are filled directly."""
    gen = default_generator()
    if a.flags.c_contiguous:
        draw(gen, a.reshape(-1))
        return
    with Scratch(a.dtype, op, a.size) as scratch:
        for idx in chunks(a.shape, scratch.capacity):
            part = a[idx]
            tmp = scratch.view(part.shape)
            draw(gen, tmp.reshape(-1))
            part[...] = tmp


@tensor_method
def normal_(self, mean: float = 0.0, std: float = 1.0) -> Tensor:
    def draw(gen, out):
        gen.standard_normal(out=out, dtype=out.dtype)
        out *= std
        out += mean
    return _simple_inplace("normal_", self, lambda a: _fill_chunked(a, draw, "normal_"))


@tensor_method
def uniform_(self, a: float = 0.0, b: float = 1.0) -> Tensor:
    def draw(gen, out):
        gen.random(out=out, dtype=out.dtype)
        out *= b - a
        out += a
    return _simple_inplace("uniform_", self, lambda arr_: _fill_chunked(arr_, draw, "uniform_"))


@tensor_method
def random_(self, from_: int = 0, to: int | None = None) -> Tensor:
    if to is None:
        from_, to = 0, (from_ if from_ else (2 ** 24 if self.dtype.category == 2 else 2 ** 63 - 1))
    def draw(gen, out):
        for i in range(0, out.size, CHUNK):
            part = out[i:i + CHUNK]
            part[...] = gen.integers(from_, to, size=part.size)
    return _simple_inplace("random_", self, lambda a: _fill_chunked(a, draw, "random_"))


derivative("normal_", "NormalBackward0")(_zeros_for)
derivative("uniform_", "UniformBackward0")(_zeros_for)
derivative("random_", "RandomBackward0")(_zeros_for)
