"""The singular value decomposition as PyTorch's ``_linalg_svd``: A = U diag(S) Vh, reduced
(``full_matrices=False``: U is m×k, Vh k×n, k = min(m, n)) or full (U m×m, Vh n×n).
torch.linalg.svd, torch.svd (linalg.py, functional.py) and torch.linalg.svdvals are made of
it, and the nuclear norm and the matrix 2-norm (ops/norms.py) are built on svdvals.

The node is LinalgSvdBackward0, one node for the three outputs: it saves U, S and Vh (as
outputs) and ``full_matrices``. Its backward is PyTorch's svd_backward: with a gradient for S
alone, gA = U diag(gS) Vh; with gradients for U or Vh, the formula divides by
E_jk = S_k² - S_j², so repeated singular values give inf/NaN gradients (PyTorch does not
check), and, for a rectangular A, by S itself (a rank-deficient A gives inf/NaN too).
"""
from __future__ import annotations

import numpy as np
from numpy.linalg import _umath_linalg

from .. import dtypes
from ..arg_parser import argument_error, binding
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..layout import contiguous_strides
from ..tensor import Tensor, tensor_method
from . import _lapack, dtype_rules


class LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: what LAPACK's failures raise. Its class is torch._C's
    ``_LinAlgError``, the name an error message shows."""


LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"


def _return_type(name: str, fields: tuple[str, ...]) -> type:
    """torch.return_types.<name>: a tuple whose items also have names (U, S, Vh)."""
    def __repr__(self) -> str:
        items = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self, strict=True))
        return f"torch.return_types.{name}(\n{items})"

    body = {"__slots__": (), "__repr__": __repr__}
    body.update({f: property(lambda self, i=i: self[i]) for i, f in enumerate(fields)})
    return type(name, (tuple,), body)


LinalgSvdResult = _return_type("linalg_svd", ("U", "S", "Vh"))
LinalgSvdOut = _return_type("linalg_svd_out", ("U", "S", "Vh"))
SvdResult = _return_type("svd", ("U", "S", "V"))
SvdOut = _return_type("svd_out", ("U", "S", "V"))


def check_svd_input(A: Tensor, op: str = "linalg.svd") -> None:
    """_linalg_svd's meta checks, in PyTorch's order: a matrix, then a floating dtype (the
    16-bit ones fail later, in the CPU kernel's dispatch)."""
    if A.dim() < 2:
        raise RuntimeError(f"{op}: The input tensor A must have at least 2 dimensions.")
    if A.dtype.category != dtypes.FLOATING:
        raise RuntimeError(f"{op}: Expected a floating point or complex tensor as input. "
                           f"Got {A.dtype.short}")


def check_svd_kernel(A: Tensor, driver) -> None:
    """The checks of _linalg_svd's CPU kernel, which an empty A never reaches: ``driver=``
    picks a cuSOLVER routine, then the dtype dispatch refuses the 16-bit floats."""
    if A.numel() == 0:
        return
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on "
                           "CUDA inputs with cuSOLVER backend.")
    if A.dtype in (dtypes.float16, dtypes.bfloat16):
        raise dtype_rules._not_impl("linalg_svd_cpu", A.dtype.short)


def check_finite(A: Tensor) -> None:
    """LAPACK's gesdd (3.10+, MKL 2022+) returns info = -4 for a matrix holding a NaN, and
    PyTorch raises for the first such matrix of the batch (an inf is not refused). np.max
    propagates NaN and makes no temporary as large as A."""
    a = A._array()
    if not np.isnan(np.max(a)):
        return
    where = ""
    if A.dim() > 2:
        flat = np.isnan(np.max(a, axis=(-2, -1))).reshape(-1)
        where = f": (Batch element {int(np.argmax(flat))})"
    raise LinAlgError(f"linalg.svd{where}: The algorithm failed to converge because the "
                       "input matrix contained non-finite values.")


def column_major_strides(shape: tuple) -> tuple:
    """A batch of matrices each stored column by column, as LAPACK returns U and Vh (and
    PyTorch hands them on: U.stride() is (1, m) for one matrix)."""
    *batch, r, c = shape
    stride = contiguous_strides((*batch, c, r))
    return (*stride[:-2], stride[-1], stride[-2])


def _column_major(shape: tuple, dtype, label: str) -> Tensor:
    t = Tensor._empty(shape, dtype, label)
    return Tensor._make(t._storage, shape, column_major_strides(shape), 0, dtype)


def _identity_into(X: Tensor) -> None:
    """An empty A's full U (or Vh): the identity, a valid SVD of an empty matrix."""
    a = X._array()
    a[...] = 0
    if a.size:
        np.einsum("...ii->...i", a)[...] = 1


def linalg_svd_kernel(A: Tensor, full_matrices: bool) -> tuple[Tensor, Tensor, Tensor]:
    """(U, S, Vh) of every matrix in A's last two dims. LAPACK (gesdd, as PyTorch on CPU)
    fills the three counted outputs, with its copy of A and its workspace counted too
    (ops/_lapack.py). Only where NumPy's LAPACK can't be called does NumPy's wrapper run,
    with buffers of its own outside the count."""
    *batch, m, n = A._shape
    k = min(m, n)
    ur, vc = (m, n) if full_matrices else (k, k)
    U = _column_major((*batch, m, ur), A.dtype, "linalg_svd (U)")
    S = Tensor._empty((*batch, k), A.dtype, "linalg_svd (S)")
    Vh = _column_major((*batch, vc, n), A.dtype, "linalg_svd (Vh)")
    if A.numel() == 0:
        if full_matrices:
            _identity_into(U)
            _identity_into(Vh)
        return U, S, Vh
    check_finite(A)
    if _lapack.GESDD is not None:  # every buffer counted (ops/_lapack.py)
        infos = _lapack.gesdd(A._array(), S._array(), U._array(), Vh._array(),
                              full_matrices, "linalg_svd")
        _check_errors(infos, A.dim() == 2)
        return U, S, Vh
    sig = "d->ddd" if A.dtype is dtypes.float64 else "f->fff"
    gufunc = _umath_linalg.svd_f if full_matrices else _umath_linalg.svd_s
    with np.errstate(invalid="ignore"):
        gufunc(A._array(), out=(U._array(), S._array(), Vh._array()), signature=sig)
    return U, S, Vh


def _check_errors(infos: list[int], is_matrix: bool) -> None:
    """PyTorch's _linalg_check_errors for "linalg.svd": the first matrix LAPACK failed on."""
    for i, info in enumerate(infos):
        if info == 0:
            continue
        where = "" if is_matrix else f": (Batch element {i})"
        if info < 0:  # -4: a NaN (check_finite raised already, unless LAPACK saw it alone)
            raise LinAlgError(f"linalg.svd{where}: The algorithm failed to converge because "
                              "the input matrix contained non-finite values.")
        raise LinAlgError(f"linalg.svd{where}: The algorithm failed to converge because the "
                          "input matrix is ill-conditioned or has too many repeated singular "
                          f"values (error code: {info}).")


def linalg_svd(A: Tensor, full_matrices: bool = False, driver=None
                ) -> tuple[Tensor, Tensor, Tensor]:
    """PyTorch's _linalg_svd (compute_uv=True): checks, kernel, and the node."""
    check_svd_input(A)
    check_svd_kernel(A, driver)
    U, S, Vh = linalg_svd_kernel(A, bool(full_matrices))
    record("_linalg_svd", (U, S, Vh), {"A": A}, full_matrices=bool(full_matrices),
           S_sym_argsize_minus_1=S._shape[-1])
    return U, S, Vh


def svdvals(A: Tensor, driver=None) -> Tensor:
    """torch.linalg.svdvals: the singular values, largest first. The graph is _linalg_svd's
    node (S is its output 1), as in PyTorch, which computes U and Vh too when A requires
    grad, since the backward needs them."""
    return linalg_svd(A, False, driver)[1]


def check_svd_flags(some, compute_uv) -> None:
    """torch.svd's two flags must be bools (the parser's words)."""
    for position, (name, v) in enumerate((("some", some), ("compute_uv", compute_uv)), 1):
        if not isinstance(v, bool):
            raise argument_error("svd", name, position, "bool", v)


def zeros_uv(A: Tensor) -> tuple[Tensor, Tensor]:
    """torch.svd(compute_uv=False)'s U (m×m) and V (n×n, as Vh.mH: a transposed view): zeros."""
    *batch, m, n = A._shape
    U = Tensor._empty((*batch, m, m), A.dtype, "svd (U)")
    Vh = Tensor._empty((*batch, n, n), A.dtype, "svd (V)")
    U._array()[...] = 0
    Vh._array()[...] = 0
    return U, Vh.mT


@binding()
@tensor_method
def svd(self, some: bool = True, compute_uv: bool = True) -> tuple:
    """torch.svd, the older API: (U, S, V) with A = U diag(S) Vᵀ, V being linalg.svd's Vh.mH
    (a transposed view of it, TransposeBackward0 in the graph); ``some=False`` is
    ``full_matrices=True``. ``compute_uv=False``: linalg.svdvals's S, and zeros for U and V."""
    check_svd_flags(some, compute_uv)
    if self.dim() < 2:
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has "
                           f"{self.dim()} dimensions instead")
    if compute_uv:
        U, S, Vh = linalg_svd(self, not some)
        return SvdResult((U, S, Vh.mT))
    S = svdvals(self)
    U, V = zeros_uv(self)
    return SvdResult((U, S, V))


@derivative("_linalg_svd", "LinalgSvdBackward0", inputs=("A",), multi_output=True,
            saves={"U": None, "S": None, "Vh": None}, outputs=("U", "S", "Vh"))
def _linalg_svd_bw(ctx, grads):
    gU, gS, gVh = grads
    U, S, Vh = ctx.saved("U"), ctx.saved("S"), ctx.saved("Vh")
    if ctx.attr("full_matrices"):  # the columns of U (rows of Vh) past k get no gradient
        k = S._shape[-1]
        U, Vh = U.narrow(-1, 0, k), Vh.narrow(-2, 0, k)
        gU = None if gU is None else gU.narrow(-1, 0, k)
        gVh = None if gVh is None else gVh.narrow(-2, 0, k)
    return (svd_backward(gU, gS, gVh, U, S, Vh),)


def svd_backward(gU, gS, gVh, U: Tensor, S: Tensor, Vh: Tensor) -> Tensor | None:
    """PyTorch's svd_backward (FunctionsManual.cpp), the real case, operation by operation:
    gA = U [(skew(UᵀgU) / E) S + S (skew(Vᵀ gV) / E) + diag(gS)] Vh, with E_jk = S_k² - S_j²
    (1 on the diagonal), plus (I - UUᵀ) gU S⁻¹ Vh for a tall A and U S⁻¹ gVh (I - VVᵀ) for a
    wide one."""
    if gU is None and gS is None and gVh is None:
        return None
    m, n = U._shape[-2], Vh._shape[-1]
    if gU is None and gVh is None:  # svdvals: U diag(gS) Vh, the cheaper product first
        if m >= n:
            return U.matmul(gS.unsqueeze(-1) * Vh)
        return (U * gS.unsqueeze(-2)).matmul(Vh)
    UhgU = _skew(U.mT.matmul(gU)) if gU is not None else None
    VhgV = _skew(Vh.matmul(gVh.mT)) if gVh is not None else None
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1)
    E.diagonal(0, -2, -1).fill_(1)  # any nonzero: only 0 / E_jj is computed
    if gU is not None and gVh is not None:
        ret = (UhgU * S.unsqueeze(-2) + S.unsqueeze(-1) * VhgV) / E
    elif gU is not None:
        ret = (UhgU / E) * S.unsqueeze(-2)
    else:
        ret = S.unsqueeze(-1) * (VhgV / E)
    if gS is not None:  # ret + diag_embed(gS): ret is this function's own temporary
        ret.diagonal(0, -2, -1).add_(gS)
    if m > n and gU is not None:
        gA = U.matmul(ret)
        gUSinv = gU / S.unsqueeze(-2)
        gA = gA + gUSinv - U.matmul(U.mT.matmul(gUSinv))
        return gA.matmul(Vh)
    if m < n and gVh is not None:
        gA = ret.matmul(Vh)
        SinvgVh = gVh / S.unsqueeze(-1)
        gA = gA + SinvgVh - SinvgVh.matmul(Vh.mT).matmul(Vh)
        return U.matmul(gA)
    if m >= n:
        return U.matmul(ret.matmul(Vh))
    return U.matmul(ret).matmul(Vh)


def _skew(X: Tensor) -> Tensor:
    return X - X.mT
