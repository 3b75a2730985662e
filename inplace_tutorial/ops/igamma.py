"""The regularized incomplete gamma functions: igamma(a, x) = P(a, x), the share of Gamma(a)
that the integral of t^(a-1) e^-t from 0 to x holds, and igammac(a, x) = Q(a, x) = 1 - P.

Computed in float64, whatever the dtype, by the two classic expansions (Numerical Recipes,
6.2): for x < a + 1 the series P = x^a e^-x / Gamma(a + 1) (1 + x/(a+1) + x^2/((a+1)(a+2))
+ ...), elsewhere Legendre's continued fraction for Q (Lentz's method). Each gives the small
one of P and Q directly; the other is 1 minus it. The boundary values are PyTorch's (SciPy's):
a or x negative -> NaN, a = 0 -> P = 1 for x > 0, x = 0 -> P = 0, infinities. Where the
two differ (test_special_parity.test_igamma_distance): for a > 20 near x PyTorch uses a
uniform asymptotic expansion good to ~2e-9 (the core is closer), and its float32 computes in
float; the core's factor x^a e^-x / Gamma(a), through logarithms, loses ~a |log x| ulps for
large a (2e-11 relative at a = 7744) where PyTorch's Lanczos form does not.
derivatives.yaml gives no derivative for ``a`` (self) and saves self and other for x's:
igamma' = x^(a-1) e^-x / Gamma(a), igammac's its negative.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..tensor import Tensor, tensor_method
from ._chunked import with_temporaries
from .arg_checks import check_tensor
from .gamma import lgamma_into
from .tensor_iterator import inplace_elementwise, new_elementwise, pure_kernel

_EPS = 2.0 ** -53
_TINY = 1e-300
_MAX_STEPS = 100_000  # the series needs ~sqrt(a) steps where x ~ a: a = 1e8 still fits


def igamma_into(a, x, out, tmp, upper: bool) -> None:
    """out = P(a, x), or Q(a, x) if ``upper``, in float64; ``tmp``: nine float64 arrays and
    three bool ones."""
    fac, s, term, n, b, c, d, h, lg, series, live, m = tmp
    with np.errstate(all="ignore"):
        # x^a e^-x / Gamma(a), through logarithms
        lgamma_into(a, lg, (s, term, n, b, live, m))
        np.log(x, out=fac)
        fac *= a
        fac -= x
        fac -= lg
        np.exp(fac, out=fac)
        np.add(a, 1.0, out=s)
        np.less(x, s, out=series)
        # P by the series: sum of x^k / (a (a+1) ... (a+k)), times the factor
        np.reciprocal(a, out=term)
        np.copyto(s, term)
        np.copyto(n, a)
        np.copyto(live, series)
        for _ in range(_MAX_STEPS):
            if not live.any():
                break
            np.add(n, 1.0, out=n, where=live)
            np.divide(x, n, out=b, where=live)
            np.multiply(term, b, out=term, where=live)
            np.add(s, term, out=s, where=live)
            np.abs(term, out=b)
            np.abs(s, out=c)
            c *= _EPS
            np.greater_equal(b, c, out=m)
            np.logical_and(live, m, out=live)
        s *= fac  # P where series
        # Q by the continued fraction: 1/(x+1-a- 1(1-a)/(x+3-a- 2(2-a)/(x+5-a- ...)))
        np.subtract(x, a, out=b)
        b += 1.0
        c.fill(1.0 / _TINY)
        np.reciprocal(b, out=d)
        np.copyto(h, d)
        np.logical_not(series, out=live)
        i = 0
        while live.any() and i < _MAX_STEPS:
            i += 1
            np.subtract(i, a, out=term)
            term *= -i  # a_i = -i (i - a)
            b += 2.0
            np.multiply(term, d, out=d)
            d += b
            np.abs(d, out=n)
            np.less(n, _TINY, out=m)
            np.copyto(d, _TINY, where=m)
            np.divide(term, c, out=c)
            c += b
            np.abs(c, out=n)
            np.less(n, _TINY, out=m)
            np.copyto(c, _TINY, where=m)
            np.reciprocal(d, out=d)
            np.multiply(d, c, out=n)  # this step's factor
            np.multiply(h, n, out=h, where=live)
            n -= 1.0
            np.abs(n, out=n)
            np.greater_equal(n, _EPS, out=m)
            np.logical_and(live, m, out=live)
        h *= fac  # Q where not series
        # the small one directly, the other as 1 minus it
        np.logical_not(series, out=live)
        if upper:
            np.subtract(1.0, s, out=out)
            np.copyto(out, h, where=live)
        else:
            np.copyto(out, s)
            np.subtract(1.0, h, out=h)
            np.copyto(out, h, where=live)
        _boundaries(a, x, out, upper, m, live)


def _boundaries(a, x, out, upper: bool, m, k) -> None:
    """PyTorch's (SciPy's) values at the edges of the domain, P's first, then Q = 1 - P."""
    one, zero = (0.0, 1.0) if upper else (1.0, 0.0)
    np.isinf(x, out=m)
    np.copyto(out, one, where=m)  # x = inf: P = 1
    np.isinf(a, out=m)
    np.copyto(out, zero, where=m)  # a = inf: P = 0 ...
    np.isinf(x, out=k)
    np.logical_and(m, k, out=m)
    np.copyto(out, np.nan, where=m)  # ... unless x = inf too
    np.equal(x, 0.0, out=m)
    np.copyto(out, zero, where=m)  # x = 0: P = 0
    np.equal(a, 0.0, out=m)
    np.greater(x, 0.0, out=k)
    np.logical_and(m, k, out=k)
    np.copyto(out, one, where=k)  # a = 0, x > 0: P = 1
    np.less_equal(x, 0.0, out=k)
    np.logical_and(m, k, out=k)
    np.copyto(out, np.nan, where=k)  # a = 0, x = 0: NaN
    np.less(a, 0.0, out=m)
    np.less(x, 0.0, out=k)
    np.logical_or(m, k, out=m)
    np.copyto(out, np.nan, where=m)


def _kernel(op: str, upper: bool):
    @with_temporaries(op, *(np.float64,) * 12, np.bool_, np.bool_, np.bool_)
    def body(a, x, out, dtype, tmp):
        a64, x64, r64, *rest = tmp
        np.copyto(a64, a, casting="unsafe")
        np.copyto(x64, x, casting="unsafe")
        igamma_into(a64, x64, r64, rest, upper)
        np.copyto(out, r64, casting="unsafe")
    body.__name__ = op

    @pure_kernel
    def kernel(a, x, out, dtype):
        if np.dtype(dtype).kind in "iub":
            raise NotImplementedError(f'"{op}_cpu" not implemented for '
                                      f"'{dtypes.from_numpy_dtype(dtype).short}'")
        body(a, x, out=out, dtype=dtype)
    return kernel


_KERNELS = {"igamma": _kernel("igamma", False), "igammac": _kernel("igammac", True)}


def _factor(ctx) -> Tensor:
    """x^(a-1) e^-x / Gamma(a), as derivatives.yaml writes it: exp((a - 1) log x - x -
    lgamma(a))."""
    a, x = ctx.saved("self"), ctx.saved("other")
    return ((a - 1) * x.log() - x - a.lgamma()).exp()


def _not_implemented(op: str):
    raise NotImplementedError(f"the derivative for '{op}: input' is not implemented.")


@derivative("igamma", "IgammaBackward0", inputs=("self", "other"),
            saves={"self": "other", "other": "other"})  # (for x's formula only)
def _igamma_bw(ctx, g):
    if ctx.needs(0):
        _not_implemented("igamma")
    return (None, g * _factor(ctx))


@derivative("igammac", "IgammacBackward0", inputs=("self", "other"),
            saves={"self": "other", "other": "other"})  # (for x's formula only)
def _igammac_bw(ctx, g):
    if ctx.needs(0):
        _not_implemented("igammac")
    return (None, -g * _factor(ctx))


def _run(op: str, self: Tensor, other, inplace: bool) -> Tensor:
    """Integers are not promoted to float (igamma of two Long tensors has no kernel), so the
    result type is the inputs' promoted one."""
    check_tensor(op + ("_" if inplace else ""), "other", other)
    if inplace:
        return inplace_elementwise(op, False, _KERNELS[op], self, other)
    return new_elementwise(op, False, _KERNELS[op], self, other)


@tensor_method
def igamma(self, other: Tensor) -> Tensor:
    return _run("igamma", self, other, False)


@tensor_method
def igamma_(self, other: Tensor) -> Tensor:
    return _run("igamma", self, other, True)


@tensor_method
def igammac(self, other: Tensor) -> Tensor:
    return _run("igammac", self, other, False)


@tensor_method
def igammac_(self, other: Tensor) -> Tensor:
    return _run("igammac", self, other, True)

