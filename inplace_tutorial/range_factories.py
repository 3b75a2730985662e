"""torch.arange, linspace and logspace (PyTorch's RangeFactories.cpp): evenly spaced values,
computed a chunk at a time (small float64 pieces, below the allocator's notice) so no
uncounted n-sized temporary appears.

linspace's CPU kernel fills the first half counting up from start and the second half counting
down from end, each element ``start + step * i`` rounded once (the compiler fuses the multiply
and the add); ``_fma`` does the same in NumPy.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from . import dtypes
from .arg_parser import argument_error, is_number
from .call_site import call_keywords
from .creation import factory_options, finish_factory, out_dtype, refuse_grad, resize_
from .function_parser import torch_function
from .tensor import Tensor

_ARANGE_CHUNK = 1024  # float64 positions arange computes at a time (8 KiB, never counted)


_NOT_GIVEN = object()


@torch_function()
def arange(start=_NOT_GIVEN, end=None, step=1, dtype: dtypes.dtype | None = None,
           requires_grad: bool | None = False, *, layout=None, device=None,
           pin_memory: bool | None = None, out=None) -> Tensor:
    """torch.arange's three forms (end), (start, end), (start, end, step); a call that fits
    none (``arange()``, ``arange(start=1)``) is refused by torch's parser in its words."""
    requires_grad = factory_options("arange", dtype, requires_grad, layout, device, pin_memory)
    if out is not None:  # the result takes out's dtype
        dtype = out_dtype("arange", out, dtype)
        refuse_grad("arange", out)
    if start is _NOT_GIVEN:  # arange(end=3): PyTorch's (Number end) form by name
        if end is None:
            raise TypeError("arange() fits none of torch's forms")  # (torch_function words it)
        start = 0
    elif end is None:
        if "start" in call_keywords():  # arange(start=1): only (Number end) takes one argument
            raise TypeError("arange() fits none of torch's forms")  # (torch_function words it)
        if not is_number(start):
            raise argument_error("arange", "end", 1, "Number", start)
        start, end = 0, start
    if dtype is None:
        is_int = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        dtype = dtypes.int64 if is_int else dtypes.float32
    n = _arange_size(start, end, step, dtype)
    integral = dtype.np.kind in "iu"
    if integral:  # the kernel's start and step: int64 (toward zero), checked as c10 converts
        start, step = _to_int64(start), _to_int64(step)
    t = Tensor._empty((n,), dtype, "arange")
    o = t._array()
    if integral:  # start + i * step in int64, then cast (uint8 wraps as in torch)
        for s in range(0, n, _ARANGE_CHUNK):
            e = min(n, s + _ARANGE_CHUNK)
            pos = np.arange(s, e, dtype=np.int64)
            pos *= step
            pos += start
            np.copyto(o[s:e], pos, casting="unsafe")
    elif dtype.np == np.float64:  # the positions 0, 1, 2 ... made in place (exact below 2**53)
        o.fill(1.0)
        o[:1] = 0.0
        np.cumsum(o, out=o)
        np.multiply(o, step, out=o)
    else:  # float64 positions a chunk at a time: no n-sized temporary behind the count
        for s in range(0, n, _ARANGE_CHUNK):
            e = min(n, s + _ARANGE_CHUNK)
            np.multiply(np.arange(s, e, dtype=np.float64), step, out=o[s:e], casting="unsafe")
    if not integral:
        o += start
    if out is not None:
        return finish_factory(_into(out, t), requires_grad)
    return finish_factory(t, requires_grad)


_INT64_MAX = (1 << 63) - 1


def _arange_size(start, end, step, dtype: dtypes.dtype) -> int:
    """compute_arange_size (RangeUtils.h): the bounds checked in doubles, then the count. An
    int64 result counts in int64, as C++ does: the ends converted (an int beyond int64 is
    torch's overflow error), ``(end - start + step - sign) / step`` wrapping and truncated;
    every other dtype counts in doubles, each end rounded first (arange(2**62, 2**62 + 10,
    dtype=float32) is empty). The count must fit a tensor's int64 sizes and bytes."""
    dstart, dend, dstep = float(start), float(end), float(step)
    if not (dstep > 0 or dstep < 0):
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(dstart) and math.isfinite(dend)):  # C++ prints doubles as %g does
        raise RuntimeError(f"unsupported range: {dstart:g} -> {dend:g}")
    if not ((dstep > 0 and dend >= dstart) or (dstep < 0 and dend <= dstart)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is dtypes.int64:
        xstart, xend, xstep = _to_int64(start), _to_int64(end), _to_int64(step)
        if xstep == 0:  # (a float step below 1 truncates to 0)
            raise ValueError("step must be nonzero")
        sign = (xstep > 0) - (xstep < 0)
        span = _wrap_int64(xend - xstart + xstep - sign)
        size = float(abs(span) // abs(xstep) * (1 if (span < 0) == (xstep < 0) else -1))
    else:
        size = (dend - dstart) / dstep
        size = float(math.ceil(size)) if math.isfinite(size) else size
    if not 0 <= size <= 2.0**63:
        raise RuntimeError("invalid size, possible overflow?")
    if size == 2.0**63:  # static_cast<int64_t> of 2**63 gives INT64_MIN, which resize_ refuses
        raise RuntimeError("IntArrayRef contains an int that cannot be represented as a SymInt: "
                           f"{-(1 << 63)}")
    if int(size) * dtype.itemsize > _INT64_MAX:
        raise RuntimeError(f"Storage size calculation overflowed with sizes=[{int(size)}]")
    return int(size)


def _wrap_int64(v: int) -> int:
    """An int64 sum as the CPU computes it: modulo 2**64, signed."""
    return (v + (1 << 63)) % (1 << 64) - (1 << 63)


def _to_int64(v) -> int:
    """Scalar::to<int64_t>(): c10's checked conversion. An int beyond int64, NaN or a float
    beyond int64's range is an overflow; a float is truncated toward zero (2.0**63 itself
    passes the range check and lands on INT64_MIN, as the x86 conversion does)."""
    if isinstance(v, (float, np.floating)):
        v = float(v)
        if v != v or not -2.0**63 <= v <= 2.0**63:
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        return -(1 << 63) if v == 2.0**63 else int(v)
    v = int(v)
    if not -(1 << 63) <= v <= _INT64_MAX:
        raise RuntimeError("value cannot be converted to type int64_t without overflow")
    return v


def _into(out: Tensor, values: Tensor, op: str = "arange", warn: bool = True) -> Tensor:
    """A range into out=: resized (to 1-D) only if its number of elements differs, with
    RangeFactories.cpp's warning when it had elements (arange's; linspace and logspace
    resize silently); else kept as it is (shape and strides),
    the values written in its element order."""
    n = values.numel()
    if out.numel() != n:
        if out.numel() and warn:
            shape = ", ".join(map(str, out._shape))
            warnings.warn(
                f"The number of elements in the out tensor of shape [{shape}] is "
                f"{out.numel()} which does not match the computed number of elements {n}. "
                "Note that this may occur as a result of rounding error. The out tensor will "
                f"be resized to a tensor of shape ({n},).", UserWarning, stacklevel=4)
        resize_(out, (n,))
    out._vc.write(lambda: np.copyto(out._array(), values._array().reshape(out._shape)), op)
    return out



# linspace's positions a chunk at a time: _fma's dozen float64 pieces stay near 12 KiB, about
# NumPy's own loop buffer, never counted
_SPACED_CHUNK = 128
_SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's split of a float64 into two 26-bit halves


def _fma(a: float, b: np.ndarray, c: float, out: np.ndarray) -> None:
    """out = a * b + c for a float64 array b of integers, rounded once as a fused multiply-add
    would (Dekker's exact product, then Knuth's two-sum; every piece an error-free
    transformation, so only the last addition rounds, up to a rare double rounding)."""
    p = a * b
    t = _SPLIT * a
    ah = t - (t - a)
    al = a - ah
    t = _SPLIT * b
    bh = t - (t - b)
    bl = b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl  # a * b - p, exactly
    s = p + c
    bb = s - p
    err = (p - (s - bb)) + (c - bb)  # p + c - s, exactly
    np.add(s, err + e, out=out)


def _scalar(v, op: str, arg: str):
    """A Number, or a 0-dim tensor (linspace's Tensor overloads) read as one."""
    if isinstance(v, Tensor):
        if v.dim() != 0:
            raise RuntimeError(f"{op} only supports 0-dimensional start and end tensors, but "
                               f"got {arg} with {v.dim()} dimension(s).")
        return v.item()
    return v


def _step(start, end, steps: int, dtype) -> tuple[float, float, float]:
    """(start, end, step) as the kernel holds them: integers as the result's type with a double
    step; float32 and float64 in their own precision; float16/bfloat16 in their own (each Half
    operation rounds its float result)."""
    if not dtype.is_floating_point:
        start, end = float(int(start)), float(int(end))
        return start, end, (end - start) / (steps - 1) if steps > 1 else 0.0
    w = np.dtype(dtype.np).type
    s, e = w(start), w(end)
    step = (w(e - s) / w(steps - 1)) if steps > 1 else w(0)
    if dtype in (dtypes.float16, dtypes.bfloat16):  # Half - Half, then / Half(steps - 1)
        diff = w(np.float32(e) - np.float32(s))
        step = w(np.float32(diff) / np.float32(w(steps - 1))) if steps > 1 else w(0)
    return float(s), float(e), float(step)


def _spaced(op: str, start, end, steps: int, dtype, base: float | None) -> Tensor:
    """linspace's values as a new tensor (``base``: logspace's, ``base`` to their power)."""
    raw_start = start
    if isinstance(start, Tensor) and isinstance(end, Tensor) and (start.dim() or end.dim()):
        raise RuntimeError(f"{op} only supports 0-dimensional start and end tensors, but got "
                           f"start with {start.dim()} dimension(s) and end with {end.dim()} "
                           "dimension(s).")
    start, end = _scalar(start, op, "start"), _scalar(end, op, "end")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    t = Tensor._empty((steps,), dtype, op)
    o = t._array()
    half16 = dtype in (dtypes.float16, dtypes.bfloat16) and base is None
    if base is None:
        start, end, step = _step(start, end, steps, dtype)
    else:  # logspace: start and end of the result's type, the exponents in double
        ends = np.asarray([start, end], dtype=np.float64).astype(dtype.np).astype(np.float64)
        start, end = float(ends[0]), float(ends[1])
        diff = float(np.asarray(ends[1] - ends[0]).astype(dtype.np)) if \
            dtype.is_floating_point else end - start
        step = diff / (steps - 1) if steps > 1 else 0.0
    half = steps // 2
    for s in range(0, steps, _SPACED_CHUNK):
        e = min(steps, s + _SPACED_CHUNK)
        idx = np.arange(s, e, dtype=np.float64)
        vals = np.empty(e - s, np.float64)
        down = np.empty(e - s, np.float64)
        if half16:  # every Half operation rounds: step * Half(i), then + start (- from end)
            w = dtype.np
            up_v = (np.float32(step) * idx.astype(w).astype(np.float32)).astype(w)
            vals[:] = (np.float32(start) + up_v.astype(np.float32)).astype(w)
            dn_v = (np.float32(step) * ((steps - 1) - idx).astype(w).astype(np.float32)).astype(w)
            down[:] = (np.float32(end) - dn_v.astype(np.float32)).astype(w)
        elif base is None:  # linspace's kernel (built for the CPU's vector unit): fused
            _fma(step, idx, start, vals)  # start + step * i
            _fma(-step, (steps - 1) - idx, end, down)  # end - step * (steps - 1 - i)
        else:  # logspace's loop (RangeFactories.cpp, built without fused multiply-add)
            np.multiply(idx, step, out=vals)
            np.add(vals, start, out=vals)
            np.multiply((steps - 1) - idx, step, out=down)
            np.subtract(end, down, out=down)
        np.copyto(vals, down, where=idx >= half)
        if steps == 1:  # filled with start itself (logspace: base ** start, start a double)
            vals[:] = start if base is None else float(_scalar(raw_start, op, "start"))
        if base is not None:
            # libm's pow, element by element: NumPy's vectorised power (SVML on AVX512)
            # may differ from it in the last bit, where torch's std::pow is libm's
            b = float(base)
            vals[:] = [math.pow(b, v) for v in vals.tolist()]
        if not dtype.is_floating_point and dtype is not dtypes.bool_:
            np.trunc(vals, out=vals)
        if dtype in (dtypes.float16, dtypes.bfloat16):  # c10 builds a Half from a float
            vals = vals.astype(np.float32)
        np.copyto(o[s:e], vals, casting="unsafe")
    return t


@torch_function()
def linspace(start, end, steps: int, *, out=None, dtype: dtypes.dtype | None = None,
             layout=None, device=None, pin_memory: bool | None = None,
             requires_grad: bool | None = False) -> Tensor:
    """``steps`` values from start to end, both included (float32 unless dtype says)."""
    requires_grad = factory_options("linspace", dtype, requires_grad, layout, device, pin_memory)
    if out is not None:
        dtype = out_dtype("linspace", out, dtype)
        refuse_grad("linspace", out)
    t = _spaced("linspace", start, end, steps, dtype or dtypes.float32, None)
    return finish_factory(_into(out, t, "linspace", warn=False) if out is not None else t,
                   requires_grad)


@torch_function()
def logspace(start, end, steps: int, base: float = 10.0, *, out=None,
             dtype: dtypes.dtype | None = None, layout=None, device=None,
             pin_memory: bool | None = None, requires_grad: bool | None = False) -> Tensor:
    """``base`` to the power of linspace(start, end, steps)'s values."""
    requires_grad = factory_options("logspace", dtype, requires_grad, layout, device, pin_memory)
    if out is not None:
        dtype = out_dtype("logspace", out, dtype)
        refuse_grad("logspace", out)
    t = _spaced("logspace", start, end, steps, dtype or dtypes.float32, base)
    return finish_factory(_into(out, t, "logspace", warn=False) if out is not None else t,
                   requires_grad)


__all__ = ["arange", "linspace", "logspace"]
