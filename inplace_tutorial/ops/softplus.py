"""softplus, log(1 + exp(beta x)) / beta (the identity where beta x > threshold), and
log_sigmoid, log(1 / (1 + exp(-x))): torch._C._nn's softplus and log_sigmoid (F.softplus,
F.logsigmoid).

SoftplusBackward0 saves the input, beta and threshold. log_sigmoid is PyTorch's
log_sigmoid_forward, which returns a second tensor, the ``buffer`` exp(-|x|), that F never
shows: LogSigmoidBackward0 saves the input and that buffer, so its backward needs no exp.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..cpu_capability import VECTOR_INSTRUCTIONS
from ..tensor import Tensor
from . import dtype_rules
from ._chunked import run_chunked, with_temporaries
from .activations_out import into_out
from .arg_checks import check_tensor
from .self_gated import gradient, refuse_integers
from .shrink import number
from .tensor_iterator import new_elementwise
from .unary_nan_bits import has_nan

refuse_integers("softplus", "softplus_cpu")
refuse_integers("log_sigmoid", "log_sigmoid_cpu")


# --------------------------------------------------------------------------- softplus
def _softplus_kernel(beta, threshold):
    @with_temporaries("softplus", None, np.bool_)
    def kernel(x, out, dtype, tmp):
        """beta x > threshold ? x : log1p(exp(beta x)) / beta (softplus_kernel)."""
        t, linear = tmp
        b, th = np.dtype(dtype).type(beta), np.dtype(dtype).type(threshold)
        np.multiply(x, b, out=t)
        np.greater(t, th, out=linear)
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            np.exp(t, out=t)
            np.log1p(t, out=t)
            np.divide(t, b, out=t)  # (beta = 0: log 2 / 0 is inf, as in PyTorch)
        np.copyto(t, x, where=linear)
        np.copyto(out, t, casting="unsafe")
    return kernel


def softplus(input: Tensor, beta=1, threshold=20, *, out=None) -> Tensor:  # noqa: A002
    check_tensor("softplus", "input", input)
    beta, threshold = number(beta), number(threshold)
    if out is not None:
        return into_out("softplus", input, out, lambda: softplus(input, beta, threshold))
    return new_elementwise("softplus", False, _softplus_kernel(beta, threshold), input,
                           beta=beta, threshold=threshold)


def _softplus_backward(beta, threshold):
    def body(x, g, out, dtype, tmp):
        """beta x > threshold ? g : g z / (z + 1), z = exp(beta x) (softplus_backward)."""
        z, den, linear = tmp
        b, th = np.dtype(dtype).type(beta), np.dtype(dtype).type(threshold)
        np.multiply(x, b, out=z, dtype=dtype)
        np.greater(z, th, out=linear)
        np.exp(z, out=z)
        np.add(z, 1, out=den)
        np.multiply(g, z, out=z, dtype=dtype)
        np.divide(z, den, out=z)
        np.copyto(z, g, where=linear, casting="unsafe")
        np.copyto(out, z, casting="unsafe")
    return body


@derivative("softplus", "SoftplusBackward0", saves={"self": None})
def _softplus_bw(ctx, g):
    body = _softplus_backward(ctx.attr("beta"), ctx.attr("threshold"))
    return (gradient("softplus_backward", body, ctx.saved("self"), g,
                     (None, None, np.bool_)),)


# --------------------------------------------------------------------------- log_sigmoid
def _buffer_body(x, out, dtype, tmp):
    """buffer = exp(-|x|) (the DEFAULT build's is glibc's expf, correctly rounded: NumPy's
    float32 exp can be an ulp off it, so that build's is computed in float64)."""
    (t,) = tmp
    np.abs(x, out=t, dtype=dtype)
    np.negative(t, out=t)
    np.exp(t, out=t, dtype=None if VECTOR_INSTRUCTIONS else np.float64)
    np.copyto(out, t, casting="unsafe")


def _log_sigmoid_body(x, z, out, dtype, tmp):
    """min(x, 0) - log1p(buffer) (log_sigmoid_cpu_kernel)."""
    (t, m) = tmp
    np.log1p(z, out=t, dtype=dtype)
    np.minimum(x, 0, out=m, dtype=dtype)
    np.subtract(m, t, out=t)
    np.copyto(out, t, casting="unsafe")


# The 16-bit kernel runs every element in float32 vectors (the tail too) and reads the float32
# exp(-|x|), rounding it to 16 bits only as it stores the buffer. Its last bits: SLEEF's log1pf
# (AVX2/AVX512) rounds a subnormal input to a multiple of 2**-148 (measured: 2**-149 gives 0,
# so min(x, 0) - 0 is +0 where NumPy's gives -0); a NaN input leaves, in the output,
# vec::minimum's all-ones NaN (AVX2/AVX512) or the DEFAULT build's C++ conversion's canonical
# NaN (float16 keeps x's sign, bfloat16 is 0x7FC0), and in the buffer the NaN -|x| quieted
# (AVX2/AVX512 float16; their bfloat16 conversion makes every NaN 0xFFFF) or canonical.
_SUBNORMAL_STEP = np.float32(2.0**-125)  # its ulp is 2**-148
# (output, buffer) NaN bits: an int is the pattern; "sign" keeps x's sign over 0x7E00, "-|x|"
# is x with its sign and quiet bits set
_NAN_BITS = {(True, "float16"): (0xFFFF, "-|x|"), (True, "bfloat16"): (0xFFFF, 0xFFFF),
             (False, "float16"): ("sign", 0xFE00), (False, "bfloat16"): (0x7FC0, 0x7FC0)}


def _nan_bits_16(x, out, nan, rule) -> None:
    """Where ``x`` is NaN (``nan``: a bool temporary), ``out`` gets ``rule``'s bits."""
    np.isnan(x, out=nan)
    bits, x_bits = out.view(np.uint16), x.view(np.uint16)
    if rule == "sign":
        np.bitwise_and(x_bits, np.uint16(0x8000), out=bits, where=nan)
        np.bitwise_or(bits, np.uint16(0x7E00), out=bits, where=nan)
    elif rule == "-|x|":
        np.bitwise_or(x_bits, np.uint16(0x8200), out=bits, where=nan)
    else:
        np.copyto(bits, np.uint16(rule), where=nan)


def _log_sigmoid_16(dtype_name: str):
    """The 16-bit kernel's bodies, NaNs as torch's build leaves them: the buffer, exp(-|x|)
    rounded to 16 bits, and the output, min(x, 0) - log1p(exp(-|x|)) from the float32 exp."""
    out_rule, buffer_rule = _NAN_BITS[VECTOR_INSTRUCTIONS, dtype_name]

    def buffer_body(x, out, dtype, tmp):
        (t, nan) = tmp
        _buffer_body(x, out, dtype, (t,))
        if has_nan(x):
            _nan_bits_16(x, out, nan, buffer_rule)

    def output_body(x, out, dtype, tmp):
        (t, m, nan) = tmp
        _buffer_body(x, t, dtype, (t,))
        if VECTOR_INSTRUCTIONS:
            t += _SUBNORMAL_STEP  # (no change to a normal number's log1p that 16 bits see)
            t -= _SUBNORMAL_STEP
        _log_sigmoid_body(x, t, out, dtype, (t, m))
        if has_nan(x):
            _nan_bits_16(x, out, nan, out_rule)
    return buffer_body, output_body


def log_sigmoid(input: Tensor, *, out=None) -> Tensor:  # noqa: A002
    """F.logsigmoid: log_sigmoid_forward's output; its buffer goes to the node only."""
    check_tensor("log_sigmoid", "input", input)
    if out is not None:
        return into_out("log_sigmoid", input, out, lambda: log_sigmoid(input),
                        "log_sigmoid_forward")
    dtype_rules.check("log_sigmoid", input.dtype)
    cd = dtypes.compute_np(input.dtype)
    # both contiguous whatever the input's layout (log_sigmoid_forward_cpu's empty_like with
    # MemoryFormat::Contiguous)
    out = Tensor._empty(input._shape, input.dtype, "log_sigmoid")
    buffer = Tensor._empty(input._shape, input.dtype, "log_sigmoid (buffer)")
    x = input._array()
    if input.dtype in (dtypes.float16, dtypes.bfloat16):
        buffer_body, output_body = _log_sigmoid_16(input.dtype.name)
        run_chunked(buffer_body, "log_sigmoid", (None, np.bool_), (x,), buffer._array(), cd)
        run_chunked(output_body, "log_sigmoid", (None, None, np.bool_), (x,), out._array(), cd)
    else:
        run_chunked(_buffer_body, "log_sigmoid", (None,), (x,), buffer._array(), cd)
        run_chunked(_log_sigmoid_body, "log_sigmoid", (None, None), (x, buffer._array()),
                    out._array(), cd)
    return record("log_sigmoid_forward", out, {"self": input, "buffer": buffer})


def _log_sigmoid_backward(x, z, g, out, dtype, tmp):
    """g (max_deriv - sign z / (1 + z)), z the buffer: max_deriv 1 and sign 1 where x < 0,
    else 0 and -1, so 1 - z / (1 + z) or z / (1 + z) (log_sigmoid_backward)."""
    (t, den, negative) = tmp
    np.add(z, 1, out=den, dtype=dtype)
    np.divide(z, den, out=t, dtype=dtype)
    np.less(x, 0, out=negative)
    np.subtract(1, t, out=t, where=negative)
    np.multiply(t, g, out=out, dtype=dtype, casting="unsafe")


@derivative("log_sigmoid_forward", "LogSigmoidBackward0", saves={"self": None, "buffer": None})
def _log_sigmoid_bw(ctx, g):
    x, buffer = ctx.saved("self"), ctx.saved("buffer")
    gx = Tensor._empty(g._shape, g.dtype, "log_sigmoid_backward")
    run_chunked(_log_sigmoid_backward, "log_sigmoid_backward", (None, None, np.bool_),
                (x._array(), buffer._array(), g._array()), gx._array(),
                dtypes.compute_np(g.dtype))
    return (gx,)
