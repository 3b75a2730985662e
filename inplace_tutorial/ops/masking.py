"""Writing through a boolean mask: masked_fill(_), masked_scatter(_), and the Tensor.where
method (``x.where(condition, y)`` is ``torch.where(condition, x, y)``, ops/compare.py); and
reading through one: masked_select, whose backward is masked_scatter_ into zeros.

The mask broadcasts to self's shape (never the other way round for the in-place form). Both
nodes save the mask, so changing the mask in place before backward raises the version error;
self's gradient is the upstream gradient with the masked cells zeroed (they were overwritten).
"""
from __future__ import annotations

import warnings

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..creation import zeros
from ..layout import broadcast_shapes
from ..tensor import Tensor, tensor_method
from .arg_checks import argument_error, as_called, invalid_combination, is_number, type_name
from .compare import where as where_function
from .index_ops import check_no_overlap
from .out_functions import out_form, start, write
from .out_variants import resize_output
from .tensor_iterator import check_internal_overlap, check_partial_overlap
from .workspace import CHUNK, LOOP_BUFFER_ELEMENTS, chunks


def _shape_str(shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def _check_args(op: str, mask, value) -> None:
    """PyTorch's two overloads, (Tensor mask, Tensor value) and (Tensor mask, Number value)."""
    mask_ok = isinstance(mask, Tensor)
    if mask_ok and (isinstance(value, Tensor) or is_number(value)):
        return

    def shown(v, bad: bool) -> str:
        return f"!{type_name(v, detailed=True)}!" if bad else type_name(v)

    got = f"{type_name(mask)}, {type_name(value)}"
    lines = [f"{op}() received an invalid combination of arguments - got ({got}), but "
             "expected one of:"]
    for kind in ("Tensor", "Number"):
        # after a bad mask PyTorch marks the Number overload's value too, whatever it is
        bad_value = not isinstance(value, Tensor) if kind == "Tensor" else \
            (not mask_ok or not is_number(value))
        lines.append(f" * (Tensor mask, {kind} value)")
        lines.append("      didn't match because some of the arguments have invalid types: "
                     f"({shown(mask, not mask_ok)}, {shown(value, bad_value)})")
    raise TypeError("\n".join(lines) + "\n")


def _check_bool_mask(op: str, mask: Tensor) -> None:
    if mask.dtype is not dtypes.bool_:
        raise RuntimeError(f"{op} only supports boolean masks, but got mask with dtype "
                           f"{mask.dtype.c_name}")


def _expanded(self: Tensor) -> bool:
    return 0 not in self._shape and any(
        n > 1 and st == 0 for n, st in zip(self._shape, self._stride))


# --------------------------------------------------------------------------- masked_fill
def _fill_value(self: Tensor, value):
    """The value as a Python scalar of self's dtype (a 0-dim tensor is read with item())."""
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but "
                               f"got tensor with {value.dim()} dimension(s).")
        value = value.item()
    return value


def _masked_fill_checks(self: Tensor, mask: Tensor, value):
    """masked_fill__cpu's checks in its order; returns the converted fill value."""
    _check_bool_mask("masked_fill_", mask)
    if _expanded(self):
        warnings.warn("Use of masked_fill_ on expanded tensors is deprecated. Please clone() "
                      "the tensor before performing this operation. This also applies to "
                      "advanced indexing e.g. tensor[mask] = scalar", UserWarning, stacklevel=4)
    check_partial_overlap(self, mask)
    shape = broadcast_shapes(self._shape, mask._shape)
    if shape != self._shape:
        raise RuntimeError(f"output with shape {_shape_str(self._shape)} doesn't match the "
                           f"broadcast shape {_shape_str(shape)}")
    return dtypes.checked_scalar(value, self.dtype, "fill")


def _masked_fill_kernel(self: Tensor, mask: Tensor, value) -> None:
    a = self._array()
    np.copyto(a, self.dtype.np.type(value), where=np.broadcast_to(mask._array(), a.shape))


@binding()
@tensor_method
def masked_fill_(self, mask: Tensor, value) -> Tensor:
    _check_args("masked_fill_", mask, value)
    op = "masked_fill_tensor" if isinstance(value, Tensor) else "masked_fill"
    converted = []

    def check():
        converted.append(_masked_fill_checks(self, mask, _fill_value(self, value)))

    return record_inplace(op, self, {"self": self, "mask": mask, "value": value},
                          lambda: _masked_fill_kernel(self, mask, converted[0]), check=check)


@binding()
@tensor_method
def masked_fill(self, mask: Tensor, value) -> Tensor:
    """A contiguous copy of self, broadcast with the mask, then masked_fill_ on it."""
    _check_args("masked_fill", mask, value)
    shape = broadcast_shapes(mask._shape, self._shape)  # PyTorch's expand_outplace(mask, self)
    scalar = _fill_value(self, value)
    out = Tensor._empty(shape, self.dtype, "masked_fill")
    np.copyto(out._array(), np.broadcast_to(self._array(), shape))
    _masked_fill_kernel(out, mask, _masked_fill_checks(out, mask, scalar))
    op = "masked_fill_tensor" if isinstance(value, Tensor) else "masked_fill"
    return record(op, out, {"self": self, "mask": mask, "value": value})


def _zero_where(g: Tensor, mask: Tensor) -> Tensor:
    """grad.masked_fill(mask, 0): the cells the op overwrote get no gradient."""
    shape = broadcast_shapes(g._shape, mask._shape)
    out = Tensor._empty(shape, g.dtype, "masked_fill backward")
    a = out._array()
    np.copyto(a, np.broadcast_to(g._array(), shape))
    np.copyto(a, 0, where=np.broadcast_to(mask._array(), shape))
    return out


@derivative("masked_fill", "MaskedFillBackward0", saves={"mask": None})
def _masked_fill_bw(ctx, g):
    return (_zero_where(g, ctx.saved("mask")),)


@derivative("masked_fill_tensor", "MaskedFillBackward1", inputs=("self", "value"),
            saves={"mask": None})
def _masked_fill_tensor_bw(ctx, g):
    mask = ctx.saved("mask")
    g_self = _zero_where(g, mask) if ctx.needs(0) else None
    g_value = None
    if ctx.needs(1):  # masked_fill_backward: grad.masked_select(mask).sum()
        shape = broadcast_shapes(g._shape, mask._shape)
        g_value = Tensor._empty((), g.dtype, "masked_fill backward")
        g_value._array()[...] = np.sum(np.broadcast_to(g._array(), shape),
                                       where=np.broadcast_to(mask._array(), shape))
    return (g_self, g_value)


# --------------------------------------------------------------------------- masked_scatter
def _check_scatter_args(op: str, mask, source) -> None:
    for pos, (name, v) in enumerate((("mask", mask), ("source", source)), 1):
        if not isinstance(v, Tensor):
            raise argument_error(op, name, pos, "Tensor", v)


def _expand_error(mask: Tensor, shape: tuple) -> str | None:
    """expand_inplace's error for a mask that does not expand to ``shape``, or None."""
    if mask.dim() > len(shape):
        return (f"expand(CPUBoolType{{{_shape_str(mask._shape)}}}, size={_shape_str(shape)}): "
                f"the number of sizes provided ({len(shape)}) must be greater or equal to the "
                f"number of dimensions in the tensor ({mask.dim()})")
    lead = len(shape) - mask.dim()
    for i, n in enumerate(mask._shape):
        if n != 1 and n != shape[lead + i]:
            return (f"The expanded size of the tensor ({shape[lead + i]}) must match the "
                    f"existing size ({n}) at non-singleton dimension {lead + i}.  Target sizes: "
                    f"{_shape_str(shape)}.  Tensor sizes: {_shape_str(mask._shape)}")
    return None


def _masked_scatter_checks(self: Tensor, mask: Tensor, source: Tensor) -> None:
    """masked_scatter__cpu's checks, in its order (the count is checked before any write)."""
    if _expanded(self):
        check_internal_overlap(self)
    if self.dtype is not source.dtype:
        raise RuntimeError("masked_scatter: expected self and source to have same dtypes but "
                           f"got{self.dtype.short} and {source.dtype.short}")
    err = _expand_error(mask, self._shape)
    if err is not None:
        raise RuntimeError(err)
    if mask.dtype is not dtypes.bool_:
        raise RuntimeError("masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {mask.dtype.short}")
    if np.count_nonzero(mask._array()) * (self.numel() // max(mask.numel(), 1)) > source.numel():
        raise RuntimeError("Number of elements of source < number of ones in mask")


def _masked_scatter_kernel(self: Tensor, mask: Tensor, source: Tensor) -> None:
    """Source's elements, in its logical order, go to the masked cells in self's order."""
    a = self._array()
    m = np.broadcast_to(mask._array(), a.shape)
    src = source._array().reshape(-1)  # a copy only if source is not contiguous
    if source._storage is self._storage and np.shares_memory(src, a):
        # PyTorch's loop reads source while it writes self, one element after the other:
        # a cell written earlier is read back written
        for j, p in enumerate(np.flatnonzero(m)):
            a[np.unravel_index(p, a.shape)] = src[j]
        return
    at = 0
    for piece in chunks(a.shape, CHUNK):
        mp = m[piece]
        k = int(np.count_nonzero(mp))
        if k:
            a[piece][mp] = src[at:at + k]
            at += k


@binding()
@tensor_method
def masked_scatter_(self, mask: Tensor, source: Tensor) -> Tensor:
    _check_scatter_args("masked_scatter_", mask, source)
    return record_inplace("masked_scatter", self, {"self": self, "source": source, "mask": mask},
                          lambda: _masked_scatter_kernel(self, mask, source),
                          check=lambda: _masked_scatter_checks(self, mask, source),
                          source_sym_sizes=source._shape)


@binding()
@tensor_method
def masked_scatter(self, mask: Tensor, source: Tensor) -> Tensor:
    """A contiguous copy of self broadcast with the mask, then masked_scatter_ on it."""
    _check_scatter_args("masked_scatter", mask, source)
    shape = broadcast_shapes(mask._shape, self._shape)  # expand_outplace(mask, self)
    out = Tensor._empty(shape, self.dtype, "masked_scatter")
    np.copyto(out._array(), np.broadcast_to(self._array(), shape))
    _masked_scatter_checks(out, mask, source)
    _masked_scatter_kernel(out, mask, source)
    return record("masked_scatter", out, {"self": self, "source": source, "mask": mask},
                  source_sym_sizes=source._shape)


# --------------------------------------------------------------------------- masked_select
_NO_MASK = object()  # not passed at all (None is a bad mask, in the binding's words)


def _mask_arg(mask, extra: tuple) -> Tensor:
    """masked_select's binding: one Tensor mask, nothing more (the out= form's; the method
    is bound by @binding)."""
    if extra:
        raise TypeError(f"masked_select() takes 1 positional argument but {len(extra) + 1} "
                        "were given")
    if mask is _NO_MASK:
        raise TypeError('masked_select() missing 1 required positional arguments: "mask"')
    if not isinstance(mask, Tensor):
        raise argument_error("masked_select", "mask", 1, "Tensor", mask)
    return mask


def _selection(self: Tensor, mask: Tensor) -> tuple:
    """self and mask broadcast to each other (PyTorch's order, in its error), cut into
    pieces as small as NumPy's buffer, and how many cells each piece picks."""
    shape = broadcast_shapes(mask._shape, self._shape)
    a, m = np.broadcast_to(self._array(), shape), np.broadcast_to(mask._array(), shape)
    pieces = list(chunks(shape, LOOP_BUFFER_ELEMENTS))
    return a, m, pieces, [int(np.count_nonzero(m[piece])) for piece in pieces]


def _select_into(flat: np.ndarray, a: np.ndarray, m: np.ndarray, pieces: list,
                 counts: list) -> None:
    at = 0
    for piece, k in zip(pieces, counts):
        if k:
            flat[at:at + k] = a[piece][m[piece]]
            at += k


@binding()
@tensor_method
def masked_select(self, mask: Tensor) -> Tensor:
    """The cells of self (broadcast with mask) where mask is True, in order, as a new 1-D
    tensor. Its node saves self and mask."""
    mask = _mask_arg(mask, ())
    if mask.dtype is not dtypes.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    a, m, pieces, counts = _selection(self, mask)
    out = Tensor._empty((sum(counts),), self.dtype, "masked_select")
    _select_into(out._array(), a, m, pieces, counts)
    return record("masked_select", out, {"self": self, "mask": mask})


@out_form("masked_select")
def masked_select_out(self: Tensor, mask=_NO_MASK, *extra, out=None) -> Tensor:
    """torch.masked_select(self, mask, out=o), masked_select_out_cpu's order: autograd
    refused, the mask's and out's dtypes, out against itself and the inputs (any shared
    cell), then out resized to the count and written in its own strides."""
    mask = _mask_arg(mask, extra)
    start("masked_select", out, (self, mask))
    if mask.dtype is not dtypes.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    if self.dtype is not out.dtype:
        raise RuntimeError("masked_select(): self and result must have the same scalar type")
    check_internal_overlap(out)
    check_no_overlap(out, self)
    check_no_overlap(out, mask)
    a, m, pieces, counts = _selection(self, mask)
    resize_output(out, (sum(counts),))
    # (one version step even when nothing is picked: PyTorch's out= call counts as a write)
    return write(out, "masked_select",
                 lambda: _select_into(out._array(), a, m, pieces, counts))


@derivative("masked_select", "MaskedSelectBackward0", saves={"mask": "self", "self": "self"})
def _masked_select_bw(ctx, g):
    """masked_select_backward: zeros shaped as self broadcast with mask, g scattered into the
    picked cells (the engine sums a broadcast self's gradient back to its shape)."""
    self, mask = ctx.saved("self"), ctx.saved("mask")
    out = zeros(broadcast_shapes(self._shape, mask._shape), dtype=g.dtype)
    return (out.masked_scatter_(mask, g),)


_WHERE_FORMS = ["Tensor condition, Tensor other", "Tensor condition, Number other"]
_MISSING = object()  # not passed at all: PyTorch's binding lists only what was given


@binding()
@tensor_method
def where(self, condition=_MISSING, other=_MISSING, **unknown) -> Tensor:
    """``x.where(condition, y)``: torch.where(condition, x, y), WhereBackward0 and all."""
    if unknown or not (isinstance(condition, Tensor) and (
            isinstance(other, Tensor) or (other is not _MISSING and is_number(other)))):
        args, kwargs = as_called(["condition", "other"], (condition, other))
        args = tuple(v for v in args if v is not _MISSING)
        kwargs = {k: v for k, v in kwargs.items() if v is not _MISSING} | unknown
        raise invalid_combination("where", args, _WHERE_FORMS, kwargs)
    return where_function(condition, self, other)


@derivative("masked_scatter", "MaskedScatterBackward0", inputs=("self", "source"),
            saves={"mask": None})
def _masked_scatter_bw(ctx, g):
    mask = ctx.saved("mask")
    g_self = _zero_where(g, mask) if ctx.needs(0) else None
    g_source = None
    if ctx.needs(1):  # masked_scatter_backward: the picked gradients first, zeros after
        sizes = ctx.attr("source_sym_sizes")
        g_source = Tensor._empty(sizes, g.dtype, "masked_scatter backward")
        flat = g_source._array().reshape(-1)
        flat.fill(0)
        shape = broadcast_shapes(g._shape, mask._shape)
        ga, m = np.broadcast_to(g._array(), shape), np.broadcast_to(mask._array(), shape)
        at = 0
        for piece in chunks(shape, LOOP_BUFFER_ELEMENTS):  # picked: as small as NumPy's buffer
            picked = ga[piece][m[piece]]
            flat[at:at + picked.size] = picked
            at += picked.size
    return (g_self, g_source)


__all__ = ["masked_fill", "masked_fill_", "masked_scatter", "masked_scatter_", "masked_select",
           "where"]
