"""``out=`` for the reductions and the (values, indices) pairs: torch.sum(x, 0, out=o),
torch.sort(x, out=(values, indices)), torch.max/min, argmax/argmin, norm, mean, var, std,
amax/amin, softmax.

Registered in out_functions.OUT like the others (functional.py imports this module). A pair's
two tensors are each checked and resized as a structured kernel does (values: the input's
dtype; indices: int64), and the call returns them as ``torch.return_types.<op>_out``.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import dtypes
from ..arg_parser import type_name
from ..autograd import grad_mode
from ..layout import wrap_dim
from ..tensor import Tensor
from . import out_variants
from .index_ops import check_no_overlap
from .out_functions import castable, computed, exact, out_form, start, write
from .tensor_iterator import check_internal_overlap, check_partial_overlap


def _named_pair(name: str) -> type:
    """torch.return_types.<name>_out: what the out= forms return (out's two tensors)."""
    def __repr__(self) -> str:
        return f"torch.return_types.{name}_out(\nvalues={self[0]!r},\nindices={self[1]!r})"

    return type(name + "_out", (tuple,), {"__slots__": (), "__repr__": __repr__,
                                          "values": property(lambda self: self[0]),
                                          "indices": property(lambda self: self[1])})


_PAIR = {name: _named_pair(name) for name in ("sort", "topk", "max", "min")}


def _pair_out(name: str, out, compute: Callable[[], tuple], operands: tuple,
              squeezed: int | None = None) -> tuple:
    """sort/topk/max(dim)/min(dim): out is a (values, indices) pair; values must have the input's
    dtype and indices int64, each checked and resized as a structured kernel does.
    ``squeezed``: max/min(dim) without keepdim: PyTorch's kernel unsqueeze_s both outs at the
    reduced dim for its checks and squeeze_s them after (a refused out keeps that size 1)."""
    if not isinstance(out, (tuple, list)):
        raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not "
                        f"{type(out).__name__}")
    if len(out) != 2:
        raise TypeError(f"expected tuple of 2 elements but got {len(out)}")
    values, indices = out
    start(name, values, (*operands, indices))
    if not isinstance(indices, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not "
                        f"{type(indices).__name__}")
    with grad_mode.no_grad():
        rv, ri = compute()
    before = (values._shape, indices._shape)
    for o, r in ((values, rv), (indices, ri)):  # (each one's dtype, then its resize)
        exact(o, r.dtype)
        out_variants.resize_output(o, r._shape)
    if (values._shape, indices._shape) != before and any(
            t is values or t is indices for t in operands):
        with grad_mode.no_grad():  # (read at its new shape: out_functions.reread)
            rv, ri = compute()
        for o, r in ((values, rv), (indices, ri)):
            out_variants.resize_output(o, r._shape)
    if squeezed is not None:  # unsqueeze_ both before the kernel's checks, squeeze_ after
        for o in (values, indices):
            inner = o._shape[squeezed] * o._stride[squeezed] if squeezed < o.dim() else 1
            o._set_geometry(o._shape[:squeezed] + (1,) + o._shape[squeezed:],
                            o._stride[:squeezed] + (inner,) + o._stride[squeezed:], o._offset)
    for o in (values, indices):  # the kernel's TensorIterator, on the resized outs
        check_internal_overlap(o)
        for t in operands:
            check_partial_overlap(o, t)
    if squeezed is not None:
        for o in (values, indices):
            o._set_geometry(o._shape[:squeezed] + o._shape[squeezed + 1:],
                            o._stride[:squeezed] + o._stride[squeezed + 1:], o._offset)
    for o, r in ((values, rv), (indices, ri)):
        write(o, name, lambda o=o, r=r: np.copyto(o._array(), r._array()))
    return _PAIR[name]((values, indices))


_SORT_FORMS = (" * (Tensor input, *, bool stable, int dim = -1, bool descending = False, "
               "tuple of Tensors out = None)\n * (Tensor input, int dim = -1, bool descending = "
               "False, *, tuple of Tensors out = None)\n")


@out_form("sort")
def sort_out(self: Tensor, *args, out=None, **kwargs) -> tuple:
    if not isinstance(out, (tuple, list)):  # sort's two overloads both want a pair
        got = ", ".join(["Tensor", *(type_name(a) for a in args), f"out={type_name(out)}",
                         *(f"{k}={type_name(v)}" for k, v in kwargs.items())])
        raise TypeError(f"sort() received an invalid combination of arguments - got ({got}), "
                        f"but expected one of:\n{_SORT_FORMS}")
    return _pair_out("sort", out, lambda: self.sort(*args, **kwargs), (self,))


@out_form("topk")
def topk_out(self: Tensor, k, dim=-1, largest=True, sorted=True, *, out=None) -> tuple:  # noqa: A002
    return _pair_out("topk", out, lambda: self.topk(k, dim, largest, sorted), (self,))


@out_form("argsort")
def argsort_out(self: Tensor, dim=-1, descending=False, *, stable=False, out=None) -> Tensor:
    """argsort.stable_out: sort_out with a values tensor of its own; out takes the indices
    (so sort's words: 'sort(): functions with out=...', 'Expected out tensor to have dtype
    long int ...')."""
    values = Tensor._empty((0,), self.dtype, "argsort (values)")
    _pair_out("sort", (values, out), lambda: self.sort(dim=dim, descending=descending,
                                                        stable=stable), (self,))
    return out


@out_form("msort")
def msort_out(self: Tensor, *, out=None) -> Tensor:
    """msort_out: sort_out along dim 0 into out, with indices of its own."""
    indices = Tensor._empty((0,), dtypes.int64, "msort (indices)")
    _pair_out("sort", (out, indices), lambda: self.sort(0), (self,))
    return out


@out_form("nonzero")
def nonzero_out(self: Tensor, *, as_tuple=False, out=None) -> Tensor:
    """nonzero_out_cpu: a long out (its text, with PyTorch's missing space), no overlap with
    self, then resize_output to (count, ndim)."""
    if as_tuple:
        raise RuntimeError("nonzero does not support the out kwarg when as_tuple is True")
    if not isinstance(out, Tensor):
        raise TypeError(f"nonzero(): argument 'out' must be Tensor, not {type_name(out)}")
    if out.dtype is not dtypes.int64:
        raise RuntimeError("nonzero: Expected out tensor to have scalar type Long but got "
                           f"scalar type{out.dtype.short}")
    check_internal_overlap(out)
    check_no_overlap(out, self)
    result = self.nonzero()
    if out._shape != result._shape:  # resized: column-major, as PyTorch's kernel fills it
        out_variants.resize_output(out, result._shape)
        n, d = result._shape
        out._set_geometry(result._shape, (1, max(n, 1)), out._offset)
    return write(out, "nonzero", lambda: np.copyto(out._array(), result._array()))


def _max_min_out(op: str, self: Tensor, dim, keepdim, out):
    if dim is None:  # torch.max(x, out=o): the overall maximum (max_unary_out)
        return computed(op, out, (self,), lambda: getattr(self, op)(), _unary_cast_rule,
                         internal=False)
    squeezed = None if keepdim or not isinstance(dim, int) or isinstance(dim, bool) else \
        wrap_dim(dim, max(self.dim(), 1))
    return _pair_out(op, out, lambda: getattr(self, op)(dim, keepdim), (self,),
                     squeezed if self.dim() else None)


def _unary_cast_rule(out: Tensor, r: Tensor) -> None:
    """max_unary_out/min_unary_out: a bare TORCH_CHECK(canCast(...)), in PyTorch's words."""
    if not dtypes.can_cast(r.dtype, out.dtype):
        raise RuntimeError(
            "Expected canCast( typeMetaToScalarType(self.dtype()), typeMetaToScalarType("
            "out.dtype())) to be true, but got false.  (Could this error message be improved?  "
            "If so, please report an enhancement request to PyTorch.)")


@out_form("max")
def max_out(self: Tensor, dim=None, keepdim=False, *, out=None):
    return _max_min_out("max", self, dim, keepdim, out)


@out_form("min")
def min_out(self: Tensor, dim=None, keepdim=False, *, out=None):
    return _max_min_out("min", self, dim, keepdim, out)


def _arg_out(op: str, self: Tensor, dim, keepdim, out) -> Tensor:
    return computed(op, out, (self,), lambda: getattr(self, op)(dim, keepdim),
                     lambda o, r: exact(o, r.dtype), differentiable=False, internal=False)


@out_form("argmax")
def argmax_out(self: Tensor, dim=None, keepdim=False, *, out=None) -> Tensor:
    return _arg_out("argmax", self, dim, keepdim, out)


@out_form("argmin")
def argmin_out(self: Tensor, dim=None, keepdim=False, *, out=None) -> Tensor:
    return _arg_out("argmin", self, dim, keepdim, out)


@out_form("norm")
def norm_out(self: Tensor, p="fro", dim=None, keepdim=False, dtype=None, *, out=None) -> Tensor:
    return computed("linalg_vector_norm", out, (self,),
                     lambda: self.norm(p, dim, keepdim, dtype=dtype),
                     lambda o, r: exact(o, r.dtype), internal=False)


@out_form("sum")
def sum_out(self: Tensor, dim=None, keepdim=False, *, dtype=None, out=None) -> Tensor:
    if dim is None:  # the whole-tensor sum has no out= overload
        raise TypeError(
            f"sum() received an invalid combination of arguments - got (Tensor, "
            f"{'keepdim=bool, ' if keepdim else ''}{'dtype=torch.dtype, ' if dtype else ''}"
            f"out={type(out).__name__}), but expected one of:\n"
            " * (Tensor input, *, torch.dtype dtype = None)\n"
            " * (Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = "
            "None, Tensor out = None)\n")
    # without dtype=, the sum runs in out's dtype (PyTorch converts the input first)
    want = dtype if dtype is not None else getattr(out, "dtype", None)
    return computed("sum", out, (self,), lambda: self.sum(dim, keepdim, dtype=want),
                     lambda o, r: exact(o, r.dtype), internal=False)


def _wider(self: Tensor, out) -> Tensor:
    """A float64 out of a float32 reduction: PyTorch reduces in float64 (the input converted
    first), not in float32 then converted."""
    wide = (isinstance(out, Tensor) and out.dtype is dtypes.float64
            and self.dtype.category == dtypes.FLOATING and self.dtype is not dtypes.float64)
    return self.to(dtypes.float64) if wide else self


@out_form("mean")
def mean_out(self: Tensor, dim=None, keepdim=False, *, dtype=None, out=None) -> Tensor:
    if dtype is not None:
        return computed("mean", out, (self,), lambda: self.mean(dim, keepdim, dtype=dtype),
                         lambda o, r: exact(o, r.dtype))
    return computed("mean", out, (self,), lambda: _wider(self, out).mean(dim, keepdim),
                     lambda o, r: castable(o, self.dtype if self.dtype.category ==
                                            dtypes.FLOATING else r.dtype),
                     rule_after_resize=True)


@out_form("var")
def var_out(self: Tensor, dim=None, unbiased=None, keepdim=False, *, correction=None,
            out=None) -> Tensor:
    return computed("var", out, (self,),
                     lambda: _wider(self, out).var(dim, unbiased, keepdim, correction=correction),
                     lambda o, r: castable(o, r.dtype), internal=False,
                     rule_after_resize=True)


@out_form("std")
def std_out(self: Tensor, dim=None, unbiased=None, keepdim=False, *, correction=None,
            out=None) -> Tensor:
    return computed("std", out, (self,),
                     lambda: _wider(self, out).std(dim, unbiased, keepdim, correction=correction),
                     lambda o, r: castable(o, r.dtype), internal=False,
                     rule_after_resize=True)


def _extreme_out(op: str, self: Tensor, dim, keepdim, out) -> Tensor:
    def rule(o: Tensor, r: Tensor) -> None:
        if o.dtype is not self.dtype:
            raise RuntimeError(f"Expected the dtype for input and out to match, but got "
                               f"{self.dtype.short} for input's dtype and {o.dtype.short} for "
                               "out's dtype.")
    return computed(op, out, (self,), lambda: getattr(self, op)(dim, keepdim), rule,
                     internal=False)


@out_form("amax")
def amax_out(self: Tensor, dim=(), keepdim=False, *, out=None) -> Tensor:
    return _extreme_out("amax", self, dim, keepdim, out)


@out_form("amin")
def amin_out(self: Tensor, dim=(), keepdim=False, *, out=None) -> Tensor:
    return _extreme_out("amin", self, dim, keepdim, out)


def _softmax_out(name: str, self: Tensor, dim, dtype, out) -> Tensor:
    """softmax/log_softmax (dtype=: the input converted first). PyTorch refuses an out that
    requires grad, but lets an input that requires grad through, and its out then carries a
    node whose backward is not implemented; the core refuses both."""
    src = self if dtype is None else self.to(dtype)
    return computed(f"aten::{name}", out, (self,), lambda: getattr(src, name)(dim),
                     lambda o, r: exact(o, r.dtype))


@out_form("softmax")
def softmax_out(self: Tensor, dim, dtype=None, *, out=None) -> Tensor:
    return _softmax_out("softmax", self, dim, dtype, out)


@out_form("log_softmax")
def log_softmax_out(self: Tensor, dim, dtype=None, *, out=None) -> Tensor:
    return _softmax_out("log_softmax", self, dim, dtype, out)


__all__ = ["amax_out", "amin_out", "argmax_out", "argmin_out", "argsort_out", "msort_out",
           "nonzero_out", "log_softmax_out", "max_out",
           "mean_out", "min_out", "norm_out", "softmax_out", "sort_out", "std_out", "sum_out",
           "topk_out", "var_out"]
