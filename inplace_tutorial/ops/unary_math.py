"""More unary math: exp2, expm1, log2, log10, log1p, rsqrt, sgn, square, logit, nan_to_num,
conj_physical, and the aliases absolute and negative (rounding is in rounding.py).

exp2, log2 ... turn integers into float32, so their in-place forms refuse integer tensors.
What each saves follows derivatives.yaml (exp2, expm1 and rsqrt save their result; the logs
save their input; square is pow(self, 2) and saves self and exponent).
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..copy_kernel import blocks
from ..cpu_capability import VECTOR_INSTRUCTIONS
from ..creation import empty_like
from ..dtypes import bool_, finfo
from ..tensor import Tensor, tensor_method
from ._chunked import run_chunked, store_float64, with_temporaries
from ._pointwise import register, ufunc, unary, unary_
from .arg_checks import check_type
from .cpu_lanes import vector_mask
from .nan_sign import libm_nan
from .reduced import CHUNK
from .tensor_iterator import pure_kernel
from .unary import sign_kernel


@register("exp2", libm_nan(ufunc(np.exp2)), "Exp2Backward0", saves={"result": None})
def _exp2_bw(ctx, g):
    return (g * ctx.saved("result") * math.log(2.0),)


@register("expm1", libm_nan(ufunc(np.expm1)), "Expm1Backward0", saves={"result": None})
def _expm1_bw(ctx, g):
    return (g * (ctx.saved("result") + 1),)


@register("log2", libm_nan(ufunc(np.log2), invalid_positive=True), "Log2Backward0",
          saves={"self": None})
def _log2_bw(ctx, g):
    return (g / (ctx.saved("self") * math.log(2.0)),)


@register("log10", libm_nan(ufunc(np.log10), invalid_positive=True), "Log10Backward0",
          saves={"self": None})
def _log10_bw(ctx, g):
    return (g / (ctx.saved("self") * math.log(10.0)),)


@register("log1p", ufunc(np.log1p), "Log1PBackward0", saves={"self": None})
def _log1p_bw(ctx, g):
    return (g / (ctx.saved("self") + 1),)


@pure_kernel
def _rsqrt_kernel(x, out, dtype):
    if out.itemsize == 2 and out.dtype.kind in "fV" and x.dtype == out.dtype:
        rsqrt16(x, out)
        return
    np.sqrt(x, out=out, dtype=dtype, casting="unsafe")
    np.reciprocal(out, out=out)


_rsqrt_kernel.rounds_16_bits_itself = True  # float16/bfloat16: rsqrt16, not reduced.py


def rsqrt16(x: np.ndarray, out: np.ndarray) -> None:
    """float16/bfloat16 rsqrt as PyTorch's two loops round it: the vector loop (AVX2/AVX512,
    one 64-byte vector a step: cpu_lanes.py) computes 1 / sqrt(x) in float32 and rounds
    once; the element loop, and every element in the DEFAULT build, is Half arithmetic:
    sqrt(x) rounded to 16 bits, then 1 / that rounded again (measured over all 65,536
    patterns of both types in the three builds). Chunk-sized counted temporaries; a
    contiguous tensor is one row (its vector part first), without a mask."""
    size = out.itemsize
    if not VECTOR_INSTRUCTIONS:
        _rsqrt_rounded(x, out, None)
    elif out.flags.c_contiguous and x.flags.c_contiguous and x.shape == out.shape:
        flat_x, flat_o = x.reshape(-1), out.reshape(-1)
        vector = out.size - out.size % (64 // size)
        _rsqrt_rounded(flat_x[:vector], flat_o[:vector], True)
        _rsqrt_rounded(flat_x[vector:], flat_o[vector:], None)
    else:
        _rsqrt_rounded(x, out, vector_mask(out.shape, [
            tuple(s // size for s in out.strides), tuple(s // size for s in x.strides)], size))


def _rsqrt_rounded(x: np.ndarray, out: np.ndarray, vector) -> None:
    """``vector``: True (one rounding everywhere), None (two), or a mask of where one."""
    if out.size == 0:
        return
    n = max(1, min(CHUNK, out.size))
    wide_t = Tensor._empty((n,), dtypes.float32, "rsqrt (float32 steps)")
    narrow_t = Tensor._empty((n,), dtypes.int16, "rsqrt (16-bit steps)")
    with np.errstate(divide="ignore", invalid="ignore"):
        for idx in blocks(out.shape, n):
            xs, os_ = x[idx], out[idx]
            root = wide_t._array()[:os_.size].reshape(os_.shape)
            np.sqrt(xs, out=root, dtype=np.float32, casting="unsafe")
            if vector is True:
                np.divide(1, root, out=os_, dtype=np.float32, casting="unsafe")
                continue
            if vector is not None:  # one rounding where the vector loop runs
                narrow = narrow_t._array()[:os_.size].view(out.dtype).reshape(os_.shape)
                np.divide(1, root, out=narrow, dtype=np.float32, casting="unsafe")
            np.copyto(os_, root, casting="unsafe")  # sqrt rounded to 16 bits ...
            np.divide(1, os_, out=os_, dtype=np.float32, casting="unsafe")  # ... then 1 / it
            if vector is not None:
                np.copyto(os_, narrow, where=vector[idx])


@register("rsqrt", _rsqrt_kernel, "RsqrtBackward0", saves={"result": None})
def _rsqrt_bw(ctx, g):
    r = ctx.saved("result")
    return (g * r * r * r * -0.5,)


@register("sgn", sign_kernel, "SgnBackward0", float_out=False,
          saves={"self": None, "result": None})
def _sgn_bw(ctx, g):
    return (g * 0,)  # sgn_backward is zero for real inputs (sgn is flat away from 0)


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


def _nan_to_num_kernel(nan, posinf, neginf):
    @pure_kernel
    def kernel(x, out, dtype):
        if out is not x:
            np.copyto(out, x, casting="unsafe")
        if np.dtype(dtype).kind == "f":
            run_chunked(_replace_non_finite(0.0 if nan is None else nan, posinf, neginf),
                        "nan_to_num", (np.bool_,) * 3, (), out, dtype)
    return kernel


def _replace_non_finite(nan, posinf, neginf):
    """np.nan_to_num(out, copy=False) with its three masks in the workspace: all three are
    found before any cell is replaced (a nan replaced by inf stays inf), as NumPy does."""
    def body(out, dtype, tmp):
        is_nan, pos, neg = tmp
        big = np.finfo(out.dtype)
        np.isnan(out, out=is_nan)
        np.isinf(out, out=pos)
        np.signbit(out, out=neg)
        np.logical_and(pos, neg, out=neg)  # -inf
        np.logical_xor(pos, neg, out=pos)  # +inf
        np.copyto(out, nan, where=is_nan)
        np.copyto(out, big.max if posinf is None else posinf, where=pos)
        np.copyto(out, big.min if neginf is None else neginf, where=neg)
    return body


@register("nan_to_num", _nan_to_num_kernel(None, None, None), "NanToNumBackward0",
          float_out=False, saves={"self": None})
def _nan_to_num_bw(ctx, g):
    x = ctx.saved("self")
    finite = empty_like(x, dtype=bool_)
    np.isfinite(x._array(), out=finite._array())
    return (g * finite,)


@register("conj_physical_", lambda x, out, dtype: None, "ConjPhysicalBackward1",
          float_out=False)
def _conj_physical_bw(ctx, g):
    return (g,)


# --------------------------------------------------------------------------- the methods
@tensor_method
def exp2(self) -> Tensor:
    return unary("exp2", self)


@tensor_method
def exp2_(self) -> Tensor:
    return unary_("exp2", self)


@tensor_method
def expm1(self) -> Tensor:
    return unary("expm1", self)


@tensor_method
def expm1_(self) -> Tensor:
    return unary_("expm1", self)


@tensor_method
def log2(self) -> Tensor:
    return unary("log2", self)


@tensor_method
def log2_(self) -> Tensor:
    return unary_("log2", self)


@tensor_method
def log10(self) -> Tensor:
    return unary("log10", self)


@tensor_method
def log10_(self) -> Tensor:
    return unary_("log10", self)


@tensor_method
def log1p(self) -> Tensor:
    return unary("log1p", self)


@tensor_method
def log1p_(self) -> Tensor:
    return unary_("log1p", self)


@tensor_method
def rsqrt(self) -> Tensor:
    return unary("rsqrt", self)


@tensor_method
def rsqrt_(self) -> Tensor:
    return unary_("rsqrt", self)


@tensor_method
def sgn(self) -> Tensor:
    return unary("sgn", self)


@tensor_method
def sgn_(self) -> Tensor:
    return unary_("sgn", self)


@tensor_method
def square(self) -> Tensor:
    """pow(self, 2), with pow's node (PowBackward0) and saved exponent."""
    return self.pow(2)


@tensor_method
def square_(self) -> Tensor:
    return self.pow_(2)


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


def _nan_args(name: str, nan, posinf, neginf) -> None:
    for arg, value in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        if value is not None:
            check_type(name, arg, value, float, position=None)


def _nan_kernel(self: Tensor, nan, posinf, neginf):
    """The kernel with the defaults filled in from self's dtype: a float16/bfloat16 kernel
    computes in a wider type, whose largest finite value would round back to inf."""
    if self.dtype.is_floating_point:
        limits = finfo(self.dtype)
        posinf = limits.max if posinf is None else posinf
        neginf = limits.min if neginf is None else neginf
    return _nan_to_num_kernel(nan, posinf, neginf)


@binding()
@tensor_method
def nan_to_num(self, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    _nan_args("nan_to_num", nan, posinf, neginf)
    return unary("nan_to_num", self, kernel=_nan_kernel(self, nan, posinf, neginf))


@binding()
@tensor_method
def nan_to_num_(self, nan: float = 0.0, posinf: float | None = None,
                neginf: float | None = None) -> Tensor:
    _nan_args("nan_to_num_", nan, posinf, neginf)
    return unary_("nan_to_num", self, kernel=_nan_kernel(self, nan, posinf, neginf))


@tensor_method
def conj_physical(self) -> Tensor:
    """The complex conjugate; a real tensor is returned as it is (the same object)."""
    return self


@tensor_method
def conj_physical_(self) -> Tensor:
    return unary_("conj_physical_", self)


@tensor_method
def absolute(self) -> Tensor:
    """PyTorch's alias of abs."""
    return self.abs()


@tensor_method
def absolute_(self) -> Tensor:
    """PyTorch's alias of abs_."""
    return self.abs_()


@tensor_method
def negative_(self) -> Tensor:
    """PyTorch's alias of neg_."""
    return self.neg_()
