"""torch.vander: the Vandermonde matrix, columns x**(N-1) ... x**0 (or increasing), built as
PyTorch's composite does (LinearAlgebra.cpp), so its graph shows in-place writes into slices.

A result of ones (int64 for integer and bool x, as cumprod promotes), x copied into columns
1..N-1 (CopySlices), those columns replaced by their running product (cumprod of the slice,
copied back: CopySlices again), then flipped unless ``increasing``.
"""
from __future__ import annotations

from .. import dtypes, function_parser
from ..creation import empty
from ..tensor import Tensor


def vander(*args, **kwargs) -> Tensor:
    """torch.vander(x, N=None, increasing=False)."""
    _, values = function_parser.parse("vander", args, kwargs)
    x, n, increasing = values["x"], values.get("N"), bool(values.get("increasing") or False)
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    if n is None:
        n = x._shape[0]
    elif n < 0:
        raise RuntimeError("N must be non-negative.")
    result = empty(x._shape[0], n, dtype=dtypes.promote_types(x.dtype, dtypes.int64))
    if n > 0:
        result.fill_(1)
        if n > 1:
            result[:, 1:].copy_(x.unsqueeze(1))
            result[:, 1:].copy_(result[:, 1:].cumprod(1))
    return result if increasing else result.flip(1)


__all__ = ["vander"]
