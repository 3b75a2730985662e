"""Geometry set by hand: as_strided(_), the metadata in-place ops (t_, transpose_,
(un)squeeze_) that change a tensor's own shape and strides, and the two copying ops that give
a fresh layout (clone, contiguous). The views that select parts are in indexing.py.
"""
from __future__ import annotations

from ..arg_parser import binding, saved, signed
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..autograd.views_backward import scatter_strided
from ..creation import empty_strided
from ..layout import (
    check_rank,
    contiguous_format,
    dense_strides,
    format_strides,
    numel_overflows,
    preserve_format,
    storage_nbytes,
)
from ..tensor import Tensor, check_memory_format, tensor_method
from .arg_checks import check_int, int_list
from .views import _squeeze_node, _squeezed, _swap, _unsqueezed, _view_op


# --------------------------------------------------------------------------- as_strided
@binding()
@tensor_method
def as_strided(self, size, stride, storage_offset: int | None = None) -> Tensor:
    size, stride, offset = _check_bounds(self, "as_strided", size, stride, storage_offset)
    return _view_op(self, size, stride, offset, "as_strided", **_as_strided_attrs(
        self, size, stride, offset, storage_offset))


def _as_strided_attrs(self, size, stride, offset, storage_offset) -> dict:
    """What AsStridedBackward shows (size, stride, storage_offset as given: None if omitted)
    and, hidden, the geometry of self and of the view that its backward scatters through."""
    return {"size": saved(tuple(size)), "stride": saved(tuple(stride)),
            "storage_offset": None if storage_offset is None else saved(offset),
            "_geometry": ((self._shape, self._stride, self._offset),
                          (tuple(size), tuple(stride), offset))}


def _check_bounds(self, op: str, size, stride, offset) -> tuple:
    """as_strided's argument checks in PyTorch's order (setStrided, then
    checkInBoundsForStorage, then numel), before any geometry changes. The sizes' bytes are
    counted in uint64 as computeStorageNbytes does, so a negative size overflows there."""
    size = int_list(op, "size", (size,), position=1, varargs=False)
    stride = int_list(op, "stride", (stride,), position=2, varargs=False)
    offset = self._offset if offset is None else check_int(op, "storage_offset", offset, 3)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(st < 0 for st in stride):
        raise RuntimeError("as_strided: Negative strides are not supported at the moment, got "
                           f"strides: {list(stride)}")
    nbytes = storage_nbytes(size, stride, self.dtype.itemsize)
    if nbytes is None:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    available = self._storage.nbytes()
    if nbytes and nbytes + offset * self.dtype.itemsize > available:
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset "
            f"{offset}, and itemsize {self.dtype.itemsize} requiring a storage size of "
            f"{nbytes + offset * self.dtype.itemsize} are out of bounds for storage of size "
            f"{available}")
    if numel_overflows(size):  # (a negative size is a huge uint64 there)
        raise RuntimeError("numel: integer multiplication overflow")
    if any(s < 0 for s in size):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: "
                           f"{list(size)}")
    return size, stride, offset


@derivative("as_strided", "AsStridedBackward0")
def _as_strided_bw(ctx, g):
    return (scatter_strided(g, *ctx.attr("_geometry")),)


# --------------------------------------------------------------------------- metadata in-place
def _meta_inplace(self, op, shape, stride, offset, /, **attrs) -> Tensor:
    def compute():
        self._set_geometry(shape, stride, offset)
    return record_inplace(op, self, {"self": self}, compute, metadata=True, **attrs)


@binding()
@tensor_method
def transpose_(self, dim0: int, dim1: int) -> Tensor:
    _, _, (shape, stride) = _swap(self, dim0, dim1, "transpose_")
    return _meta_inplace(self, "transpose_", shape, stride, self._offset, dim0=saved(dim0),
                         dim1=saved(dim1))


@tensor_method
def t_(self) -> Tensor:
    if self.dim() > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {self.dim()}D")
    return _meta_inplace(self, "t_", self._shape[::-1], self._stride[::-1], self._offset)


@binding()
@tensor_method
def unsqueeze_(self, dim: int) -> Tensor:
    _, shape, stride = _unsqueezed(self, dim, "unsqueeze_")
    return _meta_inplace(self, "unsqueeze_", shape, stride, self._offset, dim=saved(dim))


@binding()
@tensor_method
def squeeze_(self, dim: int | None = None) -> Tensor:
    shape, stride = _squeezed(self, dim, "squeeze_")
    op, attrs = _squeeze_node(self, dim)
    return _meta_inplace(self, op + "_", shape, stride, self._offset, **attrs)


@binding()
@tensor_method
def as_strided_(self, size, stride, storage_offset: int | None = None) -> Tensor:
    size, stride, offset = _check_bounds(self, "as_strided_", size, stride, storage_offset)
    return _meta_inplace(self, "as_strided_", size, stride, offset, **_as_strided_attrs(
        self, size, stride, offset, storage_offset))


@derivative("transpose_", "TransposeBackward1")
def _transpose__bw(ctx, g):
    return (g.transpose(signed(ctx.attr("dim0")), signed(ctx.attr("dim1"))),)


@derivative("t_", "TBackward1")
def _t__bw(ctx, g):
    return (g.t(),)


@derivative("unsqueeze_", "UnsqueezeBackward1")
def _unsqueeze__bw(ctx, g):
    return (g.squeeze(signed(ctx.attr("dim"))),)


@derivative("squeeze_", "SqueezeBackward3")
def _squeeze__bw(ctx, g):
    return (g.reshape(ctx.attr("self_sym_sizes")),)


derivative("squeeze_dim_", "SqueezeBackward4")(_squeeze__bw)
derivative("squeeze_dims_", "SqueezeBackward5")(_squeeze__bw)


derivative("as_strided_", "AsStridedBackward1")(_as_strided_bw)


# --------------------------------------------------------------------------- copies
@tensor_method
def clone(self, memory_format=preserve_format) -> Tensor:
    """A copy in a fresh storage: preserve_format (None too) keeps a dense layout's strides,
    contiguous_format is row-major, channels_last NHWC (layout.py's memory formats)."""
    if memory_format is None:
        memory_format = preserve_format
    elif memory_format is not preserve_format:
        check_memory_format("clone", memory_format, optional=True)
        check_rank(memory_format, self._shape)
    if memory_format is preserve_format:
        stride = dense_strides(self._shape, self._stride)
    elif memory_format is contiguous_format:
        stride = None
    else:
        stride = format_strides(memory_format, self._shape)
    if stride is None:
        out = Tensor._empty(self._shape, self.dtype, "clone")
    else:
        out = empty_strided(self._shape, stride, self.dtype)
        out._storage.op = "clone"
    out._array()[...] = self._array()
    return record("clone", out, {"self": self})


@derivative("clone", "CloneBackward0")
def _clone_bw(ctx, g):
    return (g,)


@tensor_method
def contiguous(self, memory_format=contiguous_format) -> Tensor:
    """self if its cells already lie in that order, else a clone laid out so."""
    if memory_format is contiguous_format:
        return self if self.is_contiguous() else self.clone(memory_format=contiguous_format)
    check_memory_format("contiguous", memory_format)
    check_rank(memory_format, self._shape)
    if self.is_contiguous(memory_format=memory_format):
        return self
    if memory_format is preserve_format:
        raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
    return self.clone(memory_format=memory_format)
