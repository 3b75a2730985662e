"""``out=`` of the activations torch exposes as functions with an ``out`` argument:
``torch.threshold(input, threshold, value, *, out=o)`` (the other activations' out= forms
live in torch._C._nn, which learners don't call; F.* take no out).

threshold is a structured TensorIterator kernel built without an overlap check: out= refuses
autograd, then out's dtype must hold self's (Float into Long is refused), then out is resized
(with its warning when it had elements), and only then does the kernel convert the Scalars to
self's type, so an overflowing threshold (300 for int8) or a bool self raises after the
resize. The values are computed in self's dtype, as by ``threshold``, and cast into out.
"""
from __future__ import annotations

from .. import dtypes
from ..autograd import grad_mode
from ..copy_kernel import cast_into
from ..function_parser import torch_function
from ..tensor import Tensor
from . import activation, out_variants
from .arg_checks import argument_error


@torch_function("threshold")
def threshold(input: Tensor, threshold, value, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    """torch.threshold(input, threshold, value, *, out=None): x <= threshold ? value : x."""
    if out is None:
        return activation.threshold(input, threshold, value)
    activation._scalars(threshold, value)  # (a TypeError: the binding words torch's refusal)
    if not isinstance(out, Tensor):
        raise argument_error("threshold", "out", None, "Tensor", out)
    out_variants._refuse_autograd("threshold", (input,), out)
    if not dtypes.can_cast(input.dtype, out.dtype):
        raise RuntimeError(f"result type {input.dtype.short} can't be cast to the desired "
                           f"output type {out.dtype.short}")
    out_variants.resize_output(out, tuple(input._shape))
    with grad_mode.no_grad():
        result = activation.threshold(input, threshold, value)  # (its kernel's errors)
    out._vc.write(lambda: cast_into(out._array(), result._array(), out.dtype, "threshold"),
                  "threshold")
    return out


__all__ = ["threshold"]
