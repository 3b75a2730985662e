"""The factories that take a size: empty, empty_strided, zeros, ones, full, eye, the *_like
family, tril/triu_indices (PyTorch's TensorFactories.cpp), the keyword checks every factory
shares, and their out= (resize_, one write). The random factories are ops/random_factories.py.

Every new tensor gets a fresh storage from the allocator. Their neighbours: tensor_new.py
(torch.tensor, from_numpy), range_factories.py (arange), generator.py (manual_seed), and
copy_kernel.py (the dtype conversion every copy goes through).
"""
from __future__ import annotations

import math

import numpy as np

from . import dtypes
from .arg_parser import argument_error, int_list, is_number, size_arg
from .device import placement
from .function_parser import torch_function
from .layout import (
    check_rank,
    contiguous_strides,
    dense_strides,
    format_strides,
    non_overlapping_and_dense,
    preserve_format,
    storage_extent,
    storage_nbytes,
    strided,
)
from .layout import layout as layout_type
from .modes import STATE
from .storage import UntypedStorage
from .tensor import Tensor, check_memory_format


def factory_size(op: str, size: tuple, varargs: bool = True, kwargs: dict | None = None) -> tuple:
    """A ``tuple of ints size`` as PyTorch's binding reads it (``zeros(2, 3)``,
    ``zeros((2, 3))`` or ``zeros(size=(2, 3))``), then its negative-size check (zeros words it
    its own way)."""
    shape = (size_arg(op, "size", size, kwargs) if kwargs
             else int_list(op, "size", size, position=1, varargs=varargs))
    negative = [s for s in shape if s < 0]
    if negative:
        if op == "zeros":
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        raise RuntimeError(f"Trying to create tensor with negative dimension {negative[0]}: "
                           f"{list(shape)}")
    return shape


def factory_options(op: str, dtype, requires_grad, layout=None, device=None,
                   pin_memory=None) -> bool:
    """The keyword arguments every factory takes (torch's ``ScalarType? dtype=None, Layout?
    layout=None, Device? device=None, bool? pin_memory=False, bool? requires_grad=False``:
    None is each one's default). Returns requires_grad as a bool."""
    if dtype is not None and not isinstance(dtype, dtypes.dtype):
        raise argument_error(op, "dtype", None, "torch.dtype", dtype)
    if requires_grad is not None and not isinstance(requires_grad, bool):
        raise argument_error(op, "requires_grad", None, "bool", requires_grad)
    if layout is not None and not isinstance(layout, layout_type):
        raise argument_error(op, "layout", None, "torch.layout", layout)
    if layout not in (None, strided):  # (the core has no other layout object)
        raise RuntimeError("inplace_tutorial has only the strided layout (layout=None or "
                           "torch.strided)")
    if device is not None:  # (None, the default, is the CPU)
        placement(op, device)
    if pin_memory is not None and not isinstance(pin_memory, bool):
        raise argument_error(op, "pin_memory", None, "bool", pin_memory)
    if pin_memory:  # torch's CPU-only build
        raise RuntimeError("pin_memory=True requires a CUDA or other accelerator backend; no "
                           "pinned memory allocator is available on this system.")
    return bool(requires_grad)


# ------------------------------------------------------------------ out=
# A factory's out= form (zeros.out, full.out ...) is not resize_output: its kernel calls
# resize_ on out, silently, and keeps an out of the right shape as it is (strides included).
# The count of out's writes goes up once per call, as for every out= function.
def out_dtype(op: str, out: Tensor, dtype) -> dtypes.dtype:
    """The binding's check that a dtype given with out= is out's (check_out_type_matches); the
    result takes out's dtype."""
    if dtype is not None and dtype is not out.dtype:
        raise RuntimeError(f"dtype {dtype.short} does not match dtype of out parameter "
                           f"({out.dtype.short})")
    return out.dtype


def refuse_grad(op: str, out: Tensor) -> None:
    """The autograd kernel of an out= function: out may not require grad under grad mode."""
    if STATE["grad"] and out.requires_grad:
        raise RuntimeError(f"aten::{op}(): functions with out=... arguments don't support "
                           "automatic differentiation, but one of the arguments requires grad.")


def resize_(out: Tensor, shape: tuple) -> bool:
    """The kernel's ``result.resize_(size)``: True if out's shape changed (contiguous strides
    then; its storage grows in place if it is too small)."""
    if out._shape == tuple(shape):
        return False
    out._resize_contiguous(tuple(shape))
    return True


def _fill_out(op: str, out: Tensor, shape: tuple, dtype, fill, requires_grad: bool) -> Tensor:
    """zeros/ones/full(..., out=out): resize_ then fill_ (one write)."""
    out_dtype(op, out, dtype)
    refuse_grad(op, out)
    value = dtypes.checked_scalar(fill, out.dtype, "fill", math.prod(shape))
    resize_(out, shape)
    out._vc.write(lambda: out._array().fill(value), op)
    return finish_factory(out, requires_grad)


def finish_factory(t: Tensor, requires_grad: bool) -> Tensor:
    if requires_grad:
        if not t.dtype.is_floating_point:
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients")
        t.requires_grad_(True)
    return t


def _dense_layout(a) -> tuple | None:
    """Element strides of a dense (possibly permuted) array, else None.

    torch.tensor(ndarray) and the *_like functions keep such a layout (preserve_format)."""
    if isinstance(a, Tensor):
        return dense_strides(a._shape, a._stride)
    if not isinstance(a, np.ndarray) or a.ndim < 2 or a.flags.c_contiguous:
        return None
    if any(s < 0 or s % a.itemsize for s in a.strides):
        return None
    strides = tuple(s // a.itemsize for s in a.strides)
    return strides if non_overlapping_and_dense(a.shape, strides) else None


def _empty_preserving(shape, strides, dtype, op: str) -> Tensor:
    if strides is None or tuple(strides) == contiguous_strides(tuple(shape)):
        return Tensor._empty(tuple(shape), dtype, op)
    t = empty_strided(shape, strides, dtype)
    t._storage.op = op
    return t


@torch_function()
def empty(*size, dtype: dtypes.dtype | None = None, requires_grad: bool | None = False,
          layout=None, device=None, pin_memory: bool | None = None, out=None,
          memory_format=None, **kwargs) -> Tensor:
    """torch.empty; ``memory_format=torch.channels_last`` lays a 4-D tensor out NHWC (the only
    factory of PyTorch's that takes it: zeros, new_empty and empty_strided refuse it)."""
    requires_grad = factory_options("empty", dtype, requires_grad, layout, device, pin_memory)
    check_memory_format("empty", memory_format, optional=True)
    shape = factory_size("empty", size, kwargs=kwargs)
    if out is not None:
        return _empty_out(out, shape, dtype, memory_format, requires_grad)
    dtype = dtype or dtypes.float32
    if memory_format is None or memory_format.rank is None and memory_format is not \
            preserve_format:  # (contiguous_format)
        return finish_factory(Tensor._empty(shape, dtype, "empty"), requires_grad)
    if memory_format is preserve_format:
        raise RuntimeError("unsupported memory format Preserve")
    check_rank(memory_format, shape)
    out = empty_strided(shape, format_strides(memory_format, shape), dtype)
    out._storage.op = "empty"
    return finish_factory(out, requires_grad)


def _empty_out(out: Tensor, shape: tuple, dtype, memory_format, requires_grad: bool) -> Tensor:
    """empty(..., out=out) is out.resize_(size): its own refusal of a tensor that requires grad
    (in any grad mode), and a version step only if the shape changed."""
    if memory_format is not None:
        raise RuntimeError("'memory_format' argument is incompatible with 'out' tensor argument")
    out_dtype("empty", out, dtype)
    if out.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if out._shape != shape:
        out._vc.write(lambda: resize_(out, shape), "resize_")
    return finish_factory(out, requires_grad)


@torch_function()
def empty_strided(size, stride, dtype: dtypes.dtype | None = None, *, layout=None, device=None,
                  pin_memory: bool | None = None, requires_grad: bool | None = False
                  ) -> Tensor:
    size = factory_size("empty_strided", (size,), varargs=False)
    stride = int_list("empty_strided", "stride", (stride,), position=2, varargs=False)
    requires_grad = factory_options("empty_strided", dtype, requires_grad, layout, device,
                                   pin_memory)
    dtype = dtype or dtypes.float32
    if storage_nbytes(size, stride, dtype.itemsize) is None:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    storage = UntypedStorage(storage_extent(size, stride), dtype.np, "empty_strided")
    return finish_factory(Tensor._make(storage, size, stride, 0, dtype), requires_grad)


@torch_function()
def full(size, fill_value, dtype: dtypes.dtype | None = None,
         requires_grad: bool | None = False, *, layout=None, device=None,
         pin_memory: bool | None = None, out=None) -> Tensor:
    shape = factory_size("full", (size,), varargs=False)
    if not is_number(fill_value):
        raise argument_error("full", "fill_value", 2, "Number", fill_value)
    requires_grad = factory_options("full", dtype, requires_grad, layout, device, pin_memory)
    if out is not None:
        return _fill_out("full", out, shape, dtype, fill_value, requires_grad)
    dtype = dtype or dtypes.scalar_dtype(fill_value)
    value = dtypes.checked_scalar(fill_value, dtype, "fill", math.prod(shape))
    t = Tensor._empty(shape, dtype, "full")
    t._array().fill(value)
    return finish_factory(t, requires_grad)


@torch_function()
def zeros(*size, dtype: dtypes.dtype | None = None, requires_grad: bool | None = False,
          layout=None, device=None, pin_memory: bool | None = None, out=None, **kwargs) -> Tensor:
    requires_grad = factory_options("zeros", dtype, requires_grad, layout, device, pin_memory)
    shape = factory_size("zeros", size, kwargs=kwargs)
    if out is not None:
        return _fill_out("zeros", out, shape, dtype, 0, requires_grad)
    t = Tensor._empty(shape, dtype or dtypes.float32, "zeros")
    t._array().fill(0)
    return finish_factory(t, requires_grad)


@torch_function()
def ones(*size, dtype: dtypes.dtype | None = None, requires_grad: bool | None = False,
         layout=None, device=None, pin_memory: bool | None = None, out=None, **kwargs) -> Tensor:
    requires_grad = factory_options("ones", dtype, requires_grad, layout, device, pin_memory)
    shape = factory_size("ones", size, kwargs=kwargs)
    if out is not None:
        return _fill_out("ones", out, shape, dtype, 1, requires_grad)
    t = Tensor._empty(shape, dtype or dtypes.float32, "ones")
    t._array().fill(1)
    return finish_factory(t, requires_grad)


@torch_function()
def eye(n: int, m: int | None = None, *, out=None, dtype: dtypes.dtype | None = None,
        layout=None, device=None, pin_memory: bool | None = None,
        requires_grad: bool | None = False) -> Tensor:
    """An n x m matrix (m = n unless given) with ones on its diagonal, zeros elsewhere."""
    requires_grad = factory_options("eye", dtype, requires_grad, layout, device, pin_memory)
    m = n if m is None else m
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    if out is None:
        t = Tensor._empty((n, m), dtype or dtypes.float32, "eye")
    else:  # resize_, zero_, then the diagonal: one write
        out_dtype("eye", out, dtype)
        refuse_grad("eye", out)
        resize_(out, (n, m))
        t = out

    def fill() -> None:
        a = t._array()
        a.fill(0)
        k = min(n, m)
        if k:  # the diagonal as a view (one stride: a row's plus a column's), no index arrays
            np.lib.stride_tricks.as_strided(a, (k,), (a.strides[0] + a.strides[1],)).fill(1)

    if out is None:
        fill()
    else:
        out._vc.write(fill, "eye")
    return finish_factory(t, requires_grad)


def new_like(t: Tensor, dtype, requires_grad: bool | None, fill, op: str,
          memory_format=preserve_format, placement: tuple = (None, None, None)) -> Tensor:
    if not isinstance(t, Tensor):
        raise argument_error(op, "input", 1, "Tensor", t)
    if op == "full_like" and not is_number(fill):
        raise argument_error(op, "fill_value", 2, "Number", fill)
    requires_grad = factory_options(op, dtype, requires_grad, *placement)
    if memory_format is preserve_format or memory_format is None:
        strides = _dense_layout(t)
    else:
        check_memory_format(op, memory_format)
        check_rank(memory_format, t._shape)
        strides = format_strides(memory_format, t._shape)
    out = _empty_preserving(t._shape, strides, dtype or t.dtype, op)
    if fill is not None:
        out._array().fill(fill)
    return finish_factory(out, requires_grad)


@torch_function()
def empty_like(input: Tensor, dtype=None, requires_grad: bool | None = False,  # noqa: A002
               *, memory_format=preserve_format, layout=None, device=None,
               pin_memory: bool | None = None) -> Tensor:
    return new_like(input, dtype, requires_grad, None, "empty_like", memory_format,
                 (layout, device, pin_memory))


@torch_function()
def zeros_like(input: Tensor, dtype=None, requires_grad: bool | None = False,  # noqa: A002
               *, memory_format=preserve_format, layout=None, device=None,
               pin_memory: bool | None = None) -> Tensor:
    return new_like(input, dtype, requires_grad, 0, "zeros_like", memory_format,
                 (layout, device, pin_memory))


@torch_function()
def ones_like(input: Tensor, dtype=None, requires_grad: bool | None = False,  # noqa: A002
              *, memory_format=preserve_format, layout=None, device=None,
              pin_memory: bool | None = None) -> Tensor:
    return new_like(input, dtype, requires_grad, 1, "ones_like", memory_format,
                 (layout, device, pin_memory))


@torch_function()
def full_like(input: Tensor, fill_value, dtype=None,  # noqa: A002
              requires_grad: bool | None = False, *, memory_format=preserve_format,
              layout=None, device=None, pin_memory: bool | None = None) -> Tensor:
    return new_like(input, dtype, requires_grad, fill_value, "full_like", memory_format,
                 (layout, device, pin_memory))


def _tri_indices(op: str, row: int, col: int, offset: int, dtype, requires_grad,
                 placement: tuple, lower: bool) -> Tensor:
    """The (2, N) row and column indices of the lower (upper) triangle, row by row."""
    requires_grad = factory_options(op, dtype, requires_grad, *placement)
    dtype = dtype or dtypes.int64
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    if dtype.is_floating_point or dtype is dtypes.bool_:
        raise NotImplementedError(f'"{op}" not implemented for \'{dtype.short}\'')
    # per row r: columns [0, r + offset] (lower) or [r + offset, col) (upper), clipped
    counts = [max(0, min(col, r + offset + 1)) if lower else max(0, col - max(0, r + offset))
              for r in range(row)]
    n = sum(counts)
    t = Tensor._empty((2, n), dtype, op)
    a = t._array()
    k = 0
    for r, c in enumerate(counts):
        first = 0 if lower else max(0, r + offset)
        a[0, k:k + c] = r
        np.copyto(a[1, k:k + c], np.arange(first, first + c), casting="unsafe")
        k += c
    return finish_factory(t, requires_grad)


@torch_function()
def tril_indices(row: int, col: int, offset: int = 0, *, dtype=None, layout=None, device=None,
                 pin_memory: bool | None = None, requires_grad: bool | None = False) -> Tensor:
    """Indices of a row x col matrix's lower triangle (diagonal ``offset`` and below)."""
    return _tri_indices("tril_indices", row, col, offset, dtype, requires_grad,
                        (layout, device, pin_memory), True)


@torch_function()
def triu_indices(row: int, col: int, offset: int = 0, *, dtype=None, layout=None, device=None,
                 pin_memory: bool | None = None, requires_grad: bool | None = False) -> Tensor:
    """Indices of a row x col matrix's upper triangle (diagonal ``offset`` and above)."""
    return _tri_indices("triu_indices", row, col, offset, dtype, requires_grad,
                        (layout, device, pin_memory), False)


__all__ = ["empty", "empty_like", "empty_strided", "eye", "full", "full_like", "ones", "ones_like",
           "tril_indices", "triu_indices", "zeros", "zeros_like"]
