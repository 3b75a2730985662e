"""Reductions over dims: the dim parsing every reduction shares, the counted reduction driver
(``_reduce``), and sum and mean (PyTorch's ReduceOps.cpp).

Results and the small intermediates are allocated through the allocator and filled by NumPy
with ``out=``, so nothing escapes the memory count. Built on this: var_std.py, max_min.py,
softmax.py, any_all.py, reduce_ops.py (prod, logsumexp ...), norms.py, aminmax.py.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding, saved
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from .arg_checks import (
    argument_error,
    as_called,
    int_list,
    invalid_combination,
    is_index,
)


def _dims(self, dim) -> tuple:
    if self.dim() == 0:
        if dim is not None:  # PyTorch accepts dim 0 / -1 on a 0-dim tensor
            for d in ((dim,) if isinstance(dim, int) else dim):
                wrap_dim(d, 0)
        return ()
    if dim is None:
        return tuple(range(self.dim()))
    if isinstance(dim, int):
        dim = (dim,)
    dims = [wrap_dim(d, self.dim()) for d in dim]
    for k, d in enumerate(dims):
        if d in dims[:k]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return tuple(sorted(dims))


_DIM_FORMS = ["*, torch.dtype dtype = None",
              "tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None"]


def _check_dim(op: str, dim, keepdim, dtype) -> None:
    """sum's and mean's two signatures. A ``dim`` that is no int, tuple of ints or None, or a
    ``dtype`` that is no dtype, fits neither; given alone (both forms take one argument)
    PyTorch lists the forms, else it names the argument. (keepdim=False and dtype=None
    spelled out are taken as not given.)"""
    ints = isinstance(dim, (list, tuple)) and (not dim or is_index(dim[0]))
    bad_dim = not (dim is None or is_index(dim) or ints)
    bad_dtype = dtype is not None and not isinstance(dtype, dtypes.dtype)
    if bad_dim and keepdim is False and dtype is None:
        args, kwargs = as_called(["dim"], (dim,))
        raise invalid_combination(op, args, _DIM_FORMS, kwargs)
    if bad_dtype and dim is None and keepdim is False:
        raise invalid_combination(op, (), _DIM_FORMS, {"dtype": dtype})
    if bad_dim:
        raise argument_error(op, "dim", 1, "tuple of ints", dim)
    if bad_dtype:
        raise argument_error(op, "dtype", None, "torch.dtype", dtype)
    if ints:
        int_list(op, "dim", (dim,), position=1, varargs=False)  # each element an int


def _check_keepdim(op: str, keepdim) -> None:
    if not isinstance(keepdim, bool):
        raise argument_error(op, "keepdim", 2, "bool", keepdim)


def _out_shape(self, dims, keepdim) -> tuple:
    return tuple(1 if i in dims else s for i, s in enumerate(self._shape)
                 if keepdim or i not in dims)


# NumPy 2.2 (the Python 3.10 lock) runs a reduction that casts (bool or int32 summed into
# int64) through two loop buffers where 2.3 and later take one; with half the elements each,
# the pair stays the size of the one loop buffer tests/test_byte_accounting.py allows.
_TWO_REDUCE_BUFFERS = np.lib.NumpyVersion(np.__version__) < "2.3.0"


def _reduce(self, name, ufunc_reduce, dim, keepdim, dtype) -> tuple[Tensor, tuple]:
    dims = _dims(self, dim)
    out = Tensor._empty(_out_shape(self, dims, keepdim), dtype, name)
    a, o = self._array(), out._array()
    # inf + -inf is nan and a float16 sum may overflow to inf: PyTorch says nothing, nor do we
    with np.errstate(invalid="ignore", over="ignore"):
        if _TWO_REDUCE_BUFFERS and a.dtype != o.dtype:
            size = np.getbufsize()
            np.setbufsize(size // 2)
            try:
                ufunc_reduce(a, axis=dims, keepdims=keepdim, out=o)
            finally:
                np.setbufsize(size)
        else:
            ufunc_reduce(a, axis=dims, keepdims=keepdim, out=o)
    return out, dims


def _given(dim) -> tuple | None:
    """A dim argument as ``grad_fn._saved_dim`` shows it: a tuple of the dims as passed, each
    an unsigned SymInt (dim=-1 reads back as 2**64 - 1); None when none was passed."""
    if dim is None:
        return None
    return saved(tuple(int(d) for d in ((dim,) if isinstance(dim, int) else dim)))


def _regrow(g: Tensor, shape: tuple, dims: tuple, keepdim: bool) -> Tensor:
    """Undo a reduction's shape: put back reduced dims, then broadcast (a view, no copy)."""
    if not keepdim:
        for d in dims:
            g = g.unsqueeze(d)
    return g.expand(shape)


@binding()
@tensor_method
def sum(self, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    _check_dim("sum", dim, keepdim, dtype)
    _check_keepdim("sum", keepdim)
    dtype = dtype or (self.dtype if self.dtype.category == 2 else dtypes.int64)
    out, dims = _reduce(self, "sum", lambda a, **k: np.sum(a, dtype=dtype.np, **k), dim,
                        keepdim, dtype)
    if dim is None:  # SumBackward0 saves self's sizes only
        return record("sum", out, {"self": self}, self_sym_sizes=self._shape, _dims=dims,
                      _keepdim=keepdim)
    return record("sum_dim", out, {"self": self}, dim=_given(dim), keepdim=keepdim,
                  self_sym_sizes=self._shape, _dims=dims, _keepdim=keepdim)


@derivative("sum", "SumBackward0")
def _sum_bw(ctx, g):
    return (_regrow(g, ctx.attr("self_sym_sizes"), ctx.attr("_dims"), ctx.attr("_keepdim")),)


derivative("sum_dim", "SumBackward1")(_sum_bw)


@binding()
@tensor_method
def mean(self, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    _check_dim("mean", dim, keepdim, dtype)
    _check_keepdim("mean", keepdim)
    if dtype is not None and not dtype.is_floating_point:
        raise RuntimeError(
            "mean(): could not infer output dtype. Optional dtype must be either a floating "
            f"point or complex dtype. Got: {dtype.short}")
    if self.dtype.category < 2 and dtype is None:
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {self.dtype.short}")
    dtype = dtype or self.dtype
    out, dims = _reduce(self, "mean", lambda a, **k: np.mean(a, dtype=dtype.np, **k), dim,
                        keepdim, dtype)
    if dim is None:  # MeanBackward0: self's sizes and numel
        return record("mean", out, {"self": self}, self_sym_numel=self.numel(),
                      self_sym_sizes=self._shape, _dims=dims, _keepdim=keepdim)
    return record("mean_dim", out, {"self": self}, dim=_given(dim), keepdim=keepdim,
                  self_sym_numel=self.numel(), self_sym_sizes=self._shape, _dims=dims,
                  _keepdim=keepdim)


@derivative("mean", "MeanBackward0")
def _mean_bw(ctx, g):
    shape, dims = ctx.attr("self_sym_sizes"), ctx.attr("_dims")
    n = 1
    for d in dims:
        n *= shape[d]
    return (_regrow(g / n, shape, dims, ctx.attr("_keepdim")),)


derivative("mean_dim", "MeanBackward1")(_mean_bw)
