"""GELU, the activation of Transformer MLPs: x * Phi(x), Phi the normal CDF.

``approximate='none'`` uses erf, which NumPy lacks: ``_erf_into`` evaluates W. J. Cody's
rational approximations (Math. Comp. 1969; double precision; the coefficients are erf.py's)
in the input's dtype, with every temporary from the allocator. ``approximate='tanh'`` is
GPT-2's formula. GeluBackward0 saves the input (self), so changing it in place before
backward raises; GELU's output is free to overwrite.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..tensor import Tensor
from ._chunked import run_chunked
from ._gelu16 import gelu16
from .erf import _A, _B, _C, _D, _INV_SQRT_PI, _P, _Q, _ratio  # Cody's erf pieces

_SQRT_2 = math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_TANH_K = math.sqrt(2.0 / math.pi)
_TANH_C = 0.044715


def _buf(shape, dtype, op, keep: list) -> np.ndarray:
    """A counted buffer's array; its Tensor goes into ``keep`` so the bytes stay counted
    (the allocator frees a storage when its Tensor goes, not when a NumPy view does)."""
    t = Tensor._empty(shape, dtype, op)
    keep.append(t)
    return t._array()


def _erf_into(z: np.ndarray, out: np.ndarray, dtype, op: str) -> None:
    """out = erf(z), every piece evaluated over the whole array and kept where it applies."""
    keep: list = []
    y, t = _buf(z.shape, dtype, op + " (erf)", keep), _buf(z.shape, dtype, op + " (erf)", keep)
    r, tmp = _buf(z.shape, dtype, op + " (erf)", keep), _buf(z.shape, dtype, op + " (erf)", keep)
    far = _buf(z.shape, dtypes.bool_, op + " (erf)", keep)
    np.abs(z, out=y)
    # |z| <= 0.46875: erf = z * A(z^2) / B(z^2)
    np.multiply(z, z, out=t)
    _ratio(_A, _B, t, out, tmp)
    out *= z
    # 0.46875 < |z| <= 4: erfc = exp(-z^2) C(|z|) / D(|z|)
    np.clip(y, 0.46875, 4.0, out=t)
    _ratio(_C, _D, t, r, tmp)
    np.greater(y, 4.0, out=far)
    # |z| > 4: erfc = exp(-z^2) / |z| * (1/sqrt(pi) - P(1/z^2) / (z^2 Q(1/z^2)))
    np.maximum(y, 4.0, out=t)
    np.multiply(t, t, out=t)
    np.reciprocal(t, out=t)
    _ratio(_P, _Q, t, tmp, y)  # y is free for a moment: it is recomputed below
    tmp *= t
    np.subtract(_INV_SQRT_PI, tmp, out=tmp)
    np.abs(z, out=y)
    np.maximum(y, 4.0, out=t)
    tmp /= t
    np.copyto(r, tmp, where=far)
    np.multiply(y, y, out=t)
    np.negative(t, out=t)
    np.exp(t, out=t)
    r *= t  # erfc(|z|) for |z| > 0.46875
    np.subtract(1.0, r, out=r)
    np.copysign(r, z, out=r)
    np.greater(y, 0.46875, out=far)
    np.copyto(out, r, where=far)


def _check(input: Tensor, approximate: str) -> None:
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    if input.dtype.category != 2:
        raise NotImplementedError(f"\"GeluKernelImpl\" not implemented for "
                                  f"'{input.dtype.short}'")


def _tanh_inner_into(x: np.ndarray, o: np.ndarray) -> None:
    """o = tanh(sqrt(2/pi) (x + 0.044715 x^3)), written in place (forward and backward share it)."""
    np.multiply(x, x, out=o)
    o *= _TANH_C
    o += 1.0
    o *= x
    o *= _TANH_K
    np.tanh(o, out=o)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """x * Phi(x); 'tanh': 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    _check(input, approximate)
    x = input._array()
    out = Tensor._empty(input._shape, input.dtype, "gelu")
    o = out._array()
    keep: list = []
    if approximate == "none" and input.dtype in (dtypes.float16, dtypes.bfloat16):
        gelu16(input, out)  # float32 opmath, rounded once: _gelu16.py
        return record("gelu", out, {"self": input}, approximate=approximate)
    if approximate == "none":
        z = _buf(x.shape, input.dtype, "gelu (x/sqrt2)", keep)
        np.divide(x, _SQRT_2, out=z)
        _erf_into(z, o, input.dtype, "gelu")
    else:
        _tanh_inner_into(x, o)
    o += 1.0
    o *= x
    o *= 0.5
    return record("gelu", out, {"self": input}, approximate=approximate)


@derivative("gelu", "GeluBackward0", saves={"self": None})
def _gelu_bw(ctx, g):
    xt = ctx.saved("self")
    x = xt._array()
    gx = Tensor._empty(xt._shape, g.dtype, "gelu_backward")
    o = gx._array()
    keep: list = []
    if ctx.attr("approximate") == "none":
        # Phi(x) + x * phi(x)
        t = _buf(x.shape, xt.dtype, "gelu_backward (tmp)", keep)
        np.divide(x, _SQRT_2, out=t)
        _erf_into(t, o, xt.dtype, "gelu_backward")
        o += 1.0
        o *= 0.5
        np.multiply(x, x, out=t)
        t *= -0.5
        np.exp(t, out=t)
        t *= x
        t *= _INV_SQRT_2PI
        o += t
    else:
        # chunk by chunk through the workspace: PyTorch's fused kernel makes no temporaries,
        # and each chunk's passes stay in cache (the same bits: every step is element-wise)
        run_chunked(_gelu_tanh_bw_body, "gelu_backward", (None, None), (x, g._array()), o,
                    o.dtype)
        return (gx,)
    o *= g._array()
    return (gx,)


def _gelu_tanh_bw_body(x, g, out, dtype, tmp) -> None:
    """th = tanh(k (x + c x^3)); g (0.5 (1 + th) + 0.5 x (1 - th^2) k (1 + 3 c x^2))."""
    o, (t, t2) = out, tmp
    _tanh_inner_into(x, o)
    np.multiply(o, o, out=t)
    np.subtract(1.0, t, out=t)
    t *= x
    t *= 0.5 * _TANH_K
    o += 1.0
    o *= 0.5
    np.multiply(x, x, out=t2)
    t2 *= 3 * _TANH_C
    t2 += 1.0
    t *= t2
    o += t
    o *= g
