"""``out=`` of the activations torch binds with one: torch.hardshrink, and torch._C._nn's
softplus, softshrink and log_sigmoid (F.softplus(x, out=o) ... pass it on).

Their kernels are structured: out= refuses autograd, out's dtype must be the input's (no cast;
log_sigmoid's check has its own words), an out whose cells alias each other is refused, a
wrongly shaped out is resized (with the deprecation warning, except log_sigmoid's, whose out
is resized silently), then the kernel runs. Here the result is computed and then copied into
out: the same values, except when out overlaps the input only partly, where PyTorch's loop
reads cells it already wrote (not modelled). A resized out is contiguous, as the core's
other out= forms make it.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..autograd import grad_mode
from ..tensor import Tensor
from .arg_checks import argument_error
from .out_variants import _refuse_autograd, resize_output
from .tensor_iterator import check_internal_overlap


def into_out(name: str, input: Tensor, out, compute: Callable[[], Tensor],  # noqa: A002
             node: str | None = None) -> Tensor:
    """``compute()`` (the op, without autograd) written into ``out``, after PyTorch's checks.
    ``node``: the name autograd's refusal gives (log_sigmoid's is log_sigmoid_forward)."""
    if not isinstance(out, Tensor):
        raise argument_error(name, "out", None, "Tensor", out)
    _refuse_autograd(node or name, (input,), out)
    if out.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.short} but found "
                           f"{out.dtype.short}" if name == "log_sigmoid" else
                           f"Found dtype {out.dtype.short} but expected {input.dtype.short}")
    check_internal_overlap(out)
    resize_output(out, tuple(input._shape), warn=name != "log_sigmoid")
    with grad_mode.no_grad():
        result = compute()
    out._vc.write(lambda: np.copyto(out._array(), result._array()), name)
    return out


__all__ = ["into_out"]
