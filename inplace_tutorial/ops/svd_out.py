"""``out=`` of torch.linalg.svd (into a (U, S, Vh) triple of the caller's): PyTorch's
structured ``_linalg_svd.U`` kernel; and of torch.svd (into (U, S, V)), which runs it on V
transposed in place (V.transpose_ before and after: two more version steps).

In PyTorch's order: the parser's checks of the triple, the autograd refusal, the meta checks
of A (ops/svd.py), then each out in turn (U, Vh, then S): its dtype must be A's, and an out of
another shape is resized (with resize_output's warning if it had elements) and given the
strides a fresh output would have (U and Vh column-major). An out of the right shape keeps
its strides: PyTorch computes into a temporary and copies. Then the kernel's checks (driver,
16-bit dtypes), the NaN check, and one write per out (its version goes up by one).
"""
from __future__ import annotations

from ..autograd import grad_mode
from ..tensor import Tensor
from . import out_variants, svd
from .out_functions import out_form, structured_out, write
from .out_selection import tuple_of_outs


def linalg_svd_out(A: Tensor, full_matrices: bool, driver, outs: tuple) -> tuple:
    """The SVD of A written into ``outs`` (checked by out_selection.tuple_of_outs); returns
    them, named."""
    U, S, Vh = outs
    for o in outs:
        out_variants._refuse_autograd("_linalg_svd", (A,), o)
    svd.check_svd_input(A)
    *batch, m, n = A._shape
    k = min(m, n)
    ur, vc = (m, n) if full_matrices else (k, k)
    # the meta function sets U, then Vh, then S
    for o, shape in ((U, (*batch, m, ur)), (Vh, (*batch, vc, n)), (S, (*batch, k))):
        before = o._shape
        structured_out(o, shape, A.dtype)
        if o._shape != before and o is not S:  # resized: a fresh U's (Vh's) strides
            o._np = None
            o._set_geometry(o._shape, svd.column_major_strides(o._shape), o._offset)
    svd.check_svd_kernel(A, driver)
    with grad_mode.no_grad():
        result = svd.linalg_svd_kernel(A, bool(full_matrices))
    for o, r in zip(outs, result, strict=True):
        write(o, "_linalg_svd", lambda o=o, r=r: o._array().__setitem__(..., r._array()))
    return svd.LinalgSvdOut(tuple(outs))


@out_form("svd")
def svd_out(self: Tensor, some=True, compute_uv=True, *, out=None) -> tuple:
    """torch.svd(A, some, compute_uv, out=(U, S, V)) as PyTorch's svd_out: linalg.svd's out=
    into (U, S, V transposed); without compute_uv, svdvals into S and zeros into U and V."""
    outs = tuple_of_outs("svd", out, 3, 3)
    svd.check_svd_flags(some, compute_uv)
    U, S, V = outs
    if compute_uv:
        if V.dim() >= 2:
            V.transpose_(-2, -1)
        linalg_svd_out(self, not some, None, (U, S, V))
        V.transpose_(-2, -1)
        return svd.SvdOut(outs)
    for o in outs:
        if o.dtype is not self.dtype:
            raise RuntimeError(f"torch.svd: Expected out tensor to have dtype "
                               f"{self.dtype.short} but got {o.dtype.short} instead")
    for o in outs:
        out_variants._refuse_autograd("_linalg_svd", (self,), o)
    svd.check_svd_input(self)
    *batch, m, n = self._shape
    structured_out(S, (*batch, min(m, n)), self.dtype)
    svd.check_svd_kernel(self, None)
    with grad_mode.no_grad():
        rS = svd.linalg_svd_kernel(self, False)[1]
    write(S, "_linalg_svd", lambda: S._array().__setitem__(..., rS._array()))
    for o, shape in ((U, (*batch, m, m)), (V, (*batch, n, n))):
        out_variants.resize_output(o, shape)
        write(o, "svd", lambda o=o: o._array().__setitem__(..., 0))
    return svd.SvdOut(outs)
