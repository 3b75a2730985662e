"""Clamping, maximum/minimum, comparisons and where.

clamp saves its *input* (the mask of where the gradient passes depends on the old values),
which is why ``clamp_`` must clone self when autograd is recording.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..layout import broadcast_shapes
from ..tensor import Tensor, tensor_method
from . import dtype_rules
from ._iter import arr, shape_of
from ._iter import inplace_elementwise as _inplace
from ._iter import new_elementwise as _new


def _clip(lo, hi):
    def kernel(x, out, dtype):
        if lo is not None:
            np.maximum(x, lo, out=out, dtype=dtype, casting="unsafe")
            x = out
        if hi is not None:
            np.minimum(x, hi, out=out, dtype=dtype, casting="unsafe")
        elif lo is None:
            np.copyto(out, x, casting="unsafe")
    return kernel


def _clamp_args(min, max):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    return min, max


@tensor_method
def clamp(self, min=None, max=None) -> Tensor:
    _clamp_args(min, max)
    rd = dtype_rules.clamp_result("clamp", self, min, max)
    return _new("clamp", False, _clip(min, max), self, result_dtype=rd, min=min, max=max)


@tensor_method
def clamp_(self, min=None, max=None) -> Tensor:
    _clamp_args(min, max)
    rd = dtype_rules.clamp_result("clamp", self, min, max)
    return _inplace("clamp", False, _clip(min, max), self, result_dtype=rd, min=min, max=max)


@tensor_method
def clamp_min(self, min) -> Tensor:
    rd = dtype_rules.clamp_result("clamp_min", self, min)
    return _new("clamp_min", False, _clip(min, None), self, result_dtype=rd, min=min)


@tensor_method
def clamp_min_(self, min) -> Tensor:
    rd = dtype_rules.clamp_result("clamp_min", self, min)
    return _inplace("clamp_min", False, _clip(min, None), self, result_dtype=rd, min=min)


@tensor_method
def clamp_max(self, max) -> Tensor:
    rd = dtype_rules.clamp_result("clamp_max", self, max)
    return _new("clamp_max", False, _clip(None, max), self, result_dtype=rd, max=max)


@tensor_method
def clamp_max_(self, max) -> Tensor:
    rd = dtype_rules.clamp_result("clamp_max", self, max)
    return _inplace("clamp_max", False, _clip(None, max), self, result_dtype=rd, max=max)


@tensor_method
def clip(self, min=None, max=None) -> Tensor:
    """PyTorch's alias of clamp."""
    return self.clamp(min, max)


@tensor_method
def clip_(self, min=None, max=None) -> Tensor:
    """PyTorch's alias of clamp_."""
    return self.clamp_(min, max)


def _inside(x: Tensor, lo, hi) -> Tensor:
    mask = None
    if lo is not None:
        mask = x >= lo
    if hi is not None:
        m = x <= hi
        mask = m if mask is None else mask & m
    return mask


@derivative("clamp", "ClampBackward1", saves={"self": None, "min": None, "max": None})
def _clamp_bw(ctx, g):
    return (g * _inside(ctx.saved("self"), ctx.attr("min"), ctx.attr("max")),)


@derivative("clamp_min", "ClampMinBackward0", saves={"self": None, "min": None})
def _clamp_min_bw(ctx, g):
    return (g * _inside(ctx.saved("self"), ctx.attr("min"), None),)


@derivative("clamp_max", "ClampMaxBackward0", saves={"self": None, "max": None})
def _clamp_max_bw(ctx, g):
    return (g * _inside(ctx.saved("self"), None, ctx.attr("max")),)


@tensor_method
def maximum(self, other: Tensor) -> Tensor:
    return _new("maximum", False, lambda a, b, out, dtype: np.maximum(a, b, out=out, dtype=dtype),
                self, other)


@tensor_method
def minimum(self, other: Tensor) -> Tensor:
    return _new("minimum", False, lambda a, b, out, dtype: np.minimum(a, b, out=out, dtype=dtype),
                self, other)


def _minmax_bw(ctx, g, pick_self):
    a, b = ctx.saved("self"), ctx.saved("other")
    tie = (a == b)
    ga = where(tie, g / 2, g * pick_self(a, b)) if ctx.needs(0) else None
    gb = where(tie, g / 2, g * pick_self(b, a)) if ctx.needs(1) else None
    return (ga, gb)


@derivative("maximum", "MaximumBackward0", inputs=("self", "other"),
            saves={"self": None, "other": None})
def _maximum_bw(ctx, g):
    return _minmax_bw(ctx, g, lambda a, b: a > b)


@derivative("minimum", "MinimumBackward0", inputs=("self", "other"),
            saves={"self": None, "other": None})
def _minimum_bw(ctx, g):
    return _minmax_bw(ctx, g, lambda a, b: a < b)


# --------------------------------------------------------------------------- comparisons
def _compare(name: str, ufunc, self, other) -> Tensor:
    """A bool result of the broadcast shape; comparisons record no graph node."""
    shape = broadcast_shapes(shape_of(self), shape_of(other))
    out = Tensor._empty(shape, dtypes.bool_, name)
    ufunc(arr(self), arr(other), out=out._array())
    return out


@tensor_method
def gt(self, other) -> Tensor:
    return _compare("gt", np.greater, self, other)


@tensor_method
def lt(self, other) -> Tensor:
    return _compare("lt", np.less, self, other)


@tensor_method
def ge(self, other) -> Tensor:
    return _compare("ge", np.greater_equal, self, other)


@tensor_method
def le(self, other) -> Tensor:
    return _compare("le", np.less_equal, self, other)


@tensor_method
def eq(self, other) -> Tensor:
    return _compare("eq", np.equal, self, other)


@tensor_method
def ne(self, other) -> Tensor:
    return _compare("ne", np.not_equal, self, other)


@tensor_method
def logical_and(self, other) -> Tensor:
    return _compare("logical_and", np.logical_and, self, other)


@tensor_method
def logical_or(self, other) -> Tensor:
    return _compare("logical_or", np.logical_or, self, other)


def where(condition: Tensor, input, other) -> Tensor:
    """Pick from ``input`` where condition is True, else from ``other`` (differentiable)."""
    def kernel(a, b, out, dtype):
        np.copyto(out, b, casting="unsafe")
        np.copyto(out, a, casting="unsafe", where=arr(condition))

    return _new("where", False, kernel, input, other, condition=condition)


@derivative("where", "WhereBackward0", inputs=("self", "other"), saves={"condition": None})
def _where_bw(ctx, g):
    c = ctx.saved("condition")
    return (where(c, g, 0.0) if ctx.needs(0) else None,
            where(c, 0.0, g) if ctx.needs(1) else None)
