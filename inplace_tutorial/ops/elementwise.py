"""Element-wise ops: each comes out-of-place (``add``), in-place (``add_``) and as an operator.

Each op is declared once: its NumPy kernel, then its derivative entry (node name, what it
saves, the backward formula) right below it. Out-of-place ops write straight into a
freshly allocated output; in-place ops write into self's own storage and allocate
nothing, or only a small chunked scratch buffer.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd import grad_mode
from ..autograd.function import derivative, record, record_inplace
from ..creation import empty_strided
from ..tensor import Tensor, tensor_method
from . import dtype_rules
from ._iter import (
    Scratch,
    arr,
    axpy_,
    broadcast_shapes,
    check_inplace_operands,
    out_strides,
    shape_of,
)


def _result(float_out: bool, *operands) -> dtypes.dtype:
    rd = dtypes.result_type(*operands)
    return dtypes.float_result(rd) if float_out else rd


def _new(name: str, float_out: bool, kernel, *operands, result_dtype=None, **attrs) -> Tensor:
    """Out-of-place: allocate the broadcast result, run the kernel into it, record."""
    if isinstance(operands[0], Tensor):
        dtype_rules.check(name, operands[0].dtype)
    rd = result_dtype or _result(float_out, *operands)
    shape = shape_of(operands[0])
    for o in operands[1:]:
        shape = broadcast_shapes(shape, shape_of(o))
    strides = out_strides(shape, operands)
    if strides is None:
        out = Tensor._empty(shape, rd, name)
    else:
        out = empty_strided(shape, strides, rd)
        out._storage.op = name
    kernel(*[arr(o) for o in operands], out=out._array(), dtype=rd.np)
    names = ("self", "other")
    return record(name, out, dict(zip(names, operands)), **attrs)


_SCALARS = (int, float)


def _plain_same(self: Tensor, o) -> bool:
    """An operand that can't trip any check: same shape and dtype, another storage, and
    nothing autograd could care about (optimizer updates hit this path)."""
    return (type(o) is Tensor and o._shape == self._shape and o.dtype is self.dtype
            and o._storage is not self._storage and not o._requires_grad
            and (o._base is None or not o._base._requires_grad))


def _inplace(name: str, float_out: bool, kernel, self: Tensor, *others, result_dtype=None,
             **attrs) -> Tensor:
    # Fast path for the common teaching case `x.add_(5)`: a float tensor with no autograd
    # history and a Python scalar can neither fail a check nor record a node.
    if (result_dtype is None and self._base is None
            and (not self._requires_grad or not grad_mode._state["enabled"])
            and self.dtype.category == 2
            and not self._inference and 0 not in self._stride
            and (not others or type(others[0]) in _SCALARS or _plain_same(self, others[0]))):
        a = self._array()
        kernel(a, *[arr(o) for o in others], out=a, dtype=self.dtype.np)
        self._vc.bump(name + "_")
        return self
    dtype_rules.check(name, self.dtype)
    rd = result_dtype or _result(float_out, self, *others)
    a = self._array()
    inputs = dict(zip(("self", "other"), (self, *others)))
    return record_inplace(
        name, self, inputs,
        compute=lambda: kernel(a, *[arr(o) for o in others], out=a, dtype=rd.np),
        check=lambda: check_inplace_operands(self, others, rd), **attrs)


def _ufunc(f):
    return lambda *xs, out, dtype: f(*xs, out=out, dtype=dtype, casting="unsafe")


def _define(name: str, kernel, float_out: bool = False, binary: bool = False):
    """Create ``name`` and ``name_`` as Tensor methods (and return the out-of-place one)."""
    if binary:
        def op(self, other):
            return _new(name, float_out, kernel, self, other)

        def op_(self, other):
            return _inplace(name, float_out, kernel, self, other)
    else:
        def op(self):
            return _new(name, float_out, kernel, self)

        def op_(self):
            return _inplace(name, float_out, kernel, self)
    op.__name__, op_.__name__ = name, name + "_"
    tensor_method(op_)
    return tensor_method(op)


def _other(ctx):
    return ctx.saved("other") if "other" in ctx._saved else ctx.attr("other")


def _self(ctx):
    return ctx.saved("self") if "self" in ctx._saved else ctx.attr("self")


# --------------------------------------------------------------------------- add / sub
def _check_alpha(alpha, *operands) -> None:
    if isinstance(alpha, float) and operands[0].dtype.category < 2 and \
            dtypes.result_type(*operands).category < 2:
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number.")


def add(self, other, alpha=1) -> Tensor:
    _check_alpha(alpha, self, other)
    if alpha == 1:
        return _new("add", False, _ufunc(np.add), self, other, alpha=alpha)
    return _new("add", False, _axpy_kernel(alpha), self, other, alpha=alpha)


def add_(self, other, alpha=1) -> Tensor:
    _check_alpha(alpha, self, other)
    if alpha == 1:
        return _inplace("add", False, _ufunc(np.add), self, other, alpha=alpha)
    return _inplace("add", False, _axpy_kernel(alpha, "add_"), self, other, alpha=alpha)


def sub(self, other, alpha=1) -> Tensor:
    dtype_rules.check_sub(self, other)
    _check_alpha(alpha, self, other)
    if alpha == 1:
        return _new("sub", False, _ufunc(np.subtract), self, other, alpha=alpha)
    return _new("sub", False, _axpy_kernel(-alpha), self, other, alpha=alpha)


def sub_(self, other, alpha=1) -> Tensor:
    dtype_rules.check_sub(self, other)
    _check_alpha(alpha, self, other)
    if alpha == 1:
        return _inplace("sub", False, _ufunc(np.subtract), self, other, alpha=alpha)
    return _inplace("sub", False, _axpy_kernel(-alpha, "sub_"), self, other, alpha=alpha)


def _axpy_kernel(alpha, op: str = "add"):
    def kernel(x, y, out, dtype):
        if out is not x:
            np.copyto(out, x, casting="unsafe")
        axpy_(out, y, alpha, op, dtype)
    return kernel


@derivative("add", "AddBackward0", inputs=("self", "other"))
def _add_bw(ctx, g):
    alpha = ctx.attr("alpha")
    return (g, g if alpha == 1 else g * alpha)


@derivative("sub", "SubBackward0", inputs=("self", "other"))
def _sub_bw(ctx, g):
    return (g, g.neg() if ctx.attr("alpha") == 1 else g * -ctx.attr("alpha"))


def rsub(self, other, alpha=1) -> Tensor:
    """other - alpha * self (what ``2 - x`` calls)."""
    dtype_rules.check_sub(self, other)
    out = _new("rsub", False, lambda x, y, out, dtype: _axpy_kernel(-alpha)(y, x, out, dtype),
               self, other, alpha=alpha)
    return out


@derivative("rsub", "RsubBackward1")
def _rsub_bw(ctx, g):
    return (g * -ctx.attr("alpha"),)


# --------------------------------------------------------------------------- mul / div / pow
mul = _define("mul", _ufunc(np.multiply), binary=True)


@derivative("mul", "MulBackward0", inputs=("self", "other"),
            saves={"self": "other", "other": "self"})
def _mul_bw(ctx, g):
    return (g * _other(ctx) if ctx.needs(0) else None,
            g * _self(ctx) if ctx.needs(1) else None)


div = _define("div", _ufunc(np.true_divide), float_out=True, binary=True)


@derivative("div", "DivBackward0", inputs=("self", "other"),
            saves={"self": "other", "other": None})  # both formulas divide by other
def _div_bw(ctx, g):
    other = _other(ctx)
    ga = g / other if ctx.needs(0) else None
    gb = (g.neg() * ctx.saved("self")) / (other * other) if ctx.needs(1) else None
    return (ga, gb)


def _pow_kernel(x, e, out, dtype):
    if np.dtype(dtype).kind == "b":
        if not isinstance(e, bool):
            raise NotImplementedError("\"pow\" not implemented for 'Bool'")
        np.copyto(out, x if e else True)  # x ** True is x, x ** False is True
        return
    if np.dtype(dtype).kind in "iu" and np.any(np.asarray(e) < 0):
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    np.power(x, e, out=out, dtype=dtype, casting="unsafe")


def pow(self, exponent) -> Tensor:
    if isinstance(exponent, Tensor):
        return _new("pow_tensor", False, _pow_kernel, self, exponent)
    return _new("pow", False, _pow_kernel, self, exponent, exponent=exponent)


def pow_(self, exponent) -> Tensor:
    if isinstance(exponent, Tensor):
        return _inplace("pow_tensor", False, _pow_kernel, self, exponent)
    return _inplace("pow", False, _pow_kernel, self, exponent, exponent=exponent)


@derivative("pow", "PowBackward0", saves={"self": None})
def _pow_bw(ctx, g):
    e = ctx.attr("exponent")
    return (g * e * ctx.saved("self").pow(e - 1) if e != 0 else g * 0,)


@derivative("pow_tensor", "PowBackward1", inputs=("self", "other"),
            saves={"self": None, "other": None, "result": "other"})
def _pow_tensor_bw(ctx, g):
    x, e = ctx.saved("self"), ctx.saved("other")
    ga = g * e * x.pow(e - 1) if ctx.needs(0) else None
    gb = None
    if ctx.needs(1):
        gb = g * ctx.saved("result") * x.log()
        from .compare import where

        gb = where((x == 0) & (e >= 0), 0.0, gb)
    return (ga, gb)


def _rpow(self, base) -> Tensor:
    """base ** self for a Python scalar base (PowBackward2)."""
    return _new("pow_scalar", True, lambda e, b, out, dtype: np.power(b, e, out=out, dtype=dtype),
                self, base, base=base)


@derivative("pow_scalar", "PowBackward2", saves={"result": None})
def _pow_scalar_bw(ctx, g):
    return (g * ctx.saved("result") * float(np.log(ctx.attr("base"))),)


# --------------------------------------------------------------------------- unary
def _relu_kernel(x, out, dtype):
    # np.maximum against a scalar is slow (no SIMD path for a stride-0 operand); against a
    # zero block it is vectorised. Out of place, the fresh output is that zero block; in
    # place, a chunk of the shared workspace is (so relu_ still allocates nothing).
    if x.size < 4096 or x.dtype.kind != "f" or not (x.flags.c_contiguous
                                                    and out.flags.c_contiguous):
        np.maximum(x, 0, out=out, dtype=dtype, casting="unsafe")
        return
    xs, os_ = x.reshape(-1), out.reshape(-1)
    if out is not x and not np.shares_memory(x, out):
        os_.fill(0)
        np.maximum(xs, os_, out=os_)
        return
    with Scratch(x.dtype, "relu", x.size, zeros=True) as scratch:
        n = min(scratch.capacity, x.size)
        zero = scratch.view((n,))
        for i in range(0, xs.size, n):
            a = xs[i:i + n]
            np.maximum(a, zero[:a.size], out=os_[i:i + n])


def _sigmoid_kernel(x, out, dtype):
    np.multiply(x, -1, out=out, dtype=dtype, casting="unsafe")  # see _neg_kernel
    np.exp(out, out=out)
    np.add(out, 1, out=out)
    np.reciprocal(out, out=out)


def _neg_kernel(x, out, dtype):
    # NumPy 2.4's in-place np.negative is wrong on some strided views (e.g. a float32 column
    # with a 16-byte stride); multiplying by -1 is exact (it flips the sign bit, -0.0 included).
    np.multiply(x, -1, out=out, dtype=dtype, casting="unsafe")


neg = _define("neg", _neg_kernel)
exp = _define("exp", _ufunc(np.exp), float_out=True)
log = _define("log", _ufunc(np.log), float_out=True)
sqrt = _define("sqrt", _ufunc(np.sqrt), float_out=True)
abs = _define("abs", _ufunc(np.absolute))  # noqa: A001
relu = _define("relu", _relu_kernel)
sigmoid = _define("sigmoid", _sigmoid_kernel, float_out=True)
tanh = _define("tanh", _ufunc(np.tanh), float_out=True)
reciprocal = _define("reciprocal", _ufunc(np.reciprocal), float_out=True)
sign = _define("sign", _ufunc(np.sign))


@derivative("neg", "NegBackward0")
def _neg_bw(ctx, g):
    return (g.neg(),)


@derivative("exp", "ExpBackward0", saves={"result": None})
def _exp_bw(ctx, g):
    return (g * ctx.saved("result"),)


@derivative("log", "LogBackward0", saves={"self": None})
def _log_bw(ctx, g):
    return (g / ctx.saved("self"),)


@derivative("sqrt", "SqrtBackward0", saves={"result": None})
def _sqrt_bw(ctx, g):
    return (g / (ctx.saved("result") * 2),)


@derivative("abs", "AbsBackward0", saves={"self": None})
def _abs_bw(ctx, g):
    return (g * ctx.saved("self").sign(),)


@derivative("relu", "ReluBackward0", saves={"result": None})
def _relu_bw(ctx, g):
    # threshold_backward in two NumPy passes, no temporary: sign(result) is 1 where the
    # output was positive and 0 where ReLU clipped it.
    r = ctx.saved("result")
    out = Tensor._empty(r._shape, g.dtype, "threshold_backward")
    o = out._array()
    np.sign(r._array(), out=o, casting="unsafe")
    np.multiply(o, g._array(), out=o, casting="unsafe")
    return (out,)


@derivative("sigmoid", "SigmoidBackward0", saves={"result": None})
def _sigmoid_bw(ctx, g):
    r = ctx.saved("result")
    return (g * r * (1 - r),)


@derivative("tanh", "TanhBackward0", saves={"result": None})
def _tanh_bw(ctx, g):
    r = ctx.saved("result")
    return (g * (1 - r * r),)


@derivative("reciprocal", "ReciprocalBackward0", saves={"result": None})
def _reciprocal_bw(ctx, g):
    r = ctx.saved("result")
    return (g.neg() * r * r,)


@derivative("sign", "SignBackward0")
def _sign_bw(ctx, g):
    return (g * 0,)


for _fn in (add, add_, sub, sub_, rsub, pow, pow_):
    tensor_method(_fn)
