"""var and std (PyTorch's ReduceOps.cpp): Bessel's correction (``unbiased``/``correction``) and
the workspace kernel that never makes an input-sized ``a - mean``; their backward rows.

The dim parsing and the reduction driver are reduce.py's (below).
"""
from __future__ import annotations

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


@binding()
@tensor_method
def var(self, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    _check_unbiased("var", dim, unbiased, keepdim)
    dtype_rules.check("var", self.dtype)
    c = _correction(unbiased, correction)
    out, dims = _reduce(self, "var", _var_kernel(c, "var"), _all_if_empty(dim), keepdim,
                        dtypes.float_result(self.dtype))
    return record("var", out, {"self": self}, dim=_given(dim), keepdim=keepdim,
                  correction=_saved_correction(dim, unbiased, correction), _dims=dims,
                  _correction=c)


@binding()
@tensor_method
def std(self, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    _check_unbiased("std", dim, unbiased, keepdim)
    dtype_rules.check("std", self.dtype)
    c = _correction(unbiased, correction)
    out, dims = _reduce(self, "std", _var_kernel(c, "std", sqrt=True), _all_if_empty(dim),
                        keepdim,
                        dtypes.float_result(self.dtype))
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


@derivative("var", "VarBackward0", saves={"self": None})
def _var_bw(ctx, g):
    x, centered, dims, denom = _centered(ctx)
    scale = 2.0 / denom if denom else float("inf")  # (C++'s 2.0 / 0.0)
    return (_regrow(g, x.shape, dims, ctx.attr("keepdim")) * centered * scale,)


@derivative("std", "StdBackward0", saves={"self": None, "result": None})
def _std_bw(ctx, g):
    x, centered, dims, denom = _centered(ctx)
    r = _regrow(ctx.saved("result"), x.shape, dims, ctx.attr("keepdim"))
    return (_regrow(g, x.shape, dims, ctx.attr("keepdim")) * centered / (r * denom),)
