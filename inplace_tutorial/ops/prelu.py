"""prelu: x where x > 0, else weight * x, with one learnt slope per channel (dim 1) or one
for all. torch.prelu, Tensor.prelu and F.prelu; nn.PReLU holds the weight.

As PyTorch's prelu, the weight is first checked (same dtype as the input, one value or one
per channel, at most 1-D) and reshaped to broadcast over the input (a view: its node is
ViewBackward0), then ``_prelu_kernel`` runs: PreluKernelBackward0 saves the input and that
reshaped weight, and its weight gradient is summed back over the broadcast dims.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..layout import broadcast_shapes
from ..tensor import Tensor, tensor_method
from . import dtype_rules
from ._chunked import run_chunked
from ._pointwise import new_output
from .arg_checks import check_tensor
from .self_gated import refuse_integers

refuse_integers("_prelu_kernel", "prelu_cpu")


def _check(self: Tensor, weight: Tensor) -> None:
    """torch.prelu's checks, in its order."""
    if self.dtype is not weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {self.dtype.short} and "
                           f"{weight.dtype.short}")
    if weight.numel() != 1:
        if self.dim() == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = self._shape[1] if self.dim() > 1 else 1
        if channels != weight.numel():
            raise RuntimeError("Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {weight.numel()} and channel size = "
                               f"{channels}.")
    if weight.dim() > 1:
        raise RuntimeError("prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.dim()}")


@binding()
@tensor_method
def prelu(self, weight) -> Tensor:
    check_tensor("prelu", "weight", weight)
    _check(self, weight)
    if self.dim() != weight.dim():  # broadcast over dim 1: (1, C, 1, ...) or (1,)*ndim
        shape = [1] * self.dim()
        if self.dim() > 1:
            shape[1] = weight.numel()
        weight = weight.reshape(shape)
    return _prelu_kernel(self, weight)


def _prelu_body(x, w, out, dtype, tmp):
    """x > 0 ? x : w x."""
    (positive,) = tmp
    np.greater(x, 0, out=positive)
    np.multiply(w, x, out=out, dtype=dtype, casting="unsafe")
    np.copyto(out, x, where=positive, casting="unsafe")


def _prelu_kernel(self: Tensor, weight: Tensor) -> Tensor:
    dtype_rules.check("_prelu_kernel", self.dtype)
    shape = broadcast_shapes(self._shape, weight._shape)
    out = new_output("_prelu_kernel", shape, self.dtype, (self, weight))
    run_chunked(_prelu_body, "_prelu_kernel", (np.bool_,), (self._array(), weight._array()),
                out._array(), dtypes.compute_np(self.dtype))
    return record("_prelu_kernel", out, {"self": self, "weight": weight})


def _grad_self_body(x, w, g, out, dtype, tmp):
    """x > 0 ? g : w g."""
    (positive,) = tmp
    np.greater(x, 0, out=positive)
    np.multiply(w, g, out=out, dtype=dtype, casting="unsafe")
    np.copyto(out, g, where=positive, casting="unsafe")


def _grad_weight_body(x, g, out, dtype, tmp):
    """x > 0 ? 0 : x g (summed to the weight's shape by the engine)."""
    (positive,) = tmp
    np.greater(x, 0, out=positive)
    np.multiply(x, g, out=out, dtype=dtype, casting="unsafe")
    np.copyto(out, 0, where=positive)


@derivative("_prelu_kernel", "PreluKernelBackward0", inputs=("self", "weight"),
            saves={"self": None, "weight": None})
def _prelu_kernel_bw(ctx, g):
    x, w = ctx.saved("self"), ctx.saved("weight")
    cd = dtypes.compute_np(g.dtype)
    gx = gw = None
    if ctx.needs(0):
        gx = Tensor._empty(g._shape, g.dtype, "_prelu_kernel_backward")
        run_chunked(_grad_self_body, "_prelu_kernel_backward", (np.bool_,),
                    (x._array(), w._array(), g._array()), gx._array(), cd)
    if ctx.needs(1):
        gw = Tensor._empty(g._shape, g.dtype, "_prelu_kernel_backward (weight)")
        run_chunked(_grad_weight_body, "_prelu_kernel_backward", (np.bool_,),
                    (x._array(), g._array()), gw._array(), cd)
    return gx, gw
