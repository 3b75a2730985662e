"""``out=``: torch.add(a, b, out=c), torch.minimum(a, b, out=a), torch.matmul(a, b, out=c).

The result is written straight into ``out`` (no temporary), ``out``'s version is bumped, and
PyTorch's rules apply: out's dtype must hold the result type, out= refuses autograd, and out
must not partially overlap an input. Two deliberate differences: a wrongly shaped ``out`` is an
error here (PyTorch resizes it with a deprecation warning), and a matrix product refuses an
``out`` that aliases one of its inputs (PyTorch silently returns wrong numbers then).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.graph import any_requires_grad
from ..layout import broadcast_shapes
from ..modes import STATE
from ..tensor import Tensor
from . import elementwise as ew
from . import unary
from ._iter import (
    arr,
    axpy_,
    call_kernel,
    check_internal_overlap,
    check_partial_overlap,
    shape_of,
    ufunc_kernel,
)
from .linalg import _bmm_check, _mm_check, check_same_dtype

# name -> (kernel(*arrays, out, dtype), result is always floating?): the ops' own kernels
ELEMENTWISE = {
    "add": (ew.add_kernel, False),
    "sub": (ew.sub_kernel, False),
    "mul": (ew.mul_kernel, False),
    "div": (ew.div_kernel, True),
    "maximum": (ufunc_kernel(np.maximum), False),
    "minimum": (ufunc_kernel(np.minimum), False),
    "pow": (ufunc_kernel(np.power), False),
    "exp": (unary.exp_kernel, True),
    "log": (unary.log_kernel, True),
    "sqrt": (unary.sqrt_kernel, True),
    "abs": (unary.abs_kernel, False),
    "neg": (unary.neg_kernel, False),
    "sigmoid": (unary.sigmoid_kernel, True),
    "tanh": (unary.tanh_kernel, True),
    "relu": (unary.relu_kernel, False),
}
MATRIX = ("matmul", "mm", "bmm")


def _refuse_autograd(name: str, operands, out: Tensor) -> None:
    if STATE["grad"] and any_requires_grad([*operands, out]):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")


def _check_out(out: Tensor, shape: tuple, rd) -> None:
    if tuple(out._shape) != tuple(shape):
        raise RuntimeError(
            f"out= has shape [{', '.join(map(str, out._shape))}] but the result has shape "
            f"[{', '.join(map(str, shape))}] (PyTorch would resize out, with a deprecation "
            "warning; this core asks you to pass the right shape)")
    if not dtypes.can_cast(rd, out.dtype):
        raise RuntimeError(f"result type {rd.short} can't be cast to the desired output type "
                           f"{out.dtype.short}")


def with_out(name: str, operands: tuple, out: Tensor, alpha=1) -> Tensor:
    """Compute ``name(*operands)`` into ``out``; returns ``out``."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    _refuse_autograd(name, operands, out)
    if name in MATRIX:
        return _matrix_out(name, operands, out)
    kernel, float_out = ELEMENTWISE[name]
    rd = dtypes.result_type(*operands)
    rd = dtypes.float_result(rd) if float_out else rd
    shape = shape_of(operands[0])
    for o in operands[1:]:
        shape = broadcast_shapes(shape, shape_of(o))
    _check_out(out, shape, rd)
    check_internal_overlap(out)
    for o in operands:
        check_partial_overlap(out, o)
    xs = [arr(o, dtypes.compute_np(rd)) for o in operands]  # (narrow ints wrap scalars)
    if name in ("add", "sub") and (alpha != 1 or name == "sub"):
        out._vc.write(lambda: _axpy_into(out, operands[0], operands[1],
                                         alpha if name == "add" else -alpha, rd), name)
        return out
    out._vc.write(lambda: call_kernel(kernel, xs, out._array(), dtypes.compute_np(rd)), name)
    return out


def _same_cells(x, out: Tensor) -> bool:
    return isinstance(x, Tensor) and x._storage is out._storage and \
        (x._offset, x._shape, x._stride) == (out._offset, out._shape, out._stride)


def _axpy_into(out: Tensor, a, b, coef, rd) -> None:
    """out = a + coef * b without a temporary, whichever input out may be."""
    o = out._array()
    if _same_cells(b, out) and not _same_cells(a, out):
        np.multiply(o, coef, out=o, casting="unsafe")
        np.add(o, arr(a), out=o, casting="unsafe")
        return
    if not _same_cells(a, out):
        np.copyto(o, np.broadcast_to(arr(a), o.shape), casting="unsafe")
    axpy_(o, arr(b), coef, "out=", rd.np)


def _matmul_shape(a: Tensor, b: Tensor) -> tuple:
    """The shape torch.matmul returns (1-D operands get a dim added, then removed)."""
    sa, sb = a._shape, b._shape
    if len(sa) == 1 and len(sb) == 1:
        return ()
    xa = (1,) + sa if len(sa) == 1 else sa
    xb = sb + (1,) if len(sb) == 1 else sb
    shape = broadcast_shapes(xa[:-2], xb[:-2]) + (xa[-2], xb[-1])
    if len(sa) == 1:
        shape = shape[:-2] + shape[-1:]
    if len(sb) == 1:
        shape = shape[:-1]
    return shape


def _matrix_out(name: str, operands: tuple, out: Tensor) -> Tensor:
    a, b = operands
    for x in (a, b):
        if x._storage is out._storage:
            raise RuntimeError(
                f"{name}(..., out=...): out shares memory with an input. A matrix product reads "
                "every input element many times while it writes, so this core refuses (PyTorch "
                "computes without error and may silently return wrong values). Write into "
                "another tensor.")
    if name == "mm":
        _mm_check(a, b)
    elif name == "bmm":
        _bmm_check(a, b)
    elif a._shape[-1] != b._shape[0 if b.dim() == 1 else -2]:
        a.matmul(b)  # raises PyTorch's shape error
    check_same_dtype("bmm" if min(a.dim(), b.dim()) >= 3 else "mm", a, b)
    _check_out(out, _matmul_shape(a, b), dtypes.result_type(a, b))
    # straight into out: no temporary
    out._vc.write(lambda: np.matmul(a._array(), b._array(), out=out._array()), name)
    return out
