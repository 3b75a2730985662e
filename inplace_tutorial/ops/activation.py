"""The activations of PyTorch's Activation.cpp beyond relu: elu (celu and selu are elu with
other constants), leaky_relu, hardtanh (relu6 is hardtanh(0, 6)) and threshold; rrelu, a
leaky_relu whose slopes are drawn at random, is in rrelu.py.

Each op's out-of-place form saves its input; most in-place forms save their *result*
instead (EluBackward1, LeakyReluBackward1, CeluBackward1), which is why PyTorch refuses, at
backward, an in-place elu or leaky_relu with a negative slope: the result no longer tells
which inputs were negative. hardtanh_ and threshold_ keep their out-of-place formula on a
clone of the input (ThresholdBackward1 saves ``self``). GELU, with its erf, is in
activations.py; the torch.* and F.* bindings in functional_inplace.py and
nn/functional_activations.py.
"""
from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record_inplace
from ..tensor import Tensor
from . import dtype_rules
from ._chunked import run_chunked, with_temporaries
from .compare import _clip as clip_kernel  # clamp's kernel, zeros and NaNs as clamp's
from .tensor_iterator import call_kernel, inplace_elementwise, new_elementwise

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946
_INTEGERS = ("Bool", "Byte", "Char", "Short", "Int", "Long")


def _not_implemented(kernel: str, short: str):
    return lambda: NotImplementedError(f'"{kernel}" not implemented for \'{short}\'')


for _short in _INTEGERS:  # float kernels only: PyTorch dispatches no integer type to them
    for _op in ("elu", "elu_", "celu", "celu_"):
        dtype_rules.UNSUPPORTED[_op, _short] = _not_implemented("elu_cpu", _short)
    for _op in ("leaky_relu", "leaky_relu_"):
        dtype_rules.UNSUPPORTED[_op, _short] = _not_implemented("leaky_relu_cpu", _short)
for _op in ("threshold", "threshold_"):
    dtype_rules.UNSUPPORTED[_op, "Bool"] = _not_implemented("threshold_cpu", "Bool")
for _op in ("hardtanh", "hardtanh_"):
    dtype_rules.UNSUPPORTED[_op, "Bool"] = lambda: RuntimeError(
        "Bool inputs not supported for hardtanh")

_NEGATIVE_ELU = ("In-place elu backward calculation is triggered with a negative slope which is "
                 "not supported. This is caused by calling in-place forward function with a "
                 "negative slope, please call out-of-place version instead.")
_NEGATIVE_LEAKY = (
    "In-place leakyReLu backward calculation is triggered with a negative slope which is not "
    "supported. This is caused by calling in-place forward function with a negative slope, "
    "please call out-of-place version instead. File an issue at "
    "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
    "backward calculation with negative slope")


def _scalars(*values) -> tuple:
    """The Scalar arguments as numbers (a 0-dim tensor is one); anything else raises, and the
    binding (function_parser.torch_function) then words the refusal as torch's parser."""
    out = []
    for v in values:
        if isinstance(v, Tensor) and v.dim() == 0 and not v.requires_grad:
            v = v.item()
        if not isinstance(v, numbers.Real):
            raise TypeError(f"expected a number, got {type(v).__name__}")
        out.append(v)
    return tuple(out)


def _c(value, dtype):
    """A Scalar argument as the kernel sees it (scalar_t: float32 for float32 and for the
    16-bit types, whose kernels compute in float)."""
    return np.dtype(dtype).type(value)


# --------------------------------------------------------------------------- elu, celu, selu
def _elu_kernel(alpha, scale, input_scale):
    """x <= 0 ? expm1(x * input_scale) * (alpha * scale) : x * scale (elu_kernel)."""
    @with_temporaries("elu", None, np.bool_)
    def body(x, out, dtype, tmp):
        neg, le = tmp
        negcoef = _c(alpha, dtype) * _c(scale, dtype)
        np.less_equal(x, 0, out=le)
        np.multiply(x, _c(input_scale, dtype), out=neg)
        np.expm1(neg, out=neg)
        np.multiply(neg, negcoef, out=neg)
        np.multiply(x, _c(scale, dtype), out=out)  # x is read for the last time here
        np.copyto(out, neg, where=le)
    return body


def _elu(row: str, self: Tensor, coefs: tuple, inplace: bool, **saved) -> Tensor:
    kernel = _elu_kernel(*coefs)
    if inplace:
        return inplace_elementwise(row, True, kernel, self, **saved)
    return new_elementwise(row, True, kernel, self, **saved)


def elu(self: Tensor, alpha=1, scale=1, input_scale=1) -> Tensor:
    alpha, scale, input_scale = _scalars(alpha, scale, input_scale)
    return _elu("elu", self, (alpha, scale, input_scale), False, alpha=alpha, scale=scale,
                input_scale=input_scale)


def elu_(self: Tensor, alpha=1, scale=1, input_scale=1) -> Tensor:
    alpha, scale, input_scale = _scalars(alpha, scale, input_scale)
    return _elu("elu_", self, (alpha, scale, input_scale), True, alpha=alpha, scale=scale,
                input_scale=input_scale)


def selu(self: Tensor) -> Tensor:
    return elu(self, SELU_ALPHA, SELU_SCALE)


def selu_(self: Tensor) -> Tensor:
    return elu_(self, SELU_ALPHA, SELU_SCALE)


def _celu_alpha(alpha):
    (alpha,) = _scalars(alpha)
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return alpha


def celu(self: Tensor, alpha=1.0) -> Tensor:
    alpha = _celu_alpha(alpha)
    return _elu("celu", self, (alpha, 1, 1.0 / alpha), False, alpha=alpha)


def celu_(self: Tensor, alpha=1.0) -> Tensor:
    alpha = _celu_alpha(alpha)
    return _elu("celu_", self, (alpha, 1, 1.0 / alpha), True, alpha=alpha)


def _elu_backward(g: Tensor, x: Tensor, alpha, scale, input_scale, is_result: bool) -> Tensor:
    """elu_backward: from the input, g * input_scale * alpha * scale * exp(x * input_scale)
    where x <= 0; from the result r, g * input_scale * (r + alpha * scale)."""
    if is_result and alpha < 0:
        raise RuntimeError(_NEGATIVE_ELU)
    out = Tensor._empty(g._shape, g.dtype, "elu_backward")

    def body(xs, gs, out, dtype, tmp):
        neg, le = tmp
        negcoef = _c(alpha, dtype) * _c(scale, dtype)
        np.less_equal(xs, 0, out=le)
        if is_result:
            np.add(xs, negcoef, out=neg)
        else:
            np.multiply(xs, _c(input_scale, dtype), out=neg)
            np.exp(neg, out=neg)
            np.multiply(neg, negcoef, out=neg)
        np.multiply(neg, _c(input_scale, dtype), out=neg)
        np.multiply(neg, gs, out=neg)
        np.multiply(gs, _c(scale, dtype), out=out)
        np.copyto(out, neg, where=le)
    run_chunked(body, "elu_backward", (None, np.bool_), (x._array(), g._array()), out._array(),
                dtypes.compute_np(g.dtype))
    return out


@derivative("elu", "EluBackward0", saves={"self": None})
def _elu_bw(ctx, g):
    return (_elu_backward(g, ctx.saved("self"), ctx.attr("alpha"), ctx.attr("scale"),
                          ctx.attr("input_scale"), False),)


@derivative("elu_", "EluBackward1", saves={"result": None})
def _elu__bw(ctx, g):
    return (_elu_backward(g, ctx.saved("result"), ctx.attr("alpha"), ctx.attr("scale"),
                          ctx.attr("input_scale"), True),)


@derivative("celu", "CeluBackward0", saves={"self": None})
def _celu_bw(ctx, g):
    a = ctx.attr("alpha")
    return (_elu_backward(g, ctx.saved("self"), a, 1, 1.0 / a, False),)


@derivative("celu_", "CeluBackward1", saves={"result": None})
def _celu__bw(ctx, g):
    a = ctx.attr("alpha")
    return (_elu_backward(g, ctx.saved("result"), a, 1, 1.0 / a, True),)


# --------------------------------------------------------------------------- leaky_relu
def _leaky_kernel(slope):
    """x > 0 ? x : x * slope (leaky_relu_kernel); a NaN stays itself."""
    @with_temporaries("leaky_relu", np.bool_)
    def body(x, out, dtype, tmp):
        (le,) = tmp
        np.greater(x, 0, out=le)
        np.logical_not(le, out=le)
        if out is not x:
            np.copyto(out, x, casting="unsafe")
        np.multiply(out, _c(slope, dtype), out=out, where=le)
    return body


def leaky_relu(self: Tensor, negative_slope=0.01) -> Tensor:
    (negative_slope,) = _scalars(negative_slope)
    return new_elementwise("leaky_relu", True, _leaky_kernel(negative_slope), self,
                           negative_slope=negative_slope)


def leaky_relu_(self: Tensor, negative_slope=0.01) -> Tensor:
    (negative_slope,) = _scalars(negative_slope)
    return inplace_elementwise("leaky_relu_", True, _leaky_kernel(negative_slope), self,
                               negative_slope=negative_slope)


def _leaky_backward(g: Tensor, x: Tensor, slope, is_result: bool) -> Tensor:
    """leaky_relu_backward: g where x > 0, else g * slope."""
    if is_result and slope < 0:
        raise RuntimeError(_NEGATIVE_LEAKY)
    out = Tensor._empty(g._shape, g.dtype, "leaky_relu_backward")

    def body(xs, gs, out, dtype, tmp):
        (le,) = tmp
        np.greater(xs, 0, out=le)
        np.logical_not(le, out=le)
        np.copyto(out, gs)
        np.multiply(out, _c(slope, dtype), out=out, where=le)
    run_chunked(body, "leaky_relu_backward", (np.bool_,), (x._array(), g._array()),
                out._array(), dtypes.compute_np(g.dtype))
    return out


@derivative("leaky_relu", "LeakyReluBackward0", saves={"self": None})
def _leaky_relu_bw(ctx, g):
    return (_leaky_backward(g, ctx.saved("self"), ctx.attr("negative_slope"), False),)


@derivative("leaky_relu_", "LeakyReluBackward1", saves={"result": None})
def _leaky_relu__bw(ctx, g):
    return (_leaky_backward(g, ctx.saved("result"), ctx.attr("negative_slope"), True),)


# --------------------------------------------------------------------------- hardtanh, relu6
def _hardtanh_bounds(self: Tensor, min_val, max_val) -> tuple:
    """hardtanh_out: integer tensors take integer bounds (no type promotion), and an
    unsigned one refuses a negative bound; then it is clamp's kernel."""
    min_val, max_val = _scalars(min_val, max_val)
    dtype_rules.check("hardtanh", self.dtype)
    if self.dtype.category < dtypes.FLOATING:
        lo, hi = int(min_val), int(max_val)
        if self.dtype is dtypes.uint8 and (lo < 0 or hi < 0):
            raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
        return lo, hi
    return min_val, max_val


def hardtanh(self: Tensor, min_val=-1, max_val=1) -> Tensor:
    lo, hi = _hardtanh_bounds(self, min_val, max_val)
    return new_elementwise("hardtanh", False, clip_kernel(lo, hi), self,
                           result_dtype=self.dtype, min_val=min_val, max_val=max_val)


def hardtanh_(self: Tensor, min_val=-1, max_val=1) -> Tensor:
    lo, hi = _hardtanh_bounds(self, min_val, max_val)
    return inplace_elementwise("hardtanh", False, clip_kernel(lo, hi), self,
                               result_dtype=self.dtype, min_val=min_val, max_val=max_val)


def relu6(self: Tensor) -> Tensor:
    return hardtanh(self, 0, 6)


def relu6_(self: Tensor) -> Tensor:
    return hardtanh_(self, 0, 6)


def _zero_where(g: Tensor, x: Tensor, op: str, below, above=None) -> Tensor:
    """g, zeroed where x <= below (or x >= above): hardtanh's and threshold's backward."""
    out = Tensor._empty(g._shape, g.dtype, op)

    def body(xs, gs, out, dtype, tmp):
        (cut, more) = tmp
        np.less_equal(xs, below, out=cut)
        if above is not None:
            np.greater_equal(xs, above, out=more)
            np.logical_or(cut, more, out=cut)
        np.copyto(out, gs)
        np.copyto(out, 0, where=cut)
    run_chunked(body, op, (np.bool_, np.bool_), (x._array(), g._array()), out._array(),
                dtypes.compute_np(g.dtype))
    return out


@derivative("hardtanh", "HardtanhBackward0", saves={"self": None})
def _hardtanh_bw(ctx, g):
    return (_zero_where(g, ctx.saved("self"), "hardtanh_backward", ctx.attr("min_val"),
                        ctx.attr("max_val")),)


# --------------------------------------------------------------------------- threshold
def _threshold_kernel(threshold, value, d: dtypes.dtype):
    """x <= threshold ? value : x, both Scalars cast to the tensor's type first, with c10's
    overflow check, inside the kernel as in PyTorch (a 16-bit float compares in float)."""
    @with_temporaries("threshold", np.bool_)
    def body(x, out, dtype, tmp):
        dtypes.checked_scalar(threshold, dtypes.float32 if d in (dtypes.float16, dtypes.bfloat16)
                              else d)
        dtypes.checked_scalar(value, d)
        (le,) = tmp
        np.less_equal(x, dtypes.kernel_scalar(_cast(threshold, dtype), np.dtype(dtype)), out=le)
        if out is not x:
            np.copyto(out, x, casting="unsafe")
        np.copyto(out, dtypes.kernel_scalar(_cast(value, dtype), np.dtype(dtype)), where=le,
                  casting="unsafe")
    return body


def _cast(v, dtype):
    return int(v) if np.dtype(dtype).kind in "iu" else v  # Scalar::to<int64_t> truncates


def threshold(self: Tensor, threshold, value) -> Tensor:  # noqa: A002
    threshold, value = _scalars(threshold, value)
    return new_elementwise("threshold", False, _threshold_kernel(threshold, value, self.dtype),
                           self, result_dtype=self.dtype, threshold=threshold)


def threshold_(self: Tensor, threshold, value) -> Tensor:
    """No overlap check: PyTorch builds threshold's TensorIterator without one, so an
    expanded tensor is written (every alias of a cell gets the same value)."""
    threshold, value = _scalars(threshold, value)
    dtype_rules.check("threshold_", self.dtype)
    kernel, a = _threshold_kernel(threshold, value, self.dtype), self._array()
    return record_inplace("threshold_", self, {"self": self},
                          compute=lambda: call_kernel(kernel, [a], a, dtypes.compute_np(
                              self.dtype)), threshold=threshold)


@derivative("threshold", "ThresholdBackward0", saves={"self": None})
def _threshold_bw(ctx, g):
    return (_zero_where(g, ctx.saved("self"), "threshold_backward", ctx.attr("threshold")),)


@derivative("threshold_", "ThresholdBackward1", saves={"self": None})
def _threshold__bw(ctx, g):
    return (_zero_where(g, ctx.saved("self"), "threshold_backward", ctx.attr("threshold")),)
