"""Max and average pooling over the last two dims of a (N, C, H, W) or (C, H, W) input:
max_pool2d_with_indices (MaxPool2DWithIndicesBackward0) and avg_pool2d (AvgPool2DBackward0).

A window has PyTorch's geometry: kernel, stride, padding, dilation (max only: the kernel's
cells ``dilation`` apart) and ``ceil_mode``, where a last, partial window counts if it starts
inside the input or its left padding. Each op is its kernel over counted buffers, then its
derivative row; the argument checks are in nn/checks.py, so the kernels only see arguments
PyTorch would have accepted.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import dtypes, memory
from ..arg_parser import saved, signed
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..tensor import Tensor
from ._chunked import ramp
from .reduced import is_reduced
from .workspace import Scratch, chunks


def output_size(size: int, k: int, pad: int, stride: int, dilation: int,
                ceil_mode: bool) -> int:
    """pooling_output_shape: how many windows of extent (k - 1) * dilation + 1 fit, rounding
    down (up with ceil_mode, as long as the last window starts before the right padding)."""
    span = size + 2 * pad - dilation * (k - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = span // stride + 1  # div_rtn: rounds toward -inf, as Python's // does
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


class Geometry(NamedTuple):
    kh: int
    kw: int
    sh: int
    sw: int
    ph: int
    pw: int
    dh: int
    dw: int
    ho: int
    wo: int


def geometry(x: Tensor, kernel_size, stride, padding, dilation=1,
             ceil_mode: bool = False) -> Geometry:
    """The window geometry, from the arguments as checks.pool2d leaves them or as a node saved
    them (one int, or one element, for both dims; stride () for "the kernel size")."""
    kh, kw = _two(kernel_size)
    sh, sw = _two(stride) if stride not in (None, ()) else (kh, kw)
    (ph, pw), (dh, dw) = _two(padding), _two(dilation)
    h, w = x._shape[-2:]
    return Geometry(kh, kw, sh, sw, ph, pw, dh, dw, output_size(h, kh, ph, sh, dh, ceil_mode),
                    output_size(w, kw, pw, sw, dw, ceil_mode))


def _two(v) -> tuple[int, int]:
    if isinstance(v, (int, np.integer)):
        return int(v), int(v)
    return (int(v[0]), int(v[0])) if len(v) == 1 else (int(v[0]), int(v[1]))


def _padded(x: Tensor, g: Geometry, fill, op: str) -> np.ndarray:
    """x's (N, C, H, W) array, or a counted copy of it with ``fill`` around: ph rows above,
    and below as many as the windows reach (ceil_mode's last window may reach past the
    padding); the same for columns."""
    a = x._array()
    n, c, h, w = x._shape
    hp = max(h + 2 * g.ph, (g.ho - 1) * g.sh + (g.kh - 1) * g.dh + 1)
    wp = max(w + 2 * g.pw, (g.wo - 1) * g.sw + (g.kw - 1) * g.dw + 1)
    if (hp, wp) == (h, w):
        return a
    with memory.op_scope(op):
        buf = Tensor._empty((n, c, hp, wp), x.dtype, op)
    out = buf._array()
    out.fill(fill)
    out[:, :, g.ph:g.ph + h, g.pw:g.pw + w] = a
    return out


def _taps(g: Geometry):
    """(i, j, rows, cols): each kernel cell, and the slices of the padded plane it reads for
    every window at once."""
    for i in range(g.kh):
        for j in range(g.kw):
            r, c = i * g.dh, j * g.dw
            yield i, j, slice(r, r + g.sh * (g.ho - 1) + 1, g.sh), \
                slice(c, c + g.sw * (g.wo - 1) + 1, g.sw)


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


# --------------------------------------------------------------------------- max pooling
def max_pool2d_with_indices(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode: bool = False) -> tuple[Tensor, Tensor]:
    """Max over each window; indices are flat positions in the input's H*W plane (as torch).
    The node saves the arguments as they were given."""
    g = geometry(input, kernel_size, stride, padding, dilation, ceil_mode)
    x = _batch_of_one(input)
    low = -np.inf if x.dtype.is_floating_point else np.iinfo(x._array().dtype).min
    xp = _padded(x, g, low, "max_pool2d (padded)")  # padding never wins a window
    out = Tensor._empty((*x._shape[:2], g.ho, g.wo), x.dtype, "max_pool2d")
    local = Tensor._empty(out._shape, dtypes.int64, "max_pool2d (indices)")
    _max_windows(xp, out._array(), local._array(), g, x._shape[-1])
    del xp
    if x is not input:
        _drop_batch(out), _drop_batch(local)
    # torch saves the indices as result1, the op's second (non-differentiable) output
    record("max_pool2d", out, {"self": input}, result1=local, kernel_size=tuple(kernel_size),
           stride=tuple(stride or ()), padding=tuple(padding), dilation=tuple(dilation),
           ceil_mode=ceil_mode)
    return out, local


def _max_windows(xp: np.ndarray, o: np.ndarray, ix: np.ndarray, g: Geometry, w: int) -> None:
    """Each window's max into ``o`` and its flat position in the unpadded plane into ``ix``.

    PyTorch's CPU kernel starts a window at maxval = -inf and maxindex = its first cell inside
    the input, walks its cells in row-major order and takes one if ``val > maxval ||
    isnan(val)``: the first of equal maxima, the last NaN. Here that rule runs once per kernel
    cell over all windows at once: the strided slice of ``xp`` for that cell is copied into a
    contiguous chunk of the workspace, and every other step is a contiguous (vectorised) NumPy
    pass. A reduction along a length-kh*kw axis or a masked copy (``copyto(where=)``, a branch
    per element) would cost 5-50x more. The chosen cell's bits are selected with integer masks
    (exact, NaN payloads and the sign of zero included). A cell's offset in its window,
    ``i * dh * w + j * dw``, grows with each step among the cells inside the input (padding is
    never taken), so ``max(ix, taken * offset)`` keeps the last one taken, starting from the
    first inside cell's offset; the window's start is added at the end."""
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
    need = 16 * plane + per_cell * n * c * plane
    with Scratch(np.uint8, "max_pool2d", need) as scratch:
        raw = scratch.view((min(scratch.capacity, need),))
        if 16 * plane + per_cell * plane > raw.size:  # one plane doesn't fit: a counted buffer
            big = Tensor._empty((16 * plane + per_cell * plane,), dtypes.uint8,
                                "max_pool2d (scratch)")
            raw = big._array()
        start = raw[:8 * plane].view(np.int64).reshape(ho, wo)  # each window's top-left cell
        start.fill(g.sw)  # steps along a row, then from a row's end to the next row's start
        start[1:, 0] = g.sh * w - (wo - 1) * g.sw
        start[0, 0] = -g.ph * w - g.pw
        np.cumsum(start.reshape(-1), out=start.reshape(-1))
        first = raw[8 * plane:16 * plane].view(np.int64).reshape(ho, wo)
        _first_inside(first, g, w)
        free = raw[16 * plane:]
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
            for i, j, rows, cols in _taps(g):
                if i == 0 and j == 0:  # the window's first cell (padding: low, as -inf)
                    np.copyto(oc, xc[..., rows, cols])
                    np.copyto(ic, first)  # (a broadcast copyto takes no buffer)
                    continue
                np.copyto(x, xc[..., rows, cols])
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
                np.multiply(off, i * g.dh * w + j * g.dw, out=off)
                np.maximum(ic, off, out=ic)
            np.copyto(off, start)
            np.add(ic, off, out=ic)


def _first_inside(first: np.ndarray, g: Geometry, w: int) -> None:
    """Each window's first cell inside the input, as an offset from its top-left cell: 0,
    except for windows that start in the top or left padding (PyTorch's ``while (hstart <
    0) hstart += dilationH``)."""
    first.fill(0)
    for oh in range(min(g.ho, -(-g.ph // g.sh))):  # the rows of windows that start above
        first[oh] += -(-(g.ph - oh * g.sh) // g.dh) * g.dh * w
    for ow in range(min(g.wo, -(-g.pw // g.sw))):
        first[:, ow] += -(-(g.pw - ow * g.sw) // g.dw) * g.dw


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
    geo = geometry(x, ctx.attr("kernel_size"), ctx.attr("stride"), ctx.attr("padding"),
                   ctx.attr("dilation"), ctx.attr("ceil_mode"))
    # windows that don't overlap give each input cell at most one grad: a plain indexed
    # assignment is enough (4x faster than np.put, which checks every index)
    apart = (geo.kh, geo.kw) == (geo.sh, geo.sw) and (geo.dh, geo.dw) == (1, 1)
    scatter = _assign if apart else np.add.at
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


# --------------------------------------------------------------------------- average pooling
def avg_pool2d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """Mean over each window: its sum over the cells inside the input, divided by
    ``divisor_override``, else by the window's size clipped to the padded input
    (count_include_pad) or to the input. int64 windows are summed in int64 and divided as C
    divides, the quotient truncated toward zero (PyTorch's CPU kernel; other integer dtypes
    it refuses)."""
    g = geometry(input, kernel_size, stride, padding, 1, ceil_mode)
    x = _batch_of_one(input)
    xp = _padded(x, g, 0, "avg_pool2d (padded)")
    out = Tensor._empty((*x._shape[:2], g.ho, g.wo), x.dtype, "avg_pool2d")
    o = out._array()  # window sums one kernel cell at a time (a mean over the 6-D window
    o.fill(0)  # view would take two of NumPy's loop buffers), then / k as PyTorch divides
    for _, _, rows, cols in _taps(g):
        o += xp[:, :, rows, cols]
    del xp
    k = _divisors(x, g, count_include_pad, divisor_override)
    if x.dtype.is_floating_point:
        o /= k if isinstance(k, int) else k._array()
    else:
        _divide_truncating(o, k if isinstance(k, int) else k._array())
    if x is not input:
        _drop_batch(out)
    return record("avg_pool2d", out, {"self": input}, kernel_size=tuple(kernel_size),
                  stride=tuple(stride or ()), padding=tuple(padding), ceil_mode=ceil_mode,
                  count_include_pad=count_include_pad,
                  divisor_override=None if divisor_override is None else saved(divisor_override))


def _divisors(x: Tensor, g: Geometry, count_include_pad: bool, divisor_override):
    """Each window's divisor: one int when all windows share it, else a counted (Ho, Wo)
    array of x's dtype, rows times columns (the clipped window is a rectangle)."""
    if divisor_override is not None:
        return divisor_override
    h, w = x._shape[-2:]
    sizes = []
    for n_out, s, p, k, size in ((g.ho, g.sh, g.ph, g.kh, h), (g.wo, g.sw, g.pw, g.kw, w)):
        counts = []
        for o in range(n_out):
            start = o * s - p
            end = min(start + k, size + p)  # the window, clipped to the padded input
            counts.append(end - start if count_include_pad
                          else min(end, size) - max(start, 0))
        sizes.append(counts)
    rows, cols = sizes
    if len(set(rows)) == 1 and len(set(cols)) == 1:
        return rows[0] * cols[0]
    k = Tensor._empty((g.ho, g.wo), x.dtype, "avg_pool2d (divisors)")
    ka = k._array()
    for oh, r in enumerate(rows):
        for ow, c in enumerate(cols):
            ka[oh, ow] = r * c
    return k


def _divide_truncating(o: np.ndarray, k) -> None:
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
    geo = geometry(x, ctx.attr("kernel_size"), ctx.attr("stride"), ctx.attr("padding"), 1,
                   ctx.attr("ceil_mode"))
    n, c, h, w = _batch_of_one(x)._shape
    hp = max(h + 2 * geo.ph, (geo.ho - 1) * geo.sh + geo.kh)
    wp = max(w + 2 * geo.pw, (geo.wo - 1) * geo.sw + geo.kw)
    gp = Tensor._empty((*x._shape[:-2], hp, wp), g.dtype, "avg_pool2d backward")
    a = gp._array().reshape(n, c, hp, wp)  # fresh: a view
    a.fill(0)
    divisor = ctx.attr("divisor_override")
    k = _divisors(x, geo, ctx.attr("count_include_pad"),
                  None if divisor is None else signed(divisor))
    share_t = Tensor._empty(g._shape, g.dtype, "avg_pool2d backward")  # counted, g-sized
    share = np.divide(g._array(), k if isinstance(k, int) else k._array(),
                      out=share_t._array()).reshape(n, c, geo.ho, geo.wo)
    for _, _, rows, cols in _taps(geo):
        a[:, :, rows, cols] += share
    if (hp, wp) == (h, w):
        return (gp,)
    return (gp[..., geo.ph:geo.ph + h, geo.pw:geo.pw + w].contiguous(),)
