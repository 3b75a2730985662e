"""The point-wise in-place ops optimizers are built from: lerp_, addcmul_, addcdiv_.

Each writes into self chunk by chunk through one small scratch buffer, so an update on a
big parameter never allocates a full-size temporary (the product ``t1 * t2`` included).
"""
from __future__ import annotations

import numpy as np

from ..autograd.function import record_inplace
from ..tensor import Tensor, tensor_method
from ._iter import CHUNK, Scratch, check_inplace_operands, chunks


def _chunked(op: str, self: Tensor, others: tuple, body) -> Tensor:
    """Run ``body(out_chunk, *other_chunks, tmp)`` over self in CHUNK-sized pieces."""
    a = self._array()

    def compute():
        bs = [np.broadcast_to(o._array(), a.shape) for o in others]
        scratch = Scratch(a.dtype, op, min(CHUNK, max(a.size, 1)))
        for idx in chunks(a.shape):
            out = a[idx]
            body(out, *[b[idx] for b in bs], scratch.view(out.shape))

    inputs = {"self": self, **{f"other{i}": o for i, o in enumerate(others)}}
    if any(o._requires_grad for o in (self, *others)):
        from ..autograd import grad_mode

        if grad_mode.is_grad_enabled():
            raise NotImplementedError(f"{op} is differentiable in torch, not in this core; "
                                      "call it under no_grad (as optimizers do)")
    return record_inplace(op, self, inputs, compute=compute,
                          check=lambda: check_inplace_operands(self, others, self.dtype))


@tensor_method
def lerp_(self, end: Tensor, weight: float) -> Tensor:
    """self += weight * (end - self), with PyTorch's two-sided formula for accuracy."""
    w = float(weight)

    def body(out, e, tmp):
        np.subtract(e, out, out=tmp)
        if abs(w) < 0.5:
            tmp *= w
            out += tmp
        else:
            tmp *= w - 1
            np.add(e, tmp, out=out)
    return _chunked("lerp_", self, (end,), body)


@tensor_method
def addcmul_(self, tensor1: Tensor, tensor2: Tensor, value: float = 1) -> Tensor:
    """self += value * tensor1 * tensor2."""
    def body(out, t1, t2, tmp):
        np.multiply(t1, value, out=tmp)  # torch's order: (value * t1) * t2
        tmp *= t2
        out += tmp
    return _chunked("addcmul_", self, (tensor1, tensor2), body)


@tensor_method
def addcdiv_(self, tensor1: Tensor, tensor2: Tensor, value: float = 1) -> Tensor:
    """self += value * tensor1 / tensor2."""
    def body(out, t1, t2, tmp):
        np.multiply(t1, value, out=tmp)  # torch's order: (value * t1) / t2
        tmp /= t2
        out += tmp
    return _chunked("addcdiv_", self, (tensor1, tensor2), body)
