"""Loss kernels: nll_loss and mse_loss, each next to its backward (NllLossBackward0 ...).

cross_entropy is not a kernel of its own, as in PyTorch: it is log_softmax + nll_loss
(nn.functional), so its grad_fn is NllLossBackward0 too.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..tensor import Tensor
from ._chunked import ramp, run_chunked

_REDUCTIONS = ("none", "mean", "sum")  # PyTorch's at::Reduction enum: 0, 1, 2


def _check_reduction(reduction: str) -> None:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _check_float(kernel: str, t: Tensor) -> None:
    """Losses have floating-point kernels only; PyTorch names the kernel it didn't find."""
    if t.dtype.category != 2:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{t.dtype.short}\'')


def nll_loss(input: Tensor, target: Tensor, reduction: str = "mean",
             ignore_index: int = -100) -> Tensor:
    """-input[i, target[i]], averaged over the targets that are not ``ignore_index``."""
    _check_reduction(reduction)
    if target.dtype.short not in ("Long", "Byte"):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got "
                           f"{target.dtype.short}")
    if input.dim() != 2:
        raise ValueError(f"Expected 2 dimensions (got {input.dim()})")
    n, c = input._shape
    if target._shape != (n,):
        raise ValueError(f"Expected input batch_size ({n}) to match target batch_size "
                         f"({target._shape[0] if target.dim() else 0}).")
    counts, cells, k = _target_cells(target, ignore_index, c, input, "nll_loss")
    _check_float("nll_loss_out_frame", input)
    # -input[i, target[i]] for every row (an ignored row reads a cell of its own, unused)
    picked = Tensor._empty((n,), input.dtype, "nll_loss (picked)")._array()
    if k:
        np.take(_span(input._array()), cells, out=picked)
    if reduction == "none":
        out = Tensor._empty((n,), input.dtype, "nll_loss")
        o = out._array()
        o.fill(0)
        np.negative(picked, out=o, where=counts)
    else:
        out = Tensor._empty((), input.dtype, "nll_loss")
        if k < n:  # the rows that count, in order, so the sum adds exactly what torch adds
            picked = _compact(picked, counts, cells, k)
        s = -picked.sum(dtype=np.float64)
        out._array()[...] = s / k if reduction == "mean" else s
    del picked, counts, cells
    # torch keeps ignore_index as an unsigned 64-bit SymInt: -100 reads back as 2**64 - 100
    total_weight = Tensor._empty((), input.dtype, "nll_loss (total_weight)")
    total_weight._array()[...] = k
    return record("nll_loss", out, {"self": input}, target=target,
                  reduction=_REDUCTIONS.index(reduction), ignore_index=ignore_index % 2**64,
                  total_weight=total_weight, weight=None, self_sizes=input._shape)


def _target_cells(target: Tensor, ignore_index: int, c: int, into: Tensor, op: str):
    """(counts, cells, k): which rows' targets count (not ``ignore_index``), where each row's
    target cell sits in ``into``'s memory (an ignored row: its first cell), how many count.

    Raises PyTorch's IndexError for a counted target outside [0, c). Both arrays are counted
    storages (a batch-sized bool and int64), built with ufuncs that write into them."""
    n = target._shape[0]
    t = target._array()
    counts = Tensor._empty((n,), dtypes.bool_, op + " (targets)")._array()
    np.not_equal(t, ignore_index, out=counts)
    k = int(np.count_nonzero(counts))
    if k:
        info = np.iinfo(t.dtype)
        lo = np.min(t, where=counts, initial=info.max)
        hi = np.max(t, where=counts, initial=info.min)
        if lo < 0 or hi >= c:
            raise IndexError(f"Target {int(hi if hi >= c else lo)} is out of bounds.")
    a = into._array()
    row_step, col_step = (st // a.itemsize for st in a.strides)
    cells = Tensor._empty((n,), dtypes.int64, op + " (targets)")._array()
    ramp(cells, 0, row_step)
    if col_step == 1:
        np.add(cells, t, out=cells, where=counts, casting="unsafe")
    else:  # a transposed input: target * col_step in a buffer of its own
        cols = Tensor._empty((n,), dtypes.int64, op + " (targets)")._array()
        np.multiply(t, col_step, out=cols, casting="unsafe")
        np.add(cells, cols, out=cells, where=counts)
    return counts, cells, k


def _span(a: np.ndarray) -> np.ndarray:
    """A 1-D view from a's first element over every cell it reaches (strides >= 0), so a
    cell at (i, j) is ``_span(a)[i * row_step + j * col_step]``: no copy."""
    extent = 1 + sum((d - 1) * st // a.itemsize for d, st in zip(a.shape, a.strides))
    return np.lib.stride_tricks.as_strided(a, (max(extent, 0),), (a.itemsize,))


def _compact(picked: np.ndarray, counts: np.ndarray, cells: np.ndarray, k: int) -> np.ndarray:
    """picked's counted rows, in order, without index arrays: row i goes to slot
    (number of counted rows up to i) - 1, an ignored row to a spare slot k (cells is reused)."""
    np.cumsum(counts, dtype=np.int64, out=cells)
    np.subtract(cells, 1, out=cells)
    np.logical_not(counts, out=counts)
    np.copyto(cells, k, where=counts)
    slots = Tensor._empty((k + 1,), dtypes.from_numpy_dtype(picked.dtype),
                          "nll_loss (picked)")._array()
    np.put(slots, cells, picked)  # in row order: the spare slot takes the ignored rows
    return slots[:k]


# PyTorch saves self, target and total_weight (a 0-dim tensor): changing any of them in
# place before backward raises. The formula itself only needs where the targets point.
@derivative("nll_loss", "NllLossBackward0",
            saves={"self": None, "target": None, "total_weight": None})
def _nll_loss_bw(ctx, g):
    gx = Tensor._empty(ctx.attr("self_sizes"), g.dtype, "nll_loss backward")
    a = gx._array()
    a.fill(0)
    target = ctx.saved("target")
    if a.size == 0:
        return (gx,)
    ignore_index = ctx.attr("ignore_index")
    ignore_index -= 2**64 if ignore_index >= 2**63 else 0  # back from the unsigned SymInt
    counts, cells, _ = _target_cells(target, ignore_index, a.shape[1], gx,
                                     "nll_loss backward")
    ga = g._array()
    values = Tensor._empty(target._shape, g.dtype, "nll_loss backward")._array()
    reduction = _REDUCTIONS[ctx.attr("reduction")]
    if reduction == "none":
        np.negative(ga, out=values)
    else:  # (no row counts: total is 0, and every cell stays 0, as in torch)
        total = ctx.saved("total_weight").item()
        values.fill(-ga.item() / (total if reduction == "mean" and total else 1.0))
    np.logical_not(counts, out=counts)
    np.copyto(values, 0, where=counts)  # an ignored row writes 0 into its own first cell
    np.put(a.reshape(-1), cells, values)
    return (gx,)


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
        out._array()[...] = s / max(d.size, 1) if reduction == "mean" else s
        del diff
    return record("mse_loss", out, {"self": input, "target": target}, reduction=reduction)


@derivative("mse_loss", "MseLossBackward0", inputs=("self", "target"),
            saves={"self": None, "target": None})
def _mse_loss_bw(ctx, g):
    x, t = ctx.saved("self"), ctx.saved("target")
    gx = Tensor._empty(x._shape, g.dtype, "mse_loss backward")
    a = gx._array()
    np.subtract(x._array(), t._array(), out=a)
    scale = 2.0 / max(a.size, 1) if ctx.attr("reduction") == "mean" else 2.0
    if ctx.attr("reduction") == "none":  # a *= g * scale, g * scale a chunk at a time
        run_chunked(_times_scaled(scale), "mse_loss backward", (None,), (g._array(),), a,
                    a.dtype)
    else:
        a *= g._array().item() * scale
    return (gx if ctx.needs(0) else None, gx.neg() if ctx.needs(1) else None)


def _times_scaled(scale: float):
    def body(g, out, dtype, tmp):
        np.multiply(out, np.multiply(g, scale, out=tmp[0]), out=out)
    return body
