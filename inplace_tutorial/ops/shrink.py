"""The shrinkage activations: hardshrink (x where |x| > lambd, else 0; also a Tensor method
and torch.hardshrink) and softshrink (x moved lambd towards 0, 0 inside [-lambd, lambd]).

Both save their input and lambd (HardshrinkBackward0, SoftshrinkBackward0), and share one
backward, shrink_backward: the gradient passes where the input was outside [-lambd, lambd].
A NaN input passes through both (no comparison holds for it). Inside the band the result is
+0.0, as PyTorch's vectorised loop writes it (its element-by-element loop, which runs on
strided tensors and short tails, gives softshrink of a negative x -0.0: not modelled).
tanhshrink, x - tanh(x), is made of sub and tanh in nn/functional_activations.py.
"""
from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from ..arg_parser import argument_error, binding
from ..autograd.derivatives import derivative
from ..tensor import Tensor, tensor_method
from ._chunked import with_temporaries
from .activations_out import into_out
from .arg_checks import check_tensor
from .self_gated import gradient, refuse_integers
from .tensor_iterator import new_elementwise

refuse_integers("hardshrink", "hardshrink_cpu")
refuse_integers("softshrink", "softshrink_check")  # (softshrink checks lambd first)

# the largest value of each floating type, and as C++'s ostream prints it (softshrink's check)
_MAX = {"Float": (3.4028234663852886e38, "3.40282e+38"),
        "Double": (1.7976931348623157e308, "1.79769e+308"), "Half": (65504.0, "65504"),
        "BFloat16": (3.3895313892515355e38, "3.38953e+38")}


def number(value, op: str = "", arg: str = "", position: int | None = None):
    """A Scalar argument (lambd, beta ...) as a Python number (a 0-dim tensor is one);
    anything else is refused in the words of torch's parser (a torch_function binding
    rewords a refusal itself, so ``op`` may stay empty there). A NumPy number becomes
    Python's, as torch's parser reads it (``grad_fn._saved_lambd`` is then a float)."""
    if isinstance(value, Tensor) and value.dim() == 0 and not value.requires_grad:
        value = value.item()
    if not isinstance(value, numbers.Real) or isinstance(value, Tensor):
        raise argument_error(op, arg, position, "Number", value)
    return value.item() if isinstance(value, np.generic) else value


def _in_type(lambd, d: dtypes.dtype) -> float:
    """``lambd.to<scalar_t>()``: the Scalar rounded to the tensor's own type, as hardshrink's
    kernel and the shared backward compare with it (softshrink's forward keeps a float for
    16-bit tensors: a float16 x just past lambd is shrunk to a tiny number, and its gradient
    is 0)."""
    if d is dtypes.float64:
        return float(lambd)
    return float(np.float32(lambd).astype(d.np))  # (through float, as c10::Half(float))


def _band(x, lambd, inside, other) -> None:
    """inside = -lambd <= x <= lambd (False for a NaN), ``other`` a scratch mask."""
    np.greater_equal(x, -lambd, out=inside)
    np.less_equal(x, lambd, out=other)
    inside &= other


def _hardshrink_kernel(lambd):
    @with_temporaries("hardshrink", np.bool_, np.bool_)
    def kernel(x, out, dtype, tmp):
        inside, other = tmp
        _band(x, lambd, inside, other)
        if out is not x:
            np.copyto(out, x, casting="unsafe")
        np.copyto(out, 0, where=inside)
    return kernel


@binding()
@tensor_method
def hardshrink(self, lambd=0.5) -> Tensor:
    lambd = number(lambd, "hardshrink", "lambd", 1)
    return new_elementwise("hardshrink", False, _hardshrink_kernel(_in_type(lambd, self.dtype)),
                           self, lambd=lambd)


def hardshrink_function(input: Tensor, lambd=0.5, *, out=None) -> Tensor:  # noqa: A002
    """torch.hardshrink (and F.hardshrink): the method, or its out= form."""
    check_tensor("hardshrink", "input", input)
    if out is not None:
        lambd = number(lambd)
        return into_out("hardshrink", input, out, lambda: hardshrink(input, lambd))
    return hardshrink(input, lambd)


def _softshrink_kernel(lambd):
    @with_temporaries("softshrink", np.bool_, np.bool_)
    def kernel(x, out, dtype, tmp):
        inside, beyond = tmp
        _band(x, lambd, inside, beyond)  # (beyond is scratch until it is set below)
        if out is not x:
            np.copyto(out, x, casting="unsafe")
        np.greater(x, lambd, out=beyond)
        np.subtract(out, lambd, out=out, where=beyond)
        np.less(x, -lambd, out=beyond)
        np.add(out, lambd, out=out, where=beyond)
        np.copyto(out, 0, where=inside)
    return kernel


def softshrink(input: Tensor, lambd=0.5, *, out=None) -> Tensor:  # noqa: A002
    """torch._C._nn.softshrink (F.softshrink): lambd must lie in [0, the type's largest]."""
    check_tensor("softshrink", "input", input)
    lambd = number(lambd)
    largest = _MAX.get(input.dtype.short)  # (an integer tensor is refused by its kernel)
    if largest is not None and not 0 <= lambd <= largest[0]:
        raise RuntimeError(f"lambda must be in range [0, {largest[1]}] for input dtype "
                           f"{input.dtype.short}, but found {lambd:g}")
    if out is not None:
        return into_out("softshrink", input, out, lambda: softshrink(input, lambd))
    return new_elementwise("softshrink", False, _softshrink_kernel(lambd), input, lambd=lambd)


def _shrink_backward(x, g, out, dtype, tmp, lambd) -> None:
    """g where x lies outside [-lambd, lambd] (or is NaN), else 0 (shrink_backward)."""
    inside, other = tmp
    _band(x, lambd, inside, other)
    np.copyto(out, g, casting="unsafe")
    np.copyto(out, 0, where=inside)


def _shrink_bw(ctx, g, op: str):
    x = ctx.saved("self")
    lambd = _in_type(ctx.attr("lambd"), x.dtype)
    return (gradient(op, lambda xs, gs, out, dtype, tmp: _shrink_backward(
        xs, gs, out, dtype, tmp, lambd), x, g, (np.bool_, np.bool_)),)


@derivative("hardshrink", "HardshrinkBackward0", saves={"self": None})
def _hardshrink_bw(ctx, g):
    return _shrink_bw(ctx, g, "hardshrink_backward")


@derivative("softshrink", "SoftshrinkBackward0", saves={"self": None})
def _softshrink_bw(ctx, g):
    return _shrink_bw(ctx, g, "softshrink_backward")
