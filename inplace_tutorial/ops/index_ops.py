"""Whole slices picked by an index vector along one dimension: index_select, index_copy(_),
index_add(_) (index_fill(_) is in index_fill.py).

``x.index_copy_(0, idx, src)`` writes row ``src[i]`` into row ``idx[i]`` of x. The nodes save
the index tensor (with its version), so changing the index in place before backward raises,
as in PyTorch; the backward formulas are each other (index_select's gradient is an index_add).
"""
from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..creation import zeros
from ..layout import non_overlapping_and_dense, wrap_dim
from ..tensor import Tensor, tensor_method
from ._take import take_into
from .arg_checks import argument_error, is_number, type_name
from .index_add_rounding import index_add_1d, index_add_slices_16bit
from .joining import saved_dim, symint
from .tensor_iterator import check_internal_overlap
from .workspace import axpy_

_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor "
            "refer to a single memory location. Please clone() the tensor before performing the "
            "operation.")


def check_no_overlap(self: Tensor, other) -> None:
    """PyTorch's assert_no_overlap: an input sharing any cell with the written-to tensor is
    refused, even the very same cells (index ops read their inputs while they write)."""
    if not isinstance(other, Tensor) or other._storage is not self._storage:
        return
    if other is self:
        raise RuntimeError(_OVERLAP)
    if self.numel() == 0 or other.numel() == 0:
        return
    if not (non_overlapping_and_dense(self._shape, self._stride)
            and non_overlapping_and_dense(other._shape, other._stride)):
        return  # "too hard" for PyTorch too
    a0, b0 = self._offset, other._offset
    if a0 < b0 + other.numel() and b0 < a0 + self.numel():
        raise RuntimeError(_OVERLAP)


_NO_SOURCE = object()  # index_select and index_fill_ take no source (None is a bad one)


def check_args(op: str, dim, index, source=_NO_SOURCE, source_name: str = "source") -> None:
    """PyTorch's argument parser for (int dim, Tensor index[, Tensor source])."""
    if isinstance(dim, (bool, np.bool_)) or not isinstance(dim, numbers.Integral):
        raise argument_error(op, "dim", 1, "int", dim)
    if not isinstance(index, Tensor):
        raise argument_error(op, "index", 2, "Tensor", index)
    if source is not _NO_SOURCE and not isinstance(source, Tensor):
        raise argument_error(op, source_name, 3, "Tensor", source)


def first_bad_index(idx: np.ndarray, low: int, high: int) -> int | None:
    """The first index outside [low, high), or None. min/max first: no index-sized
    temporary on the everyday path where every index is fine."""
    if idx.size == 0 or (low <= idx.min() and idx.max() < high):
        return None
    return int(idx[(idx < low) | (idx >= high)].reshape(-1)[0])


def _sliced(shape: tuple, dim: int) -> list:
    return list(shape[:dim] + shape[dim + 1:]) if shape else []


def _check_bounds(op: str, idx: np.ndarray, dim: int, size: int) -> None:
    bad = first_bad_index(idx, 0, size)
    if bad is not None:
        raise IndexError(f"{op}(): index {bad} is out of bounds for dimension {dim} "
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
    if np.shares_memory(a, s):  # a source aliasing self (allowed when PyTorch can't tell):
        for i, j in enumerate(idx):  # its loop reads each slice after the earlier writes
            a[_at(dim, int(j))] = s[_at(dim, i)]
        return
    a[_at(dim, idx)] = s  # NumPy writes repeated indices in order: the last one wins, as on CPU


@binding()
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


@binding()
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
        fill_slices(g_self, dim, index._array().reshape(-1), 0)
    if ctx.needs(1):
        g_source = select_plain(g, dim, index)
    return (g_self, g_source)


def fill_slices(t: Tensor, dim: int, idx: np.ndarray, value) -> None:
    a = t._array()
    if t.dim() == 0:
        a[...] = value
    else:
        a[_at(dim, idx)] = value


def select_plain(g: Tensor, dim: int, index: Tensor) -> Tensor:
    """g.index_select(dim, index) without recording (a backward's helper)."""
    idx = index._array().reshape(-1)
    if g.dim() == 0:
        out = Tensor._empty((idx.size,) if index.dim() else (), g.dtype, "index_select")
        out._array()[...] = g._array()
        return out
    shape = g._shape[:dim] + (idx.size,) + g._shape[dim + 1:]
    out = Tensor._empty(shape, g.dtype, "index_select")
    take_into(g._array(), idx, dim, out._array())  # (in range: checked already)
    return out


# --------------------------------------------------------------------------- index_select
@binding()
@tensor_method
def index_select(self, dim: int, index: Tensor) -> Tensor:
    check_args("index_select", dim, index)
    d = wrap_dim(dim, self.dim())
    n = index.numel()
    if index.dim() > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if self.dim() == 0 and n != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {n} "
                           "value(s)")
    if index.dtype.short not in ("Long", "Int"):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    idx = index._array().reshape(-1)
    size = self._shape[d] if self.dim() else 1
    bad = first_bad_index(idx, 0, size)
    if bad is not None:
        if self.dim() >= 2 and d == 1:  # PyTorch's dim-1 kernel words it differently
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} "
                               f"axis_dim={size}")
        raise IndexError("index out of range in self")
    out = select_plain(self, d, index) if self.dim() else fresh_copy(self, "index_select")
    return record("index_select", out, {"self": self, "index": index}, dim=symint(dim),
                  self_sym_sizes=self._shape)


@derivative("index_select", "IndexSelectBackward0", saves={"index": None})
def _index_select_bw(ctx, g):
    shape = ctx.attr("self_sym_sizes")
    out = zeros(shape, dtype=g.dtype)
    if not shape:
        out._array()[...] = g._array().reshape(())
        return (out,)
    d = saved_dim(ctx, len(shape))
    at = _at(d, ctx.saved("index")._array().reshape(-1))
    if g.dtype in (dtypes.float16, dtypes.bfloat16):
        _add_at_in_float32(out._array(), at, g._array())
    else:
        np.add.at(out._array(), at, g._array())
    return (out,)


# --------------------------------------------------------------------------- index_add
def index_func_checks(op: str, self: Tensor, dim: int, index: Tensor, source: Tensor,
                      write: bool) -> np.ndarray:
    """index_func_meta_impl's checks in its order, shared by index_add and index_reduce
    (``op`` names the in-place form; overlap only when writing into self); returns the flat
    index."""
    n = index.numel()
    if index.dim() > 1:
        raise IndexError(f"{op}(): Index is supposed to be a vector, but got dim: "
                         f"{index.dim()} with type: {index.dtype.short} and size: "
                         f"[{', '.join(map(str, index._shape))}]")
    if index.dtype.short not in ("Long", "Int"):
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index but got: "
                           f"{index.dtype.short}")
    if self.dtype is not source.dtype:
        raise RuntimeError(f"{op}(): self ({self.dtype.short}) and source "
                           f"({source.dtype.short}) must have the same scalar type")
    if dim != 0 and dim >= source.dim():
        raise RuntimeError(f"{op}(): Indexing dim {dim} is out of bounds of the source "
                           f"tensor with dim {source.dim()}")
    if n != (1 if source.dim() == 0 else source._shape[dim]):
        if source.dim() == 0:  # PyTorch's message reads source.size(0) of a 0-dim source
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        raise RuntimeError(f"{op}(): Number of indices ({n}) should be equal to "
                           f"source.size(dim): ({source._shape[dim]}), for dim: {dim}")
    dst, src = list(self._shape), list(source._shape)
    if source.dim() and self.dim():
        dst, src = _sliced(self._shape, dim), _sliced(source._shape, dim)
    if dst != src:
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = [{', '.join(map(str, self._shape))}] source.shape = "
            f"[{', '.join(map(str, source._shape))}]")
    if write:
        check_internal_overlap(self)
        check_no_overlap(self, index)
        check_no_overlap(self, source)
    return index._array().reshape(-1)


def _index_add_checks(self: Tensor, dim: int, index: Tensor, source: Tensor,
                      write: bool) -> np.ndarray:
    idx = index_func_checks("index_add_", self, dim, index, source, write)
    size = self._shape[dim] if self.dim() else 1
    bad = first_bad_index(idx, 0, size)
    if bad is not None:
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with "
                           f"size {size}")
    return idx


def _alpha(self: Tensor, alpha):
    """alpha as the kernel sees it: converted to self's dtype (1.5 is 1 for a long tensor)."""
    if self.dtype.category == dtypes.INTEGER and not isinstance(alpha, int):
        alpha = int(alpha)
    return self.dtype.np.type(alpha)


def _index_add_kernel(self: Tensor, dim: int, idx: np.ndarray, source: Tensor, alpha) -> None:
    a, s = self._array(), source._array()
    if self.dim() <= 1 and self.dtype is not dtypes.bool_:  # PyTorch's element loop
        reduced = self.dtype in (dtypes.float16, dtypes.bfloat16)  # alpha through float32
        index_add_1d(a, idx, s, alpha if reduced else _alpha(self, alpha), self.dtype)
        return
    if self.dim() == 0 or source.dim() == 0:
        a, s = a.reshape(-1), s.reshape(-1)
        dim = 0
    if self.dtype in (dtypes.float16, dtypes.bfloat16) and (alpha != 1 or 0 < dim < a.ndim - 1):
        index_add_slices_16bit(a, dim, idx, s, alpha, self.dtype)
        return
    if (alpha == 1 or self.dtype is dtypes.bool_) and not np.shares_memory(a, s):
        if self.dtype in (dtypes.float16, dtypes.bfloat16):
            _add_at_in_float32(a, _at(dim, idx), s)
            return
        np.add.at(a, _at(dim, idx), s)  # a repeated index adds twice
        return
    for i, j in enumerate(idx):  # alpha * source, one slice at a time, through the workspace
        # (also a source aliasing self: each slice is read after the earlier writes)
        axpy_(a[_at(dim, int(j))], s[_at(dim, i)], _alpha(self, alpha), "index_add_",
              a.dtype)


def _add_at_in_float32(a: np.ndarray, at: tuple, s: np.ndarray) -> None:
    """``np.add.at`` for float16/bfloat16 as PyTorch's CPU kernel adds: in float32 (counted
    copies of self and source), rounded once at the end."""
    work = Tensor._empty(a.shape, dtypes.float32, "index_add (float32)")
    src = Tensor._empty(s.shape, dtypes.float32, "index_add (float32)")
    w, ws = work._array(), src._array()
    np.copyto(w, a, casting="unsafe")
    np.copyto(ws, s, casting="unsafe")
    np.add.at(w, at, ws)
    np.copyto(a, w, casting="unsafe")


def _check_alpha(op: str, alpha) -> None:
    if not is_number(alpha):
        raise TypeError(f"{op}(): argument 'alpha' must be Number, not {type_name(alpha)}")


@binding()
@tensor_method
def index_add_(self, dim: int, index: Tensor, source: Tensor, *, alpha=1) -> Tensor:
    check_args("index_add_", dim, index, source)
    _check_alpha("index_add_", alpha)
    found = []

    def check():
        d = wrap_dim(dim, self.dim())
        found.append((d, _index_add_checks(self, d, index, source, write=True)))

    return record_inplace(
        "index_add", self, {"self": self, "source": source, "index": index},
        lambda: _index_add_kernel(self, *found[0], source, alpha), check=check,
        alpha=alpha, dim=symint(dim), source_dim=source.dim())


@binding()
@tensor_method
def index_add(self, dim: int, index: Tensor, source: Tensor, *, alpha=1) -> Tensor:
    check_args("index_add", dim, index, source)
    _check_alpha("index_add", alpha)
    d = wrap_dim(dim, self.dim())
    idx = _index_add_checks(self, d, index, source, write=False)
    out = fresh_copy(self, "index_add")
    _index_add_kernel(out, d, idx, source, alpha)
    return record("index_add", out, {"self": self, "source": source, "index": index},
                  alpha=alpha, dim=symint(dim), source_dim=source.dim())


@derivative("index_add", "IndexAddBackward0", inputs=("self", "source"),
            saves={"index": "source", "source": "source"})
def _index_add_bw(ctx, g):
    g_source = None
    if ctx.needs(1):
        g_source = select_plain(g, saved_dim(ctx, g.dim()), ctx.saved("index"))
        alpha = ctx.attr("alpha")
        if alpha != 1:
            g_source._array()[...] *= alpha
    return (g if ctx.needs(0) else None, g_source)


__all__ = ["check_args", "check_no_overlap", "fill_slices", "first_bad_index", "fresh_copy",
           "index_add", "index_add_", "index_copy", "index_copy_", "index_func_checks",
           "index_select", "select_plain"]
