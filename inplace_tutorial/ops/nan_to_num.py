"""nan_to_num: NaN, +inf and -inf replaced by numbers (by default 0 and the dtype's largest
and smallest finite values); integer and bool tensors come back unchanged.

NanToNumBackward0 saves self: the gradient passes where self is finite, 0 elsewhere. A
table-driven unary op like those of unary_math.py (_pointwise.py).
"""
from __future__ import annotations

import numpy as np

from ..arg_parser import binding
from ..creation import empty_like
from ..dtypes import bool_, finfo
from ..tensor import Tensor, tensor_method
from ._chunked import run_chunked
from ._pointwise import register, unary, unary_
from .arg_checks import check_type
from .tensor_iterator import pure_kernel


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


# --------------------------------------------------------------------------- the methods
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
