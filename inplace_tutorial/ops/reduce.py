"""Reductions: sum, mean, var/std, amax/amin, max/min, argmax/argmin, softmax, log_softmax.

Results and the small intermediates (row maxima, row sums) are allocated through the
allocator and filled by NumPy with ``out=``, so nothing escapes the memory count.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding, saved
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..creation import zeros
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from . import dtype_rules
from .arg_checks import (
    argument_error,
    as_called,
    call_keywords,
    check_int,
    dim_tuple,
    int_list,
    invalid_combination,
    is_index,
)
from .tensor_iterator import Scratch, chunk_len, var_into


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


def _correction(unbiased, correction) -> float:
    if correction is not None:
        return correction
    return 1 if unbiased in (None, True) else 0


def _saved_correction(dim, unbiased, correction):
    """``_saved_correction`` as PyTorch shows it: None for a bare ``x.var()`` (the overload
    with nothing given), else the correction the call amounts to."""
    if dim is None and unbiased is None and correction is None:
        return None
    return _correction(unbiased, correction)


def _var_kernel(c, op: str, sqrt: bool = False):
    """var/std through the workspace (tensor_iterator.var_into): no input-sized ``a - mean``."""
    return lambda a, axis, keepdims, out: var_into(a, axis, c, out, op, sqrt)


_VAR_FORMS = ["tuple of ints dim, bool unbiased = True, bool keepdim = False",
              "tuple of ints dim = None, *, Number correction = None, bool keepdim = False",
              "bool unbiased = True"]


def _all_if_empty(dim):
    """var/std read an empty dim list as every dim (the node still shows the list given)."""
    return None if isinstance(dim, (list, tuple)) and not dim else dim


def _check_unbiased(op: str, dim, unbiased, keepdim) -> None:
    ints = isinstance(dim, (list, tuple)) and (not dim or is_index(dim[0]))
    if ints:  # each element an int, in the parser's words ("failed to unpack ... at pos 2")
        dim_tuple(op, dim)
    if not (unbiased is None or isinstance(unbiased, bool)) or (
            isinstance(dim, (list, tuple)) and not ints):  # x.var(0, 0): an int fits no form
        args, kwargs = as_called(["dim", "unbiased", "keepdim"], (dim, unbiased, keepdim),
                                 defaults=(None, False))
        raise invalid_combination(op, args, _VAR_FORMS, kwargs)


@binding()
@tensor_method
def var(self, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    _check_unbiased("var", dim, unbiased, keepdim)
    dtype_rules.check("var", self.dtype)
    c = _correction(unbiased, correction)
    out, dims = _reduce(self, "var", _var_kernel(c, "var"), _all_if_empty(dim), keepdim,
                        dtypes.float_result(self.dtype))
    return record("var", out, {"self": self}, dim=_given(dim), keepdim=keepdim,
                  correction=_saved_correction(dim, unbiased, correction), _dims=dims,
                  _correction=c)


@binding()
@tensor_method
def std(self, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    _check_unbiased("std", dim, unbiased, keepdim)
    dtype_rules.check("std", self.dtype)
    c = _correction(unbiased, correction)
    out, dims = _reduce(self, "std", _var_kernel(c, "std", sqrt=True), _all_if_empty(dim),
                        keepdim,
                        dtypes.float_result(self.dtype))
    return record("std", out, {"self": self}, dim=_given(dim), keepdim=keepdim,
                  correction=_saved_correction(dim, unbiased, correction), _dims=dims,
                  _correction=c)


def _centered(ctx):
    x, dims = ctx.saved("self"), ctx.attr("_dims")
    n = 1
    if ctx.attr("dim") != ():  # var_backward's _safe_size of an empty dim list is 1, though
        for d in dims:         # the forward reduced every dim: var(()) backward divides by 0
            n *= x.shape[d]
    return x, x - x.mean(dim=dims, keepdim=True), dims, n - ctx.attr("_correction")


@derivative("var", "VarBackward0", saves={"self": None})
def _var_bw(ctx, g):
    x, centered, dims, denom = _centered(ctx)
    scale = 2.0 / denom if denom else float("inf")  # (C++'s 2.0 / 0.0)
    return (_regrow(g, x.shape, dims, ctx.attr("keepdim")) * centered * scale,)


@derivative("std", "StdBackward0", saves={"self": None, "result": None})
def _std_bw(ctx, g):
    x, centered, dims, denom = _centered(ctx)
    r = _regrow(ctx.saved("result"), x.shape, dims, ctx.attr("keepdim"))
    return (_regrow(g, x.shape, dims, ctx.attr("keepdim")) * centered / (r * denom),)


def _check_nonempty(op: str, self, dims, as_given: bool = False) -> None:
    """PyTorch's checks before a max/min reduction: nothing to reduce is an error (amax and
    amin name the dim ``as_given``, -1 stays -1; max, min and arg* name it wrapped)."""
    if dims is None:
        if self.numel() == 0:
            if op.startswith("arg"):
                raise IndexError(f"{op}(): Expected reduction dim to be specified for "
                                 "input.numel() == 0.")
            raise RuntimeError(f"{op}(): Expected reduction dim to be specified for "
                               "input.numel() == 0. Specify the reduction dim with the 'dim' "
                               "argument.")
        return
    for given in ((dims,) if isinstance(dims, int) else dims):
        d = wrap_dim(given, self.dim()) if self.dim() else 0
        if self.dim() and self._shape[d] == 0:
            raise IndexError(f"{op}(): Expected reduction dim {given if as_given else d} to "
                             "have non-zero size.")


def _extreme(self, op: str, kernel, dim, keepdim) -> Tensor:
    """amax/amin: the largest/smallest value over ``dim`` (all dims when ``()``)."""
    _check_keepdim(op, keepdim)
    if isinstance(dim, (list, tuple)):  # each element an int, in the parser's words
        dim = dim_tuple(op, dim)
    dims = None if dim == () else dim
    _check_nonempty(op, self, dims, as_given=True)
    out, dims = _reduce(self, op, kernel, dims, keepdim, self.dtype)
    return record(op, out, {"self": self}, dim=_given(dim), keepdim=keepdim, _dims=dims,
                  _keepdim=keepdim)


@binding()
@tensor_method
def amax(self, dim=(), keepdim: bool = False) -> Tensor:
    return _extreme(self, "amax", np.max, dim, keepdim)


@binding()
@tensor_method
def amin(self, dim=(), keepdim: bool = False) -> Tensor:
    return _extreme(self, "amin", np.min, dim, keepdim)


def _evenly(ctx, g):
    x, dims, keep = ctx.saved("self"), ctx.attr("_dims"), ctx.attr("_keepdim")
    mask = (x == _regrow(ctx.saved("result"), x.shape, dims, keep)).to(g.dtype)
    count = mask.sum(dim=dims, keepdim=True)
    return (_regrow(g, x.shape, dims, keep) * mask / count,)


def evenly_distribute_bw(ctx, g):
    """evenly_distribute_backward (the whole-tensor max()/min(), median()): the gradient
    shared by the elements equal to the result, or by every NaN when the result is NaN
    (amax/amin's formula compares with ==, so there a NaN result gives NaN everywhere)."""
    x, r = ctx.saved("self"), ctx.saved("result")
    a, v = x._array(), r._array()
    mask = Tensor._empty(x._shape, dtypes.bool_, "evenly_distribute_backward (mask)")
    if v.dtype.kind == "f" or v.dtype.name == "bfloat16":
        nan = bool(np.isnan(v))
    else:
        nan = False
    if nan:
        np.isnan(a, out=mask._array())
    else:
        np.equal(a, v, out=mask._array())
    count = int(np.count_nonzero(mask._array()))
    out = zeros(x._shape, dtype=g.dtype)
    out._array()[mask._array()] = g._array() / count if count else np.nan
    return (out,)


# ties share the gradient evenly, for amax/amin and for the whole-tensor max()/min()
derivative("amax", "AmaxBackward0", saves={"self": None, "result": None})(_evenly)
derivative("amin", "AminBackward0", saves={"self": None, "result": None})(_evenly)
derivative("max_all", "MaxBackward1", saves={"self": None, "result": None})(evenly_distribute_bw)
derivative("min_all", "MinBackward1", saves={"self": None, "result": None})(evenly_distribute_bw)


def _values_indices(name: str) -> type:
    """torch.return_types.<name>: a (values, indices) pair with names."""
    def __repr__(self) -> str:
        return f"torch.return_types.{name}(\nvalues={self[0]!r},\nindices={self[1]!r})"

    return type(name, (tuple,), {"__slots__": (), "__repr__": __repr__,
                                 "values": property(lambda self: self[0]),
                                 "indices": property(lambda self: self[1])})


_MAX_FORMS = ["", "Tensor other", "int dim, bool keepdim = False"]
_ABSENT = object()  # max(other=...) not given


def _other(self, op: str, other, dim):
    """max(other=t) is max(t); other=None fits no form (only a Tensor is an ``other``)."""
    if other is _ABSENT:
        return dim
    if not isinstance(other, Tensor):
        raise invalid_combination(op, (), _MAX_FORMS, {"other": other})
    return other
_PAIRS = {"max": _values_indices("max"), "min": _values_indices("min")}


def _refuse_max_min(op: str, dim, keepdim) -> None:
    """A dim that is no int (or keepdim= without one). Given two arguments, only
    ``(int dim, bool keepdim)`` takes two, so PyTorch names the bad one; given one, it lists
    the forms. (keepdim=False spelled out counts as not given.)"""
    keywords = call_keywords()
    given = {}
    if dim is not None or "dim" in keywords or (keepdim is not False
                                                 and "keepdim" not in keywords):
        given["dim"] = dim
    if keepdim is not False:
        given["keepdim"] = keepdim
    if len(given) == 2:
        raise argument_error(op, "dim", 1, "int", dim)
    raise invalid_combination(op, tuple(v for k, v in given.items() if k not in keywords),
                              _MAX_FORMS, {k: given[k] for k in keywords if k in given})


def _max_min(self, op: str, dim, keepdim: bool):
    """max()/min() (the whole tensor) and max(dim)/min(dim) (values, indices)."""
    if (keepdim is not False and not is_index(dim)) or not (
            dim is None or isinstance(dim, Tensor) or is_index(dim)) or (
            dim is None and "dim" in call_keywords()):  # x.max(dim=None) fits no form
        _refuse_max_min(op, dim, keepdim)
    if isinstance(dim, Tensor):  # torch.max(a, b) is the element-wise maximum
        return self.maximum(dim) if op == "max" else self.minimum(dim)
    _check_keepdim(op, keepdim)
    kernel = np.max if op == "max" else np.min
    if dim is None:
        _check_nonempty(op, self, None)
        out, dims = _reduce(self, op, kernel, None, False, self.dtype)
        return record(op + "_all", out, {"self": self}, _dims=dims, _keepdim=False)
    _check_nonempty(op, self, dim)
    indices = _arg(self, "arg" + op, dim, keepdim)
    values, dims = _reduce(self, op, kernel, dim, keepdim, self.dtype)
    out = _PAIRS[op]((values, indices))
    record(op + "_dim", values, {"self": self}, dim=saved(int(dim)), keepdim=keepdim,
           self_sym_sizes=self._shape, indices=indices, _dim=dims[0] if dims else 0)
    return out


@binding()
@tensor_method
def max(self, dim=None, keepdim: bool = False, *, other=_ABSENT):
    """max(), max(Tensor other) and max(int dim, bool keepdim); @binding lets ``other`` in by
    name only in its own form."""
    return _max_min(self, "max", _other(self, "max", other, dim), keepdim)


@binding()
@tensor_method
def min(self, dim=None, keepdim: bool = False, *, other=_ABSENT):
    """min(), min(Tensor other) and min(int dim, bool keepdim); @binding lets ``other`` in by
    name only in its own form."""
    return _max_min(self, "min", _other(self, "min", other, dim), keepdim)


def _max_dim_bw(ctx, g):
    dim, keep, idx = ctx.attr("_dim"), ctx.attr("keepdim"), ctx.saved("indices")
    if not ctx.attr("self_sym_sizes"):  # a 0-dim input is its own maximum
        return (g.reshape(()),)
    if not keep:
        g, idx = g.unsqueeze(dim), idx.unsqueeze(dim)
    out = zeros(ctx.attr("self_sym_sizes"), dtype=g.dtype)
    np.put_along_axis(out._array(), idx._array(), g._array(), axis=dim)
    return (out,)


# max(dim)/min(dim): the gradient goes to the one saved index
derivative("max_dim", "MaxBackward0", saves={"indices": None})(_max_dim_bw)
derivative("min_dim", "MinBackward0", saves={"indices": None})(_max_dim_bw)


def _arg(self, op: str, dim, keepdim) -> Tensor:
    """argmax/argmin: NumPy's, which also picks the first of ties and the first NaN."""
    _check_nonempty(op, self, dim)
    kernel = np.argmax if op == "argmax" else np.argmin
    if dim is None:
        out = Tensor._empty((1,) * self.dim() if keepdim else (), dtypes.int64, op)
        out._array()[...] = kernel(self._array())
        return out
    d = wrap_dim(dim, self.dim())
    out = Tensor._empty(_out_shape(self, (d,), keepdim), dtypes.int64, op)
    kernel(self._array(), axis=d, keepdims=keepdim, out=out._array())
    return out


@binding()
@tensor_method
def argmax(self, dim=None, keepdim: bool = False) -> Tensor:
    _check_keepdim("argmax", keepdim)
    dtype_rules.check("argmax", self.dtype)  # max(dim)/min(dim) take bool, argmax doesn't
    return _arg(self, "argmax", dim, keepdim)


@binding()
@tensor_method
def argmin(self, dim=None, keepdim: bool = False) -> Tensor:
    _check_keepdim("argmin", keepdim)
    dtype_rules.check("argmin", self.dtype)  # max(dim)/min(dim) take bool, argmin doesn't
    return _arg(self, "argmin", dim, keepdim)


def _softmax_into(self, dim: int, name: str, log: bool) -> Tensor:
    if self.numel() == 0:  # PyTorch never reaches the kernel (or its dtype check)
        return Tensor._empty(self._shape, self.dtype, name)
    if 0 <= dim < self.dim() - 1 and (name, self.dtype.short) in dtype_rules.UNSUPPORTED:
        # PyTorch's kernel for a dim that is not the last one has its own name
        raise dtype_rules._not_impl(f"{name}_kernel_impl", self.dtype.short)
    dtype_rules.check(name, self.dtype)
    a = self._array()
    out = Tensor._empty(self._shape, dtypes.float_result(self.dtype), name)
    o = out._array()
    if a.ndim == 0:  # a 0-dim tensor is one row of one element
        a, o, self = a.reshape(1), o.reshape(1), self.reshape(1)
    if a.size == 0:
        return out
    rowmax = Tensor._empty(_out_shape(self, (dim,), True), out.dtype, name + " (row max)")
    m = rowmax._array()
    # ufunc.reduce itself: np.max/np.sum add a Python wrapper (2-3 us of the 64x10 op)
    np.maximum.reduce(a, axis=dim, keepdims=True, out=m)
    np.subtract(a, m, out=o, casting="unsafe")
    if log:
        # the row sums of exp(x - max) without an input-sized temporary (PyTorch's kernel
        # sums as it goes): in the shared workspace when it holds them all (a batch of
        # class scores) or, along the last dim, a block of whole rows at a time; else exp
        # in place and x - max computed again (the same bits every way)
        room = chunk_len(o.dtype)
        if o.size <= room:
            with Scratch(o.dtype, name, o.size) as scratch:
                e = scratch.view(o.shape)
                np.exp(o, out=e)
                np.add.reduce(e, axis=dim, keepdims=True, out=m)
        elif dim == o.ndim - 1 and o.shape[-1] <= room:
            rows_o, rows_m = o.reshape(-1, o.shape[-1]), m.reshape(-1, 1)  # fresh: views
            step = room // o.shape[-1]
            with Scratch(o.dtype, name, o.size) as scratch:
                for r in range(0, rows_o.shape[0], step):
                    block = rows_o[r:r + step]
                    e = scratch.view(block.shape)
                    np.exp(block, out=e)
                    np.add.reduce(e, axis=1, keepdims=True, out=rows_m[r:r + step])
        else:
            rowsum = Tensor._empty(rowmax._shape, out.dtype, name + " (row sum)")
            s = rowsum._array()
            np.exp(o, out=o)
            np.add.reduce(o, axis=dim, keepdims=True, out=s)
            np.subtract(a, m, out=o, casting="unsafe")
            m = s
        np.log(m, out=m)
        np.subtract(o, m, out=o)
    else:
        np.exp(o, out=o)
        np.add.reduce(o, axis=dim, keepdims=True, out=m)  # the row max's buffer, reused
        np.divide(o, m, out=o)
    return out


def _softmax(op: str, self: Tensor, dim, dtype, log: bool) -> Tensor:
    """softmax(int dim, torch.dtype dtype = None): with a dtype, the input is cast first (a
    ToCopyBackward0 under the node, as PyTorch's input.toType(dtype))."""
    d = wrap_dim(check_int(op, "dim", dim, 1), self.dim())
    if dtype is not None:
        if not isinstance(dtype, dtypes.dtype):
            raise argument_error(op, "dtype", 2, "torch.dtype", dtype)
        self = self.to(dtype)
    return record(op, _softmax_into(self, d, op, log), {"self": self}, dim=d)


@binding()
@tensor_method
def softmax(self, dim: int, dtype=None) -> Tensor:
    return _softmax("softmax", self, dim, dtype, False)


@binding()
@tensor_method
def log_softmax(self, dim: int, dtype=None) -> Tensor:
    return _softmax("log_softmax", self, dim, dtype, True)


@derivative("softmax", "SoftmaxBackward0", saves={"result": None})
def _softmax_bw(ctx, g):
    r = ctx.saved("result")
    return (r * (g - (g * r).sum(dim=ctx.attr("dim"), keepdim=True)),)


@derivative("log_softmax", "LogSoftmaxBackward0", saves={"result": None})
def _log_softmax_bw(ctx, g):
    # g - exp(result) * g.sum(dim): fused into one output buffer and one row-sum buffer
    r, dim = ctx.saved("result"), ctx.attr("dim")
    out = Tensor._empty(r._shape, g.dtype, "log_softmax_backward")
    if r.dim() == 0:
        return (g * 0,)  # log_softmax of one element is constant 0
    rows = Tensor._empty(_out_shape(r, (dim,), True), g.dtype, "log_softmax_backward (sum)")
    o, ga = out._array(), g._array()
    np.add.reduce(ga, axis=dim, keepdims=True, out=rows._array())
    np.exp(r._array(), out=o)
    np.multiply(o, rows._array(), out=o)
    np.subtract(ga, o, out=o)
    return (out,)
