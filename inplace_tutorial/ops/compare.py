"""Clamping, maximum/minimum and where (the comparisons, ``gt``, ``eq`` ..., are in
comparisons.py).

clamp saves its *input* (the mask of where the gradient passes depends on the old values),
which is why ``clamp_`` must clone self when autograd is recording.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd import grad_mode
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..layout import broadcast_shapes
from ..tensor import Tensor, tensor_method
from ..warn_once import warn_once
from . import dtype_rules
from ._pointwise import new_output
from .arg_checks import check_overloads, check_tensor
from .nan_sign import clamp16, clamp_bound, clamp_tensor_bits, is_float16_pair, minmax_bits
from .tensor_iterator import arr, check_inplace_operands, shape_of, write_inplace
from .tensor_iterator import inplace_elementwise as _inplace
from .tensor_iterator import new_elementwise as _new


def _clip(lo, hi):
    scalars = not isinstance(lo, np.ndarray) and not isinstance(hi, np.ndarray)
    nan_bound = any(isinstance(b, float) and b != b for b in (lo, hi))

    def kernel(x, out, dtype):
        if scalars and not nan_bound and is_float16_pair(x, out):
            clamp16(x, lo, hi, out)  # 16-bit values compared as they are (nan_sign.py)
            return
        if lo is not None:
            if scalars:  # x < lo ? lo : x, with its zeros and NaNs (nan_sign.py)
                clamp_bound(np.maximum, x, lo, out, dtype)
            else:
                np.maximum(x, lo, out=out, dtype=dtype, casting="unsafe")
            x = out
        if hi is not None:
            if scalars:
                clamp_bound(np.minimum, x, hi, out, dtype)
            else:
                np.minimum(x, hi, out=out, dtype=dtype, casting="unsafe")
        elif lo is None:
            np.copyto(out, x, casting="unsafe")
    # number bounds on a 16-bit tensor: clamp16 reads the 16-bit values (call_kernel)
    kernel.rounds_16_bits_itself = scalars and not nan_bound
    return kernel


def _clip_numbers(lo, hi, rd):
    """The kernel for number bounds. Like PyTorch's (``min.to<scalar_t>()``), it first
    converts each bound to the common dtype with c10's checked conversion: a bound the type
    can't hold is refused before anything is written (70000 for float16, 1e39 for float32,
    300 for int8), an int wraps into an unsigned type (-1 is 255 in uint8). The conversion
    runs inside the kernel, so autograd's in-place checks still come first."""
    fills = any(isinstance(b, float) and b != b for b in (lo, hi))  # (a NaN: no conversion)

    def kernel(x, out, dtype):
        checked = [None if b is None or fills else dtypes.checked_scalar(b, rd)
                   for b in (lo, hi)]
        _clip(*(checked if not fills else (lo, hi)))(x, out, dtype)
    kernel.rounds_16_bits_itself = _clip(lo, hi).rounds_16_bits_itself
    return kernel


def _as_numbers(min, max) -> tuple:
    """A 0-dim tensor that doesn't require grad next to a Number: torch's parser takes it as
    a Number, so the call binds clamp's Number form (``x.clamp(tensor(0.), 2.)``:
    ClampBackward1, _saved_min 0.0); two tensors, or a tensor and None, stay the Tensor form."""
    if (isinstance(min, Tensor) != isinstance(max, Tensor) and min is not None
            and max is not None and all(not isinstance(b, Tensor) or (
                b.dim() == 0 and not b.requires_grad) for b in (min, max))):
        return tuple(b.item() if isinstance(b, Tensor) else b for b in (min, max))
    return min, max


def _clamp_args(op: str, min, max) -> None:
    """PyTorch's order: the argument types (before any write), then 'at least one bound'."""
    check_overloads(op, ["min", "max"], (min, max), optional=True)
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")


def _tensor_bounds(*bounds) -> bool:
    return any(isinstance(b, Tensor) for b in bounds)


def _clip_tensors(lo, hi):
    """The clamp kernel for tensor bounds (broadcast against self)."""
    return _clip(None if lo is None else lo._array(), None if hi is None else hi._array())


def _clamp_tensor(row: str, self: Tensor, lo, hi) -> Tensor:
    """clamp / clamp_min / clamp_max with tensor bounds: ClampBackward0, ClampMinBackward1,
    ClampMaxBackward1, which also route gradients to the bounds."""
    bounds = [b for b in (lo, hi) if b is not None]
    rd = dtypes.result_type(self, *bounds)
    with grad_mode.no_grad():
        out = _new(row, False, lambda x, *_, out, dtype: _clip_tensors(lo, hi)(x, out, dtype),
                   self, *bounds, result_dtype=rd)
    clamp_tensor_bits(out, self, lo, hi)  # PyTorch's NaN and zero bits (nan_sign.py)
    return record(row, out, {"self": self, "min": lo, "max": hi})


def _self_bits(self: Tensor, bounds: tuple) -> np.ndarray | None:
    """In place, a counted copy of self's values when clamp_tensor_bits will need them (self
    or a bound holds a NaN or a zero), unless a bound overlaps self other than cell for cell
    (cpu_loops.py's walk decides those bits)."""
    a = self._array()
    if not self.dtype.is_floating_point or a.size == 0 or any(
            b.dtype is not self.dtype or (np.may_share_memory(a, b._array()) and (
                b._offset, b._shape, b._stride) != (self._offset, self._shape, self._stride))
            for b in bounds):
        return None
    with np.errstate(invalid="ignore"):
        if not any(np.isnan(v.min()) or np.count_nonzero(v) < v.size
                   for v in (a, *(b._array() for b in bounds)) if v.size):
            return None
    copy = Tensor._empty(self._shape, self.dtype, "clamp_ (self's bits)")
    np.copyto(copy._array(), a)
    return copy._array()


def _clamp_tensor_(row: str, self: Tensor, lo, hi) -> Tensor:
    bounds = tuple(b for b in (lo, hi) if b is not None)
    rd = dtypes.result_type(self, *bounds)
    def run(out, parts):  # self's part, then the bounds' parts (a bound may overlap self)
        it = iter(parts[1:])
        _clip(next(it) if lo is not None else None, next(it) if hi is not None else None)(
            parts[0], out, rd.np)

    def compute():
        before = _self_bits(self, bounds)
        write_inplace(run, "clamp_", self, [self._array(), *(b._array() for b in bounds)], bounds)
        if before is not None:
            clamp_tensor_bits(self, self, lo, hi, before)

    return record_inplace(row, self, {"self": self, "min": lo, "max": hi}, compute=compute,
                          check=lambda: check_inplace_operands(self, bounds, rd))


@binding()
@tensor_method
def clamp(self, min=None, max=None) -> Tensor:
    min, max = _as_numbers(min, max)
    _clamp_args("clamp", min, max)
    if _tensor_bounds(min, max):
        return _clamp_tensor("clamp_tensor", self, min, max)
    rd = dtype_rules.clamp_result("clamp", self, min, max)
    return _new("clamp", False, _clip_numbers(min, max, rd), self, result_dtype=rd, min=min,
                max=max)


@binding()
@tensor_method
def clamp_(self, min=None, max=None) -> Tensor:
    min, max = _as_numbers(min, max)
    _clamp_args("clamp_", min, max)
    if _tensor_bounds(min, max):
        return _clamp_tensor_("clamp_tensor", self, min, max)
    rd = dtype_rules.clamp_result("clamp", self, min, max, inplace=True)
    return _inplace("clamp", False, _clip_numbers(min, max, rd), self, result_dtype=rd,
                    min=min, max=max)


@binding()
@tensor_method
def clamp_min(self, min) -> Tensor:
    check_overloads("clamp_min", ["min"], (min,))
    if isinstance(min, Tensor):
        return _clamp_tensor("clamp_min_tensor", self, min, None)
    rd = dtype_rules.clamp_result("clamp_min", self, min)
    return _new("clamp_min", False, _clip_numbers(min, None, rd), self, result_dtype=rd,
                min=min)


@binding()
@tensor_method
def clamp_min_(self, min) -> Tensor:
    check_overloads("clamp_min_", ["min"], (min,))
    if type(min) is complex:
        raise NotImplementedError("clamp is not supported for complex types")
    if isinstance(min, Tensor):
        return _clamp_tensor_("clamp_min_tensor", self, min, None)
    rd = dtype_rules.clamp_result("clamp_min", self, min, inplace=True)
    return _inplace("clamp_min", False, _clip_numbers(min, None, rd), self, result_dtype=rd,
                    min=min)


@binding()
@tensor_method
def clamp_max(self, max) -> Tensor:
    check_overloads("clamp_max", ["max"], (max,))
    if isinstance(max, Tensor):
        return _clamp_tensor("clamp_max_tensor", self, None, max)
    rd = dtype_rules.clamp_result("clamp_max", self, max)
    return _new("clamp_max", False, _clip_numbers(None, max, rd), self, result_dtype=rd,
                max=max)


@binding()
@tensor_method
def clamp_max_(self, max) -> Tensor:
    check_overloads("clamp_max_", ["max"], (max,))
    if type(max) is complex:
        raise NotImplementedError("clamp is not supported for complex types")
    if isinstance(max, Tensor):
        return _clamp_tensor_("clamp_max_tensor", self, None, max)
    rd = dtype_rules.clamp_result("clamp_max", self, max, inplace=True)
    return _inplace("clamp_max", False, _clip_numbers(None, max, rd), self, result_dtype=rd,
                    max=max)


@binding()
@tensor_method
def clip(self, min=None, max=None) -> Tensor:
    """PyTorch's alias of clamp (its errors name clip)."""
    min, max = _as_numbers(min, max)
    check_overloads("clip", ["min", "max"], (min, max), optional=True)
    return self.clamp(min, max)


@binding()
@tensor_method
def clip_(self, min=None, max=None) -> Tensor:
    """PyTorch's alias of clamp_ (its errors name clip_)."""
    min, max = _as_numbers(min, max)
    check_overloads("clip_", ["min", "max"], (min, max), optional=True)
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


def _bound(ctx, key):
    return ctx.saved(key) if key in ctx._saved else None


@derivative("clamp_tensor", "ClampBackward0", inputs=("self", "min", "max"),
            saves={"self": None, "min": None, "max": None})
def _clamp_tensor_bw(ctx, g):
    x, lo, hi = ctx.saved("self"), _bound(ctx, "min"), _bound(ctx, "max")
    g_lo = g_hi = None
    if lo is not None and ctx.needs(1):  # below min, while min < max, the value is min
        m = x < lo
        g_lo = g * (m if hi is None else m & (lo < hi))
    if hi is not None and ctx.needs(2):  # above max, or everywhere when max < min
        m = x > hi
        g_hi = g * (m if lo is None else m | (hi < lo))
    return (g * _inside(x, lo, hi) if ctx.needs(0) else None, g_lo, g_hi)


@derivative("clamp_min_tensor", "ClampMinBackward1", inputs=("self", "min"),
            saves={"self": None, "min": None})
def _clamp_min_tensor_bw(ctx, g):
    x, lo = ctx.saved("self"), ctx.saved("min")
    return (g * (x >= lo) if ctx.needs(0) else None, g * (x < lo) if ctx.needs(1) else None)


@derivative("clamp_max_tensor", "ClampMaxBackward1", inputs=("self", "max"),
            saves={"self": None, "max": None})
def _clamp_max_tensor_bw(ctx, g):
    x, hi = ctx.saved("self"), ctx.saved("max")
    return (g * (x <= hi) if ctx.needs(0) else None, g * (x > hi) if ctx.needs(1) else None)


@binding()
@tensor_method
def maximum(self, other: Tensor) -> Tensor:
    check_tensor("maximum", "other", other)
    out = _new("maximum", False, lambda a, b, out, dtype: np.maximum(a, b, out=out, dtype=dtype),
               self, other)
    minmax_bits(out, self, other)
    return out


@binding()
@tensor_method
def minimum(self, other: Tensor) -> Tensor:
    check_tensor("minimum", "other", other)
    out = _new("minimum", False, lambda a, b, out, dtype: np.minimum(a, b, out=out, dtype=dtype),
               self, other)
    minmax_bits(out, self, other)
    return out


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


_UINT8_CONDITION = ("where received a uint8 condition tensor. This behavior is deprecated and "
                    "will be removed in a future version of PyTorch. Use a boolean condition "
                    "instead.")


def where(condition: Tensor, input, other) -> Tensor:
    """Pick from ``input`` where condition is True, else from ``other`` (differentiable).
    Either branch may be a Python number; the result has the broadcast shape of all three."""
    if condition.dtype is dtypes.uint8:
        warn_once(_UINT8_CONDITION)  # still taken (and saved) as it is, as PyTorch does
    elif condition.dtype is not dtypes.bool_:
        raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {condition.dtype.short}")
    rd = dtypes.result_type(input, other)
    shape = broadcast_shapes(broadcast_shapes(condition._shape, shape_of(input)),
                             shape_of(other))
    # a Python number branch is converted to the result's type the C++ way, before any
    # write: an int that doesn't fit is refused (-1 still wraps into uint8), a float is not
    # checked against float16/bfloat16 (it becomes inf)
    first, second = (v if isinstance(v, Tensor) else dtypes.checked_scalar(v, rd, "fill", 1)
                     for v in (input, other))
    out = new_output("where", shape, rd, (condition, input, other))
    o = out._array()
    np.copyto(o, arr(second), casting="unsafe")
    pick = arr(condition)
    if condition.dtype is dtypes.uint8:  # any non-zero byte picks input (a counted bool copy)
        mask = Tensor._empty(condition._shape, dtypes.bool_, "where (uint8 condition)")
        pick = np.not_equal(pick, 0, out=mask._array())
    np.copyto(o, arr(first), casting="unsafe", where=pick)
    return record("where", out, {"self": input, "other": other, "condition": condition})


@derivative("where", "WhereBackward0", inputs=("self", "other"), saves={"condition": None})
def _where_bw(ctx, g):
    c = ctx.saved("condition")
    return (where(c, g, 0.0) if ctx.needs(0) else None,
            where(c, 0.0, g) if ctx.needs(1) else None)
