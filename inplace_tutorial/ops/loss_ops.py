"""Loss kernels: nll_loss and mse_loss, each next to its backward (NllLossBackward0 ...).

cross_entropy is not a kernel of its own, as in PyTorch: it is log_softmax + nll_loss
(nn.functional), so its grad_fn is NllLossBackward0 too.
"""
from __future__ import annotations

import numpy as np

from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..tensor import Tensor

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
    t = target._array()
    rows = np.nonzero(t != ignore_index)[0]  # the targets that count
    cols = t[rows]
    if cols.size and (cols.min() < 0 or cols.max() >= c):
        raise IndexError(f"Target {int(cols.max() if cols.max() >= c else cols.min())} is "
                         "out of bounds.")
    _check_float("nll_loss_out_frame", input)
    picked = input._array()[rows, cols]
    if reduction == "none":
        out = Tensor._empty((n,), input.dtype, "nll_loss")
        o = out._array()
        o.fill(0)
        o[rows] = -picked
    else:
        out = Tensor._empty((), input.dtype, "nll_loss")
        s = -picked.sum(dtype=np.float64)
        out._array()[...] = s / rows.size if reduction == "mean" else s
    # torch keeps ignore_index as an unsigned 64-bit SymInt: -100 reads back as 2**64 - 100
    total_weight = Tensor._empty((), input.dtype, "nll_loss (total_weight)")
    total_weight._array()[...] = rows.size
    return record("nll_loss", out, {"self": input}, target=target,
                  reduction=_REDUCTIONS.index(reduction), ignore_index=ignore_index % 2**64,
                  total_weight=total_weight, weight=None, self_sizes=input._shape, rows=rows,
                  cols=cols)


# PyTorch saves self, target and total_weight (a 0-dim tensor): changing any of them in
# place before backward raises. The formula itself only needs where the targets point.
@derivative("nll_loss", "NllLossBackward0",
            saves={"self": None, "target": None, "total_weight": None})
def _nll_loss_bw(ctx, g):
    rows, cols = ctx.attr("rows"), ctx.attr("cols")
    gx = Tensor._empty(ctx.attr("self_sizes"), g.dtype, "nll_loss backward")
    a = gx._array()
    a.fill(0)
    ga = g._array()
    reduction = _REDUCTIONS[ctx.attr("reduction")]
    if reduction == "none":
        a[rows, cols] = -ga[rows]
    else:
        total = ctx.saved("total_weight").item()
        a[rows, cols] = -ga.item() / (total if reduction == "mean" else 1.0)
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
    a *= g._array() * scale if ctx.attr("reduction") == "none" else g._array().item() * scale
    return (gx if ctx.needs(0) else None, gx.neg() if ctx.needs(1) else None)
