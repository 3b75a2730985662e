"""var and std (PyTorch's ReduceOps.cpp): Bessel's correction (``unbiased``/``correction``) and
the workspace kernel that never makes an input-sized ``a - mean``; their backward rows.

The dim parsing and the reduction driver are reduce.py's (below).
"""
from __future__ import annotations

import warnings

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..tensor import Tensor, tensor_method
from . import dtype_rules
from .arg_checks import (
    as_called,
    dim_tuple,
    invalid_combination,
    is_index,
)
from .reduce import _given, _reduce, _regrow
from .workspace import var_into


def _correction(unbiased, correction) -> float:
    if correction is not None:
        return correction
    return 1 if unbiased in (None, True) else 0


def _saved_correction(dim, unbiased, correction):
    """``_saved_correction`` as PyTorch shows it: None for a bare ``x.var()`` (the overload
    with nothing given), else the correction the call amounts to."""
    if dim is None and unbiased is None and correction is None:
        return None
    return _correction(unbiased, correction)


def _var_kernel(c, op: str, sqrt: bool = False):
    """var/std through the workspace (workspace.var_into): no input-sized ``a - mean``."""
    return lambda a, axis, keepdims, out: var_into(a, axis, c, out, op, sqrt)


_VAR_FORMS = ["tuple of ints dim, bool unbiased = True, bool keepdim = False",
              "tuple of ints dim = None, *, Number correction = None, bool keepdim = False",
              "bool unbiased = True"]


def _all_if_empty(dim):
    """var/std read an empty dim list as every dim (the node still shows the list given)."""
    return None if isinstance(dim, (list, tuple)) and not dim else dim


def _check_unbiased(op: str, dim, unbiased, keepdim) -> None:
    ints = isinstance(dim, (list, tuple)) and (not dim or is_index(dim[0]))
    if ints:  # each element an int, in the parser's words ("failed to unpack ... at pos 2")
        dim_tuple(op, dim)
    if not (unbiased is None or isinstance(unbiased, bool)) or (
            isinstance(dim, (list, tuple)) and not ints):  # x.var(0, 0): an int fits no form
        args, kwargs = as_called(["dim", "unbiased", "keepdim"], (dim, unbiased, keepdim),
                                 defaults=(None, False))
        raise invalid_combination(op, args, _VAR_FORMS, kwargs)


def warn_dof(fname: str, self: Tensor, dims: tuple, correction) -> None:
    """ReduceOps.cpp's warn_invalid_degrees_of_freedom: the reduction factor (input numel
    over output numel, 0 when the output is empty) minus the correction <= 0 warns, every
    call; the kernel then divides by 0 (inf, or nan where every value equals the mean)."""
    kept = 1
    for d, size in enumerate(self.shape):
        kept *= 1 if d in dims else size
    factor = self.numel() // kept if kept else 0
    if factor - correction <= 0:
        warnings.warn(f"{fname}(): degrees of freedom is <= 0. Correction should be strictly "
                      "less than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=4)


def spread(self: Tensor, op: str, dim, keepdim: bool, c, fname: str) -> tuple[Tensor, tuple]:
    """var (op "var") or std (op "std") of self, no node; ``fname`` names the caller in the
    degrees-of-freedom warning (torch.var_mean's is "var_mean")."""
    out, dims = _reduce(self, op, _var_kernel(c, op, sqrt=op == "std"), _all_if_empty(dim),
                        keepdim, dtypes.float_result(self.dtype))
    warn_dof(fname, self, dims, c)
    return out, dims


@binding()
@tensor_method
def var(self, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    _check_unbiased("var", dim, unbiased, keepdim)
    dtype_rules.check("var", self.dtype)
    c = _correction(unbiased, correction)
    out, dims = spread(self, "var", dim, keepdim, c, "var")
    return record("var", out, {"self": self}, dim=_given(dim), keepdim=keepdim,
                  correction=_saved_correction(dim, unbiased, correction), _dims=dims,
                  _correction=c)


@binding()
@tensor_method
def std(self, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    _check_unbiased("std", dim, unbiased, keepdim)
    dtype_rules.check("std", self.dtype)
    c = _correction(unbiased, correction)
    out, dims = spread(self, "std", dim, keepdim, c, "std")
    return record("std", out, {"self": self}, dim=_given(dim), keepdim=keepdim,
                  correction=_saved_correction(dim, unbiased, correction), _dims=dims,
                  _correction=c)


def _centered(ctx):
    x, dims = ctx.saved("self"), ctx.attr("_dims")
    n = 1
    if ctx.attr("dim") != ():  # var_backward's _safe_size of an empty dim list is 1, though
        for d in dims:         # the forward reduced every dim: var(()) backward divides by 0
            n *= x.shape[d]
    return x, x - x.mean(dim=dims, keepdim=True), dims, n - ctx.attr("_correction")


def var_backward(ctx, g: Tensor) -> Tensor:
    """FunctionsManual.cpp's var_backward. Without a dim (or on a 0-dim self) and with no
    degrees of freedom left, 2 / dof is taken as inf: inf where self is off its mean, nan
    on it (inf * 0), whatever the sign of the dof."""
    x, centered, dims, denom = _centered(ctx)
    if (ctx.attr("dim") is None or x.dim() == 0) and denom <= 0:
        on_mean = x == x.mean(dim=dims, keepdim=True)
        inf_or_nan = x.new_full(x.shape, float("inf")).masked_fill_(on_mean, float("nan"))
        return _regrow(g, x.shape, dims, ctx.attr("keepdim")) * inf_or_nan
    scale = 2.0 / denom if denom else float("inf")  # (C++'s 2.0 / 0.0)
    return _regrow(g, x.shape, dims, ctx.attr("keepdim")) * centered * scale


def std_backward(ctx, g: Tensor, result: Tensor) -> Tensor:
    """FunctionsManual.cpp's std_backward: var_backward of g / (2 std), 0 where std is 0."""
    x, centered, dims, denom = _centered(ctx)
    if (ctx.attr("dim") is None or x.dim() == 0) and denom <= 0:
        return var_backward(ctx, (g / (result * 2)).masked_fill_(result == 0, 0))
    r = _regrow(result, x.shape, dims, ctx.attr("keepdim"))
    grad = _regrow(g, x.shape, dims, ctx.attr("keepdim")) * centered / (r * denom)
    if result.numel() and not result.all():  # a std of 0 passes no gradient (not 0 / 0)
        grad.masked_fill_(r == 0, 0)
    return grad


@derivative("var", "VarBackward0", saves={"self": None})
def _var_bw(ctx, g):
    return (var_backward(ctx, g),)


@derivative("std", "StdBackward0", saves={"self": None, "result": None})
def _std_bw(ctx, g):
    return (std_backward(ctx, g, ctx.saved("result")),)
