"""Embedding: rows of a weight matrix picked by integer indices (a lookup table).

The forward is a gather (``weight[indices]``); the backward scatters the upstream rows back
with accumulation, since an index can repeat. ``padding_idx`` names a row that gets no
gradient. PyTorch's EmbeddingBackward0 saves the indices, so changing them in place before
backward raises; it does not save the weight (only its number of rows).
"""
from __future__ import annotations

import numpy as np

from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..tensor import Tensor

_NO_PADDING = 2**64 - 1  # PyTorch stores padding_idx=-1 (none) as an unsigned SymInt


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None) -> Tensor:
    """``weight[input]`` with shape ``input.shape + (embedding_dim,)``."""
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    num = weight._shape[0]
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= num:
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -num:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = num + padding_idx
    if input.dtype.short not in ("Long", "Int"):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got {_type_name(input.dtype)} instead (while "
            "checking arguments for embedding)")
    idx = input._array()
    if idx.size and (idx.min() < 0 or idx.max() >= num):
        raise IndexError("index out of range in self")
    out = Tensor._empty(input._shape + (weight._shape[1],), weight.dtype, "embedding")
    np.take(weight._array(), idx, axis=0, out=out._array())
    return record("embedding", out, {"weight": weight}, indices=input,
                  padding_idx=_NO_PADDING if padding_idx is None else padding_idx,
                  scale_grad_by_freq=False, sparse=False, weight_sym_argsize_0=num)


@derivative("embedding", "EmbeddingBackward0", inputs=("weight",), saves={"indices": None})
def _embedding_bw(ctx, g):
    idx = ctx.saved("indices")._array().reshape(-1)
    num = ctx.attr("weight_sym_argsize_0")
    dim = g._shape[-1]
    gw = Tensor._empty((num, dim), g.dtype, "embedding_backward")
    a = gw._array()
    a.fill(0)
    np.add.at(a, idx, g._array().reshape(-1, dim))
    pad = ctx.attr("padding_idx")
    if pad != _NO_PADDING:
        a[pad] = 0  # the padding row never learns
    return (gw,)


def _type_name(dt) -> str:
    """A dtype as PyTorch's checkScalarTypes names it: the legacy tensor type
    (torch.FloatTensor), or CPUBoolType / CPUBFloat16Type for dtypes without one."""
    if dt.short in ("Bool", "BFloat16"):
        return f"CPU{dt.short}Type"
    return f"torch.{dt.tensor_type}"

