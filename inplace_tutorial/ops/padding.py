"""F.pad and its modes: 'constant' (constant_pad_nd, ops/pad_nd.py), 'reflect', 'replicate'
and 'circular', as PyTorch's PadNd.cpp dispatches them.

Reflect and replicate are kernels of their own (reflection_pad1d/2d/3d, replication_pad1d/
2d/3d): each output cell reads one input cell, mirrored about the edge (reflect, the edge
itself not repeated) or clamped to it (replicate). Their nodes, ReflectionPad2DBackward0 and
the like, save self and padding; backward adds each gradient cell into the input cell it was
read from. Circular has no kernel of its own: PyTorch's _pad_circular copies slices of the
input into a new tensor, then copies the border from the other side, so its graph is a chain
of CopySlices nodes, and it is built here the same way, from the core's own slice copies.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import argument_error, int_list, is_number, saved, signed
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..creation import empty_strided
from ..tensor import Tensor
from .joining import _like_channels_last
from .pad_nd import constant_pad_nd

_MODES = ("constant", "reflect", "replicate", "circular")
_KERNEL = {"reflect": "reflection", "replicate": "replication"}


def pad(input: Tensor, pad, mode: str = "constant", value=None) -> Tensor:  # noqa: A002
    """torch.nn.functional.pad(input, pad, mode='constant', value=None)."""
    if not isinstance(input, Tensor):
        raise argument_error("pad", "input", 1, "Tensor", input)
    pad = int_list("pad", "pad", (pad,), position=2, varargs=False)
    if not isinstance(mode, str):  # (the position named even for mode=None)
        raise TypeError(f"pad(): argument 'mode' (position 3) must be str, not "
                        f"{type(mode).__name__}")
    if value is not None and not is_number(value):
        raise argument_error("pad", "value", 4, "float", value)
    if mode not in _MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    ndim = input.dim()
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the input "
                           f"dimension but got padding length {len(pad)} and input of dimension "
                           f"{ndim}")
    if mode == "constant":
        return constant_pad_nd(input, pad, 0.0 if value is None else value)
    if value is not None and value != 0:  # (0 is what the default would have been)
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    k = len(pad) // 2
    if k not in (1, 2, 3) or ndim not in (k + 1, k + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {ndim}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    if mode == "circular":
        return _pad_circular(input, pad)
    return pad_kernel(f"{_KERNEL[mode]}_pad{k}d", input, pad)


# --------------------------------------------------------------------------- reflect, replicate
def _source(reflect: bool, size: int, left: int, right: int) -> np.ndarray:
    """For each output position along one dim, the input position it reads."""
    i = np.arange(size + left + right) - left
    if reflect:
        i = np.abs(i)
        return np.where(i >= size, 2 * (size - 1) - i, i)
    return np.clip(i, 0, size - 1)


def _check(op: str, input: Tensor, pad: tuple) -> tuple:
    """The kernels' shape checks, in their order; returns the output shape."""
    k, shape = len(pad) // 2, input._shape
    ndim = len(shape)
    rest = shape[1:] if ndim == k + 2 else shape  # (a batch of 0 is allowed)
    if ndim not in (k + 1, k + 2) or 0 in rest:
        raise RuntimeError(f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 "
                           "batch size and other non-zero dimensions for input, but got: "
                           f"[{', '.join(map(str, shape))}]")
    reflect = op.startswith("reflection")
    if reflect:
        for j in range(k):  # the last dim first: padding (pad[0], pad[1]) is argument #4
            d = ndim - 1 - j
            left, right = pad[2 * j], pad[2 * j + 1]
            if left >= shape[d] or right >= shape[d]:
                raise RuntimeError(
                    f"Argument #{4 + 2 * j}: Padding size should be less than the corresponding "
                    f"input dimension, but got: padding ({left}, {right}) at dimension {d} of "
                    f"input [{', '.join(map(str, shape))}]")
    out = list(shape)
    for j in range(k):
        d = ndim - 1 - j
        out[d] = shape[d] + pad[2 * j] + pad[2 * j + 1]
    spatial = out[ndim - k:]
    if all(s < 1 for s in spatial):
        names = "DHW"[3 - k:]
        sizes = ", ".join(f"{n}: {s}" for n, s in zip(names, shape[ndim - k:]))
        got = " ".join(f"{n}: {s}" for n, s in zip(names, spatial))
        space = " " if k == 2 and not reflect else ""  # (replication_pad2d's own text)
        raise RuntimeError(f"input ({sizes}{space}) is too small. Calculated output {got}")
    if any(s < 0 for s in out):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(out)}: "
                           f"[{', '.join(map(str, out))}]")
    if input.dtype is dtypes.bool_:
        raise NotImplementedError(f"\"{op}\" not implemented for 'Bool'")
    return tuple(out)


def _new(op: str, shape: tuple, like: Tensor) -> Tensor:
    """A new tensor in the memory format ``like`` suggests (channels-last stays so)."""
    if len(shape) not in (4, 5) or not _like_channels_last(like._shape, like._stride):
        return Tensor._empty(shape, like.dtype, op)
    strides, step = [0] * len(shape), 1
    for d in (1, 3, 2, 0) if len(shape) == 4 else (1, 4, 3, 2, 0):
        strides[d], step = step, step * max(shape[d], 1)
    out = empty_strided(shape, tuple(strides), like.dtype)
    out._storage.op = op
    return out


def pad_kernel(op: str, input: Tensor, pad) -> Tensor:
    """reflection_pad{1,2,3}d / replication_pad{1,2,3}d(input, padding)."""
    pad = tuple(pad)
    shape = _check(op, input, pad)
    out = _new(op, shape, input)
    if out.numel():
        reflect = op.startswith("reflection")
        a = input._array()
        k, ndim = len(pad) // 2, input.dim()
        temps = []  # counted intermediates, one per padded dim but the last
        for j in range(k):
            d = ndim - 1 - j
            idx = _source(reflect, input._shape[d], pad[2 * j], pad[2 * j + 1])
            if j == k - 1:
                dst = out._array()
            else:
                t = Tensor._empty(a.shape[:d] + (len(idx),) + a.shape[d + 1:], input.dtype,
                                  f"{op} (one dim padded)")
                temps.append(t)
                dst = t._array()
            _gather(a, idx, d, dst)
            a = dst
    return record(op, out, {"self": input}, padding=saved(pad))


def _gather(a: np.ndarray, idx: np.ndarray, axis: int, out: np.ndarray) -> None:
    """out[..., j, ...] = a[..., idx[j], ...]: the interior in one copy, the border cell by
    cell (no NumPy temporary: views only)."""
    lead = (slice(None),) * axis
    run = _interior(idx)
    if run is not None:
        j0, j1, i0 = run
        np.copyto(out[lead + (slice(j0, j1),)], a[lead + (slice(i0, i0 + j1 - j0),)])
    for j in range(len(idx)):
        if run is None or not run[0] <= j < run[1]:
            np.copyto(out[lead + (j,)], a[lead + (int(idx[j]),)])


def _interior(idx: np.ndarray):
    """The longest run of output positions reading consecutive input positions (the copy of
    the input itself): (first, end, first input position), or None."""
    if len(idx) == 0:
        return None
    steps = np.flatnonzero(np.diff(idx) != 1)
    bounds = np.concatenate(([0], steps + 1, [len(idx)]))
    widths = np.diff(bounds)
    best = int(np.argmax(widths))
    j0, j1 = int(bounds[best]), int(bounds[best + 1])
    return j0, j1, int(idx[j0])


def _scatter_add(g: np.ndarray, idx: np.ndarray, axis: int, out: np.ndarray) -> None:
    """out[..., idx[j], ...] += g[..., j, ...] (the gather's backward), out zeroed first."""
    lead = (slice(None),) * axis
    out.fill(0)
    run = _interior(idx)
    if run is not None:
        j0, j1, i0 = run
        np.copyto(out[lead + (slice(i0, i0 + j1 - j0),)], g[lead + (slice(j0, j1),)])
    for j in range(len(idx)):
        if run is None or not run[0] <= j < run[1]:
            o = out[lead + (int(idx[j]),)]
            np.add(o, g[lead + (j,)], out=o)


def pad_kernel_backward(op: str, grad: Tensor, input: Tensor, pad) -> Tensor:
    """reflection_pad*_backward / replication_pad*_backward: each gradient cell goes back to
    the input cell its output cell was read from (borders fold onto the edge)."""
    reflect = op.startswith("reflection")
    k, ndim = len(pad) // 2, input.dim()
    result = _new(f"{op}_backward", input._shape, input)
    g = grad._array()
    temps = []
    for j in reversed(range(k)):  # undo the gather's dims, first padded dim first
        d = ndim - 1 - j
        idx = _source(reflect, input._shape[d], pad[2 * j], pad[2 * j + 1])
        if j == 0:
            dst = result._array()
        else:
            t = Tensor._empty(g.shape[:d] + (input._shape[d],) + g.shape[d + 1:], grad.dtype,
                              f"{op}_backward (one dim folded)")
            temps.append(t)
            dst = t._array()
        _scatter_add(g, idx, d, dst)
        g = dst
    return result


def _pad_bw(op: str):
    def bw(ctx, g):
        # derivatives.yaml: {op}_backward(grad, self, padding)
        return (pad_kernel_backward(op, g, ctx.saved("self"), signed(ctx.attr("padding"))),)
    return bw


for _mode in ("reflection", "replication"):
    for _k in (1, 2, 3):
        _op = f"{_mode}_pad{_k}d"
        derivative(_op, f"{_mode.capitalize()}Pad{_k}DBackward0",
                   saves={"self": None})(_pad_bw(_op))


# --------------------------------------------------------------------------- circular
def _pad_circular(input: Tensor, pad: tuple) -> Tensor:
    """PyTorch's _pad_circular: a new_empty result, the input's slice copied into its
    middle, then each padded dim's left border copied from the right end and its right
    border from the left (corners written twice), each copy an in-place copy_ into a slice
    (CopySlices under autograd)."""
    shape = input._shape
    k = len(pad) // 2
    out_shape = list(shape)
    for i in range(k):
        left, right = pad[2 * (k - i - 1)], pad[2 * (k - i - 1) + 1]
        d = len(shape) - k + i
        size = shape[d]
        out_shape[d] = size + left + right
        if left > size or right > size:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if out_shape[d] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = input.new_empty(tuple(out_shape))
    o_idx = [slice(None)] * len(shape)
    i_idx = [slice(None)] * len(shape)
    for j in range(k):  # padding (pad[2j], pad[2j+1]) belongs to dim -1-j
        d = len(shape) - 1 - j
        left, right = pad[2 * j], pad[2 * j + 1]
        o_idx[d] = slice(max(left, 0), out_shape[d] - max(right, 0))
        i_idx[d] = slice(max(-left, 0), shape[d] - max(-right, 0))
    out[tuple(o_idx)].copy_(input[tuple(i_idx)])
    for j in range(k):
        d = len(shape) - 1 - j
        left, right = pad[2 * j], pad[2 * j + 1]
        lead = (slice(None),) * d
        n = out_shape[d]
        if left > 0:
            out[lead + (slice(0, left),)].copy_(
                out[lead + (slice(n - left - max(right, 0), n - max(right, 0)),)])
        if right > 0:
            out[lead + (slice(n - right, n),)].copy_(
                out[lead + (slice(max(left, 0), max(left, 0) + right),)])
    return out
