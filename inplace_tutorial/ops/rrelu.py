"""rrelu, PyTorch's randomized leaky ReLU: in training each negative input is multiplied by
a slope of its own, drawn from U(lower, upper) and kept in a ``noise`` tensor (a positive
input's noise is 1), and the backward multiplies by the same noise; in evaluation it is
leaky_relu (activation.py) with the mean slope (lower + upper) / 2. RreluWithNoiseBackward0
saves the input and the noise, RreluWithNoiseBackward1 (rrelu_) the result and the noise.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd import grad_mode
from ..autograd.derivatives import derivative
from ..creation import empty_like
from ..tensor import Tensor
from . import dtype_rules
from .activation import _INTEGERS, _leaky_backward, _leaky_kernel, _not_implemented, _scalars
from .tensor_iterator import inplace_elementwise, new_elementwise

for _short in _INTEGERS:  # leaky_relu's kernel, which PyTorch dispatches to float types only
    for _op in ("rrelu_with_noise", "rrelu_with_noise_"):
        dtype_rules.UNSUPPORTED[_op, _short] = _not_implemented("leaky_relu_cpu", _short)


def _rrelu_check(lower, upper) -> None:
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")


def _rrelu_noise(self: Tensor, lower, upper) -> Tensor:
    """Training: a negative x is multiplied by its own draw from U(lower, upper), kept in
    the noise; a positive x passes, its noise 1 (the draws come from the core's generator)."""
    noise = empty_like(self)
    noise.uniform_(lower, upper)
    positive = Tensor._empty(self._shape, dtypes.bool_, "rrelu_with_noise (x > 0)")
    np.greater(self._array(), 0, out=positive._array())
    np.copyto(noise._array(), 1, where=positive._array())
    return noise


def _times(noise: np.ndarray):
    def kernel(x, out, dtype):  # reads the noise it closed over: never split into chunks
        np.multiply(x, noise, out=out, dtype=dtype, casting="unsafe")
    return kernel


def _rrelu(row: str, self: Tensor, lower, upper, training: bool, inplace: bool):
    lower, upper = _scalars(lower, upper)
    if not isinstance(training, bool):
        raise TypeError("training must be a bool")
    _rrelu_check(lower, upper)
    dtype_rules.check(row, self.dtype)
    with grad_mode.no_grad():
        noise = _rrelu_noise(self, lower, upper) if training else empty_like(self)
    kernel = _times(noise._array()) if training else _leaky_kernel((lower + upper) / 2)
    run = inplace_elementwise if inplace else new_elementwise
    return run(row, True, kernel, self, noise=noise, lower=lower, upper=upper,
               training=training)


def rrelu(self: Tensor, lower=0.125, upper=1 / 3, training: bool = False,
          generator=None) -> Tensor:
    return _rrelu("rrelu_with_noise", self, lower, upper, training, False)


def rrelu_(self: Tensor, lower=0.125, upper=1 / 3, training: bool = False,
           generator=None) -> Tensor:
    return _rrelu("rrelu_with_noise_", self, lower, upper, training, True)


def _rrelu_backward(ctx, g: Tensor, x: Tensor, is_result: bool) -> Tensor:
    lower, upper = ctx.attr("lower"), ctx.attr("upper")
    if ctx.attr("training") and upper - lower > 1e-6:
        return g * ctx.saved("noise")
    return _leaky_backward(g, x, (lower + upper) / 2, is_result)


@derivative("rrelu_with_noise", "RreluWithNoiseBackward0", saves={"self": None, "noise": None})
def _rrelu_bw(ctx, g):
    return (_rrelu_backward(ctx, g, ctx.saved("self"), False),)


@derivative("rrelu_with_noise_", "RreluWithNoiseBackward1",
            saves={"result": None, "noise": None})
def _rrelu__bw(ctx, g):
    return (_rrelu_backward(ctx, g, ctx.saved("result"), True),)
