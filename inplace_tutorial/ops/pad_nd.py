"""constant_pad_nd: a copy of a tensor with a border of one value around its last dims.

``pad`` lists (left, right) amounts from the last dim backwards, as F.pad reads them:
(1, 2) pads the last dim with 1 cell before and 2 after; (1, 2, 0, 1) also pads the
dim before it with 1 cell after. A negative amount cuts cells off instead (narrow). This is
how conv2d's padding='same' pads the input when the kernel needs one cell more on the
right than on the left (nn/functional.py:conv2d). The node, ConstantPadNdBackward0, saves
only ``pad``; its backward pads the gradient by ``-pad``, i.e. cuts the border off again.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..arg_parser import argument_error, int_list, saved, signed
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..creation import empty_strided
from ..layout import dense_strides
from ..tensor import Tensor
from .arg_checks import check_tensor, is_number
from .joining import _like_channels_last

_MISSING = object()


def constant_pad_nd(input: Tensor, pad=_MISSING, value=0, *extra) -> Tensor:
    """torch.constant_pad_nd(input, pad, value=0), PyTorch's PadNd.cpp step by step: the
    negative amounts narrow the input first; with no positive amount left the result is a
    clone of that narrowed view, else a new tensor filled with ``value`` whose inner block
    receives it."""
    if extra:
        raise TypeError("constant_pad_nd() takes from 2 to 3 positional arguments but "
                        f"{3 + len(extra)} were given")
    check_tensor("constant_pad_nd", "input", input, 1)
    if pad is _MISSING:
        raise TypeError('constant_pad_nd() missing 1 required positional arguments: "pad"')
    pad = int_list("constant_pad_nd", "pad", (pad,), position=2, varargs=False)
    if isinstance(value, Tensor) and value.dim() == 0 and not value.requires_grad:
        value = value.item()  # (the parser's Scalar: a 0-dim tensor without grad is one)
    if not is_number(value):
        raise argument_error("constant_pad_nd", "value", 3, "Number", value)
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    ndim, npad = input.dim(), len(pad) // 2
    if npad > ndim:  # (PyTorch's text runs the numbers into the words)
        raise RuntimeError("Length of pad should be no more than twice the number of "
                           f"dimensions of the input. Pad length is {len(pad)}while the input "
                           f"has {ndim}dimensions.")
    src = [slice(None)] * ndim  # the cells of input that survive the negative amounts
    dst = [slice(None)] * ndim  # where they go in the result
    shape = list(input._shape)
    positive = False
    for d in range(ndim - npad, ndim):
        left, right = pad[2 * (ndim - d - 1)], pad[2 * (ndim - d - 1) + 1]
        kept = input._shape[d]
        for amount in (left, right):  # narrow(d, -left, ...), then narrow(d, 0, ...)
            if amount < 0:
                if kept + amount < 0:
                    raise RuntimeError("narrow(): length must be non-negative.")
                kept += amount
            positive = positive or amount > 0
        start = -left if left < 0 else 0
        src[d] = slice(start, start + kept)
        dst[d] = slice(max(left, 0), max(left, 0) + kept)
        shape[d] = kept + max(left, 0) + max(right, 0)
    inner = input._array()[tuple(src)]
    if not positive:  # only cuts: PyTorch returns the narrowed view's clone()
        out = _clone_layout(tuple(shape), inner, input)
        np.copyto(out._array(), inner)
    else:  # empty(new_shape, memory_format=self.suggest_memory_format()), then fill_(value)
        fill = dtypes.checked_scalar(value, input.dtype, "fill", math.prod(shape))
        out = _suggested_layout(tuple(shape), input)
        a = out._array()
        a.fill(fill)
        np.copyto(a[tuple(dst)], inner)
    return record("constant_pad_nd", out, {"self": input}, pad=saved(pad))


def _suggested_layout(shape: tuple, input: Tensor) -> Tensor:
    """A new tensor in the memory format input's strides suggest (channels-last ones keep
    channels innermost), as PyTorch's suggest_memory_format picks it."""
    if not _like_channels_last(input._shape, input._stride):
        return Tensor._empty(shape, input.dtype, "constant_pad_nd")
    strides, step = [0] * len(shape), 1
    for d in (1, 3, 2, 0) if len(shape) == 4 else (1, 4, 3, 2, 0):
        strides[d], step = step, step * max(shape[d], 1)
    out = empty_strided(shape, tuple(strides), input.dtype)
    out._storage.op = "constant_pad_nd"
    return out


def _clone_layout(shape: tuple, inner: np.ndarray, input: Tensor) -> Tensor:
    """The tensor clone() makes of the narrowed view: its strides kept where it is dense,
    else laid out in its memory order (layout.py:dense_strides)."""
    item = input.dtype.np.itemsize
    strides = dense_strides(shape, tuple(s // item for s in inner.strides))
    if strides is None:
        return Tensor._empty(shape, input.dtype, "constant_pad_nd")
    out = empty_strided(shape, strides, input.dtype)
    out._storage.op = "constant_pad_nd"
    return out


@derivative("constant_pad_nd", "ConstantPadNdBackward0")
def _constant_pad_nd_bw(ctx, g):
    # derivatives.yaml: constant_pad_nd_backward(grad, pad) pads by -pad: the border goes
    return (constant_pad_nd(g, [-p for p in signed(ctx.attr("pad"))]),)
