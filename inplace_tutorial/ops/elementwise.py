"""Element-wise arithmetic: add, sub, rsub, mul, div, pow. Each comes out-of-place (``add``),
in place (``add_``) and as an operator (operators.py).

Each op is one block: its NumPy kernel, its two methods, then its derivative entry (node name,
what it saves, the backward formula), as PyTorch's kernel plus derivatives.yaml. The drivers in
tensor_iterator.py do the rest: out-of-place ops write straight into a freshly allocated
output; in-place ops write into self's own storage and allocate nothing, or only a chunk of
the shared workspace.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding, scalar_int
from ..autograd import grad_mode
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..tensor import Tensor, tensor_method
from . import _fma, _half_add, dtype_rules
from .arg_checks import check_number, check_overloads, check_real_scalar, check_tensor_or_number
from .div_rounding import NOT_GIVEN, check_call, div_mode, div_mode_
from .tensor_iterator import (
    check_inplace_operands,
    inplace_elementwise,
    new_elementwise,
    ufunc_kernel,
    write_inplace,
)
from .workspace import axpy_


def _other(ctx):
    """A saved tensor operand, or the Python scalar kept as an attribute."""
    return ctx.saved("other") if "other" in ctx._saved else ctx.attr("other")


def _self(ctx):
    return ctx.saved("self") if "self" in ctx._saved else ctx.attr("self")


def _check_args(op: str, other, alpha=1) -> None:
    """PyTorch's binding checks: other is a Tensor or a Number, alpha a Number. The parser
    checks every argument's type before it unpacks an int into a Scalar: x.add_(2**70,
    alpha='a') names alpha, x.add_(2**70) overflows."""
    beyond = type(other) is int and not _INT64_MIN <= other < _UINT64_END
    if not beyond:
        check_tensor_or_number(op, "other", other)
    check_number(op, "alpha", alpha)
    if beyond:
        scalar_int(other)


_PLAIN_OTHER = (Tensor, float, int)  # (type(x) is exact: bool and complex are not these)
_PLAIN_ALPHA = (int, float)
_INT64_MIN, _UINT64_END = -(1 << 63), 1 << 64  # a Scalar's Python ints: int64 or uint64


def _plain_args(self: Tensor, other, alpha=1) -> bool:
    """A float tensor, other a Tensor or a Python float/int, alpha a Python int/float: the
    in-place methods' argument checks below can't refuse these (they refuse non-numbers,
    complex numbers, a bool alpha, a float alpha with integers), so they are skipped. A
    Python int must fit a Scalar's 64 bits: beyond, the checks raise torch's OverflowError."""
    return (type(other) in _PLAIN_OTHER and type(alpha) in _PLAIN_ALPHA
            and self.dtype.category == dtypes.FLOATING
            and (type(other) is not int or _INT64_MIN <= other < _UINT64_END)
            and (type(alpha) is not int or _INT64_MIN <= alpha < _UINT64_END))


def _check_alpha(alpha, *operands) -> None:
    """PyTorch's alpha_check on the result type (the core has no complex dtype)."""
    if type(alpha) is complex:
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a "
                           "complex number.")
    if isinstance(alpha, bool) and dtypes.result_type(*operands) is not dtypes.bool_:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and operands[0].dtype.category < 2 and \
            dtypes.result_type(*operands).category < 2:
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number.")


def axpy_kernel(alpha, op: str = "add"):
    """out = x + alpha * y, chunked (no full-size temporary of alpha * y)."""
    def kernel(x, y, out, dtype):
        if _fma.fused(dtype, alpha, y):  # this build's one rounding (_fma.py)
            _fma.axpy(out, x, y, alpha, op)
            return
        if out is not x:
            np.copyto(out, x, casting="unsafe")
        axpy_(out, y, alpha, op, dtype)
    kernel.alpha = alpha  # float16/bfloat16 run it as one fused multiply-add (reduced.py)
    return kernel


# --------------------------------------------------------------------------- add
add_kernel = _half_add.add_sub_kernel(np.add)  # float16: on the bits (_half_add.py)
add_kernel.ufunc = np.add  # float32/float64: just np.add's call (inplace_elementwise's fast path)


@binding()
@tensor_method
def add(self, other, *, alpha=1) -> Tensor:
    _check_args("add", other, alpha)
    _check_alpha(alpha, self, other)
    kernel = add_kernel if alpha == 1 else axpy_kernel(alpha)
    return new_elementwise("add", False, kernel, self, other, alpha=alpha)


@binding()
@tensor_method
def add_(self, other, *, alpha=1) -> Tensor:
    if not _plain_args(self, other, alpha):
        _check_args("add_", other, alpha)
        check_real_scalar(self, other)
        _check_alpha(alpha, self, other)
    kernel = add_kernel if alpha == 1 else axpy_kernel(alpha, "add_")
    return inplace_elementwise("add", False, kernel, self, other, alpha=alpha)


@derivative("add", "AddBackward0", inputs=("self", "other"))
def _add_bw(ctx, g):
    alpha = ctx.attr("alpha")
    return (g, g if alpha == 1 else g * alpha)


# --------------------------------------------------------------------------- sub / rsub
sub_kernel = _half_add.add_sub_kernel(np.subtract)
sub_kernel.ufunc = np.subtract


@binding()
@tensor_method
def sub(self, other, *, alpha=1) -> Tensor:
    _check_args("sub", other, alpha)
    dtype_rules.check_sub(self, other)
    _check_alpha(alpha, self, other)
    kernel = sub_kernel if alpha == 1 else axpy_kernel(-alpha)
    return new_elementwise("sub", False, kernel, self, other, alpha=alpha)


@binding()
@tensor_method
def sub_(self, other, *, alpha=1) -> Tensor:
    _check_args("sub_", other, alpha)
    check_real_scalar(self, other)
    dtype_rules.check_sub(self, other)
    _check_alpha(alpha, self, other)
    kernel = sub_kernel if alpha == 1 else axpy_kernel(-alpha, "sub_")
    return inplace_elementwise("sub", False, kernel, self, other, alpha=alpha)


@binding()
@tensor_method
def subtract(self, other, *, alpha=1) -> Tensor:
    """PyTorch's alias of sub."""
    return self.sub(other, alpha=alpha)


@derivative("sub", "SubBackward0", inputs=("self", "other"))
def _sub_bw(ctx, g):
    return (g, g.neg() if ctx.attr("alpha") == 1 else g * -ctx.attr("alpha"))


@binding()
@tensor_method
def rsub(self, other, *, alpha=1) -> Tensor:
    """other - alpha * self (what ``2 - x`` calls)."""
    if type(other) is int:
        scalar_int(other)  # (2**70 - x: torch's OverflowError)
    dtype_rules.check_sub(self, other)
    return new_elementwise("rsub", False,
                           lambda x, y, out, dtype: axpy_kernel(-alpha)(y, x, out, dtype),
                           self, other, alpha=alpha)


@derivative("rsub", "RsubBackward1")
def _rsub_bw(ctx, g):
    return (g * -ctx.attr("alpha"),)


# --------------------------------------------------------------------------- mul
# bfloat16 * bfloat16 in float32 lanes (_half_add.py); float16 * 1.0004 reads the scalar in
# float32 (reduced.py)
mul_kernel = _half_add.add_sub_kernel(np.multiply, opmath_scalar=True)
mul_kernel.ufunc = np.multiply


@binding()
@tensor_method
def mul(self, other) -> Tensor:
    check_tensor_or_number("mul", "other", other)
    return new_elementwise("mul", False, mul_kernel, self, other)


@binding()
@tensor_method
def mul_(self, other) -> Tensor:
    if not _plain_args(self, other):
        check_tensor_or_number("mul_", "other", other)
        check_real_scalar(self, other)
    return inplace_elementwise("mul", False, mul_kernel, self, other)


@binding()
@tensor_method
def multiply(self, other) -> Tensor:
    """PyTorch's alias of mul."""
    return self.mul(other)


@derivative("mul", "MulBackward0", inputs=("self", "other"),
            saves={"self": "other", "other": "self"})
def _mul_bw(ctx, g):
    return (g * _other(ctx) if ctx.needs(0) else None,
            g * _self(ctx) if ctx.needs(1) else None)


# --------------------------------------------------------------------------- div
div_kernel = ufunc_kernel(np.true_divide)
div_kernel.opmath_scalar = True


@binding()
@tensor_method
def div(self, other, *, rounding_mode=NOT_GIVEN) -> Tensor:
    """Naming a rounding_mode (even None) is PyTorch's div.Tensor_mode: div_rounding.py."""
    if rounding_mode is not NOT_GIVEN:
        return div_mode(self, other, check_call("div", other, rounding_mode),
                        div_kernel)
    check_tensor_or_number("div", "other", other)
    return new_elementwise("div", True, div_kernel, self, other)


@binding()
@tensor_method
def div_(self, other, *, rounding_mode=NOT_GIVEN) -> Tensor:
    if rounding_mode is not NOT_GIVEN:
        mode = check_call("div_", other, rounding_mode)
        check_real_scalar(self, other)
        return div_mode_(self, other, mode, div_kernel)
    if not _plain_args(self, other):
        check_tensor_or_number("div_", "other", other)
        check_real_scalar(self, other)
    return inplace_elementwise("div", True, div_kernel, self, other)


@derivative("div", "DivBackward0", inputs=("self", "other"),
            saves={"self": "other", "other": None})  # both formulas divide by other
def _div_bw(ctx, g):
    other = _other(ctx)
    ga = g / other if ctx.needs(0) else None
    gb = g.neg() * ((ctx.saved("self") / other) / other) if ctx.needs(1) else None
    return (ga, gb)


# --------------------------------------------------------------------------- pow
def pow_kernel(x, e, out, dtype):
    if np.dtype(dtype).kind == "b":
        if not isinstance(e, bool):
            raise NotImplementedError("\"pow\" not implemented for 'Bool'")
        np.copyto(out, x if e else True)  # x ** True is x, x ** False is True
        return
    if np.dtype(dtype).kind in "iu":
        int_power(x, e, out, dtype)
        return
    np.power(x, e, out=out, dtype=dtype, casting="unsafe")


def _pow_tensor(op: str, self: Tensor, exponent: Tensor, rd=None) -> Tensor:
    """pow(Tensor, Tensor): recorded with the exponent under its own name (_saved_exponent)."""
    with grad_mode.no_grad():
        out = new_elementwise(op, False, pow_kernel, self, exponent, result_dtype=rd)
    return record("pow_tensor", out, {"self": self, "exponent": exponent})


def _pow_tensor_(op: str, self: Tensor, exponent: Tensor, rd) -> Tensor:
    a = self._array()
    return record_inplace(
        "pow_tensor", self, {"self": self, "exponent": exponent},
        compute=lambda: write_inplace(lambda o, xs: pow_kernel(*xs, out=o, dtype=rd.np),
                                      op, self, [a, exponent._array()], (exponent,)),
        check=lambda: check_inplace_operands(self, (exponent,), rd))
def int_power(x, e, out, dtype) -> None:
    """C integer power, as PyTorch computes it: a negative exponent gives 0, except for a
    base of 1 (1) or -1 (+-1). (NumPy refuses negative integer exponents.)"""
    e_arr = np.asarray(e)
    if not np.any(e_arr < 0):
        np.power(x, e, out=out, dtype=dtype, casting="unsafe")
        return
    neg = np.broadcast_to(e_arr < 0, out.shape)
    np.power(x, np.maximum(e_arr, 0), out=out, dtype=dtype, casting="unsafe")
    x_b = np.broadcast_to(np.asarray(x), out.shape)
    odd = np.broadcast_to(e_arr % 2 != 0, out.shape)
    np.copyto(out, np.where(x_b == 1, 1, np.where(x_b == -1, np.where(odd, -1, 1), 0))
              .astype(out.dtype), where=neg)


def _check_int_exponent(self, exponent) -> None:
    """An integer result's Python int exponent, checked before any write: a negative one is
    refused, and one the result's type can't hold is an overflow, as PyTorch reads it (to
    int64 first, then to the result's type: i8.pow(128) names int8_t, i8.pow(2**63) int64_t)."""
    if isinstance(exponent, np.integer):  # a NumPy integer is a Python int to PyTorch
        exponent = int(exponent)
    if (type(exponent) is not int or self.dtype.category == dtypes.FLOATING
            or dtypes.result_type(self, exponent).category != dtypes.INTEGER):
        return
    if exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    if exponent >= 1 << 63:
        raise RuntimeError("value cannot be converted to type int64_t without overflow")
    dtypes.checked_scalar(exponent, dtypes.result_type(self, exponent))


@binding()
@tensor_method
def pow(self, exponent) -> Tensor:
    check_overloads("pow", ["exponent"], (exponent,))
    _check_int_exponent(self, exponent)
    if isinstance(exponent, Tensor):
        return _pow_tensor("pow", self, exponent)
    return new_elementwise("pow", False, pow_kernel, self, exponent, exponent=exponent)


@binding()
@tensor_method
def pow_(self, exponent) -> Tensor:
    check_overloads("pow_", ["exponent"], (exponent,))
    check_real_scalar(self, exponent)
    _check_int_exponent(self, exponent)
    if isinstance(exponent, Tensor):
        return _pow_tensor_("pow_", self, exponent, dtypes.result_type(self, exponent))
    return inplace_elementwise("pow", False, pow_kernel, self, exponent, exponent=exponent)


@derivative("pow", "PowBackward0", saves={"self": None})  # exponent: a number, an attr
def _pow_bw(ctx, g):
    e = ctx.attr("exponent")
    return (g * e * ctx.saved("self").pow(e - 1) if e != 0 else g * 0,)


@derivative("pow_tensor", "PowBackward1", inputs=("self", "exponent"),
            saves={"self": None, "exponent": None, "result": None})
def _pow_tensor_bw(ctx, g):
    x, e = ctx.saved("self"), ctx.saved("exponent")
    ga = g * e * x.pow(e - 1) if ctx.needs(0) else None
    gb = None
    if ctx.needs(1):
        gb = g * ctx.saved("result") * x.log()
        # d/de x**e = x**e * log(x) is 0 * -inf at x == 0; PyTorch masks it to 0 there
        np.copyto(gb._array(), 0, where=((x == 0) & (e >= 0))._array())
    return (ga, gb)


def rpow(self, base) -> Tensor:
    """base ** self for a Python number base (PowBackward2: saves the base as self, the
    tensor as exponent, and the result). An integer base and tensor stay integer."""
    check_overloads("pow", ["self"], (base,))
    rd = dtypes.result_type(self, base)
    with grad_mode.no_grad():
        out = new_elementwise("pow_scalar", False,
                              lambda e, b, out, dtype: pow_kernel(
                                  np.asarray(b, dtype=dtype), e, out=out, dtype=dtype),
                              self, base, result_dtype=rd)
    return record("pow_scalar", out, {"exponent": self}, self=base)


@derivative("pow_scalar", "PowBackward2", inputs=("exponent",),
            saves={"exponent": None, "result": None})  # self: the base, a number
def _pow_scalar_bw(ctx, g):
    return (g * ctx.saved("result") * float(np.log(ctx.attr("self"))),)


# --------------------------------------------------------------------------- float_power
def _float_power_check(self: Tensor) -> None:
    if self.dtype is not dtypes.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype {self.dtype.short} but "
                           "the operation's result requires dtype Double")


@binding()
@tensor_method
def float_power(self, exponent) -> Tensor:
    """pow computed in float64 (the result is always float64)."""
    check_overloads("float_power", ["exponent"], (exponent,))
    if isinstance(exponent, Tensor):
        return _pow_tensor("pow_tensor", self.to(dtypes.float64), exponent.to(dtypes.float64))
    return new_elementwise("pow", False, pow_kernel, self.to(dtypes.float64), float(exponent),
                           result_dtype=dtypes.float64, exponent=float(exponent))


@binding()
@tensor_method
def float_power_(self, exponent) -> Tensor:
    check_overloads("float_power_", ["exponent"], (exponent,))
    _float_power_check(self)
    if isinstance(exponent, Tensor):
        return _pow_tensor_("pow_", self, exponent.to(dtypes.float64), dtypes.float64)
    return inplace_elementwise("pow", False, pow_kernel, self, float(exponent),
                               exponent=float(exponent))


# --------------------------------------------------------------------------- aliases
@binding()
@tensor_method
def subtract_(self, other, *, alpha=1) -> Tensor:
    """PyTorch's alias of sub_."""
    return self.sub_(other, alpha=alpha)


@binding()
@tensor_method
def multiply_(self, other) -> Tensor:
    """PyTorch's alias of mul_."""
    return self.mul_(other)
