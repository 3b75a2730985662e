"""``out=``: torch.add(a, b, out=c), torch.sin(x, out=y), torch.matmul(a, b, out=c).

Every element-wise op with an in-place twin takes ``out=`` (``pointwise_ops()`` lists them from
the op table, less what PyTorch gives no out=). ``out``'s version is bumped and PyTorch's rules
apply: out= refuses autograd, out's dtype must hold the result type, a wrongly shaped ``out`` is
resized (with PyTorch's deprecation warning unless it was empty), and out must not overlap
itself or partially overlap an input. The core's fastest kernels (``ELEMENTWISE``) write
straight into out; the other ops compute their result and copy it in (one counted temporary).
One deliberate difference: a matrix product refuses an ``out`` that aliases one of its inputs
(PyTorch silently returns wrong numbers then).
"""
from __future__ import annotations

import warnings

import numpy as np

from .. import dtypes
from ..autograd import grad_mode
from ..autograd.graph import any_requires_grad
from ..creation import cast_into
from ..layout import broadcast_shapes
from ..modes import STATE
from ..tensor import Tensor
from . import elementwise as ew
from . import unary
from .linalg import _bmm_check, _mm_check, check_same_dtype
from .tensor_iterator import (
    arr,
    axpy_,
    call_kernel,
    check_internal_overlap,
    check_partial_overlap,
    shape_of,
    ufunc_kernel,
)

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
}
MATRIX = ("matmul", "mm", "bmm")
# the op families whose ops work cell by cell (their modules in ops/)
POINTWISE_MODULES = ("unary", "unary_math", "rounding", "trig", "binary_math", "elementwise",
                     "compare", "compare_inplace", "logical", "bitwise", "ternary", "special")
_NO_OUT = {"relu"}  # torch.relu has no out= (F.relu neither)


def pointwise_ops() -> tuple[str, ...]:
    """The element-wise ops that take ``out=``: every out-of-place Tensor method of the
    element-wise families that has an in-place twin (sin/sin_, add/add_ ...), read from the
    Tensor class after ops/ registered them, plus maximum/minimum (no in-place twin)."""
    names = {"maximum", "minimum"}
    for name, fn in vars(Tensor).items():
        module = getattr(fn, "__module__", "") or ""
        if (not name.startswith("_") and not name.endswith("_") and callable(fn)
                and module.rsplit(".", 1)[-1] in POINTWISE_MODULES
                and hasattr(Tensor, name + "_") and name not in _NO_OUT):
            names.add(name)
    return tuple(sorted(names))


def _refuse_autograd(name: str, operands, out: Tensor) -> None:
    if STATE["grad"] and any_requires_grad([*(o for o in operands if isinstance(o, Tensor)),
                                            out]):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")


def _check_out(out: Tensor, shape: tuple, rd) -> None:
    """PyTorch's order: the cast check, then resize_output."""
    if not dtypes.can_cast(rd, out.dtype):
        raise RuntimeError(f"result type {rd.short} can't be cast to the desired output type "
                           f"{out.dtype.short}")
    resize_output(out, tuple(shape))


def resize_output(out: Tensor, shape: tuple, warn: bool = True) -> None:
    """PyTorch's resize_output: a wrongly shaped ``out`` takes the result's shape (contiguous
    strides), with a deprecation warning unless it had no elements. Its storage is kept when
    it is large enough (same data_ptr); else that same storage object grows in place
    (Tensor._resize_contiguous), so other views of it see the new buffer, as in PyTorch."""
    if tuple(out._shape) == shape:
        return
    if out.numel() and warn:  # (warn=False: addbmm's resize_as_, which says nothing)
        warnings.warn(
            f"An output with one or more elements was resized since it had shape "
            f"[{', '.join(map(str, out._shape))}], which does not match the required output "
            f"shape [{', '.join(map(str, shape))}]. This behavior is deprecated, and in a "
            "future PyTorch release outputs will not be resized unless they have zero "
            "elements. You can explicitly reuse an out tensor t by resizing it, inplace, to "
            "zero elements with t.resize_(0).", UserWarning, stacklevel=4)
    out._resize_contiguous(tuple(shape))


def with_out(name: str, operands: tuple, out: Tensor, **kwargs) -> Tensor:
    """Compute ``name(*operands, **kwargs)`` into ``out``; returns ``out``."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    _refuse_autograd(name, (*operands, *kwargs.values()), out)
    if name in MATRIX:
        return _matrix_out(name, operands, out)
    # PyTorch's TensorIterator checks overlaps first, on out as it is (before any resize)
    check_internal_overlap(out)
    for o in (*operands, *kwargs.values()):
        check_partial_overlap(out, o)
    alpha = kwargs.pop("alpha", 1)
    bools = any(getattr(o, "dtype", None) is dtypes.bool_ for o in operands)
    if name not in ELEMENTWISE or kwargs or bools:  # (bool: the method's own dtype errors)
        if alpha != 1:
            kwargs["alpha"] = alpha
        return _computed_out(name, operands, kwargs, out)
    kernel, float_out = ELEMENTWISE[name]
    rd = dtypes.result_type(*operands)
    rd = dtypes.float_result(rd) if float_out else rd
    shape = shape_of(operands[0])
    for o in operands[1:]:
        shape = broadcast_shapes(shape, shape_of(o))
    _check_out(out, shape, rd)
    xs = [arr(o, dtypes.compute_np(rd)) for o in operands]  # (narrow ints wrap scalars)
    if name in ("add", "sub") and (alpha != 1 or name == "sub"):
        out._vc.write(lambda: _axpy_into(out, operands[0], operands[1],
                                         alpha if name == "add" else -alpha, rd), name)
        return out
    out._vc.write(lambda: call_kernel(kernel, xs, out._array(), dtypes.compute_np(rd)), name)
    return out


def _computed_out(name: str, operands: tuple, kwargs: dict, out: Tensor) -> Tensor:
    """The other element-wise ops: the method computes the result (its own argument, dtype
    and shape errors), then PyTorch's out= checks, then one cast copy into out."""
    with grad_mode.no_grad():
        result = getattr(operands[0], name)(*operands[1:], **kwargs)
    if name == "float_power" and out.dtype is not dtypes.float64:
        raise RuntimeError(f"the output given to float_power has dtype {out.dtype.short} but "
                           "the operation's result requires dtype Double")
    if name in ("clamp", "clip", "clamp_min", "clamp_max") and out.dtype is not result.dtype:
        raise RuntimeError(f"Found dtype {out.dtype.short} but expected {result.dtype.short}")
    _check_out(out, result._shape, result.dtype)
    out._vc.write(lambda: cast_into(out._array(), result._array(), out.dtype, name), name)
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
