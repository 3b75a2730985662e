"""Selecting parts of a tensor: select, narrow, slicing, and ``x[...]`` / ``x[...] = v``
(as_strided, the metadata in-place ops and clone/contiguous are in strided.py; unbind, split
and chunk, whose outputs share one node, in multi_output_views.py)."""
from __future__ import annotations

import warnings

import numpy as np

from .. import dtypes
from ..arg_parser import binding, saved, signed
from ..autograd.derivatives import derivative
from ..creation import empty, zeros
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from ..tensor_new import tensor
from .advanced_indexing import index as advanced_index
from .advanced_indexing import is_mask
from .arg_checks import (
    as_called,
    check_int,
    invalid_combination,
    is_index,
    type_name,
)
from .index_put import put_
from .views import _view_op


@binding()
@tensor_method
def select(self, dim: int, index: int) -> Tensor:
    dim, index = check_int("select", "dim", dim, 1), check_int("select", "index", index, 2)
    if self.dim() == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    given = dim, index  # SelectBackward0 shows them as given
    dim = wrap_dim(dim, self.dim())
    size = self._shape[dim]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"[{', '.join(map(str, self._shape))}] at dimension {dim}")
    index %= size
    shape = self._shape[:dim] + self._shape[dim + 1:]
    stride = self._stride[:dim] + self._stride[dim + 1:]
    return _view_op(self, shape, stride, self._offset + index * self._stride[dim], "select",
                    dim=saved(given[0]), index=saved(given[1]), self_sym_sizes=self._shape)


_END = (1 << 63) - 1  # an omitted slice end: INT64_MAX, as PyTorch's indexing passes it


def _slice(self, dim, start, stop, step, given_dim=None) -> Tensor:
    """SliceBackward0 shows dim, start and end as given (an omitted start is 0, an omitted
    end INT64_MAX)."""
    if step <= 0:
        raise ValueError("step must be greater than zero")
    size = self._shape[dim]
    attrs = {"dim": saved(dim if given_dim is None else given_dim),
             "start": saved(0 if start is None else int(start)),
             "end": saved(_END if stop is None else int(stop)), "step": step,
             "self_sym_sizes": self._shape}
    start, stop, _ = slice(start, stop).indices(size)
    length = max(0, (stop - start + step - 1) // step)
    shape = list(self._shape)
    stride = list(self._stride)
    shape[dim] = length
    stride[dim] *= step
    return _view_op(self, shape, stride, self._offset + start * self._stride[dim], "slice",
                    **attrs)


_NARROW_FORMS = ["int dim, Tensor start, int length", "int dim, int start, int length"]


@binding()
@tensor_method
def narrow(self, dim: int, start: int, length: int) -> Tensor:
    """PyTorch's narrow_symint, check for check (start may be a 0-dim integer tensor)."""
    if not (is_index(dim) and is_index(start) and is_index(length)):
        args, kwargs = as_called(["dim", "start", "length"], (dim, start, length))
        raise invalid_combination("narrow", args, _NARROW_FORMS, kwargs)
    dim, start, length = given_dim, start, length = (
        check_int("narrow", "dim", dim), check_int("narrow", "start", start),
        check_int("narrow", "length", length))
    if self.dim() == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    dim = wrap_dim(dim, self.dim())
    size = self._shape[dim]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if start < 0:
        start += size
    if start > size - length:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    return _slice(self, dim, start, start + length, 1, given_dim)


def _scatter_back(ctx, g, view_fn):
    """Gradient of taking a part: zeros of the input's shape with the part filled in."""
    out = zeros(ctx.attr("self_sym_sizes"), dtype=g.dtype)
    view_fn(out).copy_(g)
    return (out,)


@derivative("select", "SelectBackward0")
def _select_bw(ctx, g):
    return _scatter_back(ctx, g, lambda t: t.select(signed(ctx.attr("dim")),
                                                    signed(ctx.attr("index"))))


@derivative("slice", "SliceBackward0")
def _slice_bw(ctx, g):
    return _scatter_back(ctx, g, lambda t: _slice(
        t, wrap_dim(signed(ctx.attr("dim")), t.dim()), signed(ctx.attr("start")),
        signed(ctx.attr("end")), ctx.attr("step")))


@tensor_method
def __getitem__(self, index) -> Tensor:
    """x[index]: ints, slices, None and ``...`` give a view; index tensors (lists, masks)
    then gather a copy (advanced_indexing.index), as PyTorch's THPVariable_getitem."""
    view, indices = _apply_slicing(self, _index_items(index))
    if indices:
        return advanced_index(view, indices)
    if view is self:
        view = _view_op(self, self._shape, self._stride, self._offset, "alias")
    return view


_SEQUENCE_WARNING = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed "
    "in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be "
    "interpreted as tensor index, x[torch.tensor(seq)], which will result either in an error or "
    "a different result")


def _is_sequence(v) -> bool:
    return isinstance(v, (list, tuple, str, np.ndarray))


def _as_tuple(index) -> tuple:
    """treatSequenceAsTuple: NumPy's old rule, which PyTorch keeps (with a warning): a short
    list holding a tensor, a sequence, a slice, None or ``...`` is a tuple of indices."""
    if isinstance(index, tuple):
        return index
    if isinstance(index, Tensor) or not _is_sequence(index) or isinstance(index, str):
        return (index,)
    if len(index) < 32 and any(isinstance(i, (Tensor, slice)) or _is_sequence(i) or i is None
                               or i is Ellipsis for i in index):
        warnings.warn(_SEQUENCE_WARNING, UserWarning, stacklevel=4)
        return tuple(index)
    return (index,)


def _index_items(index) -> tuple:
    """PyTorch's reading of the items of an index: a Python bool is a 0-dim bool mask, a
    sequence an index tensor (indexing_tensor_from_data: bool or uint8 data stay masks,
    anything else becomes int64), a string is data it can't convert, anything else that is not
    an index is refused; only the first ``...`` expands."""
    out, seen_ellipsis = [], False
    for i in _as_tuple(index):
        if isinstance(i, (bool, np.bool_)):
            i = tensor(bool(i))
        elif isinstance(i, str):
            raise TypeError("new(): invalid data type 'str'")
        elif i is Ellipsis:
            if seen_ellipsis:
                continue  # a second ... stands for no dims
            seen_ellipsis = True
        elif isinstance(i, (list, tuple, np.ndarray)):
            i = _sequence_index(i)
        elif not (i is None or isinstance(i, (slice, Tensor)) or is_index(i)):
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or "
                             f"byte Variables are valid indices (got {type_name(i)})")
        out.append(i)
    return tuple(out)


def _sequence_index(seq) -> Tensor:
    if isinstance(seq, list) and seq and all(type(i) is int for i in seq):
        a = np.asarray(seq)  # the common case, a flat list of ints, without tensor()'s checks
        if a.dtype == np.int64:
            out = Tensor._empty(a.shape, dtypes.int64, "index")
            np.copyto(out._array(), a)
            return out
    data = tensor(seq)
    if data.dtype is dtypes.bool_ or data.dtype is dtypes.uint8:
        return data
    return data if data.dtype is dtypes.int64 else data.to(dtypes.int64)


def _dims_of(i) -> int:
    """count_specified_dimensions: what an item of the index uses up of self's dims."""
    if isinstance(i, Tensor):
        return i.dim() if is_mask(i) else 1
    return 0 if i is None or i is Ellipsis else 1


def _apply_slicing(self: Tensor, items: tuple) -> tuple[Tensor, list]:
    """PyTorch's applySlicing: ints select, slices slice (a whole-dim slice is skipped), None
    unsqueezes, ``...`` skips the dims nobody names; index tensors are recorded at the dim they
    index, for at::index / index_put_ to take over: ``(view, indices)``."""
    specified = sum(_dims_of(i) for i in items)
    if specified > self.dim():
        if self.dim() == 0 and any(is_index(i) for i in items if not isinstance(i, Tensor)):
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        raise IndexError(f"too many indices for tensor of dimension {self.dim()}")
    out, dim, real, indices = self, 0, 0, []
    for i in items:
        if i is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif i is Ellipsis:
            dim += self.dim() - specified
            real += self.dim() - specified
        elif isinstance(i, slice):
            if i != slice(None):
                out = _slice(out, dim, i.start, i.stop, 1 if i.step is None else i.step)
            dim, real = dim + 1, real + 1
        elif isinstance(i, Tensor) and not (i.dim() == 0 and not is_mask(i)
                                            and i.dtype.category == dtypes.INTEGER):
            if i.dim() == 0 and is_mask(i):  # a new dim of size 1, taken or not
                out = out.unsqueeze(dim)
                i = tensor([0]) if bool(i) else empty((0,), dtype=dtypes.int64)
            indices += [None] * (dim - len(indices)) + [i]
            step = i.dim() if is_mask(i) else 1
            dim, real = dim + step, real + step
        else:  # an int, or a 0-dim integer tensor: select
            size = out._shape[dim]
            if not -size <= int(i) < size:
                raise IndexError(f"index {int(i)} is out of bounds for dimension {real} with "
                                 f"size {size}")
            out = out.select(dim, int(i))
            real += 1
    return out, indices


@derivative("alias", "AliasBackward0")
def _alias_bw(ctx, g):
    return (g,)


@tensor_method
def __setitem__(self, index, value) -> None:
    """x[index] = value: basic items make a view that value is copied into (CopySlices if
    autograd records); with index tensors, index_put_ on that view (THPVariable_setitem)."""
    if not isinstance(value, (Tensor, bool, int, float, complex, np.integer)):  # before the index
        raise TypeError(f"can't assign a {type_name(value)} to a torch.{self.dtype.tensor_type}")
    if index is False:
        return  # PyTorch writes nothing for x[False] = v (and checks nothing)
    view, indices = _apply_slicing(self, _index_items(index))
    if not isinstance(value, Tensor):
        if dtypes.is_number(value) or isinstance(value, complex):  # checked as PyTorch does
            # (int64 refuses NaN and 1e30, a float tensor 1j; 1 + 0j is 1.0)
            value = dtypes.checked_scalar(value, self.dtype, "setitem", view.numel())
        value = tensor(value, dtype=self.dtype)  # PyTorch copies from a wrapped 0-dim tensor
    if indices:
        lead = 0  # slicePrefix1sSize: value's leading size-1 dims are dropped first
        while lead < value.dim() and value._shape[lead] == 1:
            lead += 1
        if lead:
            value = value.view(value._shape[lead:])
        put_(view, indices, value)
        return
    if value._shape != view._shape:
        value = value.expand(view._shape)  # setitem expands first: expand's error text
    view.copy_(value)


@tensor_method
def __delitem__(self, index) -> None:
    raise TypeError("Tensor does not support deleting items")
