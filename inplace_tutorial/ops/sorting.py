"""Sorting: sort, argsort and topk.

sort and topk return values and indices (a ``torch.return_types`` pair); their nodes save the
indices, so backward scatters the gradient back to where each value came from (and modifying
the indices in place before backward is caught by their version). NaN sorts as the largest
value. Equal values come out as PyTorch's CPU kernel leaves them: in their order with
``stable=True``, else in the order C++'s std::sort (topk: std::partial_sort/nth_element)
leaves them, which _std_sort.py replays. A few lines at a time, 512 elements.
"""
from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..creation import zeros
from ..layout import wrap_dim
from ..storage import UntypedStorage
from ..tensor import Tensor, tensor_method
from . import _std_sort
from ._chunked import ramp
from .arg_checks import as_called, check_int, invalid_combination, saved, signed, type_name
from .reorder import _like
from .workspace import WORKSPACE_BYTES, Scratch, chunks

# Elements sorted per NumPy call. np.argsort has no out=: each call returns an index array
# of its own, behind the allocator's back, so a call is kept to 512 elements (4 KiB of int64,
# the size of a few Python objects) and its result is copied at once into counted memory
# (the indices' own cells, or the workspace for topk); everything else a chunk needs lives
# there too. A longer line is sorted in place in counted memory instead (_order_long).
_LINE_CHUNK = 512


def _return_type(name: str) -> type:
    """torch.return_types.<name>: a (values, indices) tuple with names."""
    def __repr__(self) -> str:
        return f"torch.return_types.{name}(\nvalues={self[0]!r},\nindices={self[1]!r})"

    return type(name, (tuple,), {"__slots__": (), "__repr__": __repr__,
                                 "values": property(lambda self: self[0]),
                                 "indices": property(lambda self: self[1])})


SortResult = _return_type("sort")
TopkResult = _return_type("topk")


def _order(line: np.ndarray, descending: bool, out: np.ndarray) -> None:
    """Stable argsort along the last axis, into ``out`` (at most _LINE_CHUNK elements).
    Descending: sort the reversed line ascending and reverse back, so equal values still keep
    their order and NaN comes first."""
    if not descending:
        np.copyto(out, np.argsort(line, axis=-1, kind="stable"))
        return
    rev = np.argsort(line[..., ::-1], axis=-1, kind="stable")
    np.subtract(line.shape[-1] - 1, rev[..., ::-1], out=out)


def _order_long(line: np.ndarray, descending: bool, out: np.ndarray, vals: np.ndarray,
                comp: np.ndarray, mask: np.ndarray) -> None:
    """Stable argsort of one 1-D line longer than _LINE_CHUNK, into ``out``, with no array
    NumPy makes for itself larger than _LINE_CHUNK elements: each value gets an int64 key
    (_key_of), and the int64 pairs ``key << 32 | index`` (``comp``, counted) are sorted in
    place: as every pair is distinct, that order is the stable one, whatever algorithm NumPy
    uses. ``vals``: a counted buffer of the line's dtype; ``mask``: a bool one."""
    _key_of(line, comp, vals, mask)
    if descending:  # the largest key first (NaN's), equal values still by index
        np.negative(comp, out=comp)
    np.left_shift(comp, 32, out=comp)
    np.bitwise_or(comp, ramp(out, 0), out=comp)
    comp.sort()
    np.bitwise_and(comp, 0xFFFFFFFF, out=out)


_SIGNED = {2: np.int16, 4: np.int32}  # the float dtypes whose bits fit a key: their int twins


def _key_of(line: np.ndarray, key: np.ndarray, vals: np.ndarray, mask: np.ndarray) -> None:
    """An int64 per value, in the order PyTorch sorts them (NaN last, all NaNs equal, -0.0
    equal to 0.0), below 2**31 in size. Floats up to 32 bits: their bits as a signed int with
    the negatives' magnitude bits flipped (IEEE order), after 0.0 is added (-0.0 becomes 0.0)
    and every NaN is made the same quiet NaN; integers: themselves. float64 and int64: the
    rank among the line's values, found by binary search in a sorted copy (``vals``)."""
    if line.dtype.itemsize <= 4 and line.dtype.kind != "f":
        np.copyto(key, line, casting="unsafe")
        return
    if line.dtype.kind == "f" and line.dtype.itemsize in _SIGNED:
        np.add(line, 0, out=vals)
        np.isnan(vals, out=mask)
        np.copyto(vals, np.nan, where=mask)
        bits = vals.view(_SIGNED[line.dtype.itemsize])
        np.copyto(key, bits)
        np.less(key, 0, out=mask)
        np.bitwise_xor(key, np.iinfo(bits.dtype).max, out=key, where=mask)
        return
    np.copyto(vals, line)
    vals.sort()
    for c in range(0, line.shape[0], _LINE_CHUNK):
        np.copyto(key[c:c + _LINE_CHUNK], np.searchsorted(vals, line[c:c + _LINE_CHUNK]))


_ROWS = np.arange(_LINE_CHUNK)[:, None]  # a chunk's line numbers, for _gather


def _gather(line: np.ndarray, order: np.ndarray, out: np.ndarray) -> None:
    """``out = line`` in ``order`` along the last axis (NumPy's gather makes an array of its
    own first: at most _LINE_CHUNK values, so a long 1-D line is gathered piece by piece)."""
    if line.ndim == 1:
        for c in range(0, line.shape[0], _LINE_CHUNK):
            np.copyto(out[c:c + _LINE_CHUNK], line[order[c:c + _LINE_CHUNK]])
    elif line.ndim == 2:  # np.take_along_axis, without its Python-level index building
        np.copyto(out, line[_ROWS[:line.shape[0]], order])
    else:
        np.copyto(out, np.take_along_axis(line, order, axis=-1))


def _ties(s: np.ndarray, out: np.ndarray, nan_a: np.ndarray, nan_b: np.ndarray) -> np.ndarray:
    """Where a sorted line holds two neighbours that compare equal under PyTorch's comparator
    (NaN equals NaN, -0.0 equals 0.0); one bool per neighbouring pair, into ``out`` (``nan_a``,
    ``nan_b``: bool buffers of the same size, for floats)."""
    np.equal(s[..., 1:], s[..., :-1], out=out)
    if s.dtype.kind == "f" or s.dtype.name == "bfloat16":
        np.isnan(s[..., 1:], out=nan_a)
        np.isnan(s[..., :-1], out=nan_b)
        np.logical_and(nan_a, nan_b, out=nan_a)
        np.logical_or(out, nan_a, out=out)
    return out


def _std_order(lines: np.ndarray, s: np.ndarray, order: np.ndarray, k: int | None,
               sorted_: bool, step: np.ndarray, keys: np.ndarray, tie: tuple,
               work: _std_sort.Work, numbers_only: bool = False) -> bool:
    """The stable ``order`` (``s``: the lines in it), replaced where PyTorch's unstable
    algorithm decides otherwise: std::sort on lines with ties; topk's
    partial_sort/nth_element on lines with ties and on every line of an unsorted topk whose
    nth_element leaves its own arrangement. ``step``, ``keys``: line-sized int64 buffers;
    ``tie``: _ties' three bool buffers, as large as ``s``; ``work``: _std_sort's.
    ``numbers_only``: a line holding NaN is left as it is (mode sorts those again under
    ``<``). False if no line was replayed."""
    n = lines.shape[-1]
    if k is None and n <= 16:  # std::sort is an insertion sort there: stable
        return False
    if k is not None and not sorted_ and k * 64 > n:
        replay = np.argwhere(np.ones(lines.shape[:-1], dtype=bool))
    else:
        shape = s.shape[:-1] + (n - 1,)
        bufs = [t[:math.prod(shape)].reshape(shape) if t.size else t for t in tie]
        tied = _ties(s, *bufs).any(axis=-1)
        if numbers_only and s.dtype.kind in "fV":  # (NaN sorts last; bfloat16's kind is V)
            tied &= ~np.isnan(s[..., -1])
        replay = np.argwhere(tied)
    line_tie = [t[:n - 1] for t in tie]
    for where in map(tuple, replay):
        _std_sort.tie_keys(_ties(s[where], *line_tie), order[where], step, keys)
        pos = ramp(order[where] if k is None else step, 0)  # positions carried along keys
        if k is None:
            _std_sort.std_sort(keys, pos, 0, n, work)
        else:
            order[where][:k] = _std_sort.topk_order(keys, pos, k, sorted_, work)
    return len(replay) > 0


@contextlib.contextmanager
def _scratch(nbytes: int) -> Iterator[np.ndarray]:
    """``nbytes`` of counted scratch: the workspace, or a storage of its own (a long line)."""
    if nbytes <= WORKSPACE_BYTES:
        with Scratch(np.uint8, "sort", nbytes) as scratch:
            yield scratch.view((nbytes,))
    else:
        yield UntypedStorage(nbytes, np.uint8, "sort (scratch)")._array


def _sort_lines(a: np.ndarray, dim: int, descending: bool, k: int | None,
                values: np.ndarray | None, indices: np.ndarray, stable: bool = True,
                sorted_: bool = True, numbers_only: bool = False) -> None:
    """Sort ``a`` along dim into ``values``/``indices`` (the first k of each line for topk),
    equal values in the order PyTorch's CPU kernel leaves them (``stable=False``: the order
    std::sort leaves; topk: std::partial_sort's or std::nth_element's; ``numbers_only``: only
    on lines without NaN, the others stay stable). Chunk by chunk of
    lines (a line longer than _LINE_CHUNK alone); the order, the lines in it and _std_sort's
    keys are written into counted memory."""
    a, idx_out = np.moveaxis(a, dim, -1), np.moveaxis(indices, dim, -1)
    val_out = None if values is None else np.moveaxis(values, dim, -1)
    n = a.shape[-1]
    if n == 0 or idx_out.size == 0:
        return
    whole = k is not None and k < n  # topk: a chunk's full order, before its first k
    m = min(max(1, _LINE_CHUNK // n), a.size // n) * n  # elements of the largest chunk
    long = n > _LINE_CHUNK
    # ml_dtypes' bfloat16 compares NaN as C does (never smaller, never larger), so NumPy's
    # sort leaves a line with NaN unsorted: bfloat16 lines are sorted as float32 (exact)
    wide = m if a.dtype.name == "bfloat16" else 0
    key_dtype = np.float32 if wide else a.dtype
    floats = a.dtype.kind == "f" or bool(wide)
    parts = [(np.int64, n), (np.int64, n), (np.int64, m * whole), (np.float32, wide),
             (a.dtype, m), (key_dtype, n * long), (np.bool_, m), (np.bool_, m * floats),
             (np.bool_, m * floats), *_std_sort.Work.parts(n)]
    with _scratch(sum([np.dtype(t).itemsize * size for t, size in parts])) as raw:
        step, keys, full, as_float, s_all, vals, *rest = _carve(raw, parts)
        tie, work = tuple(rest[:3]), _std_sort.Work(*rest[3:])
        for part in chunks(a.shape[:-1], m // n):
            sel = part + (slice(None),)
            line = a[sel]
            order = full[:line.size].reshape(line.shape) if whole else idx_out[sel]
            if wide:
                np.copyto(as_float[:line.size].reshape(line.shape), line, casting="unsafe")
            key_line = as_float[:line.size].reshape(line.shape) if wide else line
            if long:  # one line: 1-D views of it
                line, order, key_line = [x.reshape(n) for x in (line, order, key_line)]
                _order_long(key_line, descending, order, vals, work.comp, work.mask)
            else:
                _order(key_line, descending, order)
            if stable and val_out is None:
                continue
            s = s_all[:line.size].reshape(line.shape)  # the lines in the stable order
            _gather(line, order, s)
            replayed = not stable and _std_order(line, s, order, k, sorted_, step, keys, tie,
                                                  work, numbers_only)
            if replayed and val_out is not None:  # equal values moved: their signs, NaNs
                _gather(line, order, s)
            if whole:
                idx_out[sel] = order[..., :k].reshape(idx_out[sel].shape)
            if val_out is not None:
                val_out[sel] = s[..., :k].reshape(val_out[sel].shape)


def _carve(raw: np.ndarray, parts: list) -> list:
    """1-D arrays of the (dtype, size) ``parts`` cut from the bytes ``raw``, in the order
    given; laid out widest dtype first, so every part stays aligned."""
    out: list = [None] * len(parts)
    start = 0
    for i in sorted(range(len(parts)), key=lambda i: -np.dtype(parts[i][0]).itemsize):
        dt, size = parts[i]
        nbytes = np.dtype(dt).itemsize * size
        out[i] = raw[start:start + nbytes].view(dt)
        start += nbytes
    return out


def _bool_arg(op: str, name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{op}(): argument '{name}' must be bool, not {type_name(value)}")
    return bool(value)


_SORT_FORMS = ["*, bool stable, int dim = -1, bool descending = False",
               "int dim = -1, bool descending = False"]


def _sort_args(op: str, dim, descending, stable, none_ok: bool = True) -> tuple:
    """sort/argsort have two overloads (with and without ``stable``): a wrong type lists both.
    ``none_ok``: sort's stable is ``bool?``, argsort's a plain bool (stable=None fits neither)."""
    if (not ((none_ok and stable is None) or isinstance(stable, (bool, np.bool_)))
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
@binding()
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


@binding()
@tensor_method
def argsort(self, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Tensor:
    dim, descending = _sort_args("argsort", dim, descending, stable, none_ok=False)
    d = wrap_dim(dim, self.dim())
    indices = _like(self, "argsort", dtypes.int64)
    if self.dim() == 0:
        indices._array()[...] = 0
    else:
        _sort_lines(self._array(), d, descending, None, None, indices._array(),
                    _stable(self, d, stable, descending))
    return indices


# --------------------------------------------------------------------------- topk
@binding()
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
