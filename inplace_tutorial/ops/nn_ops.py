"""Neural-network kernels: linear, convolution (im2col), max/avg pooling (batch norm is in
batch_norm.py).

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
from ._chunked import ramp
from .linalg import _mm_check
from .reduced import is_reduced
from .tensor_iterator import Scratch, chunks


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


# --------------------------------------------------------------------------- pooling
def _pool_geometry(x: Tensor, kernel_size, stride, padding):
    """(kh, kw, sh, sw, ph, pw, ho, wo); the arguments as checks.pool2d leaves them, or as a
    node saved them (one int for both dims, stride () for "the kernel size")."""
    kh, kw = _two(kernel_size)
    sh, sw = _two(stride) if stride not in (None, ()) else (kh, kw)
    ph, pw = _two(padding)
    if ph > kh // 2 or pw > kw // 2:
        raise RuntimeError("pad should be at most half of effective kernel size, but got "
                           f"pad={ph}, kernel_size={kh} and dilation=1")
    ho, wo = _out_size(x._shape[-2], kh, sh, ph), _out_size(x._shape[-1], kw, sw, pw)
    return kh, kw, sh, sw, ph, pw, ho, wo


def _two(v) -> tuple[int, int]:
    if isinstance(v, (int, np.integer)):
        return int(v), int(v)
    return (int(v[0]), int(v[0])) if len(v) == 1 else (int(v[0]), int(v[1]))


def _batch_of_one(x: Tensor) -> Tensor:
    """A 3-D (C, H, W) input as the (1, C, H, W) the kernels read: an alias of the same
    cells for the kernel only, with no view node. PyTorch's pooling kernels take 3-D input
    as it is, so the graph records the 3-D input itself (no Unsqueeze/Squeeze nodes)."""
    if x.dim() == 4:
        return x
    return Tensor._make(x._storage, (1, *x._shape), (0, *x._stride), x._offset, x.dtype, x._vc)


def _drop_batch(out: Tensor) -> Tensor:
    """A fresh (1, C, Ho, Wo) result becomes (C, Ho, Wo), in place (same storage)."""
    out._set_geometry(out._shape[1:], out._stride[1:], out._offset)
    return out


def max_pool2d_with_indices(input: Tensor, kernel_size, stride=None,
                            padding=0) -> tuple[Tensor, Tensor]:
    """Max over each window of a (N, C, H, W) or (C, H, W) input; indices are flat positions
    in the input's H*W plane (as torch). The node saves the arguments as they were given."""
    kh, kw, sh, sw, ph, pw, ho, wo = _pool_geometry(input, kernel_size, stride, padding)
    x = _batch_of_one(input)
    n, c, h, w = x._shape
    low = -np.inf if x.dtype.is_floating_point else np.iinfo(x._array().dtype).min
    xp = _padded(x, ph, pw, low, "max_pool2d (padded)")  # padding never wins a window
    out = Tensor._empty((n, c, ho, wo), x.dtype, "max_pool2d")
    local = Tensor._empty((n, c, ho, wo), dtypes.int64, "max_pool2d (indices)")
    _max_windows(xp, out._array(), local._array(), kh, kw, sh, sw, ph, pw, w)
    del xp
    if x is not input:
        _drop_batch(out), _drop_batch(local)
    # torch saves the indices as result1, the op's second (non-differentiable) output
    record("max_pool2d", out, {"self": input}, result1=local, kernel_size=tuple(kernel_size),
           stride=tuple(stride or ()), padding=tuple(padding), dilation=(1, 1),
           ceil_mode=False)
    return out, local


def _max_windows(xp: np.ndarray, o: np.ndarray, ix: np.ndarray, kh: int, kw: int, sh: int,
                 sw: int, ph: int, pw: int, w: int) -> None:
    """Each window's max into ``o`` and its flat position in the unpadded plane into ``ix``.

    PyTorch's CPU kernel walks a window in row-major order and takes a cell if
    ``val > maxval || isnan(val)``: the first of equal maxima, the last NaN. Here that rule runs
    once per window offset (di, dj) over all windows at once: the strided slice of ``xp`` at
    that offset is copied into a contiguous chunk of the workspace, and every other step is a
    contiguous (vectorised) NumPy pass. A reduction along a length-kh*kw axis or a masked copy
    (``copyto(where=)``, a branch per element) would cost 5-50x more. The chosen cell's bits are
    selected with integer masks (exact, NaN payloads and the sign of zero included), and its
    offset ``di * w + dj`` grows with each step, so ``max(ix, taken * offset)`` keeps the last
    one taken; the window's start is added at the end."""
    n, c, ho, wo = o.shape
    if o.size == 0:
        return
    floating = o.dtype.kind == "f" or is_reduced(o.dtype)
    bits = np.dtype(f"u{o.dtype.itemsize}")  # the same cells, as unsigned integers
    plane = ho * wo
    isz = o.dtype.itemsize
    # per cell: the slice and its bit mask (the NaN test's bools before the mask, the offsets
    # after the select: the three are never alive together), and the bool "taken"
    wide = max(2 * isz, 8)
    per_cell = wide + 1
    need = 8 * plane + per_cell * n * c * plane
    with Scratch(np.uint8, "max_pool2d", need) as scratch:
        raw = scratch.view((min(scratch.capacity, need),))
        if 8 * plane + per_cell * plane > raw.size:  # one plane doesn't fit: a counted buffer
            big = Tensor._empty((8 * plane + per_cell * plane,), dtypes.uint8,
                                "max_pool2d (scratch)")
            raw = big._array()
        start = raw[:8 * plane].view(np.int64).reshape(ho, wo)  # each window's top-left cell
        start.fill(sw)  # steps along a row, then from a row's end to the next row's start
        start[1:, 0] = sh * w - (wo - 1) * sw
        start[0, 0] = -ph * w - pw
        np.cumsum(start.reshape(-1), out=start.reshape(-1))
        free = raw[8 * plane:]
        per = free.size // (per_cell * plane)  # planes per chunk
        for idx in chunks((n, c), per):
            oc, ic = o[idx], ix[idx]
            e = oc.size
            region = free[:wide * e]
            x = region[:isz * e].view(o.dtype).reshape(oc.shape)
            xb = region[:isz * e].view(bits).reshape(oc.shape)
            mask = region[isz * e:2 * isz * e].view(bits).reshape(oc.shape)
            nan = region[isz * e:isz * e + e].view(np.bool_).reshape(oc.shape)
            off = region[:8 * e].view(np.int64).reshape(oc.shape)
            taken = free[wide * e:wide * e + e].view(np.bool_).reshape(oc.shape)
            ob = oc.view(bits)
            xc = xp[idx]
            np.copyto(oc, xc[..., 0:sh * (ho - 1) + 1:sh, 0:sw * (wo - 1) + 1:sw])
            ic.fill(0)
            for di in range(kh):
                for dj in range(kw):
                    if di == 0 and dj == 0:
                        continue
                    np.copyto(x, xc[..., di:di + sh * (ho - 1) + 1:sh,
                                    dj:dj + sw * (wo - 1) + 1:sw])
                    np.greater(x, oc, out=taken)
                    if floating:
                        np.isnan(x, out=nan)
                        np.logical_or(taken, nan, out=taken)
                    # every NumPy call below has operands of one dtype and one shape: a cast
                    # or a broadcast inside a ufunc would take a loop buffer of NumPy's own
                    np.copyto(mask, taken)
                    np.negative(mask, out=mask)  # 1 -> all ones
                    np.bitwise_xor(xb, ob, out=xb)  # o ^ ((x ^ o) & mask): x where taken
                    np.bitwise_and(xb, mask, out=xb)
                    np.bitwise_xor(ob, xb, out=ob)
                    np.copyto(off, taken)  # over the slice and mask, which are done
                    np.multiply(off, di * w + dj, out=off)
                    np.maximum(ic, off, out=ic)
            np.copyto(off, start)
            np.add(ic, off, out=ic)


@derivative("max_pool2d", "MaxPool2DWithIndicesBackward0", saves={"self": None, "result1": None})
def _max_pool_bw(ctx, g):
    x, idx = ctx.saved("self"), ctx.saved("result1")
    h, w = x._shape[-2:]
    gx = Tensor._empty(x._shape, g.dtype, "max_pool2d backward")
    gflat = gx._array().reshape(-1)
    gflat.fill(0)
    ga = g.contiguous()._array().reshape(-1)  # (a counted copy if g is strided)
    ia = idx._array().reshape(-1)
    per_plane = g._shape[-2] * g._shape[-1]
    kh, kw, sh, sw = _pool_geometry(x, ctx.attr("kernel_size"), ctx.attr("stride"),
                                    ctx.attr("padding"))[:4]
    # windows that don't overlap give each input cell at most one grad: a plain indexed
    # assignment is enough (4x faster than np.put, which checks every index)
    scatter = _assign if (kh, kw) == (sh, sw) else np.add.at
    planes = ia.size // per_plane if per_plane else 0
    with Scratch(np.int64, "max_pool2d backward", ia.size + planes) as scratch:
        size = min(scratch.capacity, ia.size + planes)
        per = size // (per_plane + 1)  # planes per chunk: their cells, and one start each
        if per:  # an index is its window's max's cell in the plane plus the plane's start
            buf = scratch.view((size,))
            for p0 in range(0, planes, per):
                k = min(per, planes - p0)
                starts = ramp(buf[k * per_plane:k * per_plane + k], p0 * h * w, h * w)
                flat = buf[:k * per_plane].reshape(k, per_plane)
                np.copyto(flat, starts.reshape(k, 1))  # (a broadcast copyto takes no buffer)
                cells = slice(p0 * per_plane, (p0 + k) * per_plane)
                np.add(flat, ia[cells].reshape(k, per_plane), out=flat)
                scatter(gflat, flat.reshape(-1), ga[cells])
        else:  # one plane is bigger than the workspace: each cell's plane by division
            for s in range(0, ia.size, size):
                part = ia[s:s + size]
                flat = ramp(scratch.view((part.size,)), s)  # each grad's position in g ...
                np.floor_divide(flat, per_plane, out=flat)  # ... its (n, c) plane ...
                np.multiply(flat, h * w, out=flat)
                np.add(flat, part, out=flat)  # ... and the cell its window's max came from
                scatter(gflat, flat, ga[s:s + size])
    return (gx,)


def _assign(a: np.ndarray, index: np.ndarray, values: np.ndarray) -> None:
    a[index] = values


def avg_pool2d(input: Tensor, kernel_size, stride=None, padding=0) -> Tensor:
    """Mean over each window of a (N, C, H, W) or (C, H, W) input (count_include_pad=True,
    PyTorch's default). int64 windows are summed in int64 and divided as C divides: the
    quotient truncated toward zero (PyTorch's CPU kernel; other integer dtypes it refuses)."""
    kh, kw, sh, sw, ph, pw, ho, wo = _pool_geometry(input, kernel_size, stride, padding)
    x = _batch_of_one(input)
    n, c = x._shape[:2]
    xp = _padded(x, ph, pw, 0, "avg_pool2d (padded)")
    out = Tensor._empty((n, c, ho, wo), x.dtype, "avg_pool2d")
    o = out._array()  # window sums one kernel offset at a time (a mean over the 6-D window
    o.fill(0)  # view would take two of NumPy's loop buffers), then / k as PyTorch divides
    for i in range(kh):
        for j in range(kw):
            o += xp[:, :, i:i + sh * ho:sh, j:j + sw * wo:sw]
    del xp
    if x.dtype.is_floating_point:
        o /= kh * kw
    else:
        _divide_truncating(o, kh * kw)
    if x is not input:
        _drop_batch(out)
    return record("avg_pool2d", out, {"self": input}, kernel_size=tuple(kernel_size),
                  stride=tuple(stride or ()), padding=tuple(padding), ceil_mode=False,
                  count_include_pad=True, divisor_override=None)


def _divide_truncating(o: np.ndarray, k: int) -> None:
    """o //= k rounding toward zero (C's integer division), in place: the remainder, taken
    with the dividend's sign (fmod), is removed first, so the floor division is exact."""
    rem = Tensor._empty(o.shape, dtypes.from_numpy_dtype(o.dtype), "avg_pool2d (remainder)")
    r = np.fmod(o, k, out=rem._array())
    np.subtract(o, r, out=o)
    np.floor_divide(o, k, out=o)


# The backward needs only sizes, but derivatives.yaml saves self, so changing the input in
# place before backward raises in PyTorch: the table says the same.
@derivative("avg_pool2d", "AvgPool2DBackward0", saves={"self": None})
def _avg_pool_bw(ctx, g):
    x = ctx.saved("self")  # for its sizes (and its version check)
    kh, kw, sh, sw, ph, pw, ho, wo = _pool_geometry(
        x, ctx.attr("kernel_size"), ctx.attr("stride"), ctx.attr("padding"))
    n, c, h, w = _batch_of_one(x)._shape
    gp = Tensor._empty((*x._shape[:-2], h + 2 * ph, w + 2 * pw), g.dtype, "avg_pool2d backward")
    a = gp._array().reshape(n, c, h + 2 * ph, w + 2 * pw)  # fresh: a view
    a.fill(0)
    share_t = Tensor._empty(g._shape, g.dtype, "avg_pool2d backward")  # counted, g-sized
    share = np.divide(g._array(), kh * kw, out=share_t._array()).reshape(n, c, ho, wo)
    for i in range(kh):
        for j in range(kw):
            a[:, :, i:i + sh * ho:sh, j:j + sw * wo:sw] += share
    if ph == 0 and pw == 0:
        return (gp,)
    return (gp[..., ph:ph + h, pw:pw + w].contiguous(),)
