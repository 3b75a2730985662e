"""The out-of-place twins of fill_ and bernoulli_: ``torch.fill``, ``torch.bernoulli`` and
``Tensor.bernoulli``.

Each makes a fresh tensor and runs the in-place op (fill.py, random.py) on it with grad mode
off, then records its own node: FillBackward0/1 (the input gets zeros, a tensor value the sum
of the gradient), BernoulliBackward0 (zeros), and for ``bernoulli(p=float)`` PyTorch's
NotImplemented node, whose backward refuses.
"""
from __future__ import annotations

import numpy as np

from ..arg_parser import binding, invalid_combination
from ..autograd import grad_mode
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..tensor import Tensor, tensor_method
from .arg_checks import argument_error, is_number
from .reorder import _like

_FILL_FORMS = ["Tensor input, Tensor value", "Tensor input, Number value"]


def fill(input: Tensor, value) -> Tensor:  # noqa: A002 - PyTorch's parameter name
    """torch.fill: a new tensor laid out as ``input``, every cell ``value``."""
    if not isinstance(input, Tensor) or not (isinstance(value, Tensor) or (
            is_number(value) and not isinstance(value, np.ndarray))):
        raise invalid_combination("fill", (input, value), _FILL_FORMS)
    out = _like(input, "fill")
    with grad_mode.no_grad():
        out.fill_(value)
    if isinstance(value, Tensor):
        return record("fill_tensor_out", out, {"self": input, "value": value})
    return record("fill_out", out, {"self": input})


@derivative("fill_out", "FillBackward0")
def _fill_bw(ctx, g):
    return (g * 0,)


@derivative("fill_tensor_out", "FillBackward1", inputs=("self", "value"))
def _fill_tensor_bw(ctx, g):
    return (g * 0 if ctx.needs(0) else None, g.sum() if ctx.needs(1) else None)


# --------------------------------------------------------------------------- bernoulli
BERNOULLI_FORMS = ["Tensor input, *, torch.Generator generator = None, Tensor out = None",
                   "Tensor input, float p, *, torch.Generator generator = None"]
_METHOD_FORMS = ["*, torch.Generator generator = None",
                 "float p, *, torch.Generator generator = None"]


def _draw(self: Tensor, p, generator) -> Tensor:
    """A fresh contiguous tensor of self's shape and dtype, drawn with probability ``self``
    (or the number ``p``), recorded as PyTorch records it."""
    out = Tensor._empty(self._shape, self.dtype, "bernoulli")
    with grad_mode.no_grad():
        out.bernoulli_(self if p is None else p, generator=generator)
    return record("bernoulli" if p is None else "bernoulli_p", out, {"self": self})


def bernoulli_function(input: Tensor, p=None, *, generator=None) -> Tensor:  # noqa: A002
    """torch.bernoulli(input) draws 1 with probability input; torch.bernoulli(input, p) with
    probability p (input gives only shape and dtype)."""
    if not isinstance(input, Tensor):
        raise argument_error("bernoulli", "input", 1, "Tensor", input)
    if p is not None and (not is_number(p) or isinstance(p, (Tensor, complex))):
        raise invalid_combination("bernoulli", (input, p), BERNOULLI_FORMS)
    return _draw(input, p, generator)


@binding()
@tensor_method
def bernoulli(self, p=None, *, generator=None) -> Tensor:
    if p is not None and (not is_number(p) or isinstance(p, (Tensor, complex))):
        raise invalid_combination("bernoulli", (p,), _METHOD_FORMS)
    return _draw(self, p, generator)


@derivative("bernoulli", "BernoulliBackward0")
def _bernoulli_bw(ctx, g):
    return (g * 0,)


@derivative("bernoulli_p", "NotImplemented", qualified=True)
def _bernoulli_p_bw(ctx, g):
    raise RuntimeError("derivative for aten::bernoulli is not implemented")
