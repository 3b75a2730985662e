"""``out=`` of torch.linalg.svd (into a (U, S, Vh) triple of the caller's) and of torch.svd
(into (U, S, V)): PyTorch's structured ``_linalg_svd.U`` kernel.

In PyTorch's order: the parser's checks of the triple, the autograd refusal, the meta checks
of A (ops/svd.py), then each out in turn (U, Vh, then S): its dtype must be A's, and an out of
another shape is resized (with resize_output's warning if it had elements) and given the
strides a fresh output would have (U and Vh column-major). An out of the right shape keeps
its strides: PyTorch computes into a temporary and copies. Then the kernel's checks (driver,
16-bit dtypes), the NaN check, and one write per out (its version goes up by one).
"""
from __future__ import annotations

from ..arg_parser import type_name
from ..autograd import grad_mode
from ..tensor import Tensor
from . import out_variants, svd
from .out_functions import structured_out, write


def three_outs(op: str, out, position: int) -> tuple[Tensor, Tensor, Tensor]:
    """The parser's checks of a ``tuple of Tensors out`` of three (``position``: out's place
    in the function's signature, counted from 0)."""
    if not isinstance(out, (tuple, list)):
        raise TypeError(f"{op}(): argument 'out' must be tuple of Tensors, not "
                        f"{type_name(out)}")
    for i, o in enumerate(out):
        if not isinstance(o, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument {position}, but got "
                            f"{type_name(o)}")
    if len(out) != 3:
        raise TypeError(f"expected tuple of 3 elements but got {len(out)}")
    return out[0], out[1], out[2]


def linalg_svd_out(A: Tensor, full_matrices: bool, driver, outs: tuple) -> tuple:
    """The SVD of A written into ``outs`` (checked by three_outs); returns them, named."""
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
