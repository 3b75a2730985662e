"""Neural-network kernels: linear and convolution (im2col); pooling is in pooling.py, batch
norm in batch_norm.py.

Each op is declared like the element-wise ones: a NumPy kernel writing into counted
buffers, then its derivative entry (PyTorch's node name, what it saves, the backward).
Workspaces (the im2col column matrix, padded copies) come from the allocator too, under
an ``op_scope`` name, so a memory timeline shows them.
"""
from __future__ import annotations

import numpy as np

from .. import memory
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..tensor import Tensor
from .linalg import _mm_check
from .views import t


def pair(v) -> tuple[int, int]:
    """A kernel size, stride or padding as (height, width): 3 -> (3, 3), (2, 3) stays, (2,)
    (a one-element list, as a node saves it) is (2, 2)."""
    if isinstance(v, (int, np.integer)):
        return int(v), int(v)
    return (int(v[0]), int(v[0])) if len(v) == 1 else (int(v[0]), int(v[1]))


def _out_size(size: int, k: int, s: int, p: int) -> int:
    return (size + 2 * p - k) // s + 1


# --------------------------------------------------------------------------- linear
def linear(input: Tensor, weight: Tensor, bias: Tensor) -> Tensor:
    """bias + input @ weight.T for 2-D input, recorded as PyTorch does: one AddmmBackward0
    whose mat2 is ``weight.t()`` (a TBackward0 view). The kernel is a single GEMM into the
    output plus an in-place bias add; addmm's generic path also copies and buffers. F.linear
    has checked the three dtypes equal (nn/checks.py), so the result has that dtype."""
    wt = t(weight)
    check_linear_dtypes(input, weight)
    _mm_check(input, wt)
    out = Tensor._empty((input._shape[0], wt._shape[1]), input.dtype, "addmm")
    o = out._array()
    np.matmul(input._array(), wt._array(), out=o)
    np.add(o, bias._array(), out=o)
    # what addmm keeps besides its tensors (linalg.py:fused_extras), written out
    return record("addmm", out, {"self": bias, "mat1": input, "mat2": wt}, beta=1, alpha=1,
                  mat1_sym_sizes=input._shape, mat1_sym_strides=input._stride,
                  mat2_sym_sizes=wt._shape, mat2_sym_strides=wt._stride)


def check_linear_dtypes(input: Tensor, weight: Tensor) -> None:
    """F.linear's first check, whatever the rank: the input and weight dtypes must match."""
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{input.dtype.short} and {weight.dtype.short}")


# --------------------------------------------------------------------------- convolution
# The im2col buffers keep the batch as their innermost dim: the input as (C, H, W, N), the
# columns as (C, kh, kw, Ho, Wo, N). For one kernel tap (i, j) the cells of a column row are
# then runs of Wo*N contiguous floats, where the (N, C, H, W) layout gives runs of Wo (4 on
# the digits CNN's 4x4 maps). NumPy pays a fixed cost per run, so copying the columns this
# way is about 5x faster there; the price is a transposing copy of the output (and of the
# incoming gradient in backward), contiguous on one side. The buffers have the sizes the
# (N, C, H, W) layout had, so a memory trace of a convolution is the same either way.
def _batch_last(x: Tensor, ph: int, pw: int, op: str) -> np.ndarray:
    """x (N, C, H, W) as (C, H + 2*ph, W + 2*pw, N): a counted zero-padded copy, or without
    padding a transposed view of x's own cells (nothing allocated, as before)."""
    if ph == 0 and pw == 0:
        return x._array().transpose(1, 2, 3, 0)
    n, c, h, w = x._shape
    a = Tensor._empty((c, h + 2 * ph, w + 2 * pw, n), x.dtype, op)._array()
    a.fill(0)
    np.copyto(a[:, ph:ph + h, pw:pw + w], x._array().transpose(1, 2, 3, 0))
    return a


def _im2col(x: Tensor, kh, kw, sh, sw, ph, pw, ho, wo, dh=1, dw=1) -> np.ndarray:
    """The column matrix (C*kh*kw, Ho*Wo*N): row (c, i, j) holds, for every output cell, the
    input cell under the kernel's tap (i, j), ``dilation`` cells apart. One GEMM then does the
    whole batch (one per group: a group's rows are a contiguous block). It is returned as the
    counted buffer's NumPy view, which keeps the bytes counted until the caller drops it."""
    n, c = x._shape[:2]
    with memory.op_scope("conv2d im2col"):
        xp = _batch_last(x, ph, pw, "conv2d im2col")
        cols = Tensor._empty((c, kh, kw, ho, wo, n), x.dtype, "conv2d im2col")
        a = cols._array()
        for i in range(kh):
            for j in range(kw):
                a[:, i, j] = xp[:, _tap(i, dh, sh, ho), _tap(j, dw, sw, wo)]
        del xp
    return a.reshape(c * kh * kw, ho * wo * n)


def _transpose_into(dst: np.ndarray, src: np.ndarray) -> None:
    """dst = src.T for a C-contiguous (R, K) ``src`` and (K, R) ``dst``, in blocks of src's rows.

    NumPy's copy walks dst's rows, so each element read comes from another row of src: the
    whole of src passes through the cache once per row of dst. A block of about 32 KiB of src
    stays in L1 meanwhile: 1.5-2x faster on the digits CNN's (1024, 64) and (64, 1024)."""
    rows = max(16, (32 << 10) // max(src.shape[1] * src.itemsize, 1))
    for r in range(0, src.shape[0], rows):
        np.copyto(dst[:, r:r + rows], src[r:r + rows].T)


def _tap(i: int, d: int, s: int, out: int) -> slice:
    """The rows (or columns) tap i reads for every output row: i*d, i*d + s, ..."""
    return slice(i * d, i * d + s * (out - 1) + 1, s)


def _grouped_matmul(a: np.ndarray, b: np.ndarray, out: np.ndarray, groups: int,
                    split_a: int, split_b: int) -> None:
    """out = a @ b for each group: block g of ``a``'s rows (split_a=0) or columns (1) times
    block g of ``b``'s rows (split_b=0) or columns (1), into block g of ``out``'s rows
    (the blocks of a grouped convolution; each out block is contiguous rows)."""
    if groups == 1:
        np.matmul(a, b, out=out)
        return
    ra, rb, ro = a.shape[split_a] // groups, b.shape[split_b] // groups, out.shape[0] // groups
    for g in range(groups):
        ag = a[g * ra:(g + 1) * ra] if split_a == 0 else a[:, g * ra:(g + 1) * ra]
        bg = b[g * rb:(g + 1) * rb] if split_b == 0 else b[:, g * rb:(g + 1) * rb]
        np.matmul(ag, bg, out=out[g * ro:(g + 1) * ro])


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1,
           padding=0, dilation=1, groups: int = 1, given: tuple | None = None) -> Tensor:
    """2-D convolution (cross-correlation) of (N, C, H, W) with (Cout, C/groups, kh, kw):
    output channel block g sees input channel block g only. ``given``: stride, padding,
    dilation and output_padding as the binding parsed them, which the node saves."""
    if input.dim() != 4:
        raise RuntimeError(f"Expected 4D (batched) input to conv2d, but got input of size: "
                           f"{list(input.shape)}")
    (sh, sw), (ph, pw), (dh, dw) = pair(stride), pair(padding), pair(dilation)
    n, c, h, w = input._shape
    cout, cin, kh, kw = weight._shape
    if cin * groups != c:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {list(weight.shape)}, expected input"
            f"{list(input.shape)} to have {cin * groups} channels, but got {c} channels "
            "instead")
    ho, wo = _out_size(h, dh * (kh - 1) + 1, sh, ph), _out_size(w, dw * (kw - 1) + 1, sw, pw)
    cols = _im2col(input, kh, kw, sh, sw, ph, pw, ho, wo, dh, dw)
    # GEMM into a (Cout, Ho, Wo, N) buffer, then one transposing copy into NCHW.
    gemm = Tensor._empty((cout, ho, wo, n), input.dtype, "conv2d (gemm)")
    g2 = gemm._array().reshape(cout, ho * wo * n)
    _grouped_matmul(weight._array().reshape(cout, -1), cols, g2, groups, 0, 0)
    del cols
    if bias is not None:  # here a channel is one row of Ho*Wo*N; in NCHW, N rows of Ho*Wo
        g2 += bias._array().reshape(cout, 1)
    out = Tensor._empty((n, cout, ho, wo), input.dtype, "conv2d")
    _transpose_into(out._array().reshape(n, cout * ho * wo), g2.reshape(cout * ho * wo, n))
    del gemm, g2
    st, pad, dil, out_pad = given or ((sh, sw), (ph, pw), (dh, dw), (0, 0))
    return record("convolution", out, {"input": input, "weight": weight, "bias": bias},
                  stride=tuple(st), padding=tuple(pad), dilation=tuple(dil), transposed=False,
                  output_padding=tuple(out_pad), groups=groups,
                  bias_sym_sizes_opt=(0,) if bias is None else bias._shape)


# derivatives.yaml: convolution_backward reads both input and weight whichever grad is
# wanted, so both are saved always (changing a no-grad input in place still breaks backward).
@derivative("convolution", "ConvolutionBackward0", inputs=("input", "weight", "bias"),
            saves={"input": None, "weight": None})
def _conv_bw(ctx, g):
    x, w = ctx.saved("input"), ctx.saved("weight")
    (sh, sw), (ph, pw) = pair(ctx.attr("stride")), pair(ctx.attr("padding"))
    dh, dw = pair(ctx.attr("dilation"))
    groups = ctx.attr("groups")
    n, c, h, wd = x._shape
    cout, _, kh, kw = w._shape
    ho, wo = g._shape[2:]
    # the incoming gradient in the columns' order (Cout, Ho, Wo, N)
    g2 = Tensor._empty((cout, ho, wo, n), g.dtype, "conv2d backward (grad columns)")
    ga = g._array()
    if ga.flags.c_contiguous:
        _transpose_into(g2._array().reshape(cout * ho * wo, n), ga.reshape(n, cout * ho * wo))
    else:
        np.copyto(g2._array(), ga.transpose(1, 2, 3, 0))
    g2m = g2._array().reshape(cout, ho * wo * n)
    gw = gb = gx = None
    if ctx.needs(1):
        cols = _im2col(x, kh, kw, sh, sw, ph, pw, ho, wo, dh, dw)
        gw = Tensor._empty(w._shape, w.dtype, "conv2d backward (weight)")
        _grouped_matmul(g2m, cols.T, gw._array().reshape(cout, -1), groups, 0, 1)
        del cols
    if ctx.needs(2):
        gb = Tensor._empty((cout,), g.dtype, "conv2d backward (bias)")
        np.sum(g._array(), axis=(0, 2, 3), out=gb._array())
    if ctx.needs(0):
        gx = _col2im(w._array().reshape(cout, -1).T, g2m, x, kh, kw, sh, sw, ph, pw, ho, wo,
                     dh, dw, groups)
    return (gx, gw, gb)


def _col2im(wt, g2m, x, kh, kw, sh, sw, ph, pw, ho, wo, dh=1, dw=1, groups=1) -> Tensor:
    """grad_input: W^T @ grad (per group), then each tap's column row is added back where it
    came from (in the batch-last layout of _im2col, then copied into the input's NCHW)."""
    n, c, h, w = x._shape
    with memory.op_scope("conv2d col2im"):
        dcols = Tensor._empty((c, kh, kw, ho, wo, n), x.dtype, "conv2d col2im")
        _grouped_matmul(wt, g2m, dcols._array().reshape(c * kh * kw, ho * wo * n), groups,
                        1, 0)
        # padded: sum into a batch-last padded buffer; else straight into grad_input's cells
        gxp = Tensor._empty((c, h + 2 * ph, w + 2 * pw, n) if ph or pw else x._shape, x.dtype,
                            "conv2d col2im")
    d = dcols._array()
    gp = gxp._array() if ph or pw else gxp._array().transpose(1, 2, 3, 0)
    gp.fill(0)
    for i in range(kh):
        for j in range(kw):
            gp[:, _tap(i, dh, sh, ho), _tap(j, dw, sw, wo)] += d[:, i, j]
    del dcols
    if ph == 0 and pw == 0:
        return gxp
    gx = Tensor._empty(x._shape, x.dtype, "conv2d backward (input)")
    np.copyto(gx._array(), gp[:, ph:ph + h, pw:pw + w].transpose(3, 0, 1, 2))
    return gx
