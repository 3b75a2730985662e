"""More reductions, from PyTorch's ReduceOps.cpp: prod, logsumexp, nansum and trace.

Each keeps PyTorch's node and what it saves: ProdBackward0/1 save self and the result (the
backward divides the result by self where no element is zero, and multiplies the products
before and after each element where one is), LogsumexpBackward0 self and the result,
NansumBackward0 self (its NaNs get no gradient), TraceBackward0 only self's sizes. Integer
and bool inputs reduce in int64 (logsumexp: in the default float). float16/bfloat16 reduce
in float32 and round once. Every buffer comes from the allocator.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import (
    argument_error,
    as_called,
    forms_fitting,
    invalid_combination,
    is_index,
    saved,
    signed,
    type_name,
)
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..creation import zeros
from ..modes import STATE
from ..tensor import Tensor, tensor_method
from . import dtype_rules
from .arg_checks import dim_tuple
from .joining import cat
from .out_functions import computed, exact, out_form
from .reduce import _dims, _out_shape, _regrow


def _acc(d: dtypes.dtype) -> np.dtype:
    """The NumPy type a reduction accumulates in: float32 for the 16-bit floats."""
    return np.dtype(np.float32) if d in (dtypes.float16, dtypes.bfloat16) else d.np


def _int_result(self: Tensor, dtype) -> dtypes.dtype:
    """sum's rule: integers and bool reduce into int64, unless dtype= says otherwise."""
    if dtype is not None:
        return dtype
    return self.dtype if self.dtype.category == dtypes.FLOATING else dtypes.int64


def _check_autograd_dtype(self: Tensor, rd: dtypes.dtype) -> None:
    if STATE.grad and self._requires_grad and rd.category != dtypes.FLOATING:
        raise RuntimeError(f"Autograd not support dtype: {rd.short}")


def _too_many(op: str, low: int, high: int, given: int) -> TypeError:
    return TypeError(f"{op}() takes from {low} to {high} positional arguments but {given} "
                     "were given")


def _dim_list(op: str, dim, position: int = 1) -> tuple:
    """An ``int[1]`` argument: an int or a sequence of ints, as a tuple."""
    if is_index(dim):
        return (int(dim),)
    if isinstance(dim, (list, tuple)):  # each element an int, in the parser's words
        return dim_tuple(op, dim, position)
    raise TypeError(f"{op}(): argument 'dim' (position {position}) must be tuple of ints, not "
                    f"{type_name(dim)}")


def _check_keepdim(op: str, keepdim, position: int = 2) -> None:
    if not isinstance(keepdim, bool):  # (by keyword: no position)
        raise argument_error(op, "keepdim", position, "bool", keepdim)


def _check_dtype(op: str, dtype) -> None:
    if dtype is not None and not isinstance(dtype, dtypes.dtype):
        raise TypeError(f"{op}(): argument 'dtype' must be torch.dtype, not {type_name(dtype)}")


def _reduce_into(self: Tensor, op: str, dims: tuple, keepdim: bool, rd: dtypes.dtype,
                 kernel) -> Tensor:
    """A new result of rd; kernel(a, out) fills it (through a float32 buffer for 16 bits)."""
    shape = _out_shape(self, dims, keepdim)
    out = Tensor._empty(shape, rd, op)
    acc = _acc(rd)
    target = out if acc == rd.np else Tensor._empty(shape, dtypes.float32, op + " (float32)")
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        kernel(self._array(), acc, target._array())
    if target is not out:
        np.copyto(out._array(), target._array(), casting="unsafe")
    return out


# --------------------------------------------------------------------------- prod
_NO_DIM = object()  # (an explicit dim=None fits no overload of prod, and logsumexp needs dim)
_PROD_FORMS = ["*, torch.dtype dtype = None",
               "int dim, bool keepdim = False, *, torch.dtype dtype = None"]


@tensor_method
def prod(self, dim=_NO_DIM, keepdim: bool = False, *extra, dtype=None) -> Tensor:
    """The product of all elements (ProdBackward0), or along one dim (ProdBackward1)."""
    if dim is None:
        args, kwargs = as_called(["dim", "keepdim"], (dim, keepdim), defaults=(_NO_DIM, False))
        raise invalid_combination("prod", args, _PROD_FORMS, kwargs)
    dim = None if dim is _NO_DIM else dim
    if extra:
        if len(extra) == 1:  # dtype is keyword-only
            raise _too_many("prod", 1, 2, 3)
        raise invalid_combination("prod", (dim, keepdim, *extra), _PROD_FORMS)
    if (dim is None and keepdim is not False) or not (dim is None or is_index(dim)):
        args, kwargs = as_called(["dim", "keepdim"], (dim, keepdim), defaults=(None, False))
        raise invalid_combination("prod", args, _PROD_FORMS, kwargs)
    _check_keepdim("prod", keepdim)
    if dtype is not None and not isinstance(dtype, dtypes.dtype):
        args, kwargs = as_called(["dim", "keepdim", "*", "dtype"], (dim, keepdim, dtype),
                                 defaults=(None, False))
        if len(forms_fitting(_PROD_FORMS, len(args) + len(kwargs))) != 1:
            raise invalid_combination("prod", args, _PROD_FORMS, kwargs)
    _check_dtype("prod", dtype)
    rd = _int_result(self, dtype)
    _check_autograd_dtype(self, rd)
    dims = _dims(self, None if dim is None else int(dim))

    def kernel(a, acc, out):
        np.prod(a, axis=dims, keepdims=keepdim, dtype=acc, out=out)

    out = _reduce_into(self, "prod", dims, keepdim, rd, kernel)
    if dim is None:
        return record("prod", out, {"self": self})
    return record("prod_dim_int", out, {"self": self}, dim=saved(int(dim)), keepdim=keepdim)


def _exclusive_products(g: Tensor, x: Tensor, dim: int) -> Tensor:
    """PyTorch's prod_safe_zeros_backward: g times the product of every other element along
    dim (the products before and after each one), with no division, so zeros are safe."""
    if x.numel() == 0:
        return g.expand(x.shape)
    ones_shape = list(x.shape)
    ones_shape[dim] = 1
    ones = Tensor._empty(tuple(ones_shape), g.dtype, "prod_backward (ones)")
    ones._array().fill(1)
    n = x.shape[dim]
    before = cat([ones, x.narrow(dim, 0, n - 1)], dim).cumprod(dim)
    after = cat([ones, x.narrow(dim, 1, n - 1).flip(dim)], dim).cumprod(dim).flip(dim)
    return g * (before * after)


@derivative("prod", "ProdBackward0", saves={"self": None, "result": None})
def _prod_bw(ctx, g):
    x, result = ctx.saved("self").to(g.dtype), ctx.saved("result")
    if x.dim() == 0:
        return (g,)
    zero = (x == 0)
    count = int(zero.sum().item())
    if count == 0:
        return (g * (result / x),)
    if count > 1:  # (grad mode is off in backward: PyTorch answers zeros at once)
        return (zeros(x.shape, dtype=x.dtype),)
    flat = x.contiguous().view(-1)
    return (_exclusive_products(g, flat, 0).view(x.shape),)


@derivative("prod_dim_int", "ProdBackward1", saves={"self": None, "result": None})
def _prod_dim_bw(ctx, g):
    x, result = ctx.saved("self").to(g.dtype), ctx.saved("result")
    if x.dim() == 0:
        return (g,)
    dim = signed(ctx.attr("dim")) % x.dim()
    if not ctx.attr("keepdim"):
        g, result = g.unsqueeze(dim), result.unsqueeze(dim)
    if not bool((x == 0).any()):
        return (g * (result / x),)
    return (_exclusive_products(g, x, dim),)


# --------------------------------------------------------------------------- logsumexp

@tensor_method
def logsumexp(self, dim=_NO_DIM, keepdim: bool = False, *extra) -> Tensor:
    """log(sum(exp(x))) over dim, computed around the largest value (an infinite largest
    value is taken as 0, so inf stays inf and all -inf gives -inf)."""
    if dim is _NO_DIM:
        raise TypeError('logsumexp() missing 1 required positional arguments: "dim"')
    if extra:
        raise _too_many("logsumexp", 1, 2, 2 + len(extra))
    return _logsumexp(self, dim, keepdim, None)


def _logsumexp(self: Tensor, dim, keepdim, rd) -> Tensor:
    """logsumexp into a result of dtype rd (an out='s; None: the input's float type). As
    PyTorch's kernel: max and exp in the input's float type, the sum and log in rd's."""
    given = _dim_list("logsumexp", dim)
    _check_keepdim("logsumexp", keepdim)
    dims = _dims(self, given or None)  # () is every dim, as for amax and sum
    if given == () and not keepdim and self.dim() and self.numel():
        # PyTorch's kernel: the (1, 1, ...) maxima don't fit the reduced result
        raise RuntimeError(f"output with shape [] doesn't match the broadcast shape "
                           f"[{', '.join(['1'] * self.dim())}]")
    src_dtype = dtypes.float_result(self.dtype)
    src = self if self.dtype is src_dtype else self.to(src_dtype)
    cd = dtypes.from_numpy_dtype(_acc(src_dtype))

    def kernel(a, acc, out):
        if a.size == 0:
            out.fill(-np.inf)
            return
        big = Tensor._empty(_out_shape(src, dims, True), cd, "logsumexp (max)")._array()
        np.max(a, axis=dims, keepdims=True, out=big, initial=-np.inf)
        big[np.isinf(big)] = 0
        tmp = Tensor._empty(a.shape, cd, "logsumexp (exp)")._array()
        np.subtract(a, big, out=tmp)
        np.exp(tmp, out=tmp)
        np.sum(tmp, axis=dims, keepdims=keepdim, out=out, dtype=out.dtype)
        np.log(out, out=out)
        np.add(out, big if keepdim else big.reshape(out.shape), out=out)

    out = _reduce_into(src, "logsumexp", dims, keepdim, rd or src_dtype, kernel)
    return record("logsumexp", out, {"self": self}, dim=saved(given), keepdim=keepdim)


@derivative("logsumexp", "LogsumexpBackward0", saves={"self": None, "result": None})
def _logsumexp_bw(ctx, g):
    x, result = ctx.saved("self"), ctx.saved("result")
    dims = _dims(x, signed(ctx.attr("dim")))
    if not ctx.attr("keepdim") and x.dim():
        for d in dims:
            g, result = g.unsqueeze(d), result.unsqueeze(d)
    return (g * (x - result).exp(),)


# --------------------------------------------------------------------------- nansum
@tensor_method
def nansum(self, dim=None, keepdim: bool = False, *extra, dtype=None) -> Tensor:
    """The sum of the elements that are not NaN (NaN counts as zero)."""
    if extra:
        raise _too_many("nansum", 0, 2, 2 + len(extra))
    given = None if dim is None else _dim_list("nansum", dim)
    _check_keepdim("nansum", keepdim)
    _check_dtype("nansum", dtype)
    rd = _int_result(self, dtype)
    _check_autograd_dtype(self, rd)
    dims = _dims(self, None if not given else given)
    floating = self.dtype.category == dtypes.FLOATING

    def kernel(a, acc, out):
        if not floating:
            np.sum(a, axis=dims, keepdims=keepdim, dtype=acc, out=out)
            return
        keep = Tensor._empty(a.shape, dtypes.bool_, "nansum (not NaN)")._array()
        np.isnan(a, out=keep)
        np.logical_not(keep, out=keep)
        np.sum(a, axis=dims, keepdims=keepdim, dtype=acc, out=out, where=keep)

    out = _reduce_into(self, "nansum", dims, keepdim, rd, kernel)
    return record("nansum", out, {"self": self}, dim=None if given is None else saved(given),
                  keepdim=keepdim, _dims=dims)


@derivative("nansum", "NansumBackward0", saves={"self": None})
def _nansum_bw(ctx, g):
    x = ctx.saved("self")
    g = _regrow(g.to(x.dtype), x.shape, ctx.attr("_dims"), ctx.attr("keepdim"))
    return (g * x.isnan().logical_not(),)


# --------------------------------------------------------------------------- trace
@tensor_method
def trace(self) -> Tensor:
    """The sum of the main diagonal of a matrix (int64 for integer inputs)."""
    if self.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {self.dim()}")
    if self.dtype is dtypes.bool_:
        raise dtype_rules._not_impl("trace", "Bool")
    rd = _int_result(self, None)
    out = Tensor._empty((), rd, "trace")
    with np.errstate(over="ignore"):
        out._array()[...] = np.trace(self._array(), dtype=_acc(rd))
    return record("trace", out, {"self": self}, self_sym_sizes=self._shape)


@derivative("trace", "TraceBackward0")
def _trace_bw(ctx, g):
    out = zeros(ctx.attr("self_sym_sizes"), dtype=g.dtype)
    np.fill_diagonal(out._array(), g._array())
    return (out,)


# --------------------------------------------------------------------------- out=
# torch.prod(x, dim, out=o), torch.logsumexp(x, dim, out=o), torch.nansum(x, out=o): computed
# in out's dtype unless dtype= is given (then out must have it); trace has no out=.
_PROD_OUT_FORMS = ["Tensor input, *, torch.dtype dtype = None",
                   "Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, "
                   "Tensor out = None"]


@out_form("prod")
def prod_out(self: Tensor, dim=_NO_DIM, keepdim: bool = False, *, dtype=None,
             out=None) -> Tensor:
    if dim is _NO_DIM:  # the whole-tensor product has no out= overload
        kwargs = {"keepdim": keepdim} if keepdim is not False else {}
        kwargs.update({"dtype": dtype} if dtype is not None else {})
        raise invalid_combination("prod", (self,), _PROD_OUT_FORMS, {**kwargs, "out": out})
    want = dtype if dtype is not None else getattr(out, "dtype", None)
    return computed("prod", out, (self,), lambda: self.prod(dim, keepdim, dtype=want),
                    lambda o, r: exact(o, r.dtype), internal=False)


@out_form("logsumexp")
def logsumexp_out(self: Tensor, dim=_NO_DIM, keepdim: bool = False, *, out=None) -> Tensor:
    def rule(o: Tensor, r: Tensor) -> None:
        if o.dtype.category != dtypes.FLOATING:
            raise RuntimeError("logsumexp(): Expected floating point type for result tensor, "
                               f"but got: {o.dtype.short}")

    def compute() -> Tensor:
        if dim is _NO_DIM:
            return self.logsumexp()
        wide = isinstance(out, Tensor) and out.dtype.category == dtypes.FLOATING
        return _logsumexp(self, dim, keepdim, out.dtype if wide else None)
    return computed("logsumexp", out, (self,), compute, rule, internal=False)


@out_form("nansum")
def nansum_out(self: Tensor, dim=None, keepdim: bool = False, *, dtype=None,
               out=None) -> Tensor:
    if dtype is not None and isinstance(out, Tensor) and dtype is not out.dtype:
        raise RuntimeError(f"nansum: provided dtype must match dtype of result. Got "
                           f"{out.dtype.short} and {dtype.short}.")
    if (dtype is None and isinstance(out, Tensor) and self.numel()
            and self.dtype.category == dtypes.FLOATING
            and out.dtype.category != dtypes.FLOATING):
        def refuse(o: Tensor, r: Tensor) -> None:  # PyTorch's kernel goes by out's dtype
            raise NotImplementedError(f"\"nansum_cpu\" not implemented for '{o.dtype.short}'")
        return computed("nansum", out, (self,), lambda: self.nansum(dim, keepdim), refuse,
                        internal=False, rule_after_resize=True)
    want = dtype if dtype is not None else getattr(out, "dtype", None)
    return computed("nansum", out, (self,), lambda: self.nansum(dim, keepdim, dtype=want),
                    lambda o, r: exact(o, r.dtype), internal=False)
