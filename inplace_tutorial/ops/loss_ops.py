"""Loss kernels: nll_loss and mse_loss, each next to its backward (NllLossBackward0 ...).

cross_entropy is not a kernel of its own, as in PyTorch: it is log_softmax + nll_loss
(nn.functional), so its grad_fn is NllLossBackward0 too.
"""
from __future__ import annotations

import numpy as np

from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..tensor import Tensor

_REDUCTIONS = ("none", "mean", "sum")


def _check_reduction(reduction: str) -> None:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def nll_loss(input: Tensor, target: Tensor, reduction: str = "mean",
             ignore_index: int = -100) -> Tensor:
    """-input[i, target[i]], averaged over the targets that are not ``ignore_index``."""
    _check_reduction(reduction)
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
    return record("nll_loss", out, {"self": input}, target=target, reduction=reduction,
                  ignore_index=ignore_index, total_weight=float(rows.size),
                  self_sizes=input._shape, rows=rows, cols=cols)


@derivative("nll_loss", "NllLossBackward0", saves={"target": None})
def _nll_loss_bw(ctx, g):
    ctx.saved("target")  # the saved target is checked like PyTorch's (version counter)
    rows, cols = ctx.attr("rows"), ctx.attr("cols")
    gx = Tensor._empty(ctx.attr("self_sizes"), g.dtype, "nll_loss backward")
    a = gx._array()
    a.fill(0)
    ga = g._array()
    reduction = ctx.attr("reduction")
    if reduction == "none":
        a[rows, cols] = -ga[rows]
    else:
        a[rows, cols] = -ga.item() / (ctx.attr("total_weight") if reduction == "mean" else 1.0)
    return (gx,)


def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """(input - target)^2, reduced."""
    _check_reduction(reduction)
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
