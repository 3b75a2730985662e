"""Trigonometric and hyperbolic functions, their inverses, and degree/radian conversion.

All of them turn integer and bool inputs into float32 out of place, so their in-place forms
refuse integer tensors ("result type Float can't be cast ..."). What each saves follows
derivatives.yaml: sin, cos, asin ... save their input; tan saves its result. The in-place
inverse hyperbolics (acosh_, asinh_, atanh_) record a node whose backward PyTorch leaves
unimplemented, so differentiating through them raises.
"""
from __future__ import annotations

import math

import numpy as np

from ..creation import empty_like
from ..tensor import Tensor, tensor_method
from ._chunked import run_chunked, store_float64, with_temporaries
from ._pointwise import register, ufunc, unary, unary_
from .nan_sign import libm_nan
from .tensor_iterator import pure_kernel


@register("sin", libm_nan(ufunc(np.sin)), "SinBackward0", saves={"self": None})
def _sin_bw(ctx, g):
    return (g * ctx.saved("self").cos(),)


@register("cos", libm_nan(ufunc(np.cos)), "CosBackward0", saves={"self": None})
def _cos_bw(ctx, g):
    return (g * ctx.saved("self").sin().neg(),)


@register("tan", libm_nan(ufunc(np.tan)), "TanBackward0", saves={"result": None})
def _tan_bw(ctx, g):
    r = ctx.saved("result")
    return (g * (r * r + 1),)


@register("asin", ufunc(np.arcsin), "AsinBackward0", saves={"self": None})
def _asin_bw(ctx, g):
    x = ctx.saved("self")
    return (g * (1 - x * x).rsqrt(),)


@register("acos", ufunc(np.arccos), "AcosBackward0", saves={"self": None})
def _acos_bw(ctx, g):
    x = ctx.saved("self")
    return (g * (1 - x * x).rsqrt().neg(),)


@register("atan", ufunc(np.arctan), "AtanBackward0", saves={"self": None})
def _atan_bw(ctx, g):
    x = ctx.saved("self")
    return (g / (x * x + 1),)


@register("sinh", ufunc(np.sinh), "SinhBackward0", saves={"self": None})
def _sinh_bw(ctx, g):
    return (g * ctx.saved("self").cosh(),)


@register("cosh", ufunc(np.cosh), "CoshBackward0", saves={"self": None})
def _cosh_bw(ctx, g):
    return (g * ctx.saved("self").sinh(),)


@register("asinh", ufunc(np.arcsinh), "AsinhBackward0", saves={"self": None},
          inplace_node="AsinhBackward1")
def _asinh_bw(ctx, g):
    x = ctx.saved("self")
    return (g * (x * x + 1).rsqrt(),)


@register("acosh", ufunc(np.arccosh), "AcoshBackward0", saves={"self": None},
          inplace_node="AcoshBackward1")
def _acosh_bw(ctx, g):
    x = ctx.saved("self")
    return (g * (x * x - 1).rsqrt(),)


@register("atanh", ufunc(np.arctanh), "AtanhBackward0", saves={"self": None},
          inplace_node="AtanhBackward1")
def _atanh_bw(ctx, g):
    x = ctx.saved("self")
    return (g / (1 - x * x),)


def _scale(factor: float):
    return pure_kernel(
        lambda x, out, dtype: np.multiply(x, factor, out=out, dtype=dtype, casting="unsafe"))


@register("deg2rad", _scale(math.pi / 180), "Deg2RadBackward0")
def _deg2rad_bw(ctx, g):
    return (g * (math.pi / 180),)


@register("rad2deg", _scale(180 / math.pi), "Rad2DegBackward0")
def _rad2deg_bw(ctx, g):
    return (g * (180 / math.pi),)


@with_temporaries("sinc", None, np.float64, np.bool_)  # the sine kept in float64
def _sinc_kernel(x, out, dtype, tmp):
    """sin(pi x) / (pi x), and 1 at x = 0 (as torch and np.sinc), in PyTorch's opmath type:
    float64 for float64, else float32 (pi rounded to float32, the sine correctly rounded as
    glibc's sinf gives it, then one rounding to float16/bfloat16). The kernel reads 16-bit
    tensors itself: widened to float64 (reduced.py) sinc(1) would be 3.9e-17, not torch's
    -2.8e-8, the float32 sine of float32 pi over pi."""
    px, sine, zero = tmp
    np.multiply(x, math.pi, out=px, dtype=dtype, casting="unsafe")
    np.equal(px, 0, out=zero)
    # (NumPy's float32 sin is off by 1 ulp.) A float64 sine needs one NumPy loop buffer, for
    # px; a float32 one needed two, px's and the result's, 16 KiB beyond the count.
    np.sin(px, out=sine, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        np.divide(sine, px, out=out, dtype=dtype, casting="unsafe")
    np.copyto(out, 1, where=zero)


_sinc_kernel.rounds_16_bits_itself = True  # (tensor_iterator.call_kernel: not reduced.run)


@register("sinc", _sinc_kernel, "SincBackward0", saves={"self": None})
def _sinc_bw(ctx, g):
    x = ctx.saved("self")
    d = empty_like(x, dtype=g.dtype)  # the slope, computed in float64
    run_chunked(_sinc_slope, "sinc backward", (np.float64,) * 4 + (np.float32, np.bool_),
                (x._array(),), d._array(), g.dtype.np)
    return (g * d,)


def _sinc_slope(x, out, dtype, tmp):
    """d/dx sin(pi x)/(pi x) = (cos(pi x) pi x - sin(pi x)) / (pi x^2), and 0 at x = 0."""
    a, px, num, den, single, zero = tmp
    np.copyto(a, x, casting="unsafe")
    np.multiply(a, np.pi, out=px)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.cos(px, out=num)
        np.multiply(num, px, out=num)
        np.subtract(num, np.sin(px, out=den), out=num)
        np.multiply(px, a, out=den)
        np.divide(num, den, out=num)
    np.equal(a, 0, out=zero)
    np.copyto(num, 0.0, where=zero)
    store_float64(out, num, single)


# --------------------------------------------------------------------------- the methods
@tensor_method
def sin(self) -> Tensor:
    return unary("sin", self)


@tensor_method
def sin_(self) -> Tensor:
    return unary_("sin", self)


@tensor_method
def cos(self) -> Tensor:
    return unary("cos", self)


@tensor_method
def cos_(self) -> Tensor:
    return unary_("cos", self)


@tensor_method
def tan(self) -> Tensor:
    return unary("tan", self)


@tensor_method
def tan_(self) -> Tensor:
    return unary_("tan", self)


@tensor_method
def asin(self) -> Tensor:
    return unary("asin", self)


@tensor_method
def asin_(self) -> Tensor:
    return unary_("asin", self)


@tensor_method
def acos(self) -> Tensor:
    return unary("acos", self)


@tensor_method
def acos_(self) -> Tensor:
    return unary_("acos", self)


@tensor_method
def atan(self) -> Tensor:
    return unary("atan", self)


@tensor_method
def atan_(self) -> Tensor:
    return unary_("atan", self)


@tensor_method
def sinh(self) -> Tensor:
    return unary("sinh", self)


@tensor_method
def sinh_(self) -> Tensor:
    return unary_("sinh", self)


@tensor_method
def cosh(self) -> Tensor:
    return unary("cosh", self)


@tensor_method
def cosh_(self) -> Tensor:
    return unary_("cosh", self)


@tensor_method
def asinh(self) -> Tensor:
    return unary("asinh", self)


@tensor_method
def asinh_(self) -> Tensor:
    return unary_("asinh", self, node_op="asinh_")


@tensor_method
def acosh(self) -> Tensor:
    return unary("acosh", self)


@tensor_method
def acosh_(self) -> Tensor:
    return unary_("acosh", self, node_op="acosh_")


@tensor_method
def atanh(self) -> Tensor:
    return unary("atanh", self)


@tensor_method
def atanh_(self) -> Tensor:
    return unary_("atanh", self, node_op="atanh_")


@tensor_method
def deg2rad(self) -> Tensor:
    return unary("deg2rad", self)


@tensor_method
def deg2rad_(self) -> Tensor:
    return unary_("deg2rad", self)


@tensor_method
def rad2deg(self) -> Tensor:
    return unary("rad2deg", self)


@tensor_method
def rad2deg_(self) -> Tensor:
    return unary_("rad2deg", self)


@tensor_method
def sinc(self) -> Tensor:
    return unary("sinc", self)


@tensor_method
def sinc_(self) -> Tensor:
    return unary_("sinc", self)


# --------------------------------------------------------------------------- NumPy-style aliases
@tensor_method
def arcsin(self) -> Tensor:
    """PyTorch's alias of asin."""
    return self.asin()


@tensor_method
def arcsin_(self) -> Tensor:
    """PyTorch's alias of asin_."""
    return self.asin_()

@tensor_method
def arccos(self) -> Tensor:
    """PyTorch's alias of acos."""
    return self.acos()


@tensor_method
def arccos_(self) -> Tensor:
    """PyTorch's alias of acos_."""
    return self.acos_()

@tensor_method
def arctan(self) -> Tensor:
    """PyTorch's alias of atan."""
    return self.atan()


@tensor_method
def arctan_(self) -> Tensor:
    """PyTorch's alias of atan_."""
    return self.atan_()

@tensor_method
def arcsinh(self) -> Tensor:
    """PyTorch's alias of asinh."""
    return self.asinh()


@tensor_method
def arcsinh_(self) -> Tensor:
    """PyTorch's alias of asinh_."""
    return self.asinh_()

@tensor_method
def arccosh(self) -> Tensor:
    """PyTorch's alias of acosh."""
    return self.acosh()


@tensor_method
def arccosh_(self) -> Tensor:
    """PyTorch's alias of acosh_."""
    return self.acosh_()

@tensor_method
def arctanh(self) -> Tensor:
    """PyTorch's alias of atanh."""
    return self.atanh()


@tensor_method
def arctanh_(self) -> Tensor:
    """PyTorch's alias of atanh_."""
    return self.atanh_()
