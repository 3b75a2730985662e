"""polygamma(n, x), digamma's n-th derivative, and mvlgamma(x, p), the log of the
multivariate gamma function sum_j lgamma(x - j/2) + p (p - 1) / 4 log(pi).

polygamma(0) is digamma and polygamma(1) trigamma (gamma.py); from n = 2 on it is
(-1)^(n+1) n! zeta(n + 1, x), Hurwitz's zeta summed as PyTorch's Cephes ``zeta`` sums it, in
float64. PolygammaBackward0 (polygamma_: PolygammaBackward1, a row of its own) saves n and
self, and its backward is polygamma(n + 1). MvlgammaBackward0 saves p and self; its backward
sums digamma over the same p arguments.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..arg_parser import binding, check_int
from ..autograd.derivatives import derivative
from ..tensor import Tensor, tensor_method
from ._chunked import with_temporaries
from ._pointwise import register, unary, unary_
from .gamma import _DIGAMMA, _LGAMMA, _TRIGAMMA, _float64_kernel, lgamma_into

# Hurwitz's zeta(x, q) = sum_k (q + k)^-x as Cephes sums it (PyTorch's ``zeta``): ten terms
# or more (until q + k > 9), then Euler-Maclaurin's tail with these divisors (2k)! / B_2k
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
           7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
           -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042e-16


def zeta_into(x: float, q, out, tmp) -> None:
    """out = zeta(x, q) in float64 for an integer order x >= 2; ``tmp``: four float64 arrays
    and three bool ones. Where Cephes returns early (a term below MACHEP of the sum), that
    element's sum is frozen (``done``) while the others go on."""
    a, b, w, t, done, m, tiny = tmp
    with np.errstate(all="ignore"):
        np.power(q, -x, out=out)
        np.copyto(a, q)
        done.fill(False)
        steps = 0
        while True:  # per element: while (steps < 9) or (a <= 9) (9 - min(q) steps at most)
            if steps < 9:
                np.logical_not(done, out=m)
            else:
                np.less_equal(a, 9.0, out=m)
                np.logical_and(m, np.logical_not(done, out=tiny), out=m)
                if not m.any():
                    break
            steps += 1
            np.add(a, 1.0, out=a, where=m)
            np.power(a, -x, out=b, where=m)
            np.add(out, b, out=out, where=m)
            np.multiply(out, _MACHEP, out=t)  # done where -MACHEP s < b < MACHEP s
            np.less(b, t, out=tiny)
            np.logical_and(tiny, m, out=tiny)
            np.negative(t, out=t)
            np.less(t, b, out=m, where=tiny)
            np.logical_and(tiny, m, out=tiny)
            np.logical_or(done, tiny, out=done)
        # Euler-Maclaurin: s += b w / (x - 1) - b / 2 + sum_i a_i b_i / A_i
        np.copyto(w, a)
        np.logical_not(done, out=m)
        np.multiply(b, w, out=t)
        t /= x - 1.0
        np.add(out, t, out=out, where=m)
        np.multiply(b, 0.5, out=t)
        np.subtract(out, t, out=out, where=m)
        fac, k = 1.0, 0.0
        for div in _ZETA_A:
            fac *= x + k
            b /= w
            np.multiply(b, fac, out=t)
            t /= div
            np.add(out, t, out=out, where=m)
            np.divide(t, out, out=t)
            np.abs(t, out=t)
            np.less(t, _MACHEP, out=tiny)
            np.logical_not(tiny, out=tiny)
            np.logical_and(m, tiny, out=m)
            k += 1.0
            fac *= x + k
            b /= w
            k += 1.0
        # poles: q a non-positive integer
        np.floor(q, out=t)
        np.equal(q, t, out=m)
        np.less_equal(q, 0.0, out=tiny)
        np.logical_and(m, tiny, out=m)
        np.copyto(out, np.inf, where=m)


def _polygamma_into(n: int):
    """polygamma(n >= 2, x) = (-1)^(n+1) n! zeta(n + 1, x), in float64 (as calc_polygamma:
    the sign times exp(lgamma(n + 1)) times zeta)."""
    factor = (1.0 if n % 2 else -1.0) * math.exp(math.lgamma(n + 1.0))

    def compute(x, out, tmp):
        zeta_into(float(n + 1), x, out, tmp)
        out *= factor
    return compute


def _polygamma_kernel(n: int):
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    if n <= 1:
        return _TRIGAMMA if n else _DIGAMMA
    return _float64_kernel("polygamma", _polygamma_into(n))


def _mvlgamma_kernel(p: int):
    """sum_j lgamma(x - j/2), j < p, plus p (p - 1) / 4 log(pi), in PyTorch's steps: each
    argument and lgamma rounded to the tensor's dtype, summed in it, the constant added."""
    const = p * (p - 1) * math.log(math.pi) * 0.25

    @with_temporaries("mvlgamma", None, None, *(np.float64,) * 6, np.bool_, np.bool_, np.bool_)
    def body(x, out, dtype, tmp):
        arg, acc, x64, r64, *rest = tmp
        for j in range(p):  # arange(-p/2 + 1/2, 1/2, 1/2): -(p-1)/2 ... 0
            np.add(x, -(p - 1 - j) * 0.5, out=arg, casting="unsafe")
            np.copyto(x64, arg)
            lgamma_into(x64, r64, rest)
            if j == 0:
                np.copyto(acc, r64, casting="unsafe")
            else:
                np.copyto(arg, r64, casting="unsafe")
                acc += arg
        acc += const
        np.copyto(out, acc, casting="unsafe")
    return body


@register("polygamma", _DIGAMMA, "PolygammaBackward0", saves={"n": None, "self": None})
def _polygamma_bw(ctx, g):
    return (g * ctx.saved("self").polygamma(ctx.attr("n") + 1),)


# polygamma_ has a derivatives.yaml row of its own: a node of its own name
derivative("polygamma_", "PolygammaBackward1", saves={"n": None, "self": None})(_polygamma_bw)


@binding()
@tensor_method
def polygamma(self, n: int) -> Tensor:
    n = check_int("polygamma", "n", n, 1)
    return unary("polygamma", self, kernel=_polygamma_kernel(n), n=n)


@binding()
@tensor_method
def polygamma_(self, n: int) -> Tensor:
    n = check_int("polygamma_", "n", n, 1)
    return unary_("polygamma", self, node_op="polygamma_", kernel=_polygamma_kernel(n), n=n)


def _mvlgamma_check(self: Tensor, p: int) -> None:
    if self.dtype is dtypes.bool_:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")


@register("mvlgamma", _LGAMMA, "MvlgammaBackward0", saves={"p": None, "self": None})
def _mvlgamma_bw(ctx, g):  # grad * sum_j digamma(self - j/2)
    x, p = ctx.saved("self"), ctx.attr("p")
    total = (x - (p - 1) * 0.5).digamma()
    for j in range(1, p):
        total = total + (x - (p - 1 - j) * 0.5).digamma()
    return (g * total,)


@binding()
@tensor_method
def mvlgamma(self, p: int) -> Tensor:
    p = check_int("mvlgamma", "p", p, 1)
    _mvlgamma_check(self, p)
    return unary("mvlgamma", self, kernel=_mvlgamma_kernel(p), p=p)


@binding()
@tensor_method
def mvlgamma_(self, p: int) -> Tensor:
    p = check_int("mvlgamma_", "p", p, 1)
    _mvlgamma_check(self, p)
    if self.dtype.category != dtypes.FLOATING:  # PyTorch computes, then checks the cast
        raise RuntimeError(f"mvlgamma: result type {self.dtype.short} can't be cast to the "
                           f"desired output type {dtypes.float_result(self.dtype).short}")
    return unary_("mvlgamma", self, kernel=_mvlgamma_kernel(p), p=p)
