"""Unary element-wise ops: neg, exp, log, sqrt, abs, relu, sigmoid, tanh, reciprocal, sign.

Each op is one block, read top to bottom: its NumPy kernel, ``op`` and ``op_``, then its
derivative entry (node name, what it saves, the backward formula). What an op saves decides
whether its in-place form is safe under autograd: relu, sigmoid, exp, tanh ... save their
*result*, so ``x.relu_()`` on a saved x is fine for them but not for an op that saved x.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..tensor import Tensor, tensor_method
from ._chunked import with_temporaries
from .nan_sign import clamp16, clamp_bound, is_float16_pair, keeps_second, libm_nan
from .tensor_iterator import inplace_elementwise, new_elementwise, pure_kernel, ufunc_kernel
from .unary_nan_bits import tag
from .workspace import Scratch


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
@pure_kernel
def relu_kernel(x, out, dtype):
    # np.maximum against a scalar is slow (no SIMD path for a stride-0 operand); against a
    # zero block it is vectorised. Out of place, the fresh output is that zero block; in
    # place, a chunk of the shared workspace is (so relu_ still allocates nothing).
    # The zero goes first where NumPy returns its second operand on a tie: relu(-0.0) keeps
    # x's -0.0, as PyTorch's ``x < 0 ? 0 : x`` does (nan_sign.py).
    if is_float16_pair(x, out):
        clamp16(x, 0, None, out)  # the 16-bit bits of x < 0 ? 0 : x (nan_sign.py)
        return
    if x.size < 4096 or x.dtype.kind != "f" or not (x.flags.c_contiguous
                                                    and out.flags.c_contiguous):
        clamp_bound(np.maximum, x, 0, out, dtype)
        return
    xs, os_ = x.reshape(-1), out.reshape(-1)
    first = keeps_second(x.dtype)
    if out is not x and not np.shares_memory(x, out):
        os_.fill(0)
        np.maximum(os_, xs, out=os_) if first else np.maximum(xs, os_, out=os_)
        return
    with Scratch(x.dtype, "relu", x.size, zeros=True) as scratch:
        n = min(scratch.capacity, x.size)
        zero = scratch.view((n,))
        # rows of n elements against one zero row: a single NumPy call (its inner loop stays
        # vectorised), then the few elements left over
        rows = xs.size // n * n
        pair = (zero, xs[:rows].reshape(-1, n)) if first else (xs[:rows].reshape(-1, n), zero)
        np.maximum(*pair, out=os_[:rows].reshape(-1, n))
        if rows < xs.size:
            tail = (zero[:xs.size - rows], xs[rows:])
            np.maximum(*(tail if first else tail[::-1]), out=os_[rows:])


relu_kernel.rounds_16_bits_itself = True  # float16/bfloat16: clamp16, not reduced.py


@tensor_method
def relu(self) -> Tensor:
    return new_elementwise("relu", False, relu_kernel, self)


@tensor_method
def relu_(self) -> Tensor:
    return inplace_elementwise("relu", False, relu_kernel, self)


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
    return (g * r * (1 - r),)


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
    r = ctx.saved("result")
    return (g * (1 - r * r),)


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
    return (g.neg() * r * r,)


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
    return (g * 0,)
