"""The singular value decomposition as PyTorch's ``_linalg_svd`` (A = U diag(S) Vh, the
reduced form) and ``torch.linalg.svdvals``, which keeps only S. The nuclear norm and the
matrix 2-norm (ops/norms.py) are built on svdvals, as in PyTorch.

The node is LinalgSvdBackward0, one node for the three outputs: it saves U, S and Vh (as
outputs) and ``full_matrices``. Only S ever gets a gradient here (U and Vh are not handed
out), so the backward is svd_backward's first case: gA = U diag(gS) Vh.
"""
from __future__ import annotations

import numpy as np
from numpy.linalg import _umath_linalg

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..tensor import Tensor
from . import dtype_rules


def check_svd_input(A: Tensor, op: str = "linalg.svd") -> None:
    """linalg.svd's checks, in PyTorch's order: a matrix, then a floating dtype (the
    16-bit ones fail later, in the CPU kernel's dispatch)."""
    if A.dim() < 2:
        raise RuntimeError(f"{op}: The input tensor A must have at least 2 dimensions.")
    if A.dtype.category != dtypes.FLOATING:
        raise RuntimeError(f"{op}: Expected a floating point or complex tensor as input. "
                           f"Got {A.dtype.short}")
    if A.dtype in (dtypes.float16, dtypes.bfloat16):
        raise dtype_rules._not_impl("linalg_svd_cpu", A.dtype.short)


def _column_major(shape: tuple, dtype, label: str) -> Tensor:
    """A batch of matrices each stored column by column, as LAPACK returns U and Vh (and
    PyTorch hands them on: U.stride() is (1, m) for one matrix)."""
    *batch, r, c = shape
    t = Tensor._empty((*batch, c, r), dtype, label)
    stride = (*t._stride[:-2], t._stride[-1], t._stride[-2])
    return Tensor._make(t._storage, shape, stride, 0, dtype)


def _linalg_svd(A: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """(U, S, Vh) of every matrix in A's last two dims, full_matrices=False. LAPACK (gesdd,
    as PyTorch on CPU) fills the three counted outputs. NumPy's wrapper copies each matrix
    column-major and allocates LAPACK's workspace itself, outside the count (PyTorch counts
    its own; the README's "The package" section says so)."""
    *batch, m, n = A._shape
    k = min(m, n)
    U = _column_major((*batch, m, k), A.dtype, "linalg_svd (U)")
    S = Tensor._empty((*batch, k), A.dtype, "linalg_svd (S)")
    Vh = _column_major((*batch, k, n), A.dtype, "linalg_svd (Vh)")
    if k:
        sig = "d->ddd" if A.dtype is dtypes.float64 else "f->fff"
        with np.errstate(invalid="ignore"):
            _umath_linalg.svd_s(A._array(), out=(U._array(), S._array(), Vh._array()),
                                signature=sig)
    return U, S, Vh  # (k = 0: an empty U, S and Vh, nothing to compute)


def svdvals(A: Tensor) -> Tensor:
    """torch.linalg.svdvals: the singular values, largest first. The graph is _linalg_svd's
    node (S is its output 1), as in PyTorch, which computes U and Vh too when A requires
    grad, since the backward needs them."""
    check_svd_input(A)
    U, S, Vh = _linalg_svd(A)
    record("_linalg_svd", (U, S, Vh), {"A": A}, full_matrices=False,
           S_sym_argsize_minus_1=S._shape[-1])
    return S


@derivative("_linalg_svd", "LinalgSvdBackward0", inputs=("A",), multi_output=True,
            saves={"U": None, "S": None, "Vh": None}, outputs=("U", "S", "Vh"))
def _linalg_svd_bw(ctx, grads):
    gU, gS, gVh = grads
    if gU is not None or gVh is not None:  # no op of the core hands U or Vh out
        raise NotImplementedError("the gradient through U or Vh of an SVD is not in the core")
    if gS is None:
        return (None,)
    U, Vh = ctx.saved("U"), ctx.saved("Vh")
    m, n = U._shape[-2], Vh._shape[-1]
    if m >= n:  # PyTorch's order of the two products (the cheaper one first)
        return (U.matmul(gS.unsqueeze(-1) * Vh),)
    return ((U * gS.unsqueeze(-2)).matmul(Vh),)
