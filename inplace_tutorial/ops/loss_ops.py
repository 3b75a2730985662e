"""Loss kernels: nll_loss and mse_loss, each next to its backward (NllLossBackward0 ...).

cross_entropy is not a kernel of its own, as in PyTorch: it is log_softmax + nll_loss
(nn.functional), so its grad_fn is NllLossBackward0 too.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..layout import is_contiguous, non_overlapping_and_dense
from ..modes import STATE
from ..tensor import Tensor
from ._chunked import ramp, run_chunked
from .workspace import WORKSPACE_BYTES, Scratch

_REDUCTIONS = ("none", "mean", "sum")  # PyTorch's at::Reduction enum: 0, 1, 2


def _check_reduction(reduction: str) -> None:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _check_float(kernel: str, t: Tensor) -> None:
    """Losses have floating-point kernels only; PyTorch names the kernel it didn't find."""
    if t.dtype.category != 2:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{t.dtype.short}\'')


def nll_loss_nd(input: Tensor, target: Tensor, weight: Tensor | None = None,
                reduction: str = "mean", ignore_index: int = -100) -> Tensor:
    """PyTorch's nll_loss_nd: a (C,) or (N, C) input goes to nll_loss (NllLossBackward0),
    (N, C, H, W) to nll_loss2d (NllLoss2DBackward0), any other (N, C, d1, d2, ...) through a
    contiguous (N, C, 1, d1*d2*...) view of itself (and the result viewed back)."""
    _check_reduction(reduction)
    ndim = len(input._shape)
    if ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {ndim})")
    if ndim != 1 and input._shape[0] != (target._shape[0] if target._shape else 0):
        raise ValueError(f"Expected input batch_size ({input._shape[0]}) to match target "
                         f"batch_size ({target._shape[0] if target._shape else 0}).")
    if ndim in (1, 2, 4):
        return nll_loss(input, target, weight, reduction, ignore_index)
    n, c = input._shape[:2]
    out_size = (n, *input._shape[2:])
    if target._shape[1:] != input._shape[2:]:
        raise RuntimeError(f"Expected target size {list(out_size)}, got {list(target._shape)}")
    x, tgt = input.contiguous(), target.contiguous()
    x = x.view(n, c, 1, -1) if x.numel() else x.view(n, c, 0, 0)  # (an empty batch: #15870)
    tgt = tgt.view(n, 1, -1) if tgt.numel() else tgt.view(n, 0, 0)
    out = nll_loss(x, tgt, weight, reduction, ignore_index)
    return out.view(out_size) if reduction == "none" else out


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
             reduction: str = "mean", ignore_index: int = -100) -> Tensor:
    """-input[target] * weight[target] at every target position, then summed, or averaged
    over the weights of the targets that are not ``ignore_index``. ``input`` is (C,) with a
    0-D target, (N, C) with (N,) targets (PyTorch's nll_loss), or (N, C, H, W) with
    (N, H, W) targets (its nll_loss2d, a node of its own)."""
    _check_reduction(reduction)
    spatial = len(input._shape) == 4
    op = "nll_loss2d" if spatial else "nll_loss"
    if weight is not None and weight.requires_grad and STATE.grad:
        raise RuntimeError(f"The function '{op}_forward' is not differentiable with respect "
                           "to argument 'weight'. This input cannot have requires_grad True.")
    c = _check_nll_shapes(input, target, weight, spatial)
    _check_float(f"{op}_forward_out_frame" if spatial else "nll_loss_out_frame", input)
    if weight is not None and weight.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.short} but found "
                           f"{weight.dtype.short}")
    if spatial and target.dtype is not dtypes.int64:  # the 2-D kernel reads int64 only
        raise RuntimeError(f"expected scalar type Long but found {target.dtype.short}")
    target_c = target if is_contiguous(target._shape, target._stride) else target.contiguous()
    if weight is None and reduction != "none" and _plain_rows(input, target_c, ignore_index, c):
        loss = _picked_sum(input._array(), target_c._array(), op)
        total = np.float64(target_c.numel())
        out = Tensor._empty((), input.dtype, op)
        out._array()[...] = loss / total if reduction == "mean" else loss
        return _record_nll(op, out, input, target, weight, reduction, ignore_index, total)
    counts, cells, k = _target_cells(target_c, ignore_index, c, input, op)
    # every position's loss, -input[target] * weight[target], 0 where the target is ignored
    # (an ignored position reads a cell of its own, unused)
    losses = Tensor._empty((counts.size,), input.dtype, op + " (picked)")._array()
    if k:
        np.take(_span(input._array()), cells, out=losses)
    np.negative(losses, out=losses)
    wp = None
    if weight is not None:
        wp = _picked_weights(weight, target_c, counts, input.dtype, op)
        np.multiply(losses, wp, out=losses)
    if k < counts.size:  # some targets are ignored: their positions add 0
        np.logical_not(counts, out=counts)
        np.copyto(losses, 0, where=counts)
    del cells, counts
    with np.errstate(divide="ignore", invalid="ignore"):  # 0 / 0: nan, as in PyTorch
        total = np.float64(k) if wp is None else wp.sum(dtype=np.float64)
        if reduction == "none" and input.dim() > 1:
            out = Tensor._empty(target._shape, input.dtype, op)
            np.copyto(out._array().reshape(-1), losses)  # a fresh tensor: reshape is a view
        else:
            out = Tensor._empty((), input.dtype, op)
            loss = losses.sum(dtype=np.float64)
            out._array()[...] = loss / total if reduction == "mean" else loss
    del losses, wp
    return _record_nll(op, out, input, target, weight, reduction, ignore_index, total)


def _record_nll(op: str, out: Tensor, input: Tensor, target: Tensor, weight: Tensor | None,
                reduction: str, ignore_index: int, total) -> Tensor:
    total_weight = Tensor._empty((), input.dtype, op + " (total_weight)")
    total_weight._array()[...] = total
    # torch keeps ignore_index as an unsigned 64-bit SymInt: -100 reads back as 2**64 - 100
    return record(op, out, {"self": input}, target=target, weight=weight,
                  reduction=_REDUCTIONS.index(reduction), ignore_index=ignore_index % 2**64,
                  total_weight=total_weight)


# The usual call (a batch of class scores, every target a class, no weight, a mean or a sum)
# needs neither the "counts" mask nor counted index buffers: the targets' smallest and largest
# values settle every check, and the cells' offsets live in the shared workspace for the op.
def _plain_rows(input: Tensor, target: Tensor, ignore_index: int, c: int) -> bool:
    """(N, C) scores whose classes are contiguous, and targets all in [0, C) of which none
    can be ``ignore_index`` (it lies outside their range), small enough for the workspace."""
    if len(input._shape) != 2 or input._stride[1] != 1 or len(target._shape) != 1:
        return False
    p = target._shape[0]
    if p == 0 or p * (8 + input.dtype.itemsize) > WORKSPACE_BYTES:
        return False
    t = target._array()
    lo, hi = int(np.minimum.reduce(t)), int(np.maximum.reduce(t))
    return 0 <= lo and hi < c and not lo <= ignore_index <= hi


def _row_cells(cells: np.ndarray, t: np.ndarray, row_step: int) -> None:
    """cells[i] = i * row_step + t[i]: where row i's target sits in the rows' span."""
    ramp(cells, 0, row_step)
    np.add(cells, t, out=cells, casting="unsafe")


def _picked_sum(a: np.ndarray, t: np.ndarray, op: str) -> np.float64:
    """-sum(a[i, t[i]]) in float64, summed in the order the general path sums."""
    p = t.size
    with Scratch(np.uint8, op, p * (8 + a.itemsize)) as scratch:
        raw = scratch.view((p * (8 + a.itemsize),))
        cells = raw[:8 * p].view(np.int64)
        losses = raw[8 * p:].view(a.dtype)
        _row_cells(cells, t, a.strides[0] // a.itemsize)
        _span(a).take(cells, out=losses)  # (np.take's own bits, without its wrapper)
        np.negative(losses, out=losses)
        return np.add.reduce(losses, dtype=np.float64)  # losses.sum's bits, without its wrapper


def _check_nll_shapes(input: Tensor, target: Tensor, weight: Tensor | None,
                      spatial: bool) -> int:
    """The shape and target-dtype checks of nll_loss_forward / nll_loss2d_forward, in
    PyTorch 2.13's order; returns the number of classes."""
    if spatial:
        if target.dim() != 3:
            raise RuntimeError("only batches of spatial targets supported (3D tensors) but got "
                               f"targets of dimension: {target.dim()}")
        _check_target_dtype(target)
        c = input._shape[1]
        if weight is not None and weight.numel() != c:
            raise RuntimeError("weight tensor should be defined either for all or no classes")
        n, _, h, w = input._shape
        if target._shape != (n, h, w):
            raise RuntimeError(f"size mismatch (got input: {list(input._shape)} , target: "
                               f"{list(target._shape)}")
        return c
    if len(target._shape) > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    _check_target_dtype(target)
    if len(input._shape) == 1 and len(target._shape) == 1 and target._shape[0] != 1:
        raise ValueError("For 1D input, 1D target must have size 1, but got target size: "
                         f"{target._shape[0]}")
    c = input._shape[-1]
    if weight is not None and not (weight.dim() == 1 and weight.numel() == c):
        raise RuntimeError(f"weight tensor should be defined either for all {c} classes or no "
                           f"classes but got weight tensor of shape: {list(weight._shape)}")
    return c


def _check_target_dtype(target: Tensor) -> None:
    if target.dtype not in (dtypes.int64, dtypes.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got "
                           f"{target.dtype.short}")


def _picked_weights(weight: Tensor, target: Tensor, counts: np.ndarray, dtype,
                    op: str) -> np.ndarray:
    """weight[target] at every position, 0 where the target is ignored (a counted buffer;
    an ignored target may be any integer, so the gather clips instead of checking)."""
    wp = Tensor._empty((counts.size,), dtype, op + " (weights)")._array()
    w = weight._array().reshape(-1)  # (C,), or any shape with C elements for nll_loss2d
    np.take(w, target._array().reshape(-1), out=wp, mode="clip")
    np.multiply(wp, counts, out=wp)
    return wp


def _target_cells(target: Tensor, ignore_index: int, c: int, into: Tensor, op: str):
    """(counts, cells, k): at every target position (target's cells in row-major order),
    whether its target counts (is not ``ignore_index``), where its target's cell sits in
    ``into``'s memory (an ignored position: the cell of class 0), and how many count.

    ``into`` is (C,), (N, C) or (N, C, H, W); a position is ``into``'s index without the
    class dim. Raises PyTorch's IndexError for the first counted target outside [0, c).
    Both arrays are counted storages, built with ufuncs that write into them."""
    t = target._array().reshape(-1)  # target is contiguous: a view
    p = t.size
    counts = Tensor._empty((p,), dtypes.bool_, op + " (targets)")._array()
    np.not_equal(t, ignore_index, out=counts)
    k = int(np.count_nonzero(counts))
    if k:
        if k == p:  # every target counts (the usual case): a plain min and max
            lo, hi = t.min(), t.max()
        else:
            info = np.iinfo(t.dtype)
            lo = np.min(t, where=counts, initial=info.max)
            hi = np.max(t, where=counts, initial=info.min)
        if lo < 0 or hi >= c:
            raise IndexError(f"Target {_first_out_of_bounds(t, counts, c, op)} is out of "
                             "bounds.")
    a = into._array()
    steps = [st // a.itemsize for st in a.strides]
    class_dim = 0 if a.ndim == 1 else 1
    col_step = steps.pop(class_dim)
    sizes = list(a.shape)
    sizes.pop(class_dim)
    cells = Tensor._empty((p,), dtypes.int64, op + " (targets)")._array()
    # a second index buffer only where the offsets need one: (N, C) rows of contiguous
    # classes (a batch of class scores) need none
    tmp = (Tensor._empty((p,), dtypes.int64, op + " (targets)")._array()
           if len(sizes) > 1 or col_step != 1 else None)
    _position_offsets(cells, tmp, sizes, steps)
    where = True if k == p else counts  # True: every cell, without a mask to read
    if col_step == 1:
        np.add(cells, t, out=cells, where=where, casting="unsafe")
    else:
        np.multiply(t, col_step, out=tmp, casting="unsafe")
        np.add(cells, tmp, out=cells, where=where)
    return counts, cells, k


def _position_offsets(cells: np.ndarray, tmp: np.ndarray | None, sizes: list,
                      steps: list) -> None:
    """cells[p] = the memory offset of position p (row-major over ``sizes``) under
    ``steps``: sum over dims of ((p // inner) % size) * step, a dim at a time, in place."""
    if len(sizes) <= 1:
        ramp(cells, 0, steps[0] if steps else 0)
        return
    cells.fill(0)
    inner = 1
    for size, step in zip(reversed(sizes), reversed(steps), strict=True):
        ramp(tmp, 0)
        np.floor_divide(tmp, inner, out=tmp)
        np.remainder(tmp, size, out=tmp)
        np.multiply(tmp, step, out=tmp)
        np.add(cells, tmp, out=cells)
        inner *= size


def _first_out_of_bounds(t: np.ndarray, counts: np.ndarray, c: int, op: str) -> int:
    """The first counted target outside [0, c), as PyTorch's loop meets it (error path)."""
    bad = Tensor._empty((t.size,), dtypes.bool_, op + " (targets)")._array()
    above = Tensor._empty((t.size,), dtypes.bool_, op + " (targets)")._array()
    np.less(t, 0, out=bad)
    np.greater_equal(t, c, out=above)
    np.logical_or(bad, above, out=bad)
    np.logical_and(bad, counts, out=bad)
    return int(t[int(np.argmax(bad))])


def _span(a: np.ndarray) -> np.ndarray:
    """A 1-D view from a's first element over every cell it reaches (strides >= 0), so a
    cell at (i, j) is ``_span(a)[i * row_step + j * col_step]``: no copy."""
    if a.flags.c_contiguous:
        return a.reshape(-1)
    extent = 1 + sum((d - 1) * st // a.itemsize for d, st in zip(a.shape, a.strides))
    return np.lib.stride_tricks.as_strided(a, (max(extent, 0),), (a.itemsize,))


# PyTorch saves self, target, weight and total_weight (a 0-dim tensor): changing any of them
# in place before backward raises. The formula itself only needs where the targets point.
def _nll_loss_bw(ctx, g):
    self = ctx.saved("self")
    if len(self._shape) == 4 and not self.is_contiguous() and non_overlapping_and_dense(
            self._shape, self._stride):  # nll_loss2d's grad_input is empty_like(self)
        raise RuntimeError("grad_input must be contiguous")
    gx = Tensor._empty(self._shape, g.dtype, "nll_loss backward")
    a = gx._array()
    a.fill(0)
    target = ctx.saved("target")
    weight = ctx.saved("weight") if "weight" in ctx._saved else None
    total = ctx.saved("total_weight")
    if a.size == 0:
        return (gx,)
    ignore_index = ctx.attr("ignore_index")
    ignore_index -= 2**64 if ignore_index >= 2**63 else 0  # back from the unsigned SymInt
    target = target if is_contiguous(target._shape, target._stride) else target.contiguous()
    c = a.shape[0 if a.ndim == 1 else 1]
    reduction = _REDUCTIONS[ctx.attr("reduction")]
    value = None  # the one value every target cell gets (a mean or a sum)
    if reduction != "none" or a.ndim == 1:
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = np.float64(g._array().item())
            value = -(scale / np.float64(total._array().item()) if reduction == "mean" else scale)
        if weight is None and _plain_rows(gx, target, ignore_index, c):
            t = target._array()
            with Scratch(np.int64, "nll_loss backward", t.size) as scratch:
                cells = scratch.view((t.size,))
                _row_cells(cells, t, c)
                a.reshape(-1).put(cells, value)  # (np.put's own call, without its wrapper)
            return (gx,)
    counts, cells, k = _target_cells(target, ignore_index, c, gx, "nll_loss backward")
    if value is not None:
        if weight is None and k == counts.size:  # nothing to weigh or leave out
            np.put(a.reshape(-1), cells, value)
            return (gx,)
    values = Tensor._empty((counts.size,), g.dtype, "nll_loss backward")._array()
    if value is None:
        np.negative(g._array(), out=values.reshape(g._shape))  # fresh: reshape is a view
    else:
        values.fill(value)
    if weight is not None:
        np.multiply(values, _picked_weights(weight, target, counts, g.dtype,
                                            "nll_loss backward"), out=values)
    np.logical_not(counts, out=counts)
    np.copyto(values, 0, where=counts)  # an ignored position writes 0 into its own cell
    np.put(a.reshape(-1), cells, values)
    return (gx,)


_NLL_SAVES = {"self": None, "target": None, "weight": None, "total_weight": None}
derivative("nll_loss", "NllLossBackward0", saves=_NLL_SAVES)(_nll_loss_bw)
derivative("nll_loss2d", "NllLoss2DBackward0", saves=_NLL_SAVES)(_nll_loss_bw)


def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """(input - target)^2, reduced."""
    _check_reduction(reduction)
    _check_float("mse_cpu", input)
    if input._shape != target._shape:
        raise RuntimeError("mse_loss: input and target must have the same shape here "
                           f"(got {list(input.shape)} and {list(target.shape)})")
    diff = Tensor._empty(input._shape, input.dtype, "mse_loss")
    d = diff._array()
    np.subtract(input._array(), target._array(), out=d)
    np.multiply(d, d, out=d)
    if reduction == "none":
        out = diff
    else:
        out = Tensor._empty((), input.dtype, "mse_loss")
        s = d.sum(dtype=np.float64)
        with np.errstate(invalid="ignore"):  # the mean of nothing: 0 / 0, nan as in PyTorch
            out._array()[...] = s / np.float64(d.size) if reduction == "mean" else s
        del diff
    return record("mse_loss", out, {"self": input, "target": target},
                  reduction=_REDUCTIONS.index(reduction), _reduction=reduction)


@derivative("mse_loss", "MseLossBackward0", inputs=("self", "target"),
            saves={"self": None, "target": None})
def _mse_loss_bw(ctx, g):
    x, t = ctx.saved("self"), ctx.saved("target")
    gx = Tensor._empty(x._shape, g.dtype, "mse_loss backward")
    a = gx._array()
    np.subtract(x._array(), t._array(), out=a)
    scale = 2.0 / max(a.size, 1) if ctx.attr("_reduction") == "mean" else 2.0
    if ctx.attr("_reduction") == "none":  # a *= g * scale, g * scale a chunk at a time
        run_chunked(_times_scaled(scale), "mse_loss backward", (None,), (g._array(),), a,
                    a.dtype)
    else:
        a *= g._array().item() * scale
    return (gx if ctx.needs(0) else None, gx.neg() if ctx.needs(1) else None)


def _times_scaled(scale: float):
    def body(g, out, dtype, tmp):
        np.multiply(out, np.multiply(g, scale, out=tmp[0]), out=out)
    return body
