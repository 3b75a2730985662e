"""Neural-network kernels: linear and convolution (im2col); pooling is in pooling.py, batch
norm in batch_norm.py.

Each op is declared like the element-wise ones: a NumPy kernel writing into counted
buffers, then its derivative entry (PyTorch's node name, what it saves, the backward).
Workspaces (the im2col column matrix, padded copies) come from the allocator too, under
an ``op_scope`` name, so a memory timeline shows them.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .. import dtypes, memory
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..tensor import Tensor
from .linalg import _mm_check


def pair(v) -> tuple[int, int]:
    """A kernel size, stride or padding as (height, width): 3 -> (3, 3), (2, 3) stays."""
    return (int(v), int(v)) if isinstance(v, (int, np.integer)) else (int(v[0]), int(v[1]))


def _out_size(size: int, k: int, s: int, p: int) -> int:
    return (size + 2 * p - k) // s + 1


def _padded(x: Tensor, ph: int, pw: int, fill: float, op: str) -> np.ndarray:
    """x's array, or a counted zero/-inf padded copy of it."""
    a = x._array()
    if ph == 0 and pw == 0:
        return a
    n, c, h, w = x._shape
    with memory.op_scope(op):
        buf = Tensor._empty((n, c, h + 2 * ph, w + 2 * pw), x.dtype, op)
    out = buf._array()
    out.fill(fill)
    out[:, :, ph:ph + h, pw:pw + w] = a
    return out


def _windows(xp: np.ndarray, kh: int, kw: int, sh: int, sw: int, ho: int, wo: int):
    """(N, C, Ho, Wo, kh, kw) strided view of all windows: no copy."""
    return sliding_window_view(xp, (kh, kw), axis=(2, 3))[:, :, ::sh, ::sw][:, :, :ho, :wo]


# --------------------------------------------------------------------------- linear
def linear(input: Tensor, weight: Tensor, bias: Tensor) -> Tensor:
    """bias + input @ weight.T for 2-D input, recorded as PyTorch does: one AddmmBackward0
    whose mat2 is ``weight.t()`` (a TBackward0 view). The kernel is a single GEMM into the
    output plus an in-place bias add; addmm's generic path also copies and buffers."""
    wt = weight.t()
    check_linear_dtypes(input, weight)
    _mm_check(input, wt)
    out = Tensor._empty((input._shape[0], wt._shape[1]), dtypes.result_type(bias, input, wt),
                        "addmm")
    o = out._array()
    np.matmul(input._array(), wt._array(), out=o)
    o += bias._array()
    return record("addmm", out, {"self": bias, "mat1": input, "mat2": wt}, beta=1, alpha=1)


def check_linear_dtypes(input: Tensor, weight: Tensor) -> None:
    """F.linear's first check, whatever the rank: the input and weight dtypes must match."""
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{input.dtype.short} and {weight.dtype.short}")


# --------------------------------------------------------------------------- convolution
def _im2col(x: Tensor, kh, kw, sh, sw, ph, pw, ho, wo) -> Tensor:
    """The column matrix (C*kh*kw, N*Ho*Wo): one GEMM then does the whole batch."""
    n, c = x._shape[:2]
    with memory.op_scope("conv2d im2col"):
        xp = _padded(x, ph, pw, 0.0, "conv2d im2col")
        cols = Tensor._empty((c, kh, kw, n, ho, wo), x.dtype, "conv2d im2col")
        win = _windows(xp, kh, kw, sh, sw, ho, wo)  # (n, c, ho, wo, kh, kw)
        np.copyto(cols._array(), win.transpose(1, 4, 5, 0, 2, 3))
        del xp
    return cols.view(c * kh * kw, n * ho * wo)


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1,
           padding=0) -> Tensor:
    """2-D convolution (cross-correlation) of (N, C, H, W) with (Cout, C, kh, kw)."""
    if input.dim() != 4:
        raise RuntimeError(f"Expected 4D (batched) input to conv2d, but got input of size: "
                           f"{list(input.shape)}")
    (sh, sw), (ph, pw) = pair(stride), pair(padding)
    n, c, h, w = input._shape
    cout, cin, kh, kw = weight._shape
    if cin != c:
        raise RuntimeError(
            f"Given groups=1, weight of size {list(weight.shape)}, expected input"
            f"{list(input.shape)} to have {cin} channels, but got {c} channels instead")
    ho, wo = _out_size(h, kh, sh, ph), _out_size(w, kw, sw, pw)
    cols = _im2col(input, kh, kw, sh, sw, ph, pw, ho, wo)
    # GEMM into a (Cout, N, Ho, Wo) buffer, then one transposing copy into NCHW.
    gemm = Tensor._empty((cout, n, ho, wo), input.dtype, "conv2d (gemm)")
    np.matmul(weight._array().reshape(cout, -1), cols._array(),
              out=gemm._array().reshape(cout, n * ho * wo))
    del cols
    out = Tensor._empty((n, cout, ho, wo), input.dtype, "conv2d")
    o = out._array()
    np.copyto(o, gemm._array().transpose(1, 0, 2, 3))
    del gemm
    if bias is not None:
        o += bias._array().reshape(1, cout, 1, 1)
    return record("convolution", out, {"input": input, "weight": weight, "bias": bias},
                  stride=(sh, sw), padding=(ph, pw), dilation=(1, 1), transposed=False,
                  output_padding=(0, 0), groups=1,
                  bias_sym_sizes_opt=None if bias is None else bias._shape)


# derivatives.yaml: convolution_backward reads both input and weight whichever grad is
# wanted, so both are saved always (changing a no-grad input in place still breaks backward).
@derivative("convolution", "ConvolutionBackward0", inputs=("input", "weight", "bias"),
            saves={"input": None, "weight": None})
def _conv_bw(ctx, g):
    x, w = ctx.saved("input"), ctx.saved("weight")
    (sh, sw), (ph, pw) = ctx.attr("stride"), ctx.attr("padding")
    n, c, h, wd = x._shape
    cout, _, kh, kw = w._shape
    ho, wo = g._shape[2:]
    g2 = Tensor._empty((cout, n, ho, wo), g.dtype, "conv2d backward (grad columns)")
    np.copyto(g2._array(), g._array().transpose(1, 0, 2, 3))
    g2m = g2._array().reshape(cout, n * ho * wo)
    gw = gb = gx = None
    if ctx.needs(1):
        cols = _im2col(x, kh, kw, sh, sw, ph, pw, ho, wo)
        gw = Tensor._empty(w._shape, w.dtype, "conv2d backward (weight)")
        np.matmul(g2m, cols._array().T, out=gw._array().reshape(cout, -1))
        del cols
    if ctx.needs(2):
        gb = Tensor._empty((cout,), g.dtype, "conv2d backward (bias)")
        np.sum(g._array(), axis=(0, 2, 3), out=gb._array())
    if ctx.needs(0):
        gx = _col2im(w._array().reshape(cout, -1).T, g2m, x, kh, kw, sh, sw, ph, pw, ho, wo)
    return (gx, gw, gb)


def _col2im(wt, g2m, x, kh, kw, sh, sw, ph, pw, ho, wo) -> Tensor:
    """grad_input: W^T @ grad, then each window's column is added back where it came from."""
    n, c, h, w = x._shape
    with memory.op_scope("conv2d col2im"):
        dcols = Tensor._empty((c, kh, kw, n, ho, wo), x.dtype, "conv2d col2im")
        np.matmul(wt, g2m, out=dcols._array().reshape(c * kh * kw, n * ho * wo))
        gxp = Tensor._empty((n, c, h + 2 * ph, w + 2 * pw), x.dtype, "conv2d col2im")
    d, gp = dcols._array(), gxp._array()
    gp.fill(0)
    for i in range(kh):
        for j in range(kw):
            gp[:, :, i:i + sh * ho:sh, j:j + sw * wo:sw] += d[:, i, j].transpose(1, 0, 2, 3)
    del dcols
    if ph == 0 and pw == 0:
        return gxp
    gx = Tensor._empty(x._shape, x.dtype, "conv2d backward (input)")
    np.copyto(gx._array(), gp[:, :, ph:ph + h, pw:pw + w])
    return gx
