"""Binary math: atan2, copysign, fmod, remainder, floor_divide, hypot, xlogy, float_power,
ldexp, nextafter, heaviside, gcd, lcm, each out of place and in place (``//`` and ``%`` call
floor_divide and remainder, operators.py).

An op with a Number overload records a different node for a Number than for a Tensor
(FmodBackward0 vs FmodBackward1), as derivatives.yaml has two entries. floor_divide and
heaviside have no derivative in PyTorch: they record its ``NotImplemented`` node, and backward
through it raises. Integer division by zero raises "ZeroDivisionError" as PyTorch's kernels do.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..tensor import Tensor, tensor_method
from ._chunked import with_temporaries
from .arg_checks import check_overloads, check_tensor
from .tensor_iterator import inplace_elementwise, new_elementwise, pure_kernel


def _kernel(ufunc, zero_check: bool = False, refuse: tuple = ()):
    """``refuse``: (kernel name, dtype kinds) PyTorch has no kernel for."""
    @pure_kernel
    def kernel(x, y, out, dtype):
        kind = np.dtype(dtype).kind
        if refuse and kind in refuse[1]:
            raise NotImplementedError(f'"{refuse[0]}" not implemented for '
                                      f"'{dtypes.from_numpy_dtype(dtype).short}'")
        if zero_check and kind in "iub" and np.any(np.asarray(y) == 0):
            raise RuntimeError("ZeroDivisionError")
        ufunc(x, y, out=out, dtype=dtype, casting="unsafe")
    return kernel


@with_temporaries("xlogy", None, np.bool_, np.bool_)
def _xlogy(x, y, out, dtype, tmp):
    """x * log(y), 0 where x == 0 (even for y = 0 or inf), nan where y is nan."""
    log_y, x_zero, y_nan = tmp
    np.equal(x, 0, out=x_zero)  # both masks before out is written: out may be x or y
    np.isnan(y, out=y_nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.log(y, out=log_y, dtype=dtype, casting="unsafe")
        np.multiply(x, log_y, out=out, dtype=dtype, casting="unsafe")
    np.copyto(out, 0, where=x_zero)
    np.copyto(out, np.nan, where=y_nan)


@with_temporaries("ldexp", None)
def _ldexp(x, y, out, dtype, tmp):
    """x * 2 ** y."""
    scale = np.exp2(y, out=tmp[0], dtype=dtype, casting="unsafe")
    np.multiply(x, scale, out=out, dtype=dtype, casting="unsafe")


def _heaviside(x, y, out, dtype, casting):
    np.heaviside(x, y, out=out, dtype=dtype, casting=casting)


def _wrap(f):
    return pure_kernel(lambda x, y, out, dtype, casting="unsafe": f(x, y, out, dtype, casting))


# op -> (kernel, float result for integers?, Tensor-only?)
OPS = {
    "atan2": (_kernel(np.arctan2), True, True),
    "copysign": (_kernel(np.copysign), True, False),
    "fmod": (_kernel(np.fmod, zero_check=True, refuse=("fmod_cpu", "b")), False, False),
    "remainder": (_kernel(np.remainder, zero_check=True, refuse=("remainder_cpu", "b")),
                  False, False),
    "floor_divide": (_kernel(np.floor_divide, zero_check=True, refuse=("div_floor_cpu", "b")),
                     False, False),
    "hypot": (_kernel(np.hypot, refuse=("hypot_cpu", "iub")), False, True),
    "xlogy": (_kernel(_xlogy), True, False),
    "ldexp": (_kernel(_ldexp), True, True),
    "nextafter": (_kernel(np.nextafter, refuse=("nextafter_cpu", "iub")), False, True),
    "heaviside": (_kernel(_wrap(_heaviside), refuse=("heaviside_cpu", "b")), False, True),
    "gcd": (_kernel(np.gcd, refuse=("gcd_cpu", "fb")), False, True),
    "lcm": (_kernel(np.lcm, refuse=("lcm_cpu", "fb")), False, True),
}
NOT_DIFFERENTIABLE = ("gcd", "lcm")  # integer-only: nothing to record


def _row(op: str, other) -> str:
    """The derivative row: "<op>" for a Tensor other, "<op>_scalar" for a Number."""
    return op if isinstance(other, Tensor) else op + "_scalar"


def _check(op: str, self: Tensor, other, name: str) -> None:
    if OPS[op][2]:
        check_tensor(name, "values" if op == "heaviside" else "other", other)
    else:
        check_overloads(name, ["other"], (other,))
    if op == "heaviside" and other.dtype is not self.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")


def binary(op: str, self: Tensor, other, name: str | None = None) -> Tensor:
    """``name``: the method called (an alias such as arctan2), for error texts."""
    _check(op, self, other, name or op)
    kernel, float_out, _ = OPS[op]
    return new_elementwise(_row(op, other), float_out, kernel, self, other)


def binary_(op: str, self: Tensor, other, name: str | None = None) -> Tensor:
    _check(op, self, other, name or op + "_")
    if op == "ldexp" and not self.dtype.is_floating_point:  # its own wording of the cast error
        raise RuntimeError(f"ldexp can't be cast to the desired output type {self.dtype.short}")
    kernel, float_out, _ = OPS[op]
    return inplace_elementwise(_row(op, other), float_out, kernel, self, other)


# --------------------------------------------------------------------------- derivatives
def _other(ctx):
    return ctx.saved("other") if "other" in ctx._saved else ctx.attr("other")


@derivative("atan2", "Atan2Backward0", inputs=("self", "other"),
            saves={"self": None, "other": None})
def _atan2_bw(ctx, g):
    x, y = ctx.saved("self"), ctx.saved("other")
    d = x * x + y * y
    return (g * y / d if ctx.needs(0) else None, g * x.neg() / d if ctx.needs(1) else None)


def _copysign_self(ctx, g):
    x, r = ctx.saved("self"), ctx.saved("result")
    ratio = r / x
    np.copyto(ratio._array(), 0.0, where=(x._array() == 0))  # the 0/0 at self == 0
    return g * ratio


@derivative("copysign", "CopysignBackward0", inputs=("self", "other"),
            saves={"self": None, "result": None})
def _copysign_bw(ctx, g):
    return (_copysign_self(ctx, g) if ctx.needs(0) else None, g * 0 if ctx.needs(1) else None)


@derivative("copysign_scalar", "CopysignBackward1", saves={"self": None, "result": None})
def _copysign_scalar_bw(ctx, g):
    return (_copysign_self(ctx, g),)


def _rounded_quotient(ctx, f) -> Tensor:
    x, y = ctx.saved("self"), ctx.saved("other")
    q = x / y
    f(q._array(), out=q._array())
    return q


@derivative("fmod", "FmodBackward1", inputs=("self", "other"),
            saves={"self": "other", "other": "other"})  # only other's gradient reads them
def _fmod_bw(ctx, g):
    return (g, g.neg() * _rounded_quotient(ctx, np.trunc) if ctx.needs(1) else None)


@derivative("fmod_scalar", "FmodBackward0")
def _fmod_scalar_bw(ctx, g):
    return (g,)


@derivative("remainder", "RemainderBackward1", inputs=("self", "other"),
            saves={"self": "other", "other": "other"})  # only other's gradient reads them
def _remainder_bw(ctx, g):
    return (g, g.neg() * _rounded_quotient(ctx, np.floor) if ctx.needs(1) else None)


@derivative("remainder_scalar", "RemainderBackward0")
def _remainder_scalar_bw(ctx, g):
    return (g,)


def _not_implemented_bw(op: str):
    def bw(ctx, g):
        raise RuntimeError(f"derivative for aten::{op} is not implemented")
    return bw


for _op, _inputs in (("floor_divide", ("self", "other")), ("floor_divide_scalar", ("self",)),
                     ("heaviside", ("self", "other"))):
    derivative(_op, "NotImplemented", inputs=_inputs, qualified=True)(
        _not_implemented_bw(_op.replace("_scalar", "")))


@derivative("hypot", "HypotBackward0", inputs=("self", "other"),  # each saved only if needed
            saves={"self": "self", "other": "other", "result": None})
def _hypot_bw(ctx, g):
    r = ctx.saved("result")
    return (g * ctx.saved("self") / r if ctx.needs(0) else None,
            g * ctx.saved("other") / r if ctx.needs(1) else None)


def _xlogy_self(ctx, g):
    """derivatives.yaml: xlogy(grad, other), zero only where self == 0 and other <= 0 (the
    derivative along x = 0 there, pytorch/pytorch#80770); at self == 0, other > 0 it is
    log(other), as everywhere else."""
    x, y = ctx.saved("self"), _other(ctx)
    grad = g.xlogy(y)
    if isinstance(y, Tensor):
        return grad.masked_fill((x == 0) & (y <= 0), 0.0)
    return grad.masked_fill(x == 0, 0.0) if y <= 0 else grad


@derivative("xlogy", "XlogyBackward0", inputs=("self", "other"),
            saves={"self": None, "other": None})
def _xlogy_bw(ctx, g):
    return (_xlogy_self(ctx, g) if ctx.needs(0) else None,
            g * ctx.saved("self") / ctx.saved("other") if ctx.needs(1) else None)


@derivative("xlogy_scalar", "XlogyBackward2", saves={"self": None, "other": None})
def _xlogy_scalar_bw(ctx, g):
    return (_xlogy_self(ctx, g),)


@derivative("ldexp", "LdexpBackward0", inputs=("self", "other"),
            saves={"other": None, "result": None})
def _ldexp_bw(ctx, g):
    return (g * ctx.saved("other").exp2() if ctx.needs(0) else None,
            g * ctx.saved("result") * math.log(2.0) if ctx.needs(1) else None)


@derivative("nextafter", "NextafterBackward0", inputs=("self", "other"),
            saves={"self": None, "other": None})
def _nextafter_bw(ctx, g):
    return (g, g * 0 if ctx.needs(1) else None)


# --------------------------------------------------------------------------- the methods
@binding()
@tensor_method
def atan2(self, other) -> Tensor:
    return binary("atan2", self, other)


@binding()
@tensor_method
def atan2_(self, other) -> Tensor:
    return binary_("atan2", self, other)


@binding()
@tensor_method
def arctan2(self, other) -> Tensor:
    """PyTorch's alias of atan2."""
    return binary("atan2", self, other, "arctan2")


@binding()
@tensor_method
def arctan2_(self, other) -> Tensor:
    """PyTorch's alias of atan2_."""
    return binary_("atan2", self, other, "arctan2_")


@binding()
@tensor_method
def copysign(self, other) -> Tensor:
    return binary("copysign", self, other)


@binding()
@tensor_method
def copysign_(self, other) -> Tensor:
    return binary_("copysign", self, other)


@binding()
@tensor_method
def fmod(self, other) -> Tensor:
    return binary("fmod", self, other)


@binding()
@tensor_method
def fmod_(self, other) -> Tensor:
    return binary_("fmod", self, other)


@binding()
@tensor_method
def remainder(self, other) -> Tensor:
    return binary("remainder", self, other)


@binding()
@tensor_method
def remainder_(self, other) -> Tensor:
    return binary_("remainder", self, other)


@binding()
@tensor_method
def floor_divide(self, other) -> Tensor:
    return binary("floor_divide", self, other)


@binding()
@tensor_method
def floor_divide_(self, other) -> Tensor:
    return binary_("floor_divide", self, other)


@binding()
@tensor_method
def hypot(self, other) -> Tensor:
    return binary("hypot", self, other)


@binding()
@tensor_method
def hypot_(self, other) -> Tensor:
    return binary_("hypot", self, other)


@binding()
@tensor_method
def xlogy(self, other) -> Tensor:
    return binary("xlogy", self, other)


@binding()
@tensor_method
def xlogy_(self, other) -> Tensor:
    return binary_("xlogy", self, other)


@binding()
@tensor_method
def ldexp(self, other) -> Tensor:
    return binary("ldexp", self, other)


@binding()
@tensor_method
def ldexp_(self, other) -> Tensor:
    return binary_("ldexp", self, other)


@binding()
@tensor_method
def nextafter(self, other) -> Tensor:
    return binary("nextafter", self, other)


@binding()
@tensor_method
def nextafter_(self, other) -> Tensor:
    return binary_("nextafter", self, other)


@binding()
@tensor_method
def heaviside(self, values) -> Tensor:
    return binary("heaviside", self, values)


@binding()
@tensor_method
def heaviside_(self, values) -> Tensor:
    return binary_("heaviside", self, values)


@binding()
@tensor_method
def gcd(self, other) -> Tensor:
    return binary("gcd", self, other)


@binding()
@tensor_method
def gcd_(self, other) -> Tensor:
    return binary_("gcd", self, other)


@binding()
@tensor_method
def lcm(self, other) -> Tensor:
    return binary("lcm", self, other)


@binding()
@tensor_method
def lcm_(self, other) -> Tensor:
    return binary_("lcm", self, other)
