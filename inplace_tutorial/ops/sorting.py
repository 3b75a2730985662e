"""Sorting: sort, argsort and topk.

sort and topk return values and indices (a ``torch.return_types`` pair); their nodes save the
indices, so backward scatters the gradient back to where each value came from (and modifying
the indices in place before backward is caught by their version). NaN sorts as the largest
value. Equal values come out as PyTorch's CPU kernel leaves them: in their order with
``stable=True``, else in the order C++'s std::sort (topk: std::partial_sort/nth_element)
leaves them, which _std_sort.py replays. Line by line, a few thousand elements at a time.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..creation import zeros
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from . import _std_sort
from .arg_checks import as_called, check_int, invalid_combination, saved, signed, type_name
from .reorder import _like
from .tensor_iterator import chunks

_LINE_CHUNK = 1024  # elements sorted per NumPy call: its index temporaries stay ~8 KiB each


def _return_type(name: str) -> type:
    """torch.return_types.<name>: a (values, indices) tuple with names."""
    def __repr__(self) -> str:
        return f"torch.return_types.{name}(\nvalues={self[0]!r},\nindices={self[1]!r})"

    return type(name, (tuple,), {"__slots__": (), "__repr__": __repr__,
                                 "values": property(lambda self: self[0]),
                                 "indices": property(lambda self: self[1])})


SortResult = _return_type("sort")
TopkResult = _return_type("topk")


def _order(line: np.ndarray, descending: bool) -> np.ndarray:
    """Stable argsort along the last axis. Descending: sort the reversed line ascending and
    reverse back, so equal values still keep their order and NaN comes first."""
    if not descending:
        return np.argsort(line, axis=-1, kind="stable")
    n = line.shape[-1]
    rev = np.argsort(line[..., ::-1], axis=-1, kind="stable")[..., ::-1]
    return np.subtract(n - 1, rev, out=rev.copy())


def _tied_lines(lines: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Indices (over the leading axes) of the lines where two values compare equal under
    PyTorch's comparator (NaN equals NaN, -0.0 equals 0.0): only there does the algorithm
    decide the order."""
    s = np.take_along_axis(lines, order, axis=-1)
    tie = s[..., 1:] == s[..., :-1]
    if s.dtype.kind == "f" or s.dtype.name == "bfloat16":
        tie |= np.isnan(s[..., 1:]) & np.isnan(s[..., :-1])
    return np.argwhere(tie.any(axis=-1))


def _std_order(lines: np.ndarray, order: np.ndarray, descending: bool, k: int | None,
               sorted_: bool) -> np.ndarray:
    """The stable order, replaced where PyTorch's unstable algorithm decides otherwise:
    std::sort on lines with ties; topk's partial_sort/nth_element on lines with ties and on
    every line of an unsorted topk whose nth_element leaves its own arrangement."""
    n = lines.shape[-1]
    if k is None and n <= 16:  # std::sort is an insertion sort there: stable
        return order
    if k is not None and not sorted_ and k * 64 > n:
        replay = np.argwhere(np.ones(lines.shape[:-1], dtype=bool))
    else:
        replay = _tied_lines(lines, order)
    for where in map(tuple, replay):
        keys = _std_sort.ranks(lines[where], descending)
        if k is None:
            pos = np.arange(n, dtype=np.int64)
            _std_sort.std_sort(keys, pos, 0, n)
            order[where] = pos
        else:
            order[where][:k] = _std_sort.topk_order(keys, k, sorted_)
    return order


def _sort_lines(a: np.ndarray, dim: int, descending: bool, k: int | None,
                values: np.ndarray | None, indices: np.ndarray, stable: bool = True,
                sorted_: bool = True) -> None:
    """Sort ``a`` along dim into ``values``/``indices`` (the first k of each line for topk),
    equal values in the order PyTorch's CPU kernel leaves them (``stable=False``: the order
    std::sort leaves; topk: std::partial_sort's or std::nth_element's)."""
    a, idx_out = np.moveaxis(a, dim, -1), np.moveaxis(indices, dim, -1)
    val_out = None if values is None else np.moveaxis(values, dim, -1)
    n = a.shape[-1]
    if n == 0 or idx_out.size == 0:
        return
    for part in chunks(a.shape[:-1], max(1, _LINE_CHUNK // n)):
        sel = part + (slice(None),)
        order = _order(a[sel], descending)
        if not stable:
            order = _std_order(a[sel], order, descending, k, sorted_)
        if k is not None:
            order = order[..., :k]
        idx_out[sel] = order
        if val_out is not None:
            val_out[sel] = np.take_along_axis(a[sel], order, axis=-1)


def _bool_arg(op: str, name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{op}(): argument '{name}' must be bool, not {type_name(value)}")
    return bool(value)


_SORT_FORMS = ["*, bool stable, int dim = -1, bool descending = False",
               "int dim = -1, bool descending = False"]


def _sort_args(op: str, dim, descending, stable) -> tuple:
    """sort/argsort have two overloads (with and without ``stable``): a wrong type lists both."""
    if (not (stable is None or isinstance(stable, (bool, np.bool_)))
            or not isinstance(dim, (int, np.integer)) or isinstance(dim, (bool, np.bool_))
            or not isinstance(descending, (bool, np.bool_))):
        args, kwargs = as_called(["dim", "descending", "*", "stable"],
                                 (dim, descending, stable), defaults=(-1, False))
        raise invalid_combination(op, args, _SORT_FORMS, kwargs)
    return int(dim), bool(descending)


_RADIX_MIN = 32768  # at::internal::GRAIN_SIZE: from here FBGEMM's radix sort takes over


def _stable(self: Tensor, d: int, stable, descending: bool) -> bool:
    """std::stable_sort, or an algorithm that orders equal values as it does? A line with
    stride 0 (an expanded tensor: every value the same) is left in index order, PyTorch's
    kernel returns before sorting it; a long 1-D integer tensor sorted ascending goes to
    FBGEMM's radix sort, which is stable. Everything else goes to std::sort."""
    radix = (self.dim() == 1 and self.dtype.category == dtypes.INTEGER and not descending
             and self._shape[0] >= _RADIX_MIN)
    return bool(stable) or self._stride[d] == 0 or radix


# --------------------------------------------------------------------------- sort / argsort
@tensor_method
def sort(self, dim: int = -1, descending: bool = False, *, stable: bool | None = None):
    dim, descending = _sort_args("sort", dim, descending, stable)
    d = wrap_dim(dim, self.dim())
    values = _like(self, "sort")
    indices = _like(self, "sort (indices)", dtypes.int64)
    if self.dim() == 0:
        values._array()[...] = self._array()
        indices._array()[...] = 0
    else:
        _sort_lines(self._array(), d, descending, None, values._array(), indices._array(),
                    _stable(self, d, stable, descending))
    record("sort", values, {"self": self}, dim=saved(dim), indices=indices,
           self_sym_sizes=self._shape)
    return SortResult((values, indices))


@tensor_method
def msort(self) -> Tensor:
    """torch.msort: the values of sort along dim 0 (one SortBackward0, as PyTorch records)."""
    return self.sort(0).values


@tensor_method
def argsort(self, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Tensor:
    dim, descending = _sort_args("argsort", dim, descending, stable)
    d = wrap_dim(dim, self.dim())
    indices = _like(self, "argsort", dtypes.int64)
    if self.dim() == 0:
        indices._array()[...] = 0
    else:
        _sort_lines(self._array(), d, descending, None, None, indices._array(),
                    _stable(self, d, stable, descending))
    return indices


# --------------------------------------------------------------------------- topk
@tensor_method
def topk(self, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):  # noqa: A002
    """The k largest (or smallest) values along dim, largest first. ``sorted=False`` leaves
    them in the order PyTorch's std::nth_element leaves them (sorted when k * 64 <= n)."""
    k = check_int("topk", "k", k, 1)
    dim = check_int("topk", "dim", dim, 2)
    largest = _bool_arg("topk", "largest", largest)
    _bool_arg("topk", "sorted", sorted)
    d = wrap_dim(dim, self.dim())
    size = self._shape[d] if self.dim() else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if self.dtype is dtypes.bool_:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    shape = list(self._shape)
    if shape:
        shape[d] = k
    values = Tensor._empty(tuple(shape), self.dtype, "topk")
    indices = Tensor._empty(tuple(shape), dtypes.int64, "topk (indices)")
    if self.dim() == 0:
        values._array()[...] = self._array()
        indices._array()[...] = 0
    else:
        _sort_lines(self._array(), d, largest, k, values._array(), indices._array(),
                    stable=False, sorted_=bool(sorted))
    record("topk", values, {"self": self}, dim=saved(dim), indices=indices,
           self_sym_sizes=self._shape)
    return TopkResult((values, indices))


def _scatter_back(ctx, g):
    """Gradient of picking values by index: zeros of self's shape, g put at the indices."""
    sizes, idx = ctx.attr("self_sym_sizes"), ctx.saved("indices")
    out = zeros(sizes, dtype=g.dtype)
    if not sizes:
        out._array()[...] = g._array()
        return (out,)
    d = wrap_dim(signed(ctx.attr("dim")), len(sizes))
    o = np.moveaxis(out._array(), d, -1)
    i = np.moveaxis(idx._array(), d, -1)
    v = np.moveaxis(np.broadcast_to(g._array(), idx._shape), d, -1)
    n = max(1, i.shape[-1])
    if i.size:
        for part in chunks(i.shape[:-1], max(1, _LINE_CHUNK // n)):
            sel = part + (slice(None),)
            np.put_along_axis(o[sel], i[sel], v[sel], axis=-1)
    return (out,)


derivative("sort", "SortBackward0", saves={"indices": None})(_scatter_back)
derivative("topk", "TopkBackward0", saves={"indices": None})(_scatter_back)
