"""The error function and its relatives: erf, erfc = 1 - erf, erfinv (erf's inverse).

NumPy has no erf, so ``erf_into`` evaluates W. J. Cody's rational approximations (Math. Comp.
1969, double precision) in float64, whatever the tensor's dtype, and the result is rounded
once into it. erfc is computed directly for large |x| (1 - erf would cancel to 0 there).
erfinv follows PyTorch's ``calc_erfinv``: a rational first guess, then two Newton steps.
All three save the input (ErfBackward0, ErfcBackward0, ErfinvBackward0: derivatives.yaml),
so changing it in place before backward raises. Integers and bools give float32; their
in-place forms refuse integer tensors (the float result can't be cast back).
"""
from __future__ import annotations

import math

import numpy as np

from ..tensor import Tensor, tensor_method
from ._chunked import with_temporaries
from ._pointwise import register, unary, unary_

# Cody's coefficients: erf on |x| <= 0.46875; erfc on (0.46875, 4]; erfc on (4, inf)
_A = (1.85777706184603153e-1, 3.16112374387056560e0, 1.13864154151050156e2,
      3.77485237685302021e2, 3.20937758913846947e3)
_B = (1.0, 2.36012909523441209e1, 2.44024637934444173e2, 1.28261652607737228e3,
      2.84423683343917062e3)
_C = (2.15311535474403846e-8, 5.64188496988670089e-1, 8.88314979438837594e0,
      6.61191906371416295e1, 2.98635138197400131e2, 8.81952221241769090e2,
      1.71204761263407058e3, 2.05107837782607147e3, 1.23033935479799725e3)
_D = (1.0, 1.57449261107098347e1, 1.17693950891312499e2, 5.37181101862009858e2,
      1.62138957456669019e3, 3.29079923573345963e3, 4.36261909014324716e3,
      3.43936767414372164e3, 1.23033935480374942e3)
_P = (1.63153871373020978e-2, 3.05326634961232344e-1, 3.60344899949804439e-1,
      1.25781726111229246e-1, 1.60837851487422766e-2, 6.58749161529837803e-4)
_Q = (1.0, 2.56852019228982242e0, 1.87295284992346047e0, 5.27905102951428412e-1,
      6.05183413124413191e-2, 2.33520497626869185e-3)
_INV_SQRT_PI = 1.0 / math.sqrt(math.pi)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _ratio(num, den, t, out, tmp) -> None:
    """out = num(t) / den(t), two polynomials by Horner's rule (highest power first)."""
    out.fill(num[0])
    for c in num[1:]:
        out *= t
        out += c
    tmp.fill(den[0])
    for c in den[1:]:
        tmp *= t
        tmp += c
    out /= tmp


def erf_into(x, out, tmp, complement: bool = False) -> None:
    """out = erf(x), or erfc(x) if ``complement``, in float64; ``tmp``: five float64 arrays
    and a bool one of x's shape. Every piece is evaluated everywhere, kept where it applies."""
    y, t, r, u, v, mask = tmp
    with np.errstate(all="ignore"):  # (pieces outside their range may overflow: not kept)
        np.abs(x, out=y)
        # |x| <= 0.46875: erf = x A(x^2) / B(x^2)
        np.multiply(x, x, out=t)
        _ratio(_A, _B, t, out, u)
        out *= x
        if complement:
            np.subtract(1.0, out, out=out)
        # 0.46875 < |x| <= 4: erfc(|x|) = exp(-x^2) C(|x|) / D(|x|)
        np.clip(y, 0.46875, 4.0, out=t)
        _ratio(_C, _D, t, r, u)
        # |x| > 4: erfc(|x|) = exp(-x^2) / |x| (1/sqrt(pi) - z P(z) / Q(z)), z = 1/x^2
        np.maximum(y, 4.0, out=t)
        np.multiply(t, t, out=t)
        np.reciprocal(t, out=t)
        _ratio(_P, _Q, t, v, u)
        v *= t
        np.subtract(_INV_SQRT_PI, v, out=v)
        np.maximum(y, 4.0, out=u)
        v /= u
        np.greater(y, 4.0, out=mask)
        np.copyto(r, v, where=mask)
        # exp(-x^2) as exp(-h^2) exp(-(y - h)(y + h)), h = y rounded down to 1/16: h^2 is
        # exact, so the rounding of x^2 (large when x^2 is) never reaches the exponent
        np.minimum(y, 30.0, out=v)  # (erfc(30) is 0 in float64; inf stays out of the split)
        np.multiply(v, 16.0, out=t)
        np.floor(t, out=t)
        t /= 16.0
        np.subtract(v, t, out=u)
        v += t
        u *= v
        np.multiply(t, t, out=t)
        np.negative(t, out=t)
        np.exp(t, out=t)
        np.negative(u, out=u)
        np.exp(u, out=u)
        r *= t
        r *= u  # r = erfc(|x|) where |x| > 0.46875
        if complement:  # erfc(-y) = 2 - erfc(y)
            np.less(x, 0.0, out=mask)
            np.subtract(2.0, r, out=r, where=mask)
        else:  # erf(x) = sign(x) (1 - erfc(|x|))
            np.subtract(1.0, r, out=r)
            np.copysign(r, x, out=r)
        np.greater(y, 0.46875, out=mask)
        np.copyto(out, r, where=mask)


_TEMPS = (np.float64,) * 7 + (np.bool_,)  # x and the result in float64, erf_into's own six


@with_temporaries("erf", *_TEMPS)
def _erf_body(x, out, dtype, tmp):
    x64, r64, *rest = tmp
    np.copyto(x64, x, casting="unsafe")
    erf_into(x64, r64, rest)
    np.copyto(out, r64, casting="unsafe")


@with_temporaries("erfc", *_TEMPS)
def _erfc_body(x, out, dtype, tmp):
    x64, r64, *rest = tmp
    np.copyto(x64, x, casting="unsafe")
    erf_into(x64, r64, rest, complement=True)
    np.copyto(out, r64, casting="unsafe")


# PyTorch's calc_erfinv: a rational guess in y^2 for |y| <= 0.7, in sqrt(-log((1 - |y|) / 2))
# beyond, then two Newton steps on erf(x) - y
_EA = (-0.140543331, 0.914624893, -1.645349621, 0.886226899)
_EB = (0.012229801, -0.329097515, 1.442710462, -2.118377725, 1.0)
_EC = (1.641345311, 3.429567803, -1.624906493, -1.970840454)
_ED = (1.637067800, 3.543889200, 1.0)


@with_temporaries("erfinv", *(np.float64,) * 6, *_TEMPS[2:])
def _erfinv_body(y_in, out, dtype, tmp):
    y, x, z, num, den, e, *rest = tmp  # rest: erf_into's temporaries
    mask = rest[-1]
    np.copyto(y, y_in, casting="unsafe")
    with np.errstate(all="ignore"):
        np.multiply(y, y, out=z)  # |y| <= 0.7
        _ratio(_EA, _EB, z, x, den)
        x *= y
        np.abs(y, out=z)  # |y| > 0.7
        np.subtract(1.0, z, out=z)
        z /= 2.0
        np.log(z, out=z)
        np.negative(z, out=z)
        np.sqrt(z, out=z)
        _ratio(_EC, _ED, z, num, den)
        np.copysign(num, y, out=num)
        np.abs(y, out=z)
        np.greater(z, 0.7, out=mask)
        np.copyto(x, num, where=mask)
        for _ in range(2):  # x -= (erf(x) - y) / (2/sqrt(pi) exp(-x^2))
            erf_into(x, e, rest)
            e -= y
            np.multiply(x, x, out=num)
            np.negative(num, out=num)
            np.exp(num, out=num)
            num *= _TWO_OVER_SQRT_PI
            e /= num
            x -= e
        # |y| = 1 gives +-inf, |y| > 1 NaN (the steps above made NaN of both)
        np.abs(y, out=z)
        np.equal(z, 1.0, out=mask)
        np.copyto(x, np.inf, where=mask)
        np.copysign(x, y, out=x, where=mask)
    np.copyto(out, x, casting="unsafe")


@register("erf", _erf_body, "ErfBackward0", saves={"self": None})
def _erf_bw(ctx, g):  # 2/sqrt(pi) exp(-x^2)
    x = ctx.saved("self")
    return (g * ((-(x * x)).exp() * _TWO_OVER_SQRT_PI),)


@register("erfc", _erfc_body, "ErfcBackward0", saves={"self": None})
def _erfc_bw(ctx, g):  # -2/sqrt(pi) exp(-x^2)
    x = ctx.saved("self")
    return (g * ((-(x * x)).exp() * -_TWO_OVER_SQRT_PI),)


@register("erfinv", _erfinv_body, "ErfinvBackward0", saves={"self": None})
def _erfinv_bw(ctx, g):  # sqrt(pi)/2 exp(erfinv(x)^2)
    x = ctx.saved("self")
    r = x.erfinv()
    return (g * ((r * r).exp() * (math.sqrt(math.pi) / 2)),)


@tensor_method
def erf(self) -> Tensor:
    return unary("erf", self)


@tensor_method
def erf_(self) -> Tensor:
    return unary_("erf", self)


@tensor_method
def erfc(self) -> Tensor:
    return unary("erfc", self)


@tensor_method
def erfc_(self) -> Tensor:
    return unary_("erfc", self)


@tensor_method
def erfinv(self) -> Tensor:
    return unary("erfinv", self)


@tensor_method
def erfinv_(self) -> Tensor:
    return unary_("erfinv", self)
