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
from ..copy_kernel import cast_into
from ..layout import broadcast_shapes
from ..modes import STATE
from ..tensor import Tensor
from . import _fma, _pointwise, cpu_loops, unary, unary_nan_bits
from . import elementwise as ew
from ._blas import matmul_into
from .linalg import _bmm_check, _mm_check, check_same_dtype
from .nan_sign import clamp16, clamp_tensor_bits, is_float16_pair, minmax_bits
from .tensor_iterator import (
    arr,
    call_kernel,
    check_internal_overlap,
    check_partial_overlap,
    shape_of,
    ufunc_kernel,
    write_inplace,
)
from .unary_math import rsqrt16
from .workspace import axpy_

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
POINTWISE_MODULES = ("unary", "unary_math", "logit", "nan_to_num", "rounding", "trig",
                     "binary_math", "elementwise", "div_rounding", "compare", "comparisons",
                     "logical", "bitwise", "ternary", "special", "fmax_fmin", "sign_angle",
                     "erf", "gamma", "polygamma", "igamma")
_NO_OUT = {"relu"}  # torch.relu has no out= (F.relu neither)
# TensorIterator ops built with check_all_same_dtype (build_borrowing_unary_op, lerp, and the
# clamps with Number bounds): out's dtype must be the inputs' ("Found dtype Long but expected
# Float"), not merely one the result casts to
SAME_DTYPE = {"abs", "absolute", "bitwise_not", "ceil", "conj_physical", "fix", "floor", "frac",
              "lerp", "neg", "negative", "round", "sgn", "sign", "trunc"}
# ops whose result carries no gradient (bool): PyTorch's out= forms of them take inputs that
# require grad without complaint (torch.eq(x, 0, out=b) with x requiring grad)
_NOT_DIFFERENTIABLE = {"eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less",
                       "less_equal", "not_equal", "logical_and", "logical_or", "logical_xor",
                       "logical_not", "signbit"}
_SCALAR_BOUNDS = {"clamp", "clip", "clamp_min", "clamp_max"}
# kernels that exist for integers only: TensorIterator's cast check comes before the kernel
# says "not implemented for 'Float'"
_INT_KERNELS = {"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
                "bitwise_right_shift", "gcd", "lcm"}


def pointwise_ops() -> tuple[str, ...]:
    """The element-wise ops that take ``out=``: every out-of-place Tensor method of the
    element-wise families that has an in-place twin (sin/sin_, add/add_ ...), read from the
    Tensor class after ops/ registered them, plus maximum/minimum/fmax/fmin (no in-place
    twin), angle and signbit (none either)."""
    names = {"maximum", "minimum", "fmax", "fmin", "angle", "signbit"}
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
    if name == "signbit" and out.dtype is not dtypes.bool_:  # (its kernel's check comes first)
        raise RuntimeError("signbit does not support non-boolean outputs.")
    if name not in _NOT_DIFFERENTIABLE:
        _refuse_autograd(name, (*operands, *kwargs.values()), out)
    if name in MATRIX:
        return _matrix_out(name, operands, out)
    # PyTorch's TensorIterator checks overlaps first, on out as it is (before any resize)
    check_internal_overlap(out)
    for o in (*operands, *kwargs.values()):
        check_partial_overlap(out, o)
    _check_read_write(out, (*operands, *kwargs.values()))
    _check_out_dtype(name, operands, kwargs, out)
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
        if out.dtype is not rd:  # (axpy works in out's own dtype: compute, then cast)
            return _computed_out(name, operands, {"alpha": alpha} if alpha != 1 else {}, out)
        coef = alpha if name == "add" else -alpha
        if cpu_loops.overlaps(out, operands):  # (an input overlapping out: PyTorch's order)
            axpy = ew.axpy_kernel(coef, "out=")
            out._vc.write(lambda: write_inplace(
                lambda o, parts: call_kernel(axpy, parts, o, rd.np), name + "_", out, xs,
                operands, out._array()), name)
            return out
        if _fma.fused(rd.np, coef, xs[1]):  # one rounding (_fma.py), whichever input out is
            out._vc.write(lambda: _fma.axpy(out._array(), *xs, coef, "out="), name)
            return out
        out._vc.write(lambda: _axpy_into(out, operands[0], operands[1], coef, rd), name)
        return out
    cd = dtypes.compute_np(rd)
    out._vc.write(lambda: write_inplace(lambda o, parts: call_kernel(kernel, parts, o, cd),
                                        name + "_", out, xs, operands, out._array()), name)
    if name in ("maximum", "minimum") and all(
            isinstance(o, Tensor) and o._storage is not out._storage for o in operands):
        minmax_bits(out, *operands)  # the NaN and tie bits of PyTorch's two loops
    return out


def _check_read_write(out: Tensor, operands: tuple) -> None:
    """TensorIterator's mark_resize_outputs: an out that IS one of the inputs is read and
    written, so it can't be resized: it must have the broadcast shape."""
    if not any(o is out for o in operands):
        return
    shape = ()
    for o in operands:
        if isinstance(o, Tensor):
            shape = broadcast_shapes(shape, o._shape)
    if out._shape != shape:
        raise RuntimeError(f"output with shape [{', '.join(map(str, out._shape))}] doesn't "
                           f"match the broadcast shape [{', '.join(map(str, shape))}]")


def _check_out_dtype(name: str, operands: tuple, kwargs: dict, out: Tensor) -> None:
    """The dtype rules PyTorch checks before its kernel runs (compute_types), where they
    differ from "the result casts to out": see SAME_DTYPE and _INT_KERNELS."""
    tensors = [o for o in (*operands, *kwargs.values()) if isinstance(o, Tensor)]
    # (lerp with a Number or 0-dim weight is lerp_Scalar: castable)
    same = (name in SAME_DTYPE and not (name == "lerp" and (
        len(tensors) < 3 or tensors[2].dim() == 0))) or (
        name in _SCALAR_BOUNDS and len(tensors) == 1)
    if same and name in _SCALAR_BOUNDS:
        # clamp's meta function promotes self with its number bounds first (int8 self, bound
        # 1.5: Float expected); no bound, or one of a wrong type, is the method's own error
        bounds = [b for b in (*operands[1:], *kwargs.values()) if b is not None]
        if not _number_bounds(operands[0], bounds):
            return
        tensors = [operands[0], *bounds]
        common = dtypes.result_type(*tensors)
        if out is operands[0] and common is not out.dtype:  # (clamp's meta: out= self is
            raise RuntimeError(f"result type {common.short} can't be cast to the desired "
                               f"output type {out.dtype.c_name}")  # in place, C++ words)
    if same:
        common = dtypes.result_type(*tensors)
        if out.dtype is not common:
            raise RuntimeError(f"Found dtype {out.dtype.short} but expected {common.short}")
    elif name == "nan_to_num" and out.dtype is not operands[0].dtype:
        raise RuntimeError(f"nan_to_num: dtype of out: {out.dtype.short} should be same as "
                           f"input: {operands[0].dtype.short}")
    elif name == "heaviside" and len(tensors) == 2 and not (
            tensors[0].dtype is tensors[1].dtype is out.dtype):
        raise RuntimeError("heaviside is not yet implemented for tensors with different "
                           "dtypes.")
    elif name in _INT_KERNELS:
        rd = dtypes.result_type(*operands)
        if not dtypes.can_cast(rd, out.dtype):
            raise RuntimeError(f"result type {rd.short} can't be cast to the desired output "
                               f"type {out.dtype.short}")


def _number_bounds(x, bounds) -> bool:
    """clamp(x, min, max) with at least one bound, each a real Python number or None."""
    return isinstance(x, Tensor) and any(b is not None for b in bounds) and all(
        b is None or isinstance(b, (bool, int, float)) for b in bounds)


def _unary_kernel(name: str):
    if name in _pointwise.KERNELS:
        return _pointwise.KERNELS[name][0]
    if name == "square":  # pow(x, 2)
        return lambda x, out, dtype: ELEMENTWISE["pow"][0](x, 2, out=out, dtype=dtype)
    return unary.reciprocal_kernel if name == "reciprocal" else None


def _walked_unary(name: str, operands: tuple, kwargs: dict, out: Tensor) -> bool:
    """A floating unary op whose input overlaps ``out`` where PyTorch lets it
    (``torch.sinh(x[:, :-1], out=x[:, 1:])``): its kernel writes in PyTorch's loop order
    (cpu_loops.py), reading cells it has already written. False if that isn't the case."""
    x = operands[0]
    kernel = _unary_kernel(name) if len(operands) == 1 and not kwargs else None
    if (kernel is None or not isinstance(x, Tensor) or x.dtype is not out.dtype
            or not x.dtype.is_floating_point or x._shape != out._shape
            or not cpu_loops.overlaps(out, operands)
            or not cpu_loops.modelled(name, x.dtype.name)):
        return False
    cd = dtypes.compute_np(x.dtype)
    out._vc.write(lambda: write_inplace(lambda o, parts: call_kernel(kernel, parts, o, cd),
                                        name + "_", out, [x._array()], operands,
                                        out._array()), name)
    return True


def _computed_out(name: str, operands: tuple, kwargs: dict, out: Tensor) -> Tensor:
    """The other element-wise ops: the method computes the result (its own argument, dtype
    and shape errors), then PyTorch's out= checks, then one cast copy into out."""
    if _walked_unary(name, operands, kwargs, out):
        return out
    if name in _SCALAR_BOUNDS and _number_bounds(operands[0], (*operands[1:],
                                                             *kwargs.values())):
        # clamp with number bounds is a structured kernel: its meta checks pass, out is
        # resized (with its warning), and then the kernel converts the bounds, so an
        # overflowing bound (300 for int8) raises after the resize
        resize_output(out, operands[0]._shape)
    with grad_mode.no_grad():
        result = getattr(operands[0], name)(*operands[1:], **kwargs)
    if name == "float_power" and out.dtype is not dtypes.float64:
        raise RuntimeError(f"the output given to float_power has dtype {out.dtype.short} but "
                           "the operation's result requires dtype Double")
    if name == "ldexp" and not dtypes.can_cast(result.dtype, out.dtype):
        raise RuntimeError(f"ldexp can't be cast to the desired output type {out.dtype.short}")
    _check_out(out, result._shape, result.dtype)
    out._vc.write(lambda: cast_into(out._array(), result._array(), out.dtype, name), name)
    x = operands[0]
    if name in unary_nan_bits.OPS and isinstance(x, Tensor) and \
            out.dtype is result.dtype is x.dtype and not _same_cells(x, out):
        # a NaN's bits may follow the loop, and out='s layout picks it (unary_nan_bits.py)
        unary_nan_bits.repair(name, x._array(), None, out._array())
    elif name in _SCALAR_BOUNDS and out.dtype is result.dtype:
        _clamp_bits_in(out, name, operands, kwargs)
    if name == "rsqrt" and out.dtype is result.dtype is getattr(x, "dtype", None) and \
            out.dtype.itemsize == 2 and not _same_cells(x, out):
        rsqrt16(x._array(), out._array())  # its rounding follows out's loop too (unary_math)
        unary_nan_bits.repair(name, x._array(), None, out._array())
    return out


def _clamp_bits_in(out: Tensor, name: str, operands: tuple, kwargs: dict) -> None:
    """The NaN and zero bits of a clamp follow the loop, and out='s layout picks it
    (nan_sign.py): computed again over out's own geometry."""
    x, *rest = operands
    bounds = dict(zip(("max",) if name == "clamp_max" else ("min", "max"), rest), **kwargs)
    lo, hi = bounds.get("min"), bounds.get("max")
    if not isinstance(x, Tensor) or x.dtype is not out.dtype or _same_cells(x, out):
        return
    if isinstance(lo, Tensor) or isinstance(hi, Tensor):
        if all(isinstance(b, Tensor) and b._storage is not out._storage
               for b in (lo, hi) if b is not None):
            clamp_tensor_bits(out, x, lo, hi)
    elif is_float16_pair(x._array(), out._array()) and not any(
            isinstance(b, float) and b != b for b in (lo, hi)):
        clamp16(x._array(), lo, hi, out._array())  # (the same write: one version bump)


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
    # structured kernels (mm, bmm; matmul calls them): out's dtype exactly, then the resize,
    # then no cell of out written twice
    rd = dtypes.result_type(a, b)
    if out.dtype is not rd:
        raise RuntimeError(f"Expected out tensor to have dtype {rd.c_name}, but got "
                           f"{out.dtype.c_name} instead")
    resize_output(out, _matmul_shape(a, b))
    check_internal_overlap(out)
    # straight into out: no temporary
    out._vc.write(lambda: matmul_into(a._array(), b._array(), out._array(), name), name)
    return out
