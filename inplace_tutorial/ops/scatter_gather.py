"""Element-wise picking by an index tensor: gather, scatter(_), scatter_add(_).

``y = x.gather(1, idx)`` reads ``y[i][j] = x[i][idx[i][j]]``; ``x.scatter_(1, idx, src)``
writes ``x[i][idx[i][j]] = src[i][j]``. The index may be smaller than self (and than src) in
every dimension; only its own cells take part. The nodes save the index with its version;
GatherBackward0 also saves self (PyTorch reads its sizes from it), so changing self in place
after gather raises at backward. The backward of each is the other one.
"""
from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..creation import zeros
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from .arg_checks import argument_error, as_called, call_keywords, invalid_combination, is_number
from .index_ops import check_no_overlap, first_bad_index, fresh_copy
from .joining import saved_dim, symint
from .tensor_iterator import check_internal_overlap
from .workspace import LOOP_BUFFER_ELEMENTS, chunks

_PIECE = LOOP_BUFFER_ELEMENTS  # index cells per NumPy call: temporaries as small as its buffer


def _size(t: Tensor, d: int) -> int:
    return 1 if t.dim() == 0 else t._shape[d]  # PyTorch's ensure_nonempty_size


def _shape_str(shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def _check_index_dtype(op: str, index: Tensor) -> None:
    if index.numel() and index.dtype.short not in ("Long", "Int"):
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index")


def _check_bounds(index: Tensor, dim: int, size: int) -> None:
    bad = first_bad_index(index._array(), 0, size)
    if bad is not None:
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {size}")


def _pieces(index: Tensor, dim: int):
    """(cells of the index, the coordinates they address) in pieces of at most _PIECE cells,
    in C order: along ``dim`` the coordinate is the index's value, elsewhere its own position.
    0-dim tensors act as 1-element vectors."""
    idx = index._array().reshape(index._shape or (1,))
    shape = idx.shape
    for piece in chunks(shape, _PIECE):
        if piece == (Ellipsis,):
            piece = ()
        piece = piece + (slice(None),) * (len(shape) - len(piece))
        sub = idx[piece]
        coords, axis = [], 0
        for d, p in enumerate(piece):
            if isinstance(p, int):
                coords.append(p)
                continue
            r = np.arange(*p.indices(shape[d]))
            coords.append(r.reshape((-1,) + (1,) * (sub.ndim - axis - 1)))
            axis += 1
        coords[dim] = sub
        yield piece, tuple(coords)


def _nonempty(a: np.ndarray) -> np.ndarray:
    return a.reshape(1) if a.ndim == 0 else a


# --------------------------------------------------------------------------- gather
def _check_dim_index(op: str, dim, index, pos_index: int = 2) -> None:
    if isinstance(dim, (bool, np.bool_)) or not isinstance(dim, numbers.Integral):
        raise argument_error(op, "dim", 1, "int", dim)
    if not isinstance(index, Tensor):
        raise argument_error(op, "index", pos_index, "Tensor", index)


@binding()
@tensor_method
def gather(self, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    _check_dim_index("gather", dim, index)
    if not isinstance(sparse_grad, bool):  # a plain bool in torch's signature (no ``?``)
        raise argument_error("gather", "sparse_grad", None, "bool", sparse_grad)
    d = wrap_dim(dim, self.dim())
    _check_index_dtype("gather", index)
    if index.numel() and max(self.dim(), 1) != max(index.dim(), 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for i in range(max(self.dim(), 1) if index.numel() else 0):
        if i != d and _size(index, i) > _size(self, i):
            raise RuntimeError(
                f"Size does not match at dimension {i} expected index {_shape_str(index._shape)}"
                f" to be no larger than self {_shape_str(self._shape)} apart from dimension {d}")
    _check_bounds(index, d, _size(self, d))
    out = Tensor._empty(index._shape, self.dtype, "gather")
    a, o = _nonempty(self._array()), _nonempty(out._array())
    for piece, coords in _pieces(index, d):
        o[piece] = a[coords]  # a piece-sized NumPy temporary at most
    return record("gather", out, {"self": self, "index": index}, dim=symint(dim),
                  sparse_grad=sparse_grad)


@derivative("gather", "GatherBackward0", saves={"self": None, "index": None})
def _gather_bw(ctx, g):
    self, index = ctx.saved("self"), ctx.saved("index")
    out = zeros(self._shape, dtype=g.dtype)
    _scatter_add_kernel(out, saved_dim(ctx, max(g.dim(), 1)), index, g)
    return (out,)


# --------------------------------------------------------------------------- scatter
_SCATTER_FORMS = ["int dim, Tensor index, Tensor src",
                  "int dim, Tensor index, Tensor src, *, str reduce",
                  "int dim, Tensor index, Number value",
                  "int dim, Tensor index, Number value, *, str reduce"]


def _scatter_checks(op: str, self: Tensor, dim: int, index: Tensor, src) -> None:
    """scatter's meta function: dtypes, shapes, then (for a write into self) overlap."""
    _check_index_dtype("scatter", index)
    if isinstance(src, Tensor) and self.dtype is not src.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if index.numel():
        n = max(self.dim(), 1)
        if n != max(index.dim(), 1):
            raise RuntimeError("Index tensor must have the same number of dimensions as self "
                               "tensor")
        wrong = any(d != dim and _size(index, d) > _size(self, d) for d in range(n))
        if not wrong and isinstance(src, Tensor):
            wrong = any(_size(index, d) > (1 if src.dim() == 0 else src.size(d))
                        for d in range(n))
        if isinstance(src, Tensor):
            if max(src.dim(), 1) != max(index.dim(), 1):
                raise RuntimeError("Index tensor must have the same number of dimensions as src "
                                   "tensor")
            if wrong:
                raise RuntimeError(
                    f"Expected index {_shape_str(index._shape)} to be no larger than self "
                    f"{_shape_str(self._shape)} apart from dimension {dim} and to be no larger "
                    f"size than src {_shape_str(src._shape)}")
        elif wrong:
            raise RuntimeError(
                f"Expected index {_shape_str(index._shape)} to be no larger than self "
                f"{_shape_str(self._shape)} apart from dimension {dim}")


def _write_checks(self: Tensor, index: Tensor, src) -> None:
    check_internal_overlap(self)
    check_no_overlap(self, index)
    check_no_overlap(self, src)


def _src_cells(src: Tensor, index: Tensor) -> np.ndarray:
    """The part of src the index covers (src may be larger in every dimension)."""
    s = _nonempty(src._array())
    return s[tuple(slice(0, n) for n in (index._shape or (1,)))]


def _one_by_one(a: np.ndarray, s: np.ndarray, index: Tensor, dim: int, add: bool) -> None:
    """A source aliasing self (allowed where PyTorch can't tell): its loop reads every source
    cell after the earlier writes, so this one does too."""
    for piece, coords in _pieces(index, dim):
        sub = s[piece]
        cells = np.broadcast_arrays(*[np.asarray(c) for c in coords])
        for k in np.ndindex(sub.shape):
            at = tuple(int(c[k]) for c in cells)
            a[at] = a[at] + sub[k] if add else sub[k]


def _scatter_kernel(self: Tensor, dim: int, index: Tensor, src) -> None:
    a = _nonempty(self._array())
    if isinstance(src, Tensor):
        s = _src_cells(src, index)
        if np.shares_memory(a, s):
            _one_by_one(a, s, index, dim, add=False)
            return
        for piece, coords in _pieces(index, dim):
            a[coords] = s[piece]  # repeated targets: the last one wins, as PyTorch's CPU loop
    else:
        for _, coords in _pieces(index, dim):
            a[coords] = src


def _scatter_add_kernel(self: Tensor, dim: int, index: Tensor, src: Tensor) -> None:
    a, s = _nonempty(self._array()), _src_cells(src, index)
    if np.shares_memory(a, s):
        _one_by_one(a, s, index, dim, add=True)
        return
    reduce_at(self, dim, index, np.add, lambda piece: s[piece])  # repeated targets accumulate


def reduce_at(out: Tensor, d: int, index: Tensor, ufunc, cells) -> None:
    """``ufunc.at`` every index cell into out, in index order (repeated targets combine).
    float16/bfloat16 combine in a float32 copy, rounded once at the end, as PyTorch's CPU
    scatter kernels accumulate in float32 (a mean then divides in 16 bits)."""
    a = _nonempty(out._array())
    wide = out.dtype in (dtypes.float16, dtypes.bfloat16)
    if wide:
        work = Tensor._empty(out._shape, dtypes.float32, "scatter (float32)")
        w = _nonempty(work._array())
        np.copyto(w, a, casting="unsafe")
    for piece, coords in _pieces(index, d):
        v = cells(piece)
        if wide:
            ufunc.at(w, coords, np.asarray(v).astype(np.float32))  # a piece at most
        else:
            ufunc.at(a, coords, v)
    if wide:
        np.copyto(a, w, casting="unsafe")


def _scatter_value(self: Tensor, src):
    """A Number ``value`` converted as PyTorch's fill converts it (int8 refuses 300)."""
    return src if isinstance(src, Tensor) else dtypes.checked_scalar(src, self.dtype, "fill")


def _scatter_args(op: str, dim, index, src, value, reduce):
    """scatter_'s four forms (src or value, with or without reduce) always fit the number of
    arguments two at a time, so any wrong type gets PyTorch's overload listing."""
    if value is not None:
        src = value
    if (isinstance(dim, (bool, np.bool_)) or not isinstance(dim, numbers.Integral)
            or not isinstance(index, Tensor) or not (isinstance(src, Tensor) or is_number(src))
            or not (reduce is None or isinstance(reduce, str))):
        named = (["dim", "index", "src", "*", "reduce"], (dim, index, src, reduce))
        if value is not None or "value" in call_keywords():
            named = (["dim", "index", "*", "value", "reduce"], (dim, index, value, reduce))
        args, kwargs = as_called(*named)
        raise invalid_combination(op, args, _SCATTER_FORMS, kwargs)
    return src


_REDUCE = {"add": np.add, "multiply": np.multiply}


def _check_reduce(reduce) -> None:
    if reduce is not None and reduce not in _REDUCE:
        raise RuntimeError("reduce argument must be either add or multiply.")


def _scatter_reduce_kernel(self: Tensor, dim: int, index: Tensor, src, reduce: str) -> None:
    """scatter_(..., reduce="add" | "multiply"): repeated targets combine, in index order."""
    s = _src_cells(src, index) if isinstance(src, Tensor) else None
    value = None if s is not None else self.dtype.np.type(src)
    reduce_at(self, dim, index, _REDUCE[reduce], lambda piece: s[piece] if s is not None
              else value)


@binding()
@tensor_method
def scatter_(self, dim: int, index: Tensor, src=None, *, value=None, reduce=None) -> Tensor:
    src = _scatter_args("scatter_", dim, index, src, value, reduce)
    found = []

    def check():
        d = wrap_dim(dim, self.dim())
        _scatter_checks("scatter_", self, d, index, src)
        _write_checks(self, index, src)
        _check_reduce(reduce)
        _check_bounds(index, d, _size(self, d))
        found.append((d, _scatter_value(self, src)))

    if reduce is not None:  # PyTorch has no derivative for it (its NotImplemented node)
        return record_inplace("scatter_with_reduce_", self, {"self": self}, lambda:
                              _scatter_reduce_kernel(self, found[0][0], index, found[0][1],
                                                     reduce), check=check)
    op = "scatter_src" if isinstance(src, Tensor) else "scatter_value"
    return record_inplace(op, self, {"self": self, "src": src, "index": index},
                          lambda: _scatter_kernel(self, found[0][0], index, found[0][1]),
                          check=check,
                          dim=symint(dim))


@binding()
@tensor_method
def scatter(self, dim: int, index: Tensor, src=None, *, value=None, reduce=None) -> Tensor:
    src = _scatter_args("scatter", dim, index, src, value, reduce)
    d = wrap_dim(dim, self.dim())
    _scatter_checks("scatter", self, d, index, src)
    _check_reduce(reduce)
    out = fresh_copy(self, "scatter")
    _check_bounds(index, d, _size(self, d))
    if reduce is not None:
        _scatter_reduce_kernel(out, d, index, _scatter_value(self, src), reduce)
        return record("scatter_with_reduce", out, {"self": self})
    _scatter_kernel(out, d, index, _scatter_value(self, src))
    op = "scatter_src" if isinstance(src, Tensor) else "scatter_value"
    return record(op, out, {"self": self, "src": src, "index": index}, dim=symint(dim))


def _scatter_zeros(g: Tensor, ctx) -> Tensor:
    """grad.scatter(dim, index, 0): the overwritten cells had no say in the result."""
    out = g.clone()
    _scatter_kernel(out, saved_dim(ctx, max(g.dim(), 1)), ctx.saved("index"), 0)
    return out


@derivative("scatter_src", "ScatterBackward0", inputs=("self", "src"), saves={"index": None})
def _scatter_src_bw(ctx, g):
    g_src = _gather_plain(g, saved_dim(ctx, max(g.dim(), 1)), ctx.saved("index")) \
        if ctx.needs(1) else None
    return (_scatter_zeros(g, ctx) if ctx.needs(0) else None, g_src)


@derivative("scatter_value", "ScatterBackward1", saves={"index": None})
def _scatter_value_bw(ctx, g):
    return (_scatter_zeros(g, ctx),)


def _gather_plain(g: Tensor, dim: int, index: Tensor) -> Tensor:
    """g.gather(dim, index), not recorded (for backward formulas)."""
    out = Tensor._empty(index._shape, g.dtype, "gather")
    a, o = _nonempty(g._array()), _nonempty(out._array())
    for piece, coords in _pieces(index, dim):
        o[piece] = a[coords]
    return out


def _no_derivative(op: str):
    def bw(ctx, g):
        raise RuntimeError(f"derivative for aten::{op} is not implemented")
    return bw


derivative("scatter_with_reduce_", "NotImplemented", qualified=True)(_no_derivative("scatter_"))
derivative("scatter_with_reduce", "NotImplemented", qualified=True)(_no_derivative("scatter"))


# --------------------------------------------------------------------------- scatter_add
def _check_scatter_add_args(op: str, dim, index, src) -> None:
    _check_dim_index(op, dim, index)
    if not isinstance(src, Tensor):
        raise argument_error(op, "src", 3, "Tensor", src)


@binding()
@tensor_method
def scatter_add_(self, dim: int, index: Tensor, src: Tensor) -> Tensor:
    _check_scatter_add_args("scatter_add_", dim, index, src)
    found = []

    def check():
        d = wrap_dim(dim, self.dim())
        _scatter_checks("scatter_add_", self, d, index, src)
        _write_checks(self, index, src)
        _check_bounds(index, d, _size(self, d))
        found.append(d)

    return record_inplace("scatter_add", self, {"self": self, "src": src, "index": index},
                          lambda: _scatter_add_kernel(self, found[0], index, src), check=check,
                          dim=symint(dim))


@binding()
@tensor_method
def scatter_add(self, dim: int, index: Tensor, src: Tensor) -> Tensor:
    _check_scatter_add_args("scatter_add", dim, index, src)
    d = wrap_dim(dim, self.dim())
    _scatter_checks("scatter_add", self, d, index, src)
    _check_bounds(index, d, _size(self, d))
    out = fresh_copy(self, "scatter_add")
    _scatter_add_kernel(out, d, index, src)
    return record("scatter_add", out, {"self": self, "src": src, "index": index},
                  dim=symint(dim))


@derivative("scatter_add", "ScatterAddBackward0", inputs=("self", "src"),
            saves={"index": "src"})
def _scatter_add_bw(ctx, g):
    g_src = _gather_plain(g, saved_dim(ctx, max(g.dim(), 1)), ctx.saved("index")) \
        if ctx.needs(1) else None
    return (g if ctx.needs(0) else None, g_src)


__all__ = ["gather", "reduce_at", "scatter", "scatter_", "scatter_add", "scatter_add_"]
