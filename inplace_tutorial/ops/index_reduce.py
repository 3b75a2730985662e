"""index_reduce(_): index_add's slices, combined by prod, mean, amax or amin.

``x.index_reduce_(0, idx, src, "amax")`` combines row ``src[i]`` into row ``x[idx[i]]``, in
index order; ``include_self=False`` starts each hit slice from the reduction's identity.
IndexReduceBackward0 saves self, index, source and the result (derivatives.yaml), so changing
any of them in place before backward raises. The backward (PyTorch's index_reduce_backward)
is scatter_reduce's with index_select/index_add/index_fill in place of gather/scatter_add/
scatter; scatter_reduce.py holds the shared pieces (argument binding, identities, mean's
division, out=).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..creation import ones_like, zeros_like
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from ..warn_once import warn_once
from .arg_checks import type_name
from .compare import where
from .index_ops import (
    check_no_overlap,
    fill_slices,
    first_bad_index,
    fresh_copy,
    index_func_checks,
)
from .joining import saved_dim, symint
from .scatter_reduce import check_out_arg, divide_by_counts, identity, parse_args, set_output
from .tensor_iterator import check_internal_overlap

_REDUCE = {"prod": np.multiply, "mean": np.add, "amax": np.maximum, "amin": np.minimum}
_PARAMS = (("dim", "int"), ("index", "Tensor"), ("source", "Tensor"), ("reduce", "str"))


def _beta_warning() -> None:
    warn_once("index_reduce() is in beta and the API may change at any time.")


# --------------------------------------------------------------------------- checks
def _checks(self: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str,
            include_self: bool, write: Tensor | None, set_output_=None) -> tuple:
    """index_reduce's meta function and kernel checks in PyTorch's order, all before the
    first write; ``write`` is the tensor written into (self in place, out=), ``set_output_``
    out='s dtype check and resize. Returns (wrapped dim, flat index)."""
    if reduce not in _REDUCE:
        raise RuntimeError("index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    d = wrap_dim(dim, self.dim())
    idx = index_func_checks("index_reduce_", self, d, index, source, write=False)
    if set_output_ is not None:
        set_output_()
    if write is not None:
        check_internal_overlap(write)
        check_no_overlap(write, index)
        check_no_overlap(write, source)
    size = self._shape[d] if self.dim() else 1
    bool_mean = False
    if self.dtype is dtypes.bool_:  # PyTorch's kernels each dispatch differently on bool
        if not include_self:
            raise NotImplementedError('"index_reduce_func_exclude_input_init" not implemented '
                                      "for 'Bool'")
        if self.dim() <= 1:
            raise NotImplementedError("\"index_func_\" not implemented for 'Bool'")
        bool_mean = reduce == "mean" and idx.size  # (an empty index returns before the mean)
    if not include_self:  # index_fill_ runs first: negative indices count from the end there
        bad = first_bad_index(idx, -size, size)
        if bad is not None:
            raise IndexError(f"index {bad} is out of bounds for dimension {d} with size {size}")
    if first_bad_index(idx, 0, size) is not None:
        raise IndexError("index out of range in self")
    if bool_mean:  # the slices were reduced; dividing by the counts fails
        raise NotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
    return d, idx


# --------------------------------------------------------------------------- the kernel
def _index_reduce_kernel(out: Tensor, d: int, idx: np.ndarray, source: Tensor, reduce: str,
                         include_self: bool) -> None:
    """out (holding self's values) <- the reduction, slice by slice; checks have run."""
    if idx.size == 0:  # nothing hit: no slice changes (a mean divides by counts of 1)
        return
    a, s = out._array(), source._array()
    if out.dim() <= 1:  # PyTorch's 1-D loop: 0-dim tensors are one-element vectors
        a, s, d = a.reshape(-1), s.reshape(-1), 0
    if not include_self:
        fill_slices(out, d, idx, identity(reduce, a.dtype))
    ufunc = _REDUCE[reduce]
    at = (slice(None),) * d
    if np.shares_memory(a, s):  # a source aliasing out: each slice is read after the
        for i, j in enumerate(idx):  # earlier writes, as PyTorch's loop reads it
            a[at + (int(j),)] = ufunc(a[at + (int(j),)], s[at + (i,)])
    else:
        ufunc.at(a, at + (idx,), s)  # a repeated index combines in index order
    if reduce == "mean":
        counts = Tensor._empty(out._shape, out.dtype, "index_reduce counts")
        c = counts._array().reshape(a.shape)
        c[...] = 1 if include_self else 0
        np.add.at(c, at + (idx,), np.ones((), c.dtype))
        divide_by_counts(out, counts)


# --------------------------------------------------------------------------- the methods
@binding()
@tensor_method
def index_reduce_(self, *args, **kwargs) -> Tensor:
    """self[..., index[i], ...] = reduce(self[..., index[i], ...], source[..., i, ...])."""
    dim, index, source, reduce, include_self = parse_args("index_reduce_", _PARAMS, args,
                                                          kwargs)
    found = []

    def check():
        found.append(_checks(self, dim, index, source, reduce, include_self, write=self))
        _beta_warning()

    return record_inplace(
        "index_reduce", self, {"self": self, "source": source, "index": index},
        lambda: _index_reduce_kernel(self, *found[0], source, reduce, include_self),
        check=check, dim=symint(dim), reduce=reduce, include_self=include_self)


@binding()
@tensor_method
def index_reduce(self, *args, **kwargs) -> Tensor:
    """The out-of-place index_reduce_: a copy of self, reduced into."""
    dim, index, source, reduce, include_self = parse_args("index_reduce", _PARAMS, args,
                                                          kwargs)
    return _index_reduce_out(self, dim, index, source, reduce, include_self, None)


def _index_reduce_out(self: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str,
                      include_self: bool, out: Tensor | None) -> Tensor:
    if out is None:
        d, idx = _checks(self, dim, index, source, reduce, include_self, write=None)
        _beta_warning()
        result = fresh_copy(self, "index_reduce")
        _index_reduce_kernel(result, d, idx, source, reduce, include_self)
        return record("index_reduce", result, {"self": self, "source": source, "index": index},
                      dim=symint(dim), reduce=reduce, include_self=include_self)
    check_out_arg("index_reduce", out, (self, index, source))
    d, idx = _checks(self, dim, index, source, reduce, include_self, write=out,
                     set_output_=lambda: set_output(out, self))
    _beta_warning()

    def write():
        if out is not self:
            np.copyto(out._array(), self._array())
        _index_reduce_kernel(out, d, idx, source, reduce, include_self)

    out._vc.write(write, "index_reduce")
    return out


def index_reduce_function(input, *args, out=None, **kwargs) -> Tensor:  # noqa: A002
    """torch.index_reduce(input, dim, index, source, reduce, *, include_self=True, out=None)."""
    if not isinstance(input, Tensor):
        raise TypeError("index_reduce(): argument 'input' (position 1) must be Tensor, not "
                        f"{type_name(input)}")
    dim, index, source, reduce, include_self = parse_args("index_reduce", _PARAMS, args,
                                                          kwargs, first=2)
    return _index_reduce_out(input, dim, index, source, reduce, include_self, out)


# --------------------------------------------------------------------------- backward
@derivative("index_reduce", "IndexReduceBackward0", inputs=("self", "source"),
            saves={"self": None, "index": None, "source": None, "result": None})
def _index_reduce_bw(ctx, g):
    self, index, source = ctx.saved("self"), ctx.saved("index"), ctx.saved("source")
    result, reduce = ctx.saved("result"), ctx.attr("reduce")
    include_self = ctx.attr("include_self")
    dim = saved_dim(ctx, max(g.dim(), 1))
    if reduce == "prod":
        # the exclusive product, computed again for slices where self or source is 0
        masked_self = self.masked_fill(self == 0, 1)
        masked_self_result = masked_self.index_reduce(dim, index, source, reduce,
                                                      include_self=include_self)
        g_self = g * masked_self_result / masked_self
        src_zero = source == 0
        src_num_zeros = zeros_like(self).index_add(
            dim, index, src_zero.to(self.dtype)).index_select(dim, index)
        src_single_zero = src_zero & (src_num_zeros == 1)
        masked_src_result = self.index_reduce(dim, index,
                                              source.masked_fill(src_single_zero, 1), reduce,
                                              include_self=include_self)
        g_src = where(src_single_zero, (g * masked_src_result).index_select(dim, index),
                      (g * result).index_select(dim, index) / source.masked_fill(src_zero, 1))
    elif reduce == "mean":
        n = ones_like(g) if include_self else zeros_like(g)
        n = n.index_add(dim, index, ones_like(source))
        n.masked_fill_(n == 0, 1)
        g_self, g_src = g / n, g.index_select(dim, index) / n.index_select(dim, index)
    else:  # amax, amin: ties share the gradient evenly
        value = result.index_select(dim, index)
        self_is_result = (self == result).to(self.dtype)
        source_is_result = (source == value).to(self.dtype)
        g_distributed = g / self_is_result.index_add(dim, index, source_is_result)
        g_self = self_is_result * g_distributed
        g_src = source_is_result * g_distributed.index_select(dim, index)
    if not include_self:
        g_self = g_self.index_fill(dim, index, 0)
    return (g_self, g_src)


__all__ = ["index_reduce", "index_reduce_", "index_reduce_function"]
