"""nn.utils: ``clip_grad_norm_``, the gradient clipping every training loop calls in place.

PyTorch's algorithm (torch/nn/utils/clip_grad.py): the 2-norm of each gradient, the norm of
those norms, ``coef = max_norm / (total + 1e-6)`` clamped to at most 1, and every gradient
multiplied by ``coef`` in place, also when ``coef`` is 1 (no "if", so no device sync). Each
gradient keeps its storage and gets one version step. Only 0-dim tensors are allocated here.
"""
from __future__ import annotations

import math
from collections.abc import Iterable

from ..autograd import no_grad
from ..tensor import Tensor
from ..tensor_new import tensor


def clip_grad_norm_(parameters: Tensor | Iterable[Tensor], max_norm: float,
                    norm_type: float = 2.0, error_if_nonfinite: bool = False) -> Tensor:
    """Scale the gradients in place so their total 2-norm is at most ``max_norm``; returns the
    total norm before clipping (a new 0-dim tensor). Only ``norm_type=2`` is modelled."""
    if float(norm_type) != 2.0:
        raise NotImplementedError("the core's clip_grad_norm_ models norm_type=2 only")
    params = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    grads = [p.grad for p in params if p.grad is not None]
    with no_grad():
        if not grads:
            return tensor(0.0)
        total = None
        for g in grads:  # sum of squares through dot: 0-dim results, no full-size temporary
            flat = g.reshape(-1)
            sq = flat.dot(flat)
            total = sq if total is None else total.add_(sq)
        total = total.sqrt_()
        if error_if_nonfinite and not math.isfinite(total.item()):
            raise RuntimeError(
                "The total norm of order 2.0 for gradients from `parameters` is non-finite, so "
                "it cannot be clipped. To disable this error and scale the gradients by the "
                "non-finite norm anyway, set `error_if_nonfinite=False`")
        coef = (total + 1e-6).reciprocal_().mul_(float(max_norm)).clamp_max_(1.0)
        for g in grads:
            g.mul_(coef)
    return total


__all__ = ["clip_grad_norm_"]
