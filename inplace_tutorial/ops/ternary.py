"""addcmul, addcdiv and lerp: the fused updates optimizers are built from.

The in-place forms work chunk by chunk through a small scratch buffer, so Adam's
``exp_avg_sq.addcmul_(g, g, value=1 - beta2)`` never materialises ``g * g``.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..layout import broadcast_shapes
from ..tensor import Tensor, tensor_method
from ._iter import Scratch, arr, check_inplace_operands, chunks, shape_of


def _fused_kernel(out: np.ndarray, base, a, b, combine, scale, op: str, inplace: bool) -> None:
    """out = base + scale * combine(a, b), without a full-size temporary when in place."""
    a, b = np.broadcast_to(arr(a), out.shape), np.broadcast_to(arr(b), out.shape)
    if not inplace:  # the fresh output is its own workspace
        combine(a, b, out=out, casting="unsafe")
        if scale != 1:
            np.multiply(out, scale, out=out, casting="unsafe")
        np.add(out, arr(base), out=out, casting="unsafe")
        return
    with Scratch(out.dtype, op, out.size) as scratch:
        for idx in chunks(out.shape, scratch.capacity):
            o = out[idx]
            tmp = scratch.view(o.shape)
            combine(a[idx], b[idx], out=tmp, casting="unsafe")
            if scale != 1:
                np.multiply(tmp, scale, out=tmp)
            np.add(o, tmp, out=o)


def _lerp(a, b, out, casting):  # (end - self): lerp's "combine"
    np.subtract(b, a, out=out, casting=casting)


# name -> (how the two operands combine, their names in the derivative table)
_FAMILY = {
    "addcmul": (np.multiply, ("tensor1", "tensor2")),
    "addcdiv": (np.divide, ("tensor1", "tensor2")),
    "lerp": (_lerp, ("end", "weight")),
}


def _fused(name: str, self: Tensor, t1, t2, value) -> Tensor:
    combine, operands = _FAMILY[name]
    a, b, scale = (self, t1, t2) if name == "lerp" else (t1, t2, value)
    rd = dtypes.result_type(self, t1, *(() if t2 is None or name == "lerp" else (t2,)))
    shape = broadcast_shapes(broadcast_shapes(shape_of(self), shape_of(a)), shape_of(b))
    out = Tensor._empty(shape, rd, name)
    _fused_kernel(out._array(), self, a, b, combine, scale, name, False)
    return record(name, out, {"self": self, operands[0]: t1, operands[1]: t2}, value=scale)


def _fused_(name: str, self: Tensor, t1, t2, value) -> Tensor:
    combine, operands = _FAMILY[name]
    a, b, scale = (self, t1, t2) if name == "lerp" else (t1, t2, value)
    others = tuple(x for x in (t1, t2) if isinstance(x, Tensor))
    rd = dtypes.result_type(self, *others)
    return record_inplace(
        name, self, {"self": self, operands[0]: t1, operands[1]: t2},
        compute=lambda: _fused_kernel(self._array(), self, a, b, combine, scale, name + "_",
                                      True),
        check=lambda: check_inplace_operands(self, others, rd), value=scale)


@tensor_method
def addcmul(self, tensor1, tensor2=None, value=1) -> Tensor:
    """self + value * tensor1 * tensor2."""
    return _fused("addcmul", self, tensor1, tensor2, value)


@tensor_method
def addcmul_(self, tensor1, tensor2=None, value=1) -> Tensor:
    return _fused_("addcmul", self, tensor1, tensor2, value)


@tensor_method
def addcdiv(self, tensor1, tensor2=None, value=1) -> Tensor:
    """self + value * tensor1 / tensor2."""
    return _fused("addcdiv", self, tensor1, tensor2, value)


@tensor_method
def addcdiv_(self, tensor1, tensor2=None, value=1) -> Tensor:
    return _fused_("addcdiv", self, tensor1, tensor2, value)


@tensor_method
def lerp(self, end, weight=None) -> Tensor:
    """self + weight * (end - self)."""
    return _fused("lerp", self, end, weight, 1)


@tensor_method
def lerp_(self, end, weight=None) -> Tensor:
    return _fused_("lerp", self, end, weight, 1)


@derivative("addcmul", "AddcmulBackward0", inputs=("self", "tensor1", "tensor2"),
            saves={"tensor1": "tensor2", "tensor2": "tensor1"})
def _addcmul_bw(ctx, g):
    v = ctx.attr("value")
    return (g, g * ctx.saved("tensor2") * v if ctx.needs(1) else None,
            g * ctx.saved("tensor1") * v if ctx.needs(2) else None)


@derivative("addcdiv", "AddcdivBackward0", inputs=("self", "tensor1", "tensor2"),
            saves={"tensor1": "tensor2", "tensor2": None})
def _addcdiv_bw(ctx, g):
    v, t2 = ctx.attr("value"), ctx.saved("tensor2")
    return (g, g * v / t2 if ctx.needs(1) else None,
            g.neg() * v * ctx.saved("tensor1") / (t2 * t2) if ctx.needs(2) else None)


@derivative("lerp", "LerpBackward0", inputs=("self", "end"))
def _lerp_bw(ctx, g):
    w = ctx.attr("value")
    return (g * (1 - w), g * w if ctx.needs(1) else None)
