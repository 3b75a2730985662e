"""Rounding: floor, ceil, trunc (and its alias fix), round (to even, or to some decimals) and
frac, each out of place and in place.

Rounding keeps integer dtypes (an integer is already whole, so it is copied unchanged) and
refuses bool with PyTorch's kernel names; frac refuses integers too. Every one of them is flat
almost everywhere, so its backward is zero, except frac's, which passes the gradient through.
frac = x - trunc(x) computes trunc(x) a chunk at a time in the workspace (_chunked.py).
"""
from __future__ import annotations

import numpy as np

from ..arg_parser import binding
from ..tensor import Tensor, tensor_method
from ._chunked import with_temporaries
from ._pointwise import integer_identity, register, unary, unary_
from .arg_checks import check_type

_ROUNDING_BOOL = {"floor": "floor_vml_cpu", "ceil": "ceil_vml_cpu", "trunc": "trunc_vml_cpu",
                  "round": "round_vml_cpu"}


def _zero_bw(ctx, g):
    return (g * 0,)


for _name, _f in (("floor", np.floor), ("ceil", np.ceil), ("trunc", np.trunc),
                  ("round", np.rint)):
    register(_name, integer_identity(_f), _name.capitalize() + "Backward0", float_out=False,
             refused={"Bool": _ROUNDING_BOOL[_name]})(_zero_bw)

register("round_decimals", integer_identity(np.rint), "RoundBackward1", float_out=False,
         refused={"Bool": "round_cpu", "Long": "round_cpu"})(_zero_bw)


def _round_kernel(decimals: int):
    """PyTorch's round(decimals): nearbyint(x * 10^d) / 10^d (half to even)."""
    def kernel(x, out, dtype):
        ten = 10.0 ** abs(decimals)
        if decimals > 0:
            np.multiply(x, ten, out=out, dtype=dtype, casting="unsafe")
            np.rint(out, out=out)
            np.divide(out, ten, out=out)
        else:
            np.divide(x, ten, out=out, dtype=dtype, casting="unsafe")
            np.rint(out, out=out)
            np.multiply(out, ten, out=out)
    return kernel


@with_temporaries("frac", None)
def _frac_kernel(x, out, dtype, tmp):
    whole = np.trunc(x, out=tmp[0], dtype=dtype, casting="unsafe")
    np.subtract(x, whole, out=out, dtype=dtype, casting="unsafe")


@register("frac", _frac_kernel, "FracBackward0", float_out=False,
          refused={"Bool": "frac_cpu", "Long": "frac_cpu"})
def _frac_bw(ctx, g):
    return (g,)


# --------------------------------------------------------------------------- the methods
@tensor_method
def floor(self) -> Tensor:
    return unary("floor", self)


@tensor_method
def floor_(self) -> Tensor:
    return unary_("floor", self)


@tensor_method
def ceil(self) -> Tensor:
    return unary("ceil", self)


@tensor_method
def ceil_(self) -> Tensor:
    return unary_("ceil", self)


@tensor_method
def trunc(self) -> Tensor:
    return unary("trunc", self)


@tensor_method
def trunc_(self) -> Tensor:
    return unary_("trunc", self)


@tensor_method
def fix(self) -> Tensor:
    """PyTorch's alias of trunc."""
    return unary("trunc", self)


@tensor_method
def fix_(self) -> Tensor:
    """PyTorch's alias of trunc_."""
    return unary_("trunc", self)


def _decimals(name: str, decimals) -> None:
    check_type(name, "decimals", decimals, int, position=None)


_NOT_GIVEN = object()  # round() and round(decimals=0) record different nodes


@binding()
@tensor_method
def round(self, decimals: int = _NOT_GIVEN) -> Tensor:
    if decimals is _NOT_GIVEN:
        return unary("round", self)
    _decimals("round", decimals)
    return unary("round_decimals", self, kernel=_round_kernel(decimals))


@binding()
@tensor_method
def round_(self, decimals: int = _NOT_GIVEN) -> Tensor:
    if decimals is _NOT_GIVEN:
        return unary_("round", self)
    _decimals("round_", decimals)
    return unary_("round_decimals", self, kernel=_round_kernel(decimals))


@tensor_method
def frac(self) -> Tensor:
    return unary("frac", self)


@tensor_method
def frac_(self) -> Tensor:
    return unary_("frac", self)
