"""Unary element-wise ops: neg, exp, log, sqrt, abs, relu, sigmoid, tanh, reciprocal, sign.

Each op is one block, read top to bottom: its NumPy kernel, ``op`` and ``op_``, then its
derivative entry (node name, what it saves, the backward formula). What an op saves decides
whether its in-place form is safe under autograd: relu, sigmoid, exp, tanh ... save their
*result*, so ``x.relu_()`` on a saved x is fine for them but not for an op that saved x.
"""
from __future__ import annotations

import numpy as np
from numpy._core import umath as _umath

from .. import dtypes
from ..autograd.derivatives import derivative
from ..creation import zeros_like
from ..tensor import Tensor, tensor_method
from ._chunked import run_chunked, with_temporaries
from ._pointwise import new_output
from .half_backward import float32_backward, threshold_nan_bits
from .nan_sign import clamp16, clamp_bound, is_float16_pair, libm_nan
from .tanh_backward import tanh_backward
from .tensor_iterator import inplace_elementwise, new_elementwise, pure_kernel, ufunc_kernel
from .unary_nan_bits import tag


# --------------------------------------------------------------------------- neg
@pure_kernel
def neg_kernel(x, out, dtype):
    # A float's sign bit is flipped as PyTorch's neg flips it, NaN included (x * -1 would
    # keep a NaN's sign: the CPU returns the NaN operand as it is).
    bits = _SIGN_BIT.get(x.dtype.itemsize)
    if x.dtype == out.dtype and x.dtype.kind in "fV" and bits is not None:
        np.bitwise_xor(x.view(bits[0]), bits[1], out=out.view(bits[0]))
        return
    # NumPy 2.4's in-place np.negative is wrong on some strided views (e.g. a float32 column
    # with a 16-byte stride); multiplying by -1 is exact (it flips the sign bit, -0.0 included).
    # (for uint8, -1 wraps to 255: x * 255 is -x modulo 256, as PyTorch computes it)
    np.multiply(x, dtypes.kernel_scalar(-1, np.dtype(dtype)), out=out, dtype=dtype,
                casting="unsafe")


tag("neg", neg_kernel)  # (its 16-bit NaNs: unary_nan_bits.py)


# float itemsize -> (the unsigned integer of that size, its top bit)
_SIGN_BIT = {2: (np.uint16, np.uint16(1 << 15)), 4: (np.uint32, np.uint32(1 << 31)),
             8: (np.uint64, np.uint64(1 << 63))}


@tensor_method
def neg(self) -> Tensor:
    return new_elementwise("neg", False, neg_kernel, self)


@tensor_method
def neg_(self) -> Tensor:
    return inplace_elementwise("neg", False, neg_kernel, self)


@tensor_method
def negative(self) -> Tensor:
    """PyTorch's alias of neg."""
    return self.neg()


@derivative("neg", "NegBackward0")
def _neg_bw(ctx, g):
    return (g.neg(),)


# --------------------------------------------------------------------------- exp
exp_kernel = tag("exp", libm_nan(ufunc_kernel(np.exp)))  # NaN bits: nan_sign, unary_nan_bits


@tensor_method
def exp(self) -> Tensor:
    return new_elementwise("exp", True, exp_kernel, self)


@tensor_method
def exp_(self) -> Tensor:
    return inplace_elementwise("exp", True, exp_kernel, self)


@derivative("exp", "ExpBackward0", saves={"result": None})
def _exp_bw(ctx, g):
    return (g * ctx.saved("result"),)


# --------------------------------------------------------------------------- log
log_kernel = tag("log", libm_nan(ufunc_kernel(np.log), invalid_positive=True))


@tensor_method
def log(self) -> Tensor:
    return new_elementwise("log", True, log_kernel, self)


@tensor_method
def log_(self) -> Tensor:
    return inplace_elementwise("log", True, log_kernel, self)


@derivative("log", "LogBackward0", saves={"self": None})
def _log_bw(ctx, g):
    return (g / ctx.saved("self"),)


# --------------------------------------------------------------------------- sqrt
sqrt_kernel = tag("sqrt", libm_nan(ufunc_kernel(np.sqrt), invalid_positive=True))


@tensor_method
def sqrt(self) -> Tensor:
    return new_elementwise("sqrt", True, sqrt_kernel, self)


@tensor_method
def sqrt_(self) -> Tensor:
    return inplace_elementwise("sqrt", True, sqrt_kernel, self)


@derivative("sqrt", "SqrtBackward0", saves={"result": None})
def _sqrt_bw(ctx, g):
    return (g / (ctx.saved("result") * 2),)


# --------------------------------------------------------------------------- abs
abs_kernel = tag("abs", ufunc_kernel(np.absolute))


@tensor_method
def abs(self) -> Tensor:
    return new_elementwise("abs", False, abs_kernel, self)


@tensor_method
def abs_(self) -> Tensor:
    return inplace_elementwise("abs", False, abs_kernel, self)


@derivative("abs", "AbsBackward0", saves={"self": None})
def _abs_bw(ctx, g):
    return (g * ctx.saved("self").sign(),)


# --------------------------------------------------------------------------- relu
# PyTorch's relu is clamp_min(x, 0), ``x < 0 ? 0 : x``: relu(-0.0) keeps x's -0.0 and a NaN
# passes as it is (nan_sign.py). NumPy's clip ufunc, given number bounds, runs that very loop
# (``x < lo ? lo : x``, then ``x > hi ? hi : x``, which hi = inf leaves alone) in one
# vectorised pass, no zeros needed; np.maximum against a scalar has no SIMD path.
_clip = _umath.clip  # the ufunc itself: np.clip is Python around it (ndarray.clip, _methods)


def _relu_bounds(np_dtype) -> tuple | None:
    """relu's bounds (0, inf) as read-only 0-dim arrays of ``np_dtype`` (a Python float would
    be converted on every call: a third of a small relu's time), if NumPy's clip keeps x on
    a tie and a NaN x as it is (NumPy 2.4's loop for number bounds does; its loop for arrays
    of bounds returns the bound on a tie). Asked once per dtype at import, as nan_sign.py
    asks np.maximum; None: relu takes clamp_bound."""
    bounds = (np.zeros((), np_dtype), np.full((), np.inf, np_dtype))
    for b in bounds:
        b.flags.writeable = False
    x = np.array([-0.0, 0.0, -1.0, 2.0, np.nan, -np.nan, np.inf, -np.inf], dtype=np_dtype)
    want = x.copy()
    want[2] = want[7] = 0.0
    u = np.dtype(f"u{x.itemsize}")
    return bounds if (_clip(x, *bounds).view(u) == want.view(u)).all() else None


_RELU_BOUNDS = {np.dtype(d): _relu_bounds(d) for d in (np.float32, np.float64)}


@pure_kernel
def relu_kernel(x, out, dtype):
    bounds = _RELU_BOUNDS.get(out.dtype)
    if bounds is not None and x.dtype == out.dtype:
        _clip(x, bounds[0], bounds[1], out=out)
    elif is_float16_pair(x, out):
        clamp16(x, 0, None, out)  # the 16-bit bits of x < 0 ? 0 : x (nan_sign.py)
    else:
        clamp_bound(np.maximum, x, 0, out, dtype)


relu_kernel.rounds_16_bits_itself = True  # float16/bfloat16: clamp16, not reduced.py


@tensor_method
def relu(self) -> Tensor:
    return new_elementwise("relu", False, relu_kernel, self)


@tensor_method
def relu_(self) -> Tensor:
    return inplace_elementwise("relu", False, relu_kernel, self)


@derivative("relu", "ReluBackward0", saves={"result": None})
def _relu_bw(ctx, g):
    # threshold_backward(grad, result, 0): ``result <= 0 ? 0 : grad``, so a NaN result passes
    # its gradient and a clipped cell gets +0.0 whatever the gradient's sign. PyTorch's
    # select keeps the gradient's bits: here they are ANDed with a mask of all ones or all
    # zeros, built in the output itself (four vectorised passes; the one bool temporary in
    # the workspace). float16/bfloat16 alike, except the NaNs their vector loop converts.
    r = ctx.saved("result")
    out = new_output("threshold_backward", r._shape, g.dtype, (r, g))  # (the result's layout)
    o = out._array()
    bits = np.dtype(f"u{o.itemsize}")
    run_chunked(_keep_where_positive, "threshold_backward", (np.bool_,),
                (r._array(), g._array().view(bits)), o.view(bits), None)
    if o.itemsize == 2:  # float16/bfloat16: its vector loop widens and narrows a NaN gradient
        threshold_nan_bits(out, r, g)
    return (out,)


def _keep_where_positive(rs, gs, out, dtype, tmp):
    (le,) = tmp
    np.less_equal(rs, 0, out=le)
    np.copyto(out, le)  # 1 where result <= 0, else 0 ...
    np.subtract(out, 1, out=out)  # ... then 0 there, all ones elsewhere
    np.bitwise_and(out, gs, out=out)


# --------------------------------------------------------------------------- sigmoid
@pure_kernel
def _sigmoid(x, out, dtype):
    # (for uint8, -1 wraps to 255: x * 255 is -x modulo 256, as PyTorch computes it)
    np.multiply(x, dtypes.kernel_scalar(-1, np.dtype(dtype)), out=out, dtype=dtype,
                casting="unsafe")  # see neg_kernel
    np.exp(out, out=out)
    np.add(out, 1, out=out)
    np.reciprocal(out, out=out)


sigmoid_kernel = tag("sigmoid", libm_nan(_sigmoid, negate=True))  # -x flips a NaN's sign


@tensor_method
def sigmoid(self) -> Tensor:
    return new_elementwise("sigmoid", True, sigmoid_kernel, self)


@tensor_method
def sigmoid_(self) -> Tensor:
    return inplace_elementwise("sigmoid", True, sigmoid_kernel, self)


@derivative("sigmoid", "SigmoidBackward0", saves={"result": None})
def _sigmoid_bw(ctx, g):
    r = ctx.saved("result")
    if g.dtype.itemsize == 2:  # sigmoid_backward: in float32, rounded once (half_backward.py)
        return (float32_backward(_sigmoid_grad32, "sigmoid_backward", g, r, True),)
    return (g * (1 - r) * r,)  # sigmoid_backward's order: (g * (1 - r)) * r


def _sigmoid_grad32(g, r, t, narrow) -> None:
    # g * (1 - r) * r, in PyTorch's order; float16's kernel is Half arithmetic, which rounds
    # after every step (``narrow``), bfloat16's rounds once
    np.subtract(1, r, out=t)
    narrow(t)
    np.multiply(g, t, out=g)
    narrow(g)
    np.multiply(g, r, out=g)


# --------------------------------------------------------------------------- tanh
tanh_kernel = tag("tanh", libm_nan(ufunc_kernel(np.tanh)))


@tensor_method
def tanh(self) -> Tensor:
    return new_elementwise("tanh", True, tanh_kernel, self)


@tensor_method
def tanh_(self) -> Tensor:
    return inplace_elementwise("tanh", True, tanh_kernel, self)


@derivative("tanh", "TanhBackward0", saves={"result": None})
def _tanh_bw(ctx, g):
    # g * (1 - r * r), as each CPU build rounds it (tanh_backward.py)
    return (tanh_backward(g, ctx.saved("result")),)


# --------------------------------------------------------------------------- reciprocal
reciprocal_kernel = tag("reciprocal", ufunc_kernel(np.reciprocal))


@tensor_method
def reciprocal(self) -> Tensor:
    return new_elementwise("reciprocal", True, reciprocal_kernel, self)


@tensor_method
def reciprocal_(self) -> Tensor:
    return inplace_elementwise("reciprocal", True, reciprocal_kernel, self)


@derivative("reciprocal", "ReciprocalBackward0", saves={"result": None})
def _reciprocal_bw(ctx, g):
    r = ctx.saved("result")
    return (g.neg() * (r * r),)  # -grad * (result * result), in PyTorch's order


# --------------------------------------------------------------------------- sign
@pure_kernel
def sign_kernel(x, out, dtype):
    if np.dtype(dtype).kind == "b":  # the sign of True is True
        np.copyto(out, x)
        return
    if np.dtype(dtype).kind == "f":
        _float_sign(x, out=out, dtype=dtype)
        return
    np.sign(x, out=out, dtype=dtype, casting="unsafe")


@with_temporaries("sign", np.bool_)
def _float_sign(x, out, dtype, tmp):
    """PyTorch's ``(0 < x) - (x < 0)``: the sign of a NaN is 0 (NumPy's is NaN)."""
    np.sign(x, out=out, dtype=dtype, casting="unsafe")
    np.isnan(out, out=tmp[0])
    np.copyto(out, 0, where=tmp[0])


@tensor_method
def sign(self) -> Tensor:
    return new_elementwise("sign", False, sign_kernel, self)


@tensor_method
def sign_(self) -> Tensor:
    return inplace_elementwise("sign", False, sign_kernel, self)


@derivative("sign", "SignBackward0")
def _sign_bw(ctx, g):
    return (zeros_like(g),)  # +0.0 whatever the gradient (g * 0 would keep -0.0 and NaN)
