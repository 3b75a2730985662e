"""Layer norm: normalise over the trailing ``normalized_shape`` dims of every row.

PyTorch's native_layer_norm returns (out, mean, rstd); its NativeLayerNormBackward0 saves
the input, weight, bias and the two statistics as result1/result2, not the output. So an
in-place op on LayerNorm's output is safe for backward, one on its input is not. Batch norm,
which normalises over the batch instead, is in batch_norm.py.
"""
from __future__ import annotations

import numpy as np

from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..tensor import Tensor
from ._gemv_sums import column_sums, row_sums


def _shape_str(shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def _check(input: Tensor, normalized_shape: tuple, weight, bias) -> None:
    k = len(normalized_shape)
    for name, p in (("weight", weight), ("bias", bias)):
        if p is not None and p._shape != normalized_shape:
            raise RuntimeError(
                f"Expected {name} to be of same shape as normalized_shape, but got {name} of "
                f"shape {_shape_str(p._shape)} and normalized_shape = "
                f"{_shape_str(normalized_shape)}")
    if k == 0 or input.dim() < k or input._shape[input.dim() - k:] != normalized_shape:
        raise RuntimeError(
            f"Given normalized_shape={_shape_str(normalized_shape)}, expected input with shape "
            f"[*, {', '.join(map(str, normalized_shape))}], but got input of size"
            f"{_shape_str(input._shape)}")
    if input.dtype.category != 2:
        raise NotImplementedError(
            f"\"LayerNormKernelImpl\" not implemented for '{input.dtype.short}'")


def _sums_over_rows(a: np.ndarray, axes: tuple, out: np.ndarray, op: str) -> None:
    """Sums over the normalised (trailing) dims, keepdims, into ``out``: a gemv with ones
    when ``a`` is contiguous (np.sum's loop runs once per row of 64, 4x slower)."""
    if a.size and out.size and a.flags.c_contiguous and out.flags.c_contiguous:
        row_sums(a.reshape(out.size, -1), out.reshape(-1), op)
    else:
        np.sum(a, axis=axes, keepdims=True, out=out)


def _sums_over_lead(a: np.ndarray, lead: tuple, out: np.ndarray, op: str) -> None:
    """Sums over the leading (batch) dims into ``out`` (the normalised shape): weight and
    bias gradients, as a gemv with ones when ``a`` is contiguous."""
    if a.size and out.size and a.flags.c_contiguous and out.flags.c_contiguous:
        column_sums(a.reshape(-1, out.size), out.reshape(-1), op)
    else:
        np.sum(a, axis=lead, out=out)


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """(x - mean) * rstd * weight + bias, statistics over the last len(normalized_shape) dims.

    Buffers: the output, and mean and rstd of shape (*lead, 1, ..., 1) (saved for backward).
    """
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(int(s) for s in normalized_shape)
    _check(input, normalized_shape, weight, bias)
    k = len(normalized_shape)
    axes = tuple(range(input.dim() - k, input.dim()))
    stat_shape = input._shape[:input.dim() - k] + (1,) * k
    mean = Tensor._empty(stat_shape, input.dtype, "native_layer_norm (mean)")
    rstd = Tensor._empty(stat_shape, input.dtype, "native_layer_norm (rstd)")
    out = Tensor._empty(input._shape, input.dtype, "native_layer_norm")
    x, m, r, o = input._array(), mean._array(), rstd._array(), out._array()
    count = 1
    for s in normalized_shape:
        count *= s
    _sums_over_rows(x, axes, m, "native_layer_norm")
    m /= count
    np.subtract(x, m, out=o)  # the centred input, in the output's buffer
    np.multiply(o, o, out=o)
    _sums_over_rows(o, axes, r, "native_layer_norm")
    r /= count
    r += eps
    np.sqrt(r, out=r)
    np.reciprocal(r, out=r)
    np.subtract(x, m, out=o)
    o *= r
    if weight is not None:
        o *= weight._array()
    if bias is not None:
        o += bias._array()
    return record("native_layer_norm", out, {"input": input, "weight": weight, "bias": bias},
                  normalized_shape=normalized_shape, result1=mean, result2=rstd)


@derivative("native_layer_norm", "NativeLayerNormBackward0",
            inputs=("input", "weight", "bias"),
            saves={"input": None, "weight": None, "bias": None, "result1": None,
                   "result2": None})
def _layer_norm_bw(ctx, g):
    x = ctx.saved("input")
    m, r = ctx.saved("result1")._array(), ctx.saved("result2")._array()
    w = ctx.saved("weight") if "weight" in ctx._saved else None
    if "bias" in ctx._saved:
        ctx.saved("bias")  # saved (and version-checked) though the formula doesn't read it
    k = len(ctx.attr("normalized_shape"))
    axes = tuple(range(x.dim() - k, x.dim()))
    lead = tuple(range(x.dim() - k))
    count = 1
    for s in ctx.attr("normalized_shape"):
        count *= s
    ga = g._array()
    xhat_t = Tensor._empty(x._shape, g.dtype, "native_layer_norm backward")
    xhat = xhat_t._array()
    np.subtract(x._array(), m, out=xhat)
    xhat *= r
    gw = gb = None
    if ctx.needs(1) or ctx.needs(2):
        tmp_t = Tensor._empty(x._shape, g.dtype, "native_layer_norm backward (weight)")
        if ctx.needs(1):
            gw = Tensor._empty(w._shape, g.dtype, "native_layer_norm backward (weight)")
            np.multiply(ga, xhat, out=tmp_t._array())
            _sums_over_lead(tmp_t._array(), lead, gw._array(), "native_layer_norm backward")
        if ctx.needs(2):
            gb = Tensor._empty(w._shape if w is not None else x._shape[x.dim() - k:],
                               g.dtype, "native_layer_norm backward (bias)")
            _sums_over_lead(ga, lead, gb._array(), "native_layer_norm backward")
        del tmp_t
    gx = None
    if ctx.needs(0):
        # PyTorch's CPU formula (layer_norm_kernel.cpp), so float32 rounds as it does:
        # with gxh = g * weight, db = sum(gxh), ds = sum(gxh * x) per row,
        # b = (db * mean - ds) * rstd^3 / N, c = -b * mean - db * rstd / N,
        # gx = rstd * gxh + b * x + c
        gx = Tensor._empty(x._shape, g.dtype, "native_layer_norm backward (input)")
        gxh = gx._array()
        if w is not None:
            np.multiply(ga, w._array(), out=gxh)
        else:
            np.copyto(gxh, ga)
        s1 = Tensor._empty(m.shape, g.dtype, "native_layer_norm backward (row sums)")
        s2 = Tensor._empty(m.shape, g.dtype, "native_layer_norm backward (row sums)")
        db, ds = s1._array(), s2._array()
        _sums_over_rows(gxh, axes, db, "native_layer_norm backward")
        np.multiply(gxh, x._array(), out=xhat)  # xhat's buffer is free now
        _sums_over_rows(xhat, axes, ds, "native_layer_norm backward")
        s3 = Tensor._empty(m.shape, g.dtype, "native_layer_norm backward (row sums)")
        bcoef, tmp = ds, s3._array()  # b over ds, then c over db (row-sized buffers)
        np.multiply(db, m, out=tmp)
        np.subtract(tmp, ds, out=bcoef)
        np.multiply(r, r, out=tmp)
        tmp *= r
        tmp /= count
        bcoef *= tmp
        db *= r
        db /= -count
        np.multiply(bcoef, m, out=tmp)
        db -= tmp  # c
        gxh *= r
        np.multiply(x._array(), bcoef, out=xhat)
        gxh += xhat
        gxh += db
    return (gx, gw, gb)
