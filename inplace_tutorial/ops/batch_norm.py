"""Batch norm: native_batch_norm's kernel (training statistics or running ones) and its
NativeBatchNormBackward0 row. The statistics and the normalised input live in counted
buffers, so a memory timeline shows them; layer norm, which normalises over features
instead, is in normalization.py.
"""
from __future__ import annotations

import numpy as np

from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..cpu_capability import VECTOR_INSTRUCTIONS
from ..dtypes import float64
from ..modes import STATE
from ..tensor import Tensor
from . import _bn_stats
from ._gemv_sums import channel_sums
from .workspace import Scratch, chunk_len


def _stat_shape(x: Tensor) -> tuple:
    return (1, x._shape[1]) + (1,) * (x.dim() - 2)


def native_batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None,
                      running_mean: Tensor | None, running_var: Tensor | None, training: bool,
                      momentum: float, eps: float) -> Tensor:
    """y = (x - mean) * invstd * weight + bias over every dim but 1 (channels).

    In training the batch statistics are used and the running ones are updated in place
    (running_var gets the *unbiased* batch variance); in eval the running ones are used.
    PyTorch's kernel writes the running stats without a version step (the op declares them
    as mutated arguments, and autograd does not bump those), and saves them for backward:
    changing them in place afterwards breaks backward, in training too.
    """
    if input.dtype.category != 2:
        raise NotImplementedError(f"\"batch_norm\" not implemented for '{input.dtype.short}'")
    c = input._shape[1]
    count = input.numel() // c
    shp = _stat_shape(input)
    if training:
        if count <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input "
                             f"size {list(input.shape)}")
        mean = Tensor._empty((c,), input.dtype, "native_batch_norm (save_mean)")
        invstd = Tensor._empty((c,), input.dtype, "native_batch_norm (save_invstd)")
        out = Tensor._empty(input._shape, input.dtype, "native_batch_norm")
        o = out._array()
        _batch_stats(input, shp, mean, invstd, count, eps, running_mean, running_var,
                     momentum, o)
        _affine(input._array(), mean._array(), invstd._array(), weight, bias, shp, o)
    else:
        # eval: nothing is saved as result1/result2 (empty, as in PyTorch; backward reads the
        # saved running stats). Like PyTorch's CPU kernel, fold everything into two
        # per-channel buffers, alpha = weight * invstd and beta = bias - mean * alpha.
        mean = invstd = None
        if STATE["grad"] and any(t is not None and t._requires_grad
                                 for t in (input, weight, bias)):  # only a node keeps them
            mean = Tensor._empty((0,), input.dtype, "native_batch_norm (save_mean)")
            invstd = Tensor._empty((0,), input.dtype, "native_batch_norm (save_invstd)")
        alpha_t = _eval_invstd(running_var, eps, input.dtype)  # kept: its bytes stay counted
        alpha = alpha_t._array()
        if weight is not None:
            alpha *= weight._array()
        beta_t = Tensor._empty((c,), input.dtype, "native_batch_norm (beta)")
        beta = beta_t._array()
        np.multiply(running_mean._array(), alpha, out=beta)
        np.negative(beta, out=beta)
        if bias is not None:
            beta += bias._array()
        out = Tensor._empty(input._shape, input.dtype, "native_batch_norm")
        o = out._array()
        np.multiply(input._array(), alpha.reshape(shp), out=o)
        o += beta.reshape(shp)
    return record("native_batch_norm", out, {"input": input, "weight": weight, "bias": bias},
                  running_mean=running_mean, running_var=running_var, result1=mean,
                  result2=invstd, training=training, eps=eps)


def _eval_invstd(running_var: Tensor, eps: float, dtype) -> Tensor:
    """1 / sqrt(running_var + eps), per channel (C values: a channel-sized counted buffer)."""
    t = Tensor._empty(running_var._shape, dtype, "native_batch_norm (invstd)")
    a = t._array()
    np.add(running_var._array(), eps, out=a)
    np.sqrt(a, out=a)
    np.reciprocal(a, out=a)
    return t


def _batch_stats(input, shp, mean, invstd, count, eps, running_mean, running_var,
                 momentum, scratch: np.ndarray) -> None:
    """Batch mean and 1/std into the saved buffers; running stats updated in place.

    The centred squares need an input-sized buffer: the output's, before it is written."""
    x = input._array()
    m, s = mean._array(), invstd._array()
    kind = _bn_stats.layout(x)
    if kind is not None:  # float32: the kernel's own sums and types (_bn_stats.py)
        _kernel_stats(x, kind, m, s, count, eps, running_mean, running_var, momentum, scratch)
        return
    channel_sums(x, m, "native_batch_norm")
    m /= count
    _by_channel(np.subtract, x, m, scratch)
    np.multiply(scratch, scratch, out=scratch)
    channel_sums(scratch, s, "native_batch_norm")  # the biased variance times count
    if running_mean is not None:
        ra, va = running_mean._array(), running_var._array()
        ra *= 1 - momentum
        ra += momentum * m
        va *= 1 - momentum
        va += s * (momentum / (count - 1))  # unbiased variance
    s /= count
    s += eps
    np.sqrt(s, out=s)
    np.reciprocal(s, out=s)


def _kernel_stats(x, kind, m, s, count, eps, running_mean, running_var, momentum,
                  scratch: np.ndarray) -> None:
    op = "native_batch_norm"
    sums_t = Tensor._empty((2, m.size), float64, op + " (sums)")
    total, squares = sums_t._array()
    _bn_stats.channel_sums(x, kind, total, op)
    total /= count
    np.copyto(m, total, casting="unsafe")  # float(sum / N)
    if kind == "rows":
        _bn_stats.row_var_sums(x, m, squares, op)
    else:
        _by_channel(np.subtract, x, m, scratch)
        np.multiply(scratch, scratch, out=scratch)  # (x - mean)^2, rounded to float
        _bn_stats.channel_sums(scratch, kind, squares, op)
    np.copyto(s, squares, casting="unsafe")  # var_sum, stored as a float
    if running_mean is not None:
        _bn_stats.update_running(s, m, count, momentum, running_mean._array(),
                                 running_var._array(), op)
    np.divide(s, np.float32(count), out=s)  # float / int64: a float division
    np.copyto(squares, s)
    squares += eps
    np.sqrt(squares, out=squares)
    np.divide(1.0, squares, out=squares)
    np.copyto(s, squares, casting="unsafe")


def _affine(x: np.ndarray, mean: np.ndarray, invstd: np.ndarray, weight: Tensor | None,
            bias: Tensor | None, shp: tuple, out: np.ndarray) -> None:
    """out = x * alpha + beta with alpha = invstd * weight and beta = bias - mean * alpha per
    channel, as PyTorch's batch_norm_cpu_transform_input_template folds them: two passes over
    the input instead of four. alpha and beta are two C-sized pieces of the workspace."""
    c = mean.size
    rows = _rows(x, out, c)
    with Scratch(x.dtype, "native_batch_norm", 2 * c + 2 * rows) as s:
        alpha, beta = s._buf[:c], s._buf[c: 2 * c]
        if weight is not None:
            np.multiply(invstd, weight._array(), out=alpha)
        else:
            alpha[...] = invstd
        np.multiply(mean, alpha, out=beta)
        np.negative(beta, out=beta)
        if bias is not None:
            beta += bias._array()
        if rows:  # alpha and beta repeated along a sample's (C, L) values: rows of C * L
            a_row, b_row = s._buf[2 * c: 2 * c + rows], s._buf[2 * c + rows: 2 * c + 2 * rows]
            a_row.reshape(c, -1)[...] = alpha[:, None]
            b_row.reshape(c, -1)[...] = beta[:, None]
            o2 = out.reshape(x.shape[0], rows)
            if VECTOR_INSTRUCTIONS and x.dtype == np.float32:
                _fused_rows(x.reshape(o2.shape), a_row, b_row, o2)
            else:
                np.multiply(x.reshape(o2.shape), a_row, out=o2)
                o2 += b_row
        elif (VECTOR_INSTRUCTIONS and x.dtype == np.float32 and x.size == x.shape[0] * c
              and x.flags.c_contiguous and out.flags.c_contiguous):  # (N, C): rows of C
            _fused_rows(x.reshape(-1, c), alpha, beta, out.reshape(-1, c))
        else:
            np.multiply(x, alpha.reshape(shp), out=out)
            out += beta.reshape(shp)


def _fused_rows(x: np.ndarray, a_row: np.ndarray, b_row: np.ndarray, out: np.ndarray) -> None:
    """out = x * a + b rounded once, as the AVX2/AVX512 builds' kernel computes it (its
    compiler fuses the multiply and the add; DEFAULT rounds twice): in float64, where the
    product of two floats is exact, a block of samples at a time."""
    n, rows = x.shape
    block = max(1, chunk_len(np.float64) // rows)
    wide = Tensor._empty((min(block, n) + 2, rows), float64, "native_batch_norm (fma)")._array()
    a64, b64 = wide[-2], wide[-1]
    np.copyto(a64, a_row)
    np.copyto(b64, b_row)
    for i in range(0, n, block):  # (all in float64: NumPy's mixed float32 * float64 loop
        part = wide[:min(block, n - i)]  # casts through a buffer, a third slower)
        np.copyto(part, x[i:i + block])
        part *= a64
        part += b64
        np.copyto(out[i:i + block], part, casting="unsafe")


def _by_channel(ufunc, a: np.ndarray, coef: np.ndarray, out: np.ndarray) -> None:
    """``out = ufunc(a, coef[c])`` per channel c of an (N, C, ...) ``a``: over rows of C * L
    with ``coef`` repeated along a sample in the workspace (see ``_rows``), or broadcast."""
    c = coef.size
    rows = _rows(a, out, c)
    if not rows:
        ufunc(a, coef.reshape((1, c) + (1,) * (a.ndim - 2)), out=out)
        return
    with Scratch(a.dtype, "native_batch_norm backward", rows) as s:
        row = s._buf[:rows]
        row.reshape(c, -1)[...] = coef[:, None]
        ufunc(a.reshape(a.shape[0], rows), row, out=out.reshape(a.shape[0], rows))


def _rows(x: np.ndarray, out: np.ndarray, c: int) -> int:
    """C * L when x and out are contiguous (N, C, L...) and two rows of C * L fit the
    workspace, else 0. A per-channel operand broadcast as (1, C, 1, 1) makes NumPy run its
    loop once per row of L (16 or 64 values here), ~3x slower than rows of C * L."""
    n = x.shape[0]
    if x.ndim < 3 or not (x.flags.c_contiguous and out.flags.c_contiguous) or n == 0:
        return 0
    rows = x.size // n
    return rows if 2 * c + 2 * rows <= chunk_len(x.dtype) else 0


@derivative("native_batch_norm", "NativeBatchNormBackward0", inputs=("input", "weight", "bias"),
            saves={"input": None, "weight": None, "running_mean": None, "running_var": None,
                   "result1": None, "result2": None})
def _batch_norm_bw(ctx, g):
    x = ctx.saved("input")
    shp = _stat_shape(x)
    w = ctx.saved("weight") if "weight" in ctx._saved else None
    if ctx.attr("training"):
        mean = ctx.saved("result1")._array().reshape(shp)
        invstd = ctx.saved("result2")._array().reshape(shp)
    else:
        mean = ctx.saved("running_mean")._array().reshape(shp)
        invstd_t = _eval_invstd(ctx.saved("running_var"), ctx.attr("eps"), x.dtype)
        invstd = invstd_t._array().reshape(shp)
    ga = g._array()
    mean, invstd = mean.reshape(-1), invstd.reshape(-1)
    # xhat lives in one counted buffer that later becomes grad_input.
    xhat_t = Tensor._empty(x._shape, g.dtype, "native_batch_norm backward")
    xhat = xhat_t._array()
    _by_channel(np.subtract, x._array(), mean, xhat)
    _by_channel(np.multiply, xhat, invstd, xhat)
    n, c = x._shape[:2]
    sum_g = Tensor._empty((c,), g.dtype, "native_batch_norm backward (sum)")
    sg = sum_g._array()
    channel_sums(ga, sg, "native_batch_norm backward")
    sum_gx_t = Tensor._empty((c,), g.dtype, "native_batch_norm backward (sum)")
    sum_gx = sum_gx_t._array()
    np.einsum("ncl,ncl->c", ga.reshape(n, c, -1), xhat.reshape(n, c, -1), out=sum_gx)
    gw = gb = None
    if ctx.needs(1):
        gw = sum_gx_t.clone() if ctx.needs(0) else sum_gx_t
    if ctx.needs(2):
        gb = sum_g
    gx = None
    if ctx.needs(0):
        scale = invstd * (w._array() if w is not None else 1.0)
        if ctx.attr("training"):
            count = x.numel() // x._shape[1]
            # gx = scale * (g - mean(g) - xhat * mean(g * xhat)), written over xhat.
            sum_gx /= -count
            _by_channel(np.multiply, xhat, sum_gx, xhat)
            xhat += ga
            _by_channel(np.subtract, xhat, sg / count, xhat)
            _by_channel(np.multiply, xhat, scale, xhat)
        else:
            _by_channel(np.multiply, ga, scale, xhat)
        gx = xhat_t
    return (gx, gw, gb)
