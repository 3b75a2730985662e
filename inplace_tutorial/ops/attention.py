"""Scaled dot-product attention: softmax(q k^T * scale + mask) v, as one op.

On CPU PyTorch 2.13 runs its fused "flash" kernel and records one node,
ScaledDotProductFlashAttentionForCpuBackward0, saving query, key, value, the output and the
row-wise logsumexp of the scores (not the L x S probabilities: backward recomputes them
from q, k and logsumexp). So changing q, k, v or the output in place before backward raises.
A boolean mask is turned into an additive float mask (0 / -inf), which is what is saved;
``is_causal`` alone saves no mask (``_saved_attn_mask`` is None): backward rebuilds it. The
output is laid out in the query's memory order, so heads split from a (B, T, 3C) projection
give an output whose ``transpose(1, 2).reshape(B, T, C)`` is a view, not a copy.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..layout import out_strides, storage_extent
from ..storage import UntypedStorage
from ..tensor import Tensor
from ._blas import matmul_into

_C_NAMES = {"Float": "float", "Double": "double", "Long": "long int", "Bool": "bool"}


def _c(t: Tensor) -> str:
    return _C_NAMES.get(t.dtype.short, t.dtype.short.lower())


def _check(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None) -> None:
    if attn_mask is not None and attn_mask.dtype is not dtypes.bool_ and \
            attn_mask.dtype is not query.dtype:
        raise RuntimeError(
            "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
            f"attn_mask.dtype: {_c(attn_mask)} and  query.dtype: {_c(query)} instead.")
    if query.dtype.category != 2:
        raise RuntimeError("Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {_c(query)} key.dtype: {_c(key)} and value.dtype: "
                           f"{_c(value)} instead.")
    if not (query.dtype is key.dtype is value.dtype):
        raise RuntimeError("Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {_c(query)} key.dtype: {_c(key)} and value.dtype: "
                           f"{_c(value)} instead.")


def additive_mask(attn_mask: Tensor | None, is_causal: bool, L: int, S: int, dtype):
    """The float mask added to the scores: 0 where attention is allowed, -inf where not."""
    if attn_mask is None and not is_causal:
        return None
    shape = (L, S) if attn_mask is None else attn_mask._shape
    m = Tensor._empty(shape, dtype, "scaled_dot_product_attention (mask)")
    a = m._array()
    if attn_mask is None:
        a.fill(0)
    elif attn_mask.dtype is dtypes.bool_:
        a.fill(-np.inf)
        np.copyto(a, 0, where=attn_mask._array())
    else:
        np.copyto(a, attn_mask._array())
    if is_causal:  # top-left aligned: query i sees keys 0..i
        for i in range(min(L, S - 1)):
            a[..., i, i + 1:] = -np.inf
    return m


def _like_query(shape: tuple, query: Tensor) -> Tensor:
    """The output buffer, in the query's memory order (PyTorch's CPU kernel writes it so)."""
    stride = out_strides(shape, ((shape, query._stride),))
    if stride is None:
        return Tensor._empty(shape, query.dtype, "scaled_dot_product_attention")
    storage = UntypedStorage(storage_extent(shape, stride), query.dtype.np,
                             "scaled_dot_product_attention")
    return Tensor._make(storage, shape, stride, 0, query.dtype)


def _probs_into(p: np.ndarray, q, k, mask, scale) -> None:
    """p = q @ k^T * scale (+ mask): the raw scores, in place in p."""
    matmul_into(q, np.swapaxes(k, -1, -2), p, "sdpa")
    p *= scale
    if mask is not None:
        p += mask


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Tensor | None = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None) -> Tensor:
    """Attention of (..., L, E) queries over (..., S, E) keys and (..., S, Ev) values."""
    _check(query, key, value, attn_mask)
    L, S = query._shape[-2], key._shape[-2]
    lead = query._shape[:-2]
    sc = 1.0 / math.sqrt(query._shape[-1]) if scale is None else scale
    mask = additive_mask(attn_mask, is_causal, L, S, query.dtype)
    ma = None if mask is None else mask._array()
    # The scores are laid out transposed, (..., S, L): the softmax's max and sum then run
    # along the middle axis, where NumPy's loop goes over whole rows of L at a time; along
    # rows of 64 its max took 4x longer. P @ V reads the transposed matrix as BLAS's trans.
    probs = Tensor._empty(lead + (S, L), query.dtype, "scaled_dot_product_attention (scores)")
    pt = probs._array()
    matmul_into(key._array(), np.swapaxes(query._array(), -1, -2), pt, "sdpa")
    pt *= sc
    if ma is not None:  # a mask of fewer than 2 dims broadcasts over the query rows
        pt += np.swapaxes(ma.reshape((1,) * max(0, 2 - ma.ndim) + ma.shape), -1, -2)
    lse = Tensor._empty(lead + (L,), query.dtype, "scaled_dot_product_attention (logsumexp)")
    la = lse._array()
    rowmax = Tensor._empty(lead + (1, L), query.dtype, "scaled_dot_product_attention (max)")
    rm = rowmax._array()
    np.max(pt, axis=-2, keepdims=True, out=rm)
    pt -= rm
    np.exp(pt, out=pt)
    np.sum(pt, axis=-2, out=la)
    pt /= la[..., None, :]
    np.log(la, out=la)
    la += rm[..., 0, :]
    del rowmax
    out = _like_query(lead + (L, value._shape[-1]), query)
    matmul_into(np.swapaxes(pt, -1, -2), value._array(), out._array(), "sdpa")
    del probs, pt
    record("sdpa", out, {"query": query, "key": key, "value": value},
           logsumexp=lse, attn_mask=None if attn_mask is None else mask,
           dropout_p=float(dropout_p),
           is_causal=bool(is_causal), scale=scale)
    node = out._grad_fn
    if node is not None and "result" in node._saved:
        # PyTorch calls this saved output "output" (grad_fn._saved_output)
        node._saved["output"] = saved = node._saved.pop("result")
        saved.field = "output"
    return out


@derivative("sdpa", "ScaledDotProductFlashAttentionForCpuBackward0",
            inputs=("query", "key", "value"),
            saves={"query": None, "key": None, "value": None, "result": None,
                   "logsumexp": None, "attn_mask": None})
def _sdpa_bw(ctx, g):
    q, k, v = ctx.saved("query"), ctx.saved("key"), ctx.saved("value")
    out = ctx.saved("output")
    la = ctx.saved("logsumexp")._array()
    scale = ctx.attr("scale")
    sc = 1.0 / math.sqrt(q._shape[-1]) if scale is None else scale
    L, S = q._shape[-2], k._shape[-2]
    if "attn_mask" in ctx._saved:
        ma = ctx.saved("attn_mask")._array()
    else:  # is_causal alone saved no mask: rebuild it (None when there is no mask at all)
        mt = additive_mask(None, ctx.attr("is_causal"), L, S, q.dtype)
        ma = None if mt is None else mt._array()
    lead = q._shape[:-2]
    ga = g._array()
    # P again, from q, k and the logsumexp: exp(scores - lse)
    pt = Tensor._empty(lead + (L, S), q.dtype, "sdpa backward (probs)")
    p = pt._array()
    _probs_into(p, q._array(), k._array(), ma, sc)
    p -= la[..., None]
    np.exp(p, out=p)
    gq = gk = gv = None
    if ctx.needs(2):
        gv = Tensor._empty(v._shape, g.dtype, "sdpa backward (value)")
        matmul_into(np.swapaxes(p, -1, -2), ga, gv._array(), "sdpa backward")
    # dS = P * (g v^T - rowsum(g * out))
    dst = Tensor._empty(lead + (L, S), q.dtype, "sdpa backward (dscores)")
    ds = dst._array()
    matmul_into(ga, np.swapaxes(v._array(), -1, -2), ds, "sdpa backward")
    rows = Tensor._empty(lead + (L, 1), q.dtype, "sdpa backward (rows)")
    ra = rows._array()
    tmp = Tensor._empty(out._shape, q.dtype, "sdpa backward (g*out)")
    np.multiply(ga, out._array(), out=tmp._array())
    np.sum(tmp._array(), axis=-1, keepdims=True, out=ra)
    del tmp
    ds -= ra
    ds *= p
    ds *= sc
    del pt, p
    if ctx.needs(0):
        gq = Tensor._empty(q._shape, g.dtype, "sdpa backward (query)")
        matmul_into(ds, k._array(), gq._array(), "sdpa backward")
    if ctx.needs(1):
        gk = Tensor._empty(k._shape, g.dtype, "sdpa backward (key)")
        matmul_into(np.swapaxes(ds, -1, -2), q._array(), gk._array(), "sdpa backward")
    return (gq, gk, gv)
