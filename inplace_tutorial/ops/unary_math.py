"""More unary math: exp2, expm1, log2, log10, log1p, rsqrt, sgn, square, conj_physical, and
the aliases absolute and negative (rounding is in rounding.py, logit in logit.py, nan_to_num
in nan_to_num.py).

exp2, log2 ... turn integers into float32, so their in-place forms refuse integer tensors.
What each saves follows derivatives.yaml (exp2, expm1 and rsqrt save their result; the logs
save their input; square is pow(self, 2) and saves self and exponent).
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..copy_kernel import blocks
from ..cpu_capability import VECTOR_INSTRUCTIONS
from ..tensor import Tensor, tensor_method
from ._pointwise import register, ufunc, unary, unary_
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
