"""max/min (whole tensor, along a dim, or against another tensor), amax/amin and
argmax/argmin (PyTorch's TensorCompare.cpp and ReduceOps.cpp): the checks on empty dims,
the (values, indices) pair, and the backward rows that share a tie's gradient evenly or send
it to the saved index. The reduction driver is reduce.py's.
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
    call_keywords,
    dim_tuple,
    invalid_combination,
    is_index,
)
from .reduce import _check_keepdim, _given, _out_shape, _reduce, _regrow


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
