"""The self-gated activations x * gate(x) of PyTorch's cpu/Activation.cpp: silu (gate: sigmoid),
mish (gate: tanh(softplus(x))), hardswish (gate: hardsigmoid), and hardsigmoid itself.

Each has an in-place form (torch._C._nn.silu_ ..., F.silu(x, inplace=True)) that records the
*same* node as the out-of-place form, SiluBackward0 ..., because derivatives.yaml's formula
reads ``self``: autograd saves a copy of the input taken before the write
(autograd/record.py:record_inplace), so the overwritten tensor may change again freely.
Floating types only: an integer or bool tensor is refused by name ("silu_cpu").
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..tensor import Tensor
from . import dtype_rules
from ._chunked import run_chunked, with_temporaries
from .arg_checks import check_tensor
from .tensor_iterator import inplace_elementwise, new_elementwise

_INTEGERS = ("Bool", "Byte", "Char", "Short", "Int", "Long")


def refuse_integers(op: str, kernel: str) -> None:
    """Floating kernels only: an integer or bool ``op`` is refused with the name of
    PyTorch's kernel ("silu_cpu"), through dtype_rules.check."""
    for short in _INTEGERS:
        dtype_rules.UNSUPPORTED[op, short] = (
            lambda s=short: NotImplementedError(f'"{kernel}" not implemented for \'{s}\''))


for _op in ("silu", "mish", "hardswish", "hardsigmoid"):
    refuse_integers(_op, _op + "_cpu")


def gradient(op: str, body, x: Tensor, g: Tensor, temps: tuple) -> Tensor:
    """A backward kernel ``body(x, g, out, dtype, tmp)`` run into a fresh gradient, in
    chunks whose temporaries come from the workspace (float16 computes in float32)."""
    gx = Tensor._empty(g._shape, g.dtype, op)
    with np.errstate(over="ignore", invalid="ignore"):
        run_chunked(body, op, temps, (x._array(), g._array()), gx._array(),
                    dtypes.compute_np(g.dtype))
    return gx


# --------------------------------------------------------------------------- silu
@with_temporaries("silu", None)
def _silu_kernel(x, out, dtype, tmp):
    """x / (1 + exp(-x)), as silu_kernel writes it (a large -x: exp is inf, the result -0)."""
    (e,) = tmp
    with np.errstate(over="ignore"):
        np.negative(x, out=e)
        np.exp(e, out=e)
    e += 1
    np.divide(x, e, out=out)


def silu(self: Tensor) -> Tensor:
    check_tensor("silu", "input", self)
    return new_elementwise("silu", False, _silu_kernel, self)


def silu_(self: Tensor) -> Tensor:
    check_tensor("silu_", "input", self)
    return inplace_elementwise("silu", False, _silu_kernel, self)


def _silu_backward_body(x, g, out, dtype, tmp):
    """g * s * (1 + x * (1 - s)), s = sigmoid(x) (silu_backward_kernel)."""
    (s, t) = tmp
    np.negative(x, out=s, dtype=dtype)
    np.exp(s, out=s)
    s += 1
    np.reciprocal(s, out=s)
    np.subtract(1, s, out=t)
    t *= x
    t += 1
    t *= s
    np.multiply(g, t, out=out)  # the one rounding of a float16 gradient


@derivative("silu", "SiluBackward0", saves={"self": None})
def _silu_bw(ctx, g):
    return (gradient("silu_backward", _silu_backward_body, ctx.saved("self"), g,
                      (None, None)),)


# --------------------------------------------------------------------------- mish
def _tanh_softplus(x, out, dtype) -> None:
    """tanh(log1p(exp(x))) into ``out``: the gate of mish (exp overflows to inf: gate 1)."""
    with np.errstate(over="ignore"):
        np.exp(x, out=out, dtype=dtype)
    np.log1p(out, out=out)
    np.tanh(out, out=out)


@with_temporaries("mish", None)
def _mish_kernel(x, out, dtype, tmp):
    """x * tanh(log1p(exp(x))) (mish_kernel)."""
    (gate,) = tmp
    _tanh_softplus(x, gate, dtype)
    np.multiply(x, gate, out=out)


def mish(self: Tensor) -> Tensor:
    check_tensor("mish", "input", self)
    return new_elementwise("mish", False, _mish_kernel, self)


def mish_(self: Tensor) -> Tensor:
    check_tensor("mish_", "input", self)
    return inplace_elementwise("mish", False, _mish_kernel, self)


def _mish_backward_body(x, g, out, dtype, tmp):
    """g * (th + x * s * (1 - th^2)), th = tanh(softplus(x)), s = sigmoid(x)."""
    (th, s, t) = tmp
    _tanh_softplus(x, th, dtype)
    with np.errstate(over="ignore"):
        np.negative(x, out=s, dtype=dtype)
        np.exp(s, out=s)
    s += 1
    np.reciprocal(s, out=s)
    s *= x
    np.multiply(th, th, out=t)
    np.subtract(1, t, out=t)
    t *= s
    t += th
    np.multiply(g, t, out=out)


@derivative("mish", "MishBackward0", saves={"self": None})
def _mish_bw(ctx, g):
    return (gradient("mish_backward", _mish_backward_body, ctx.saved("self"), g,
                      (None, None, None)),)


# --------------------------------------------------------------------------- hardsigmoid
@with_temporaries("hardsigmoid", None)
def _hardsigmoid_kernel(x, out, dtype, tmp):
    """min(max(x + 3, 0), 6) / 6 (hardsigmoid_kernel; a NaN stays NaN)."""
    (t,) = tmp
    np.add(x, 3, out=t)
    np.maximum(t, 0, out=t)
    np.minimum(t, 6, out=t)
    np.divide(t, 6, out=out)


def hardsigmoid(self: Tensor) -> Tensor:
    check_tensor("hardsigmoid", "input", self)
    return new_elementwise("hardsigmoid", False, _hardsigmoid_kernel, self)


def hardsigmoid_(self: Tensor) -> Tensor:
    check_tensor("hardsigmoid_", "input", self)
    return inplace_elementwise("hardsigmoid", False, _hardsigmoid_kernel, self)


def _hardsigmoid_backward_body(x, g, out, dtype, tmp):
    """-3 < x < 3 ? g / 6 : 0 (hardsigmoid_backward_kernel: a NaN input gets 0, and so does
    a NaN gradient outside; the zero is written, not g * 0)."""
    (outside, below) = tmp
    np.less(x, 3, out=outside)
    np.greater(x, -3, out=below)
    outside &= below
    np.logical_not(outside, out=outside)
    np.divide(g, 6, out=out, dtype=dtype)
    np.copyto(out, 0, where=outside)


@derivative("hardsigmoid", "HardsigmoidBackward0", saves={"self": None})
def _hardsigmoid_bw(ctx, g):
    return (gradient("hardsigmoid_backward", _hardsigmoid_backward_body, ctx.saved("self"),
                      g, (np.bool_, np.bool_)),)


# --------------------------------------------------------------------------- hardswish
@with_temporaries("hardswish", None)
def _hardswish_kernel(x, out, dtype, tmp):
    """x * min(max(x + 3, 0), 6) / 6 (hardswish_kernel: the product first, then / 6)."""
    (t,) = tmp
    np.add(x, 3, out=t)
    np.maximum(t, 0, out=t)
    np.minimum(t, 6, out=t)
    t *= x
    np.divide(t, 6, out=out)


def hardswish(self: Tensor) -> Tensor:
    check_tensor("hardswish", "input", self)
    return new_elementwise("hardswish", False, _hardswish_kernel, self)


def hardswish_(self: Tensor) -> Tensor:
    check_tensor("hardswish_", "input", self)
    return inplace_elementwise("hardswish", False, _hardswish_kernel, self)


def _hardswish_backward_body(x, g, out, dtype, tmp):
    """x <= -3 ? 0 : (x < 3 ? g * (x / 3 + 0.5) : g) (hardswish_backward_kernel: a NaN input
    passes g on; the zero is written, not g * 0)."""
    (slope, cut) = tmp
    np.divide(x, 3, out=slope, dtype=dtype)  # (a 16-bit x is read in float: one rounding)
    slope += 0.5
    np.multiply(g, slope, out=out)
    np.less(x, 3, out=cut)
    np.logical_not(cut, out=cut)
    np.copyto(out, g, where=cut)
    np.less_equal(x, -3, out=cut)
    np.copyto(out, 0, where=cut)


@derivative("hardswish", "HardswishBackward0", saves={"self": None})
def _hardswish_bw(ctx, g):
    return (gradient("hardswish_backward", _hardswish_backward_body, ctx.saved("self"), g,
                      (None, np.bool_)),)
