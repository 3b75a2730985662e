"""logaddexp and logaddexp2: log(exp(x) + exp(y)) and log2(2**x + 2**y), without overflow.

PyTorch computes ``max(x, y) + log1p(exp(-|x - y|))`` (base 2: ``log1p(exp2(-|x - y|)) /
ln 2``), and returns x itself when both are the same infinity; NumPy's ufuncs follow the
same formula. Floating dtypes only (integers and bool have no kernel), a promoted result,
``out=`` as for every element-wise op. Their nodes save self and other: the gradient of each
side is its share of the sum, ``grad / (1 + exp(other - self))``.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..tensor import Tensor, tensor_method
from .arg_checks import check_tensor
from .tensor_iterator import new_elementwise, pure_kernel


def _kernel(op: str, ufunc):
    @pure_kernel
    def kernel(x, y, out, dtype):
        if np.dtype(dtype).kind in "iub":
            raise NotImplementedError(f'"{op}_cpu" not implemented for '
                                      f"'{dtypes.from_numpy_dtype(dtype).short}'")
        ufunc(x, y, out=out, dtype=dtype, casting="unsafe")
    return kernel


_LOGADDEXP = _kernel("logaddexp", np.logaddexp)
_LOGADDEXP2 = _kernel("logaddexp2", np.logaddexp2)


@binding()
@tensor_method
def logaddexp(self, other) -> Tensor:
    """log(exp(self) + exp(other)), element by element."""
    check_tensor("logaddexp", "other", other)
    return new_elementwise("logaddexp", False, _LOGADDEXP, self, other)


@derivative("logaddexp", "LogaddexpBackward0", inputs=("self", "other"),
            saves={"self": None, "other": None})
def _logaddexp_bw(ctx, g):
    x, y = ctx.saved("self"), ctx.saved("other")
    return (g / ((y - x).exp() + 1) if ctx.needs(0) else None,
            g / ((x - y).exp() + 1) if ctx.needs(1) else None)


@binding()
@tensor_method
def logaddexp2(self, other) -> Tensor:
    """log2(2**self + 2**other), element by element."""
    check_tensor("logaddexp2", "other", other)
    return new_elementwise("logaddexp2", False, _LOGADDEXP2, self, other)


@derivative("logaddexp2", "Logaddexp2Backward0", inputs=("self", "other"),
            saves={"self": None, "other": None})
def _logaddexp2_bw(ctx, g):
    x, y = ctx.saved("self"), ctx.saved("other")
    return (g / ((y - x).exp2() + 1) if ctx.needs(0) else None,
            g / ((x - y).exp2() + 1) if ctx.needs(1) else None)


__all__ = ["logaddexp", "logaddexp2"]
