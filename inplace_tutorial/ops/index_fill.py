"""index_fill(_): fill the slices an index vector picks along one dimension with one value.

Like masked_fill_ with a mask along one dimension: the old values of the filled slices get no
gradient; IndexFillBackward0/1 save the index (with its version). Negative indices count from
the end here, unlike index_copy_ and index_add_, and an expanded self only warns.
"""
from __future__ import annotations

import warnings

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..creation import empty_like
from ..layout import wrap_dim
from ..storage import UntypedStorage
from ..tensor import Tensor, tensor_method
from .arg_checks import is_number, type_name
from .index_ops import check_args, check_no_overlap, fill_slices, first_bad_index
from .joining import saved_dim, symint


# --------------------------------------------------------------------------- index_fill
def _index_fill_args(op: str, dim, index, value) -> None:
    if isinstance(index, Tensor) and (isinstance(value, Tensor) or is_number(value)):
        check_args(op, dim, index)
        return
    got = ", ".join(type_name(v) for v in (dim, index, value))
    bad_index = not isinstance(index, Tensor)
    shown = [type_name(dim), f"!{type_name(index, detailed=True)}!" if bad_index else "Tensor"]
    lines = [f"{op}() received an invalid combination of arguments - got ({got}), but expected "
             "one of:"]
    for kind in ("Tensor", "Number"):
        ok = isinstance(value, Tensor) if kind == "Tensor" else is_number(value)
        mark = type_name(value) if ok and not bad_index else \
            f"!{type_name(value, detailed=True)}!"
        lines += [f" * (int dim, Tensor index, {kind} value)",
                  "      didn't match because some of the arguments have invalid types: "
                  f"({', '.join(shown + [mark])})"]
    raise TypeError("\n".join(lines) + "\n")


def _index_fill_checks(self: Tensor, dim, index: Tensor, value) -> tuple:
    """index_fill_'s checks in its order; returns (wrapped dim, flat index, fill value)."""
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got "
                               f"tensor with {value.dim()} dimension(s).")
        value = value.item()
    if index.dtype.short != "Long":
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    check_no_overlap(self, index)
    if _expanded(self):
        warnings.warn("Use of index_fill_ on expanded tensors is deprecated. Please clone() the "
                      "tensor before performing this operation. This also applies to advanced "
                      "indexing e.g. tensor[mask] = scalar", UserWarning, stacklevel=5)
    d = wrap_dim(dim, max(self.dim(), 1))
    if index.dim() > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if isinstance(value, complex):
        raise RuntimeError("index_fill_(): Converting complex Scalar to non-complex type is not "
                           "supported")
    value = dtypes.checked_scalar(value, self.dtype, "fill")
    idx = index._array().reshape(-1)
    size = self._shape[d] if self.dim() else 1
    bad = first_bad_index(idx, -size, size)
    if bad is not None:
        raise IndexError(f"index {bad} is out of bounds for dimension {d} with size "
                         f"{size}")
    return d, _from_the_end(idx, size), value


def _from_the_end(idx: np.ndarray, size: int) -> np.ndarray:
    """Negative indices count from the end here: idx % size, in counted memory (and only
    when some index is negative; the indices are in range)."""
    if idx.size == 0 or idx.min() >= 0:
        return idx
    wrapped = UntypedStorage(idx.size, np.int64, "index_fill (wrapped index)")._array
    return np.remainder(idx, max(size, 1), out=wrapped)


def _expanded(t: Tensor) -> bool:
    return 0 not in t._shape and any(n > 1 and st == 0 for n, st in zip(t._shape, t._stride))


@binding()
@tensor_method
def index_fill_(self, dim: int, index: Tensor, value) -> Tensor:
    _index_fill_args("index_fill_", dim, index, value)
    found = []
    op = "index_fill_tensor" if isinstance(value, Tensor) else "index_fill"
    return record_inplace(
        op, self, {"self": self, "value": value, "index": index},
        lambda: fill_slices(self, *found[0]),
        check=lambda: found.append(_index_fill_checks(self, dim, index, value)),
        dim=symint(dim))


@binding()
@tensor_method
def index_fill(self, dim: int, index: Tensor, value) -> Tensor:
    """A copy of self in its own layout (clone's preserve_format), then index_fill_."""
    _index_fill_args("index_fill", dim, index, value)
    out = empty_like(self)
    np.copyto(out._array(), self._array())
    fill_slices(out, *_index_fill_checks(out, dim, index, value))
    op = "index_fill_tensor" if isinstance(value, Tensor) else "index_fill"
    return record(op, out, {"self": self, "value": value, "index": index}, dim=symint(dim))


def _fill_zero_bw(ctx, g) -> Tensor:
    out = g.clone()
    fill_slices(out, saved_dim(ctx, max(g.dim(), 1)), _wrapped(ctx, g), 0)
    return out


def _wrapped(ctx, g) -> np.ndarray:
    size = g._shape[saved_dim(ctx, g.dim())] if g.dim() else 1
    return _from_the_end(ctx.saved("index")._array().reshape(-1), size)


@derivative("index_fill", "IndexFillBackward0", saves={"index": None})
def _index_fill_bw(ctx, g):
    return (_fill_zero_bw(ctx, g),)


_PIECE = 512  # elements per boolean selection (NumPy returns it as an array of its own)


def _unique(index: np.ndarray) -> Tensor:
    """np.unique(index) as an int64 tensor, every byte counted: the index sorted in place in a
    counted copy, then the first of each run of equal values kept, piece by piece."""
    flat = index.reshape(-1)
    copy = UntypedStorage(flat.size, np.int64, "index_fill backward (sorted index)")._array
    np.copyto(copy, flat)
    copy.sort()
    new = UntypedStorage(max(flat.size - 1, 0), np.bool_, "index_fill backward (runs)")._array
    np.not_equal(copy[1:], copy[:-1], out=new)
    out = Tensor._empty((min(flat.size, 1) + int(np.count_nonzero(new)),), dtypes.int64,
                        "index_fill backward")
    o = out._array()
    o[:1] = copy[:1]
    at = min(flat.size, 1)
    for c in range(0, new.size, _PIECE):
        kept = copy[1 + c:1 + c + _PIECE][new[c:c + _PIECE]]
        o[at:at + kept.size] = kept
        at += kept.size
    return out


@derivative("index_fill_tensor", "IndexFillBackward1", inputs=("self", "value"),
            saves={"index": None})
def _index_fill_tensor_bw(ctx, g):
    g_value = None
    if ctx.needs(1):  # grad.index_select(dim, index.unique()).sum(), as derivatives.yaml
        # has it: a slice named twice counts once, and index_select's range check applies (a
        # negative index fills the slice from the end, then raises here, as in PyTorch)
        index = _unique(ctx.saved("index")._array())
        g_value = g.index_select(saved_dim(ctx, g.dim()), index).sum()
    return (_fill_zero_bw(ctx, g) if ctx.needs(0) else None, g_value)


__all__ = ["index_fill", "index_fill_"]
