"""torch.arange (PyTorch's RangeFactories.cpp): evenly spaced values from a start, an end and a
step, computed chunk by chunk as float64 positions so no uncounted n-sized temporary appears.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from . import dtypes
from .arg_parser import argument_error, is_number
from .call_site import call_keywords
from .creation import _check_options, _finish, out_dtype, refuse_grad, resize_
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
    requires_grad = _check_options("arange", dtype, requires_grad, layout, device, pin_memory)
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
    if not all(math.isfinite(v) for v in (start, end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is None:
        is_int = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        dtype = dtypes.int64 if is_int else dtypes.float32
    n = max(0, math.ceil((end - start) / step))
    t = Tensor._empty((n,), dtype, "arange")
    o = t._array()
    if dtype.np == np.float64:  # the positions 0, 1, 2 ... made in place (exact below 2**53)
        o.fill(1.0)
        o[:1] = 0.0
        np.cumsum(o, out=o)
        np.multiply(o, step, out=o)
    else:  # float64 positions a chunk at a time: no n-sized temporary behind the count
        for s in range(0, n, _ARANGE_CHUNK):
            e = min(n, s + _ARANGE_CHUNK)
            np.multiply(np.arange(s, e, dtype=np.float64), step, out=o[s:e], casting="unsafe")
    o += start
    if out is not None:
        return _finish(_into(out, t), requires_grad)
    return _finish(t, requires_grad)


def _into(out: Tensor, values: Tensor) -> Tensor:
    """A range into out=: resized (to 1-D) only if its number of elements differs, with
    RangeFactories.cpp's warning when it had elements; else kept as it is (shape and strides),
    the values written in its element order."""
    n = values.numel()
    if out.numel() != n:
        if out.numel():
            shape = ", ".join(map(str, out._shape))
            warnings.warn(
                f"The number of elements in the out tensor of shape [{shape}] is "
                f"{out.numel()} which does not match the computed number of elements {n}. "
                "Note that this may occur as a result of rounding error. The out tensor will "
                f"be resized to a tensor of shape ({n},).", UserWarning, stacklevel=4)
        resize_(out, (n,))
    out._vc.write(lambda: np.copyto(out._array(), values._array().reshape(out._shape)), "arange")
    return out


__all__ = ["arange"]
