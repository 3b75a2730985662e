"""logit: log(p / (1 - p)), with eps= clamping p into [eps, 1 - eps] first.

Its kernel rounds as PyTorch's do (the clamp in the result's type, 16-bit intermediates for
float16/bfloat16, MKL's NaN bits for contiguous float32/float64); LogitBackward0 saves self
and computes 1 / (x (1 - x)) in float64: no gradient where eps clipped, NaN outside [0, 1]
without eps. It is a table-driven unary op like those of unary_math.py (_pointwise.py).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..creation import empty_like
from ..tensor import Tensor, tensor_method
from ._chunked import run_chunked, store_float64, with_temporaries
from ._pointwise import register, unary, unary_
from .arg_checks import check_type
from .tensor_iterator import pure_kernel


def _logit_kernel(eps, result):
    # PyTorch clamps with x < lo ? lo : (x > hi ? hi : x), lo = eps and hi = 1 - lo in the
    # result's type (float32: 1 - 0.6f is 0.39999998f, not 0.4f). A negative eps takes the
    # kernel without a clamp, a NaN one clamps nothing (every comparison is false); past 0.5
    # (lo > hi) a number below lo becomes lo, any other hi (np.clip would give hi to all).
    t = dtypes.float_result(result).np
    wide = t in (np.float32, np.float64)
    clamps = eps is not None and eps >= 0
    if clamps:
        lo = np.float64(eps) if t == np.float64 else np.float32(eps).astype(t)
        hi = (np.float64(1) if t == np.float64 else np.float32(1)) - lo
        lo, hi = float(lo), float(hi.astype(t))

    @pure_kernel
    def kernel(x, out, dtype):
        if not clamps:
            np.copyto(out, x, casting="unsafe")
        elif lo <= hi:
            np.clip(x, lo, hi, out=out, dtype=dtype, casting="unsafe")
        else:
            _crossed_clamp(x, lo, hi, out=out, dtype=dtype)
        mkl = wide and x.strides == out.strides and (out.flags.c_contiguous
                                                     or out.flags.f_contiguous)
        _log_odds(out, out, dtype, np.dtype(t), mkl)
    return kernel


@with_temporaries("logit", np.bool_)
def _crossed_clamp(x, lo, hi, out, dtype, tmp):
    """x < lo ? lo : (x > hi ? hi : x) for lo > hi: lo below lo, hi from lo up, NaN kept."""
    (below,) = tmp
    np.less(x, lo, out=below)
    np.minimum(x, hi, out=out, dtype=dtype, casting="unsafe")
    np.copyto(out, lo, where=below, casting="unsafe")


def _log_odds(p: np.ndarray, out: np.ndarray, dtype, result: np.dtype, mkl: bool) -> None:
    """log(p / (1 - p)), in place on the clipped input, rounded as PyTorch's kernels round:
    a float16/bfloat16 ``1 - p`` and the ratio are 16-bit numbers before the log (Half
    arithmetic, and MKL's loop stores the ratio in the tensor's type). ``mkl``: a float32 or
    float64 tensor iterated contiguously, which PyTorch hands to MKL (VmlLog) and whose NaN
    bits are modelled: a NaN ratio passes as it is (a NaN p, quieted by the division, or
    inf / -inf's), the log of a negative ratio is the positive NaN (NumPy's float32 log gives
    the canonical NaN, the CPU's division -NaN). The element and vector loops of other
    layouts leave bits that depend on the build (glibc, SLEEF): not modelled."""
    if result.itemsize == 2:
        _log_odds_16(p, out=out, dtype=dtype, result=result)
    else:
        _log_odds_wide(p, mkl, out=out, dtype=dtype)


@with_temporaries("logit", None, None, np.bool_, np.bool_)
def _log_odds_wide(p, mkl, out, dtype, tmp):
    ratio, before, nan, negative = tmp
    with np.errstate(divide="ignore", invalid="ignore"):
        np.divide(p, np.subtract(1, p, out=ratio), out=out)
        if mkl:
            np.copyto(before, out)
            np.isnan(before, out=nan)
            np.less(before, 0, out=negative)
        np.log(out, out=out)
    if mkl:
        np.copyto(out, before, where=nan)
        np.copyto(out, np.nan, where=negative)  # (NumPy's nan: the positive quiet NaN)


def _log_odds_16(p, out, dtype, result):
    _log_odds_rounded(p, result, out=out, dtype=dtype)


@with_temporaries("logit", None, np.float16)
def _log_odds_rounded(p, result, out, dtype, tmp):
    """The 16-bit steps: each intermediate rounded to the tensor's type through a 16-bit
    temporary (float16 here stands for either: both are 2 bytes, viewed as ``result``)."""
    ratio, narrow = tmp
    narrow = narrow.view(result)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        np.subtract(1, p, out=ratio)
        np.copyto(narrow, ratio, casting="unsafe")
        np.copyto(ratio, narrow, casting="unsafe")
        np.divide(p, ratio, out=out)
        np.copyto(narrow, out, casting="unsafe")
        np.copyto(out, narrow, casting="unsafe")
        np.log(out, out=out)


@register("logit", _logit_kernel(None, dtypes.float32), "LogitBackward0", saves={"self": None})
def _logit_bw(ctx, g):
    x = ctx.saved("self")
    d = empty_like(x, dtype=g.dtype)  # 1 / (x (1 - x)), computed in float64 as torch does
    run_chunked(_logit_slope(ctx.attr("eps")), "logit backward", _F64_TEMPS, (x._array(),),
                d._array(), g.dtype.np)
    return (g * d,)


_F64_TEMPS = (np.float64, np.float64, np.float32, np.bool_, np.bool_)


def _logit_slope(eps):
    def body(x, out, dtype, tmp):
        a, d, single, low, high = tmp
        np.copyto(a, x, casting="unsafe")
        with np.errstate(divide="ignore", invalid="ignore"):
            np.subtract(1.0, a, out=d)
            np.multiply(a, d, out=d)
            np.divide(1.0, d, out=d)
        unclamped = eps is None or eps < 0  # PyTorch's eps < 0 branch (None is -1)
        if unclamped:  # outside [0, 1]: nan
            np.less(a, 0, out=low)
            np.greater(a, 1, out=high)
        else:  # clipped away: no gradient (a NaN eps clips nothing)
            np.less(a, eps, out=low)
            np.greater(a, 1 - eps, out=high)
        np.logical_or(low, high, out=low)
        np.copyto(d, np.nan if unclamped else 0.0, where=low)
        store_float64(out, d, single)
    return body


# --------------------------------------------------------------------------- the methods
def _eps(name: str, eps) -> None:
    if eps is not None:
        check_type(name, "eps", eps, float, position=1)


@binding()
@tensor_method
def logit(self, eps: float | None = None) -> Tensor:
    _eps("logit", eps)
    return unary("logit", self, kernel=_logit_kernel(eps, self.dtype), eps=eps)


@binding()
@tensor_method
def logit_(self, eps: float | None = None) -> Tensor:
    _eps("logit_", eps)
    return unary_("logit", self, kernel=_logit_kernel(eps, self.dtype), eps=eps)
