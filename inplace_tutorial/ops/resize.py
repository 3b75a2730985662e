"""resize_ and resize_as_: a tensor takes a new shape over the storage it already has.

PyTorch's ``resize_`` (aten/src/ATen/native/Resize.cpp) gives the tensor contiguous strides
from its own storage offset. A storage too small for them grows IN PLACE: the same storage
object gets a larger buffer (storage.py:UntypedStorage._resize_bytes, a counted allocation),
the old bytes copied to its front and the new cells left uninitialised, so every view of that
storage sees the new buffer. A shrink keeps the storage and its bytes. The version counter
steps only when the shape changed (ADInplaceOrView's resize_), and a tensor that requires grad
is refused in every grad mode: a resize has no derivative.
"""
from __future__ import annotations

from ..arg_parser import argument_error, binding, size_arg
from ..autograd.errors import INFERENCE_INPLACE
from ..layout import (
    check_rank,
    contiguous_strides,
    format_strides,
    memory_format,
    numel_overflows,
    preserve_format,
)
from ..modes import STATE
from ..tensor import Tensor, check_memory_format, tensor_method
from .casts import _suggested as suggest_memory_format

GRAD_REFUSAL = "cannot resize variables that require grad"


def _storage_nbytes_contiguous(shape: tuple, itemsize: int, offset: int) -> int | None:
    """computeStorageNbytesContiguous: (numel + offset) * itemsize in uint64 arithmetic;
    None when it overflows or passes int64's largest value."""
    n = 1
    overflow = False
    for s in shape:
        n *= s % 2**64
        if n >= 2**64:
            overflow, n = True, n % 2**64
    n = (n + offset) * itemsize
    return None if overflow or n > 2**63 - 1 else n


def _restride(self: Tensor, fmt: memory_format) -> None:
    """empty_tensor_restride: the dense strides of ``fmt`` over the same cells' count.
    PyTorch checks the format after the resize is done, so a refusal leaves the new shape."""
    if fmt is preserve_format:
        raise RuntimeError("Unsupported memory formatPreserve")
    check_rank(fmt, self._shape)
    self._set_geometry(self._shape, format_strides(fmt, self._shape), self._offset)


def resize_storage(self: Tensor, shape: tuple) -> None:
    """_resize_impl_: contiguous strides for ``shape``, the storage grown if it is too small.
    PyTorch sets the sizes before its two overflow checks and the resizable check, and leaves
    them set when one fails (a tensor larger than its storage); the core checks first and
    leaves the tensor as it was."""
    if shape == self._shape:
        return
    if numel_overflows(shape):
        raise RuntimeError("numel: integer multiplication overflow")
    need = _storage_nbytes_contiguous(shape, self.dtype.itemsize, self._offset)
    if need is None:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(shape)}")
    storage = self._storage
    numel = 1
    for s in shape:
        numel *= s
    # maybe_resize_storage_cpu: no element, no resize (whatever the offset asks for)
    if numel and need > storage.nbytes():
        if not storage._resizable:
            raise RuntimeError("Trying to resize storage that is not resizable")
        # every tensor on this storage had its NumPy window on the old buffer: the storage's
        # generation moves on, and each rebuilds its window at its next _array()
        storage._resize_bytes(need, "resize_")
    self._set_geometry(shape, contiguous_strides(shape), self._offset)


def _step_version(self: Tensor, old_shape: tuple) -> None:
    """ADInplaceOrView's resize_: the counter steps only if the sizes changed. An inference
    tensor outside inference mode has no counter to step: PyTorch raises there, after the
    resize."""
    if self._shape == old_shape:
        return
    if not self._vc.tracked and not STATE.inference:
        raise RuntimeError(INFERENCE_INPLACE)
    self._vc.bump("resize_")


def _resize(self: Tensor, shape: tuple, fmt) -> Tensor:
    """The whole call in PyTorch's order: autograd's refusal, the resize, the strides of
    ``fmt`` (if one was given), then the version step (skipped when a step before raised)."""
    if self.requires_grad:  # VariableType's resize_: before anything, in every grad mode
        raise RuntimeError(GRAD_REFUSAL)
    old_shape = self._shape
    resize_storage(self, shape)
    if fmt is not None:
        _restride(self, fmt)
    _step_version(self, old_shape)
    return self


@tensor_method
def resize_(self, *size, memory_format=None, **kwargs) -> Tensor:
    """x.resize_(2, 3): contiguous strides; the storage grows in place if it is too small."""
    shape = size_arg("resize_", "size", size, kwargs)
    check_memory_format("resize_", memory_format, optional=True)
    return _resize(self, shape, memory_format)


@binding()
@tensor_method
def resize_as_(self, the_template, *, memory_format=None) -> Tensor:
    """x.resize_as_(y) is x.resize_(y.shape); with ``memory_format=`` the strides are then
    laid out in that format (preserve_format: the one y's strides suggest)."""
    if not isinstance(the_template, Tensor):
        raise argument_error("resize_as_", "the_template", 1, "Tensor", the_template)
    check_memory_format("resize_as_", memory_format, optional=True)
    if memory_format is preserve_format:
        memory_format = suggest_memory_format(the_template)
    return _resize(self, the_template._shape, memory_format)
