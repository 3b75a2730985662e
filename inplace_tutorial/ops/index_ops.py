"""Whole slices picked by an index vector along one dimension: index_select, index_copy(_),
index_add(_), index_fill(_).

``x.index_copy_(0, idx, src)`` writes row ``src[i]`` into row ``idx[i]`` of x. The nodes save
the index tensor (with its version), so changing the index in place before backward raises,
as in PyTorch; the backward formulas are each other (index_select's gradient is an index_add).
"""
from __future__ import annotations

import numbers

import numpy as np

from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..layout import non_overlapping_and_dense, wrap_dim
from ..tensor import Tensor, tensor_method
from ._args import type_name
from ._iter import check_internal_overlap
from .joining import saved_dim, symint

_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor "
            "refer to a single memory location. Please clone() the tensor before performing the "
            "operation.")


def check_no_overlap(self: Tensor, other) -> None:
    """PyTorch's assert_no_overlap: an input sharing any cell with the written-to tensor is
    refused, even the very same cells (index ops read their inputs while they write)."""
    if not isinstance(other, Tensor) or other._storage is not self._storage:
        return
    if (self._shape, self._stride, self._offset) == (other._shape, other._stride, other._offset):
        raise RuntimeError(_OVERLAP)
    if not (non_overlapping_and_dense(self._shape, self._stride)
            and non_overlapping_and_dense(other._shape, other._stride)):
        return  # "too hard" for PyTorch too
    a0, b0 = self._offset, other._offset
    if a0 < b0 + other.numel() and b0 < a0 + self.numel():
        raise RuntimeError(_OVERLAP)


def check_args(op: str, dim, index, source=None, source_name: str = "source") -> None:
    """PyTorch's argument parser for (int dim, Tensor index[, Tensor source])."""
    if isinstance(dim, (bool, np.bool_)) or not isinstance(dim, numbers.Integral):
        raise TypeError(f"{op}(): argument 'dim' (position 1) must be int, not {type_name(dim)}")
    if not isinstance(index, Tensor):
        raise TypeError(f"{op}(): argument 'index' (position 2) must be Tensor, not "
                        f"{type_name(index)}")
    if source is not None and not isinstance(source, Tensor):
        raise TypeError(f"{op}(): argument '{source_name}' (position 3) must be Tensor, not "
                        f"{type_name(source)}")


def _sliced(shape: tuple, dim: int) -> list:
    return list(shape[:dim] + shape[dim + 1:]) if shape else []


def _check_bounds(op: str, idx: np.ndarray, dim: int, size: int) -> None:
    bad = idx[(idx < 0) | (idx >= size)]
    if bad.size:
        raise IndexError(f"{op}(): index {int(bad[0])} is out of bounds for dimension {dim} "
                         f"with size {size}")


def fresh_copy(self: Tensor, op: str) -> Tensor:
    """A contiguous copy of self in a new storage, not recorded (the out-of-place forms of
    the in-place index ops start from one)."""
    out = Tensor._empty(self._shape, self.dtype, op)
    np.copyto(out._array(), self._array())
    return out


def _at(dim: int, idx) -> tuple:
    """The NumPy index that picks ``idx`` along ``dim``."""
    return (slice(None),) * dim + (idx,)


# --------------------------------------------------------------------------- index_copy
def _index_copy_checks(self: Tensor, dim: int, index: Tensor, source: Tensor) -> np.ndarray:
    """index_copy's meta function, in its order; returns the flat index."""
    check_internal_overlap(self)
    check_no_overlap(self, index)
    check_no_overlap(self, source)
    if index.dim() >= 2:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.dim()})")
    n = index.numel()
    if source.dim() == 0 and n != 1:
        raise IndexError("index_copy_(): When source is scalar, index should have one element "
                         f"(got {n})")
    if source.dim() != self.dim() and source.dim() != 0 and self.dim() != 0:
        raise IndexError("index_copy_(): When source and destination are not scalars, their "
                         f"dimensionality must match. Source dimensionality ({source.dim()}), "
                         f"destination dimensionality ({self.dim()})")
    if index.dtype.short != "Long":
        raise RuntimeError("index_copy_(): Expected a long tensor for index, but got "
                           f"{index.dtype.short}")
    if self.dtype is not source.dtype:
        raise RuntimeError("index_copy_(): self and source expected to have the same dtype, but "
                           f"got (self) {self.dtype.short} and (source) {source.dtype.short}")
    dst, src = _sliced(self._shape, dim), _sliced(source._shape, dim)
    if dst != src:
        raise RuntimeError(
            "index_copy_(): Source/destination tensor must have same slice shapes. Destination "
            f"slice shape: {' '.join(map(str, dst))} at dimension {dim} and source slice shape: "
            f"{' '.join(map(str, src))} at dimension 0.")
    if source.dim() != 0 and n != source._shape[dim]:
        raise IndexError(f"index_copy_(): Number of indices ({n}) should be equal to "
                         f"source.size(dim) ({source._shape[dim]})")
    idx = index._array().reshape(-1)
    _check_bounds("index_copy_", idx, dim, self._shape[dim] if self.dim() else 1)
    return idx


def _index_copy_kernel(self: Tensor, dim: int, idx: np.ndarray, source: Tensor) -> None:
    a, s = self._array(), source._array()
    if self.dim() == 0 or source.dim() == 0:  # a scalar on either side: one element
        a[_at(dim, idx[0]) if self.dim() else ()] = s.reshape(-1)[0]
        return
    a[_at(dim, idx)] = s  # NumPy writes repeated indices in order: the last one wins, as on CPU


@tensor_method
def index_copy_(self, dim: int, index: Tensor, source: Tensor) -> Tensor:
    check_args("index_copy_", dim, index, source)
    found = []  # (wrapped dim, flat index), from the checks

    def check():
        d = wrap_dim(dim, self.dim())
        found.append((d, _index_copy_checks(self, d, index, source)))

    return record_inplace(
        "index_copy_", self, {"self": self, "source": source, "index": index},
        lambda: _index_copy_kernel(self, *found[0], source), check=check,
        dim=symint(dim), source_dim=source.dim())


@tensor_method
def index_copy(self, dim: int, index: Tensor, source: Tensor) -> Tensor:
    check_args("index_copy", dim, index, source)
    d = wrap_dim(dim, self.dim())
    out = fresh_copy(self, "index_copy")
    _index_copy_kernel(out, d, _index_copy_checks(out, d, index, source), source)
    return record("index_copy_", out, {"self": self, "source": source, "index": index},
                  dim=symint(dim), source_dim=source.dim())


@derivative("index_copy_", "IndexCopyBackward0", inputs=("self", "source"),
            saves={"index": None, "source": "source"})
def _index_copy_bw(ctx, g):
    dim, index = saved_dim(ctx, g.dim()), ctx.saved("index")
    g_self = g_source = None
    if ctx.needs(0):  # the overwritten slices had no say in the result
        g_self = g.clone()
        _fill_slices(g_self, dim, index._array().reshape(-1), 0)
    if ctx.needs(1):
        g_source = _select(g, dim, index)
    return (g_self, g_source)


def _fill_slices(t: Tensor, dim: int, idx: np.ndarray, value) -> None:
    a = t._array()
    if t.dim() == 0:
        a[...] = value
    else:
        a[_at(dim, idx)] = value


def _select(g: Tensor, dim: int, index: Tensor) -> Tensor:
    """g.index_select(dim, index) without recording (a backward's helper)."""
    idx = index._array().reshape(-1)
    if g.dim() == 0:
        out = Tensor._empty((idx.size,) if index.dim() else (), g.dtype, "index_select")
        out._array()[...] = g._array()
        return out
    shape = g._shape[:dim] + (idx.size,) + g._shape[dim + 1:]
    out = Tensor._empty(shape, g.dtype, "index_select")
    np.take(g._array(), idx, axis=dim, out=out._array(), mode="clip")  # (checked already;
    # the default mode would buffer the whole output)
    return out


__all__ = ["check_no_overlap", "index_copy", "index_copy_"]
