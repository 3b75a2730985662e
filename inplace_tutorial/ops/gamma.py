"""The gamma family: lgamma = log|Gamma(x)|, digamma = lgamma', polygamma(n) = digamma's n-th
derivative, and mvlgamma(p), the log of the multivariate gamma function.

All computed in float64, whatever the tensor's dtype, and rounded once into it. lgamma moves
its argument past 15 with Gamma(s + 1) = s Gamma(s) and then sums Stirling's asymptotic series;
negative arguments go through the reflection formula Gamma(x) Gamma(1 - x) = pi / sin(pi x).
digamma and trigamma (polygamma(1)) follow PyTorch's ``calc_digamma``/``calc_trigamma`` (the
same recurrence to 10 or 6, the same asymptotic series); polygamma(n >= 2) is
(-1)^(n+1) n! zeta(n + 1, x) (polygamma.py, with mvlgamma). Each op's backward is the next
function up the ladder (LgammaBackward0: digamma; DigammaBackward0: polygamma(1)), so each
saves self.
"""
from __future__ import annotations

import math

import numpy as np

from ..tensor import Tensor, tensor_method
from ._chunked import with_temporaries
from ._pointwise import register, unary, unary_

_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)
# Stirling's series for lgamma: B_2k / (2k (2k - 1)), k = 7 down to 1 (Horner's order)
_STIRLING = (1 / 156, -691 / 360360, 1 / 1188, -1 / 1680, 1 / 1260, -1 / 360, 1 / 12)


def _zeta_minus_one(k: int) -> float:
    """zeta(k) - 1 = 2^-k + 3^-k + ...: 98 terms summed exactly rounded (math.fsum), the
    rest by Euler-Maclaurin's formula (error below 1e-20)."""
    n = 100.0
    tail = (n ** (1 - k) / (k - 1) + n ** -k / 2 + k * n ** (-k - 1) / 12
            - k * (k + 1) * (k + 2) * n ** (-k - 3) / 720)
    return math.fsum([j ** -float(k) for j in range(2, 100)] + [tail])


# lgamma(2 + z) = (1 - euler_gamma) z + sum_k (-1)^k (zeta(k) - 1) / k z^k, for |z| < 2;
# used for |z| <= 1/2, where 30 terms leave less than 1e-18 (Horner's order: highest first)
_EULER_GAMMA = 0.57721566490153286061
_TAYLOR_2 = tuple((-1) ** k * _zeta_minus_one(k) / k for k in range(30, 1, -1)) + (
    1.0 - _EULER_GAMMA, 0.0)


def _lgamma_positive(s, out, acc, z, u, big, m) -> None:
    """out = lgamma(s) for s > 0 (s is overwritten). From 15 on, Stirling's series; below,
    s is brought into [1.5, 2.5) by Gamma(s) = (s - 1) Gamma(s - 1) (the factors gathered in
    ``acc``) and lgamma(2 + z) summed as its Taylor series; below 1.5 it is lgamma(s + 1) -
    log(s) = lgamma(2 + (s - 1)) - log1p(s - 1), and below 0.5 once more - log(s)."""
    # Stirling: (s - 1/2) log s - s + log(2 pi) / 2 + the series in 1/s (s >= 15)
    np.maximum(s, 15.0, out=z)
    np.reciprocal(z, out=acc)
    np.multiply(acc, acc, out=u)
    _horner(_STIRLING, u, out)
    out *= acc
    np.log(z, out=u)
    np.subtract(z, 0.5, out=acc)
    u *= acc
    u -= z
    u += _HALF_LOG_2PI
    out += u
    np.greater_equal(s, 15.0, out=big)
    np.copyto(u, out)  # (kept aside: the Taylor branch reuses out)
    # s < 15: the shift down, then the Taylor series around 2
    np.copyto(s, 2.0, where=big)
    acc.fill(1.0)
    for _ in range(13):
        np.greater_equal(s, 2.5, out=m)
        np.subtract(s, 1.0, out=s, where=m)
        np.multiply(acc, s, out=acc, where=m)
    np.subtract(s, 2.0, out=z)
    np.less(s, 1.5, out=m)
    np.subtract(s, 1.0, out=z, where=m)
    np.less(s, 0.5, out=m)
    np.copyto(z, s, where=m)
    _horner(_TAYLOR_2, z, out)
    np.log(acc, out=acc)  # s >= 1.5: + log of the factors taken out
    np.less(s, 1.5, out=m)
    np.log1p(z, out=acc, where=m)
    np.negative(acc, out=acc, where=m)
    out += acc
    np.less(s, 0.5, out=m)
    np.log(s, out=acc)
    np.subtract(out, acc, out=out, where=m)
    np.copyto(out, u, where=big)


def lgamma_into(x, out, tmp) -> None:
    """out = lgamma(x) in float64; ``tmp``: four float64 arrays and two bool ones (or more)."""
    s, acc, t, u, m, m2, *_ = tmp
    with np.errstate(all="ignore"):
        np.subtract(1.0, x, out=s)  # x < 0: the reflection needs lgamma(1 - x)
        np.greater(x, 0.0, out=m)
        np.copyto(s, x, where=m)
        _lgamma_positive(s, out, acc, t, u, m, m2)
        # x < 0: lgamma(x) = log(pi / |sin(pi x)|) - lgamma(1 - x); sin(pi x) is taken at
        # x - rint(x) (exact), where pi times it loses nothing
        np.rint(x, out=t)
        np.subtract(x, t, out=t)
        t *= math.pi
        np.sin(t, out=t)
        np.abs(t, out=t)
        np.divide(math.pi, t, out=t)  # (inf at the poles: x a negative integer)
        np.log(t, out=t)
        np.less(x, 0.0, out=m)
        np.subtract(t, out, out=out, where=m)
        # the poles 0, -0 and the infinities: +inf (as C's lgamma)
        np.equal(x, 0.0, out=m)
        np.isinf(x, out=m2)
        np.logical_or(m, m2, out=m)
        np.copyto(out, np.inf, where=m)


def _horner(coeffs, z, out) -> None:
    """out = the polynomial with ``coeffs`` (highest power first) at z."""
    out.fill(coeffs[0])
    for c in coeffs[1:]:
        out *= z
        out += c


_PSI_10 = 2.25175258906672110764  # digamma(10)
# digamma's asymptotic series in z = 1/x^2 (PyTorch's A, Horner's order)
_PSI_A = (8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
          -4.16666666666666666667e-3, 3.96825396825396825397e-3, -8.33333333333333333333e-3,
          8.33333333333333333333e-2)


def digamma_into(x, out, tmp) -> None:
    """out = digamma(x), step by step as calc_digamma, in x's own precision (PyTorch's float
    overload computes in float): +-0 -> -+inf, a negative integer -> NaN, x < 0 ->
    digamma(1 - x) - pi / tan(pi frac(x)) (that term in float64, as PyTorch); digamma(s) =
    digamma(s + 1) - 1/s until s >= 10, then log(s) - 1/(2s) - z A(z), z = 1/s^2.
    ``tmp``: four arrays of x's dtype, a float64 one and two bool ones."""
    s, t, u, r, w, m, m2 = tmp
    with np.errstate(all="ignore"):
        np.subtract(1.0, x, out=s)
        np.greater_equal(x, 0.0, out=m)
        np.copyto(s, x, where=m)
        out.fill(0.0)
        for _ in range(10):  # (s >= 0 here: ten steps reach 10)
            np.less(s, 10.0, out=m)
            np.reciprocal(s, out=t)
            np.subtract(out, t, out=out, where=m)
            np.add(s, 1.0, out=s, where=m)
        np.add(out, _PSI_10, out=r)  # where s lands on 10 exactly, PyTorch stops here
        np.multiply(s, s, out=t)
        np.reciprocal(t, out=u)
        _horner(_PSI_A, u, t)
        t *= u  # z A(z): left out from 1e17 on
        np.greater_equal(s, 1.0e17, out=m)
        np.copyto(t, 0.0, where=m)
        np.log(s, out=u)
        out += u
        np.divide(0.5, s, out=u)
        out -= u
        out -= t
        np.equal(s, 10.0, out=m)
        np.copyto(out, r, where=m)
        # x < 0: the reflection, with tan taken at modf's fraction of x
        np.trunc(x, out=t)
        np.subtract(x, t, out=w)
        w *= math.pi
        np.tan(w, out=w)
        np.divide(math.pi, w, out=w)
        np.copyto(u, w, casting="unsafe")
        np.less(x, 0.0, out=m2)
        np.subtract(out, u, out=out, where=m2)
        np.equal(x, t, out=m)  # negative integers (and -inf): NaN
        np.logical_and(m, m2, out=m)
        np.copyto(out, np.nan, where=m)
        np.equal(x, 0.0, out=m)  # +-0: copysign(inf, -x)
        np.negative(x, out=t)
        np.copysign(np.inf, t, out=t)
        np.copyto(out, t, where=m)


def trigamma_into(x, out, tmp) -> None:
    """out = polygamma(1, x) as calc_trigamma, in x's own precision: x < 0.5 reflected
    (psi1(x) = pi^2 / sin^2(pi x) - psi1(1 - x)), six steps of psi1(s) = psi1(s + 1) + 1/s^2,
    then the asymptotic series. ``tmp`` as digamma_into's."""
    s, t, u, r, _, m, _ = tmp
    pi = x.dtype.type(math.pi)  # (c10::pi<float> in float)
    with np.errstate(all="ignore"):
        np.less(x, 0.5, out=m)
        np.copyto(s, x)
        np.subtract(1.0, x, out=s, where=m)
        np.multiply(x, pi, out=t)
        np.sin(t, out=t)
        np.multiply(t, t, out=t)
        np.divide(-(pi * pi), t, out=t)
        out.fill(0.0)
        np.copyto(out, t, where=m)
        for _ in range(6):
            np.multiply(s, s, out=t)
            np.reciprocal(t, out=t)
            out += t
            s += 1.0
        np.multiply(s, s, out=t)
        np.reciprocal(t, out=t)  # ixx
        np.multiply(t, 1.0 / 42, out=u)
        np.subtract(1.0 / 30, u, out=u)
        u *= t
        np.subtract(1.0 / 6, u, out=u)
        u *= t
        np.multiply(s, 2.0, out=r)
        np.reciprocal(r, out=r)
        r += 1.0
        r += u
        r /= s
        out += r
        np.negative(out, out=out, where=m)  # sign -1 where reflected


def _float64_kernel(op: str, compute):
    """A kernel (x, out, dtype) that runs ``compute(x64, r64, tmp)`` chunk by chunk in float64
    workspace rows (x and the result, four more float64 rows and three bool ones)."""
    @with_temporaries(op, *(np.float64,) * 6, np.bool_, np.bool_, np.bool_)
    def body(x, out, dtype, tmp):
        x64, r64, *rest = tmp
        np.copyto(x64, x, casting="unsafe")
        compute(x64, r64, rest)
        np.copyto(out, r64, casting="unsafe")
    body.__name__ = op
    return body


def _native_kernel(op: str, compute):
    """A kernel that runs ``compute`` in the op's compute dtype (float32 for float32 tensors,
    as PyTorch's float overloads of calc_digamma/calc_trigamma), with digamma_into's rows."""
    @with_temporaries(op, None, None, None, None, None, None, np.float64, np.bool_, np.bool_)
    def body(x, out, dtype, tmp):
        xc, rc, *rest = tmp
        np.copyto(xc, x, casting="unsafe")
        compute(xc, rc, rest)
        np.copyto(out, rc, casting="unsafe")
    body.__name__ = op
    return body


_LGAMMA = _float64_kernel("lgamma", lgamma_into)
_DIGAMMA = _native_kernel("digamma", digamma_into)
_TRIGAMMA = _native_kernel("trigamma", trigamma_into)


@register("lgamma", _float64_kernel("lgamma", lgamma_into), "LgammaBackward0",
          saves={"self": None})
def _lgamma_bw(ctx, g):
    return (g * ctx.saved("self").digamma(),)


@register("digamma", _native_kernel("digamma", digamma_into), "DigammaBackward0",
          saves={"self": None})
def _digamma_bw(ctx, g):
    return (g * ctx.saved("self").polygamma(1),)


@tensor_method
def lgamma(self) -> Tensor:
    return unary("lgamma", self)


@tensor_method
def lgamma_(self) -> Tensor:
    return unary_("lgamma", self)


@tensor_method
def digamma(self) -> Tensor:
    return unary("digamma", self)


@tensor_method
def digamma_(self) -> Tensor:
    return unary_("digamma", self)
