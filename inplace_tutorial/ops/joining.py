"""Joining tensors: cat (concatenate, concat), stack, hstack, vstack.

Every join copies: the result is a fresh storage, laid out contiguously (or channels-last when
every input is). CatBackward0 keeps only ``dim`` plus each input's size (PyTorch saves the
sizes but shows only ``_saved_dim``), so changing an input in place after ``cat`` is harmless.
The backward hands each input its slice of the gradient.
"""
from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..copy_kernel import cast_into
from ..creation import empty_strided, zeros
from ..layout import channels_last_strides, contiguous_strides, wrap_dim
from ..tensor import Tensor
from .arg_checks import argument_error, type_name


def _check_tensor_list(op: str, tensors) -> list:
    """PyTorch's argument parser: a list or tuple whose every element is a Tensor."""
    if not isinstance(tensors, (list, tuple)):
        raise argument_error(op, "tensors", 1, "tuple of Tensors", tensors)
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type_name(t)}")
    return list(tensors)


def _check_dim(op: str, dim) -> int:
    if isinstance(dim, Tensor) and dim.dim() == 0 and not dim.dtype.is_floating_point:
        return int(dim.item())  # a 0-dim integer tensor reads as an int
    if isinstance(dim, (bool, np.bool_)) or not isinstance(dim, numbers.Integral):
        raise argument_error(op, "dim", 2, "int", dim)
    return int(dim)


def symint(dim: int) -> int:
    """An int argument as ``grad_fn._saved_dim`` shows it: PyTorch keeps it as an unsigned
    64-bit SymInt, so ``dim=-1`` reads back as 2**64 - 1 (the dim as passed, not wrapped)."""
    return dim % 2**64


def saved_dim(ctx, ndim: int) -> int:
    """The saved dim turned back into a dimension of an ``ndim``-dimensional tensor."""
    dim = ctx.attr("dim")
    return wrap_dim(dim - 2**64 if dim >= 2**63 else dim, ndim)


def _skipped(t: Tensor) -> bool:
    """PyTorch's legacy rule: a 1-D empty tensor (``torch.tensor([])``) joins anything."""
    return t.dim() == 1 and t._shape[0] == 0


def _like_channels_last(shape: tuple, stride: tuple) -> bool:
    """PyTorch's is_channels_last_strides_2d/3d: what suggest_memory_format asks."""
    order = {4: (1, 3, 2, 0), 5: (1, 4, 3, 2, 0)}.get(len(shape))
    if order is None or stride[1] == 0:
        return False
    low = 0
    for d in order:
        if shape[d] == 0 or stride[d] < low:
            return False
        if d == 0 and low == stride[1]:
            return False  # ambiguous (N111): PyTorch falls back to contiguous
        low = stride[d] * (shape[d] if shape[d] > 1 else 1)
    return True


def _out_strides(tensors: list, shape: tuple) -> tuple:
    """cat_compute_output_memory_format: channels-last only if every input suggests it."""
    if all(_like_channels_last(t._shape, t._stride) for t in tensors) \
            and tensors[0].dim() == len(shape) == 4:
        return channels_last_strides(shape)
    return contiguous_strides(shape)


def cat(tensors, dim: int = 0, *, axis: int | None = None) -> Tensor:
    """torch.cat: the tensors joined along an existing dimension ``dim``."""
    tensors = _check_tensor_list("cat", tensors)
    dim = _check_dim("cat", dim if axis is None else axis)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if t.dim() == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               "concatenated")
    kept = [t for t in tensors if not _skipped(t)]
    given = dim
    if kept:
        dim = wrap_dim(dim, kept[0].dim())
    out_dtype = dtypes.result_type(*tensors)
    shape = (0,)
    if kept:
        first = kept[0]
        total = 0
        for i, t in enumerate(tensors):
            if _skipped(t):
                continue
            if t.dim() != first.dim():
                raise RuntimeError("Tensors must have same number of dimensions: got "
                                   f"{first.dim()} and {t.dim()}")
            for d in range(t.dim()):
                if d != dim and t._shape[d] != first._shape[d]:
                    raise RuntimeError(
                        f"Sizes of tensors must match except in dimension {dim}. Expected "
                        f"size {first._shape[d]} but got size {t._shape[d]} for tensor number "
                        f"{i} in the list.")
            total += t._shape[dim]
        shape = first._shape[:dim] + (total,) + first._shape[dim + 1:]
    out = empty_strided(shape, _out_strides(tensors, shape), dtype=out_dtype)
    a, at = out._array(), 0
    for t in kept:
        n = t._shape[dim]
        part = a[(slice(None),) * dim + (slice(at, at + n),)]
        cast_into(part, t._array(), out_dtype, "cat")
        at += n
    return record("cat", out, {"tensors": tensors}, dim=symint(given))


def concat(tensors, dim: int = 0) -> Tensor:
    """torch.concat is torch.cat."""
    return cat(tensors, dim)


def concatenate(tensors, dim: int = 0) -> Tensor:
    """torch.concatenate is torch.cat (NumPy's spelling; ``axis=`` is the parser's NumPy name
    for dim, functional.py renames it)."""
    return cat(tensors, dim)


@derivative("cat", "CatBackward0", inputs=("tensors",))
def _cat_bw(ctx, g):
    grads, at = [], 0
    for i, (shape, _) in enumerate(ctx._input_meta):
        if len(shape) == 1 and shape[0] == 0:  # a skipped legacy empty tensor
            grads.append(zeros(0, dtype=g.dtype) if ctx.needs(i) else None)
            continue
        dim = saved_dim(ctx, g.dim())
        n = shape[dim]
        grads.append(g.narrow(dim, at, n) if ctx.needs(i) else None)
        at += n
    return tuple(grads)


def check_stack_inputs(tensors: list) -> None:
    """PyTorch's check_stack_inputs: every tensor has the first one's size."""
    first = tensors[0]._shape
    for i, t in enumerate(tensors):
        if t._shape != first:
            raise RuntimeError(
                "stack expects each tensor to be equal size, but got "
                f"[{', '.join(map(str, first))}] at entry 0 and "
                f"[{', '.join(map(str, t._shape))}] at entry {i}")


def stack(tensors, dim: int = 0) -> Tensor:
    """torch.stack: the tensors (all of one size) joined along a new dimension ``dim``."""
    tensors = _check_tensor_list("stack", tensors)
    dim = _check_dim("stack", dim)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    given, dim = dim, wrap_dim(dim, tensors[0].dim() + 1)
    check_stack_inputs(tensors)
    first = tensors[0]._shape
    shape = first[:dim] + (len(tensors),) + first[dim:]
    out = Tensor._empty(shape, dtypes.result_type(*tensors), "stack")
    a = out._array()
    for i, t in enumerate(tensors):
        cast_into(a[(slice(None),) * dim + (i, Ellipsis)], t._array(), out.dtype, "stack")
    return record("stack", out, {"tensors": tensors}, dim=symint(given))


@derivative("stack", "StackBackward0", inputs=("tensors",))
def _stack_bw(ctx, g):
    dim = saved_dim(ctx, g.dim())
    return tuple(g.select(dim, i) if ctx.needs(i) else None
                 for i in range(len(ctx._input_meta)))


def hstack(tensors) -> Tensor:
    """torch.hstack: cat along dim 1 (dim 0 for 1-D tensors), 0-dim tensors made 1-D."""
    tensors = _check_tensor_list("hstack", tensors)
    if not tensors:
        raise RuntimeError("hstack expects a non-empty TensorList")
    rep = [t.reshape(1) if t.dim() == 0 else t for t in tensors]  # torch.atleast_1d
    return cat(rep, 0 if rep[0].dim() == 1 else 1)


def vstack(tensors) -> Tensor:
    """torch.vstack: cat along dim 0 after making every tensor at least 2-D."""
    tensors = _check_tensor_list("vstack", tensors)
    if not tensors:
        raise RuntimeError("vstack expects a non-empty TensorList")
    rep = [t.reshape(1, 1) if t.dim() == 0 else t.unsqueeze(0) if t.dim() == 1 else t
           for t in tensors]  # torch.atleast_2d
    return cat(rep, 0)


def row_stack(tensors) -> Tensor:
    """torch.row_stack is torch.vstack."""
    return vstack(tensors)


__all__ = ["cat", "concat", "concatenate", "hstack", "row_stack", "stack", "vstack"]
