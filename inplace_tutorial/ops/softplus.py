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
from ..tensor import Tensor
from . import dtype_rules
from ._chunked import run_chunked, with_temporaries
from .activations_out import into_out
from .arg_checks import check_tensor
from .self_gated import gradient, refuse_integers
from .shrink import number
from .tensor_iterator import new_elementwise

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
    """buffer = exp(-|x|)."""
    (t,) = tmp
    np.abs(x, out=t, dtype=dtype)
    np.negative(t, out=t)
    np.exp(t, out=t)
    np.copyto(out, t, casting="unsafe")


def _log_sigmoid_body(x, z, out, dtype, tmp):
    """min(x, 0) - log1p(buffer) (log_sigmoid_cpu_kernel)."""
    (t, m) = tmp
    np.log1p(z, out=t, dtype=dtype)
    np.minimum(x, 0, out=m, dtype=dtype)
    np.subtract(m, t, out=t)
    np.copyto(out, t, casting="unsafe")


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
