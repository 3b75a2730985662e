"""The Scalar overloads of mul, div and add: ``mul.Scalar``, ``div.Scalar``, ``add.Scalar``.

From Python, ``x * 0.9`` wraps 0.9 into a 0-dim tensor and records MulBackward0. PyTorch's
C++ composites (the cross_entropy variants in LossNLL.cpp) call the Scalar overloads instead,
whose nodes are MulBackward1, DivBackward1 and AddBackward1 and save the number itself
(``_saved_other`` is 0.9, not a tensor). The losses in loss_ops.py call these to show the
same graph. The kernel is the Tensor-by-number one of elementwise.py.
"""
from __future__ import annotations

from ..autograd import grad_mode
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..tensor import Tensor


def mul_scalar(self: Tensor, other: float) -> Tensor:
    """``self * other`` as ``at::mul(self, Scalar)`` records it."""
    with grad_mode.no_grad():
        out = self.mul(other)
    return record("mul_scalar", out, {"self": self}, other=other)


# derivatives.yaml, mul.Scalar: self: mul_tensor_backward(grad, other, self.scalar_type())
@derivative("mul_scalar", "MulBackward1", saves={"other": None})
def _mul_scalar_bw(ctx, g):
    return (g.mul(ctx.attr("other")),)


def div_scalar(self: Tensor, other: float) -> Tensor:
    """``self / other`` as ``at::div(self, Scalar)`` records it."""
    with grad_mode.no_grad():
        out = self.div(other)
    return record("div_scalar", out, {"self": self}, other=other)


# derivatives.yaml, div.Scalar: self: div_tensor_self_backward(grad, other, self.scalar_type())
@derivative("div_scalar", "DivBackward1", saves={"other": None})
def _div_scalar_bw(ctx, g):
    return (g.div(ctx.attr("other")),)


def add_scalar(self: Tensor, other: float) -> Tensor:
    """``self + other`` as ``at::add(self, Scalar)`` records it."""
    with grad_mode.no_grad():
        out = self.add(other)
    return record("add_scalar", out, {"self": self})


# derivatives.yaml, add.Scalar: self: handle_r_to_c(self.scalar_type(), grad) (saves nothing)
@derivative("add_scalar", "AddBackward1")
def _add_scalar_bw(ctx, g):
    return (g,)
