"""torch.var_mean and torch.std_mean: the variance (or standard deviation) and the mean of the
same dims in one call, and one node for both outputs (ReduceOps.cpp).

The call binds to one of torch's three forms (function_parser.py); the node's
``_saved_correction`` says which: None only when the ``correction`` form was taken without
one, else the correction the call amounts to (``unbiased`` True: 1). VarMeanBackward0 saves
self; StdMeanBackward0 also the standard deviation (``_saved_result0``). Backward adds the
two outputs' shares: var's ``2 (x - mean) / (N - correction)``, std's ``(x - mean) / (std
(N - correction))``, and the mean's ``1 / N``.
"""
from __future__ import annotations

from .. import function_parser
from ..autograd.derivatives import derivative
from ..autograd.grad_mode import no_grad
from ..autograd.record import record
from ..layout import wrap_dim
from ..tensor import Tensor
from . import var_std
from .reduce import _given, _regrow


def _bound(op: str, args: tuple, kwargs: dict) -> tuple[Tensor, object, float, object, bool]:
    """(input, dim, correction computed, correction saved, keepdim) of a call."""
    _, values = function_parser.parse(op, args, kwargs)
    x, dim, keepdim = values["input"], values.get("dim"), bool(values.get("keepdim") or False)
    if "correction" in values:
        shown = values["correction"]
        c = 1 if shown is None else shown
    else:
        shown = c = 1 if values["unbiased"] in (None, True) else 0
    if not (x.dtype.is_floating_point):
        raise RuntimeError(f"{op} only support floating point and complex dtypes")
    return x, dim, c, shown, keepdim


def _both(op: str, args: tuple, kwargs: dict) -> tuple[Tensor, Tensor]:
    x, dim, c, shown, keepdim = _bound(op, args, kwargs)
    everything = dim is None or (isinstance(dim, (list, tuple)) and not dim)
    dims = tuple(range(x.dim())) if everything else tuple(
        wrap_dim(d, x.dim()) for d in ((dim,) if isinstance(dim, int) else dim))
    with no_grad():
        spread, _ = var_std.spread(x, op[:3], dim, keepdim, c, op)
        mean = x.mean(dims, keepdim=keepdim) if dims else x.mean()
    return record(op, (spread, mean), {"self": x}, dim=_given(dim), correction=shown,
                  keepdim=keepdim, _dims=dims, _correction=c)


def var_mean(*args, **kwargs) -> tuple[Tensor, Tensor]:
    """torch.var_mean(input, dim=None, *, correction=1, keepdim=False): (var, mean)."""
    return _both("var_mean", args, kwargs)


def std_mean(*args, **kwargs) -> tuple[Tensor, Tensor]:
    """torch.std_mean(input, dim=None, *, correction=1, keepdim=False): (std, mean)."""
    return _both("std_mean", args, kwargs)


def _mean_share(ctx, g: Tensor, x: Tensor) -> Tensor:
    dims, n = ctx.attr("_dims"), 1
    for d in dims:
        n *= x.shape[d]
    return _regrow(g, x.shape, dims, ctx.attr("keepdim")) / n


@derivative("var_mean", "VarMeanBackward0", multi_output=True, outputs=("result0", "result1"),
            saves={"self": None})
def _var_mean_bw(ctx, grads):
    x, total = ctx.saved("self"), None
    if grads[0] is not None:
        total = var_std.var_backward(ctx, grads[0])
    if grads[1] is not None:
        share = _mean_share(ctx, grads[1], x)
        total = share if total is None else total + share
    return (total,)


@derivative("std_mean", "StdMeanBackward0", multi_output=True, outputs=("result0", "result1"),
            saves={"self": None, "result0": None})
def _std_mean_bw(ctx, grads):
    x, total = ctx.saved("self"), None
    if grads[0] is not None:
        total = var_std.std_backward(ctx, grads[0], ctx.saved("result0"))
    if grads[1] is not None:
        share = _mean_share(ctx, grads[1], x)
        total = share if total is None else total + share
    return (total,)


__all__ = ["std_mean", "var_mean"]
