"""Embedding: rows of a weight matrix picked by integer indices (a lookup table).

The forward is a gather (``weight[indices]``); the backward scatters the upstream rows back
with accumulation, since an index can repeat. ``padding_idx`` names a row that gets no
gradient. PyTorch's EmbeddingBackward0 saves the indices, so changing them in place before
backward raises; it does not save the weight (only its number of rows).

``max_norm`` is a write: before the lookup, F.embedding rescales every row the indices
name whose norm exceeds max_norm, in the weight itself, under no_grad (embedding_renorm_):
the weight's ``_version`` goes up by one, and the old values are gone.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..tensor import Tensor
from ._take import take_into
from .arg_checks import check_tensor, check_type

_NO_PADDING = 2**64 - 1  # PyTorch stores padding_idx=-1 (none) as an unsigned SymInt


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """``weight[input]`` with shape ``input.shape + (embedding_dim,)``. The two flags change
    only the backward, so the node keeps them."""
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
        _refuse_index(idx, weight)
    out = Tensor._empty(input._shape + (weight._shape[1],), weight.dtype, "embedding")
    # straight into out (indices checked above); a weight np.take would copy whole first
    # (weight.t(): not C-contiguous) is read a few rows at a time
    if out.numel():
        take_into(weight._array(), idx.reshape(-1), 0,
                  out._array().reshape(-1, weight._shape[1]))
    return record("embedding", out, {"weight": weight}, indices=input,
                  padding_idx=_NO_PADDING if padding_idx is None else padding_idx,
                  scale_grad_by_freq=bool(scale_grad_by_freq), sparse=bool(sparse),
                  weight_sym_argsize_0=num)


def _refuse_index(idx: np.ndarray, weight: Tensor) -> None:
    """An index outside the table, in the words of the index_select path PyTorch takes: no
    rows at all, an empty table (its loop checks each index), or the usual one."""
    num = weight._shape[0]
    if num == 0:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if weight.numel() == 0:
        flat = idx.reshape(-1)
        bad = flat[(flat < 0) | (flat >= num)][0]
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={num}")
    raise IndexError("index out of range in self")


@derivative("embedding", "EmbeddingBackward0", inputs=("weight",), saves={"indices": None})
def _embedding_bw(ctx, g):
    # derivatives.yaml: embedding_backward(grad, indices, num_weights, padding_idx,
    # scale_grad_by_freq, sparse); sparse=True makes a sparse COO gradient there
    if ctx.attr("sparse"):
        if ctx.attr("scale_grad_by_freq"):  # embedding_sparse_backward's first refusal
            raise RuntimeError("embedding_backward: scale_grad_by_freq not supported with "
                               "sparse gradients")
        raise NotImplementedError("inplace_tutorial: sparse=True gives the weight a sparse "
                                  "(torch.sparse_coo) gradient in PyTorch; the core has no "
                                  "sparse tensors")
    idx = ctx.saved("indices")._array().reshape(-1)
    num = ctx.attr("weight_sym_argsize_0")
    dim = g._shape[-1]
    gw = Tensor._empty((num, dim), g.dtype, "embedding_backward")
    a = gw._array()
    a.fill(0)
    rows = g._array().reshape(-1, dim)
    if ctx.attr("scale_grad_by_freq"):
        rows = _scaled_by_frequency(rows, idx, num, g.dtype)
    np.add.at(a, idx, rows)
    pad = ctx.attr("padding_idx")
    if pad != _NO_PADDING:
        a[pad] = 0  # the padding row never learns
    return (gw,)


def _scaled_by_frequency(rows: np.ndarray, idx: np.ndarray, num: int, dtype) -> np.ndarray:
    """Each gradient row divided by how often its index occurs in the whole batch
    (embedding_dense_backward's counts, the padding index counted too), so a word seen 5
    times gets the mean of its 5 rows rather than their sum. In counted buffers."""
    wide = dtypes.float64 if dtype is dtypes.float64 else dtypes.float32  # the add's opmath
    counts = Tensor._empty((num,), wide, "embedding_backward (counts)")._array()
    counts.fill(0)
    np.add.at(counts, idx, 1)
    with np.errstate(divide="ignore"):  # (rows no index names: never read)
        np.divide(1.0, counts, out=counts)  # PyTorch's ``double scale = 1.0 / counts[k]``
    scale = Tensor._empty((idx.size, 1), wide, "embedding_backward (scale)")._array()
    np.take(counts, idx, out=scale[:, 0], mode="clip")  # (indices checked in the forward)
    out = Tensor._empty(rows.shape, dtype, "embedding_backward (scaled rows)")._array()
    np.multiply(rows, scale, out=out, casting="unsafe")
    return out


def _type_name(dt) -> str:
    """A dtype as PyTorch's checkScalarTypes names it: the legacy tensor type
    (torch.FloatTensor), or CPUBoolType / CPUBFloat16Type for dtypes without one."""
    if dt.short in ("Bool", "BFloat16"):
        return f"CPU{dt.short}Type"
    return f"torch.{dt.tensor_type}"



# --------------------------------------------------------------------------- embedding_renorm_
def embedding_renorm_(weight: Tensor, indices: Tensor, max_norm: float,
                      norm_type: float) -> Tensor:
    """Each row of ``weight`` named in ``indices`` whose ``norm_type``-norm is above
    ``max_norm`` is scaled in place by ``max_norm / (norm + 1e-7)``; one version step for the
    whole op. PyTorch's CPU kernel walks the sorted distinct indices and raises at the first
    bad one, after rescaling the rows before it; here every index is checked first, so a
    failed call writes nothing (PyTorch's error, the core's promise)."""
    check_tensor("embedding_renorm_", "self", weight, 1)
    check_tensor("embedding_renorm_", "indices", indices, 2)
    check_type("embedding_renorm_", "max_norm", max_norm, float, 3)
    check_type("embedding_renorm_", "norm_type", norm_type, float, 4)
    if weight.dim() != 2:
        raise RuntimeError(f"Expected 2-dimensional tensor, but got {weight.dim()}-dimensional "
                           "tensor for argument #1 'self' (while checking arguments for "
                           "embedding_renorm_)")
    if indices.dtype.short not in ("Long", "Int"):
        raise RuntimeError(
            "Expected tensor for argument #2 'indices' to have one of the following scalar "
            f"types: Long, Int; but got {_type_name(indices.dtype)} instead (while checking "
            "arguments for embedding_renorm_)")
    rows = _distinct_rows(indices, weight)
    if indices.numel() and not weight.dtype.is_floating_point:
        raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                           f"Got {weight.dtype.short} instead.")

    def compute() -> None:
        if not rows.numel():
            return
        # the rows' norms in the weight's dtype, as PyTorch's row.norm(norm_type), in one
        # counted gather and reduction (a tensor per row would cost a Python object per row)
        norms = weight.index_select(0, rows).norm(norm_type, 1)
        a = weight._array()
        for i, norm in zip(rows._array(), norms._array()):
            if norm > max_norm:
                scale = max_norm / (float(norm) + 1e-7)  # a double, in the row's opmath
                row = a[i]
                np.multiply(row, np.float64(scale) if row.dtype == np.float64
                            else np.float32(scale), out=row, casting="unsafe")

    return record_inplace("embedding_renorm_", weight, {"self": weight}, compute)


def _distinct_rows(indices: Tensor, weight: Tensor) -> Tensor:
    """The distinct rows ``indices`` name, sorted, as a counted int64 tensor; a negative index
    counts from the end (PyTorch's ``self[i]``). Raises PyTorch's select() error for the
    first bad index in sorted order, the one PyTorch's loop stops at."""
    n, num = indices.numel(), weight._shape[0]
    flat_t = Tensor._empty((n,), dtypes.int64, "embedding_renorm_ (indices)")
    flat = flat_t._array()
    np.copyto(flat.reshape(indices._shape), indices._array())
    flat.sort()
    bad = flat[0] if n and flat[0] < -num else None
    if bad is None and n and flat[-1] >= num:
        bad = flat[np.searchsorted(flat, num)]
    if bad is not None:
        raise IndexError(f"select(): index {bad} out of range for tensor of size "
                         f"{list(weight._shape)} at dimension 0")
    if n and flat[0] < 0:
        np.remainder(flat, num, out=flat)
        flat.sort()
    starts_t = Tensor._empty((n,), dtypes.bool_, "embedding_renorm_ (indices)")
    starts = starts_t._array()
    starts[:1] = True
    np.not_equal(flat[1:], flat[:-1], out=starts[1:])
    rows = Tensor._empty((int(np.count_nonzero(starts)),), dtypes.int64, "embedding_renorm_")
    np.compress(starts, flat, out=rows._array())
    return rows
