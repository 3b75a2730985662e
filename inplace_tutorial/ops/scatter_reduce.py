"""scatter_reduce(_): scatter with a reduction, ``x.scatter_reduce_(0, idx, src, "amax")``.

Every cell of src picked by the index is combined into ``x[..., idx[...], ...]`` by sum, prod,
mean, amax or amin, in index order; ``include_self=False`` starts each hit cell from the
reduction's identity instead of its old value. ScatterReduceBackward0 saves self, index, src
and the result (derivatives.yaml's scatter_reduce.two), so changing any of them in place
before backward raises. Its backward (PyTorch's scatter_reduce_backward) is below the kernel;
amax/amin split the gradient evenly between ties. index_reduce.py is the same along slices.
"""
from __future__ import annotations

import operator

import numpy as np

from .. import dtypes
from ..arg_parser import binding, is_index
from ..autograd.derivatives import derivative
from ..autograd.graph import any_requires_grad
from ..autograd.record import record, record_inplace
from ..creation import ones_like, zeros_like
from ..layout import wrap_dim
from ..modes import STATE
from ..tensor import Tensor, tensor_method
from .arg_checks import type_name
from .compare import where
from .index_ops import check_no_overlap, fresh_copy
from .joining import saved_dim, symint
from .out_variants import resize_output
from .scatter_gather import (
    _check_bounds,
    _nonempty,
    _pieces,
    _scatter_checks,
    _scatter_kernel,
    _size,
    _src_cells,
    reduce_at,
)
from .tensor_iterator import check_internal_overlap

# reduce as passed -> (the NumPy ufunc that combines two cells, the reduction's identity)
# "max"/"min" are the old spellings PyTorch still takes (its backward refuses them)
_REDUCE = {"sum": "add", "prod": "multiply", "mean": "add", "amax": "maximum",
           "amin": "minimum", "max": "maximum", "min": "minimum"}
_MISSING = object()


# --------------------------------------------------------------------------- arguments
def parse_args(op: str, params: tuple, args: tuple, kwargs: dict, first: int = 1) -> list:
    """PyTorch's binding of ``(int dim, Tensor index, Tensor src, str reduce, *, bool
    include_self=True)``-like signatures: too many positional arguments, duplicates, unknown
    keywords, missing ones, then each type in order (its position shown only when it was
    passed by position; ``first`` is the position of the first parameter)."""
    if len(args) > len(params):
        raise TypeError(f"{op}() takes {len(params) + first - 1} positional arguments but "
                        f"{len(args) + first - 1} were given")
    values, positional = list(args) + [_MISSING] * (len(params) - len(args)), set()
    positional.update(range(len(args)))
    for key, v in kwargs.items():
        names = [p[0] for p in params]
        if key not in names and key != "include_self":
            raise TypeError(f"{op}() got an unexpected keyword argument '{key}'")
        if key in names:
            if names.index(key) < len(args):
                raise TypeError(f"{op}() got multiple values for argument '{key}'")
            values[names.index(key)] = v
    missing = [p[0] for p, v in zip(params, values, strict=True) if v is _MISSING]
    if missing:
        n = len(missing)  # (PyTorch's own plural: "1 ... arguments", "2 ... argument")
        raise TypeError(f"{op}() missing {n} required positional argument{'s' if n == 1 else ''}"
                        f": {', '.join(f'{chr(34)}{m}{chr(34)}' for m in missing)}")
    for k, ((name, kind), v) in enumerate(zip(params, values, strict=True)):
        ok = {"int": is_index, "Tensor": lambda x: isinstance(x, Tensor),
              "str": lambda x: isinstance(x, str)}[kind](v)
        if not ok:
            where_ = f" (position {k + first})" if k in positional else ""
            raise TypeError(f"{op}(): argument '{name}'{where_} must be {kind}, not "
                            f"{type_name(v)}")
    include_self = kwargs.get("include_self", True)
    if not isinstance(include_self, bool):
        raise TypeError(f"{op}(): argument 'include_self' must be bool, not "
                        f"{type_name(include_self)}")
    values[0] = operator.index(values[0])
    return values + [include_self]


_PARAMS = (("dim", "int"), ("index", "Tensor"), ("src", "Tensor"), ("reduce", "str"))


def _check_reduce(reduce: str) -> None:
    if reduce not in _REDUCE:
        raise RuntimeError("reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")


def _checks(self: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str,
            include_self: bool, write: Tensor | None, set_output=None) -> int:
    """scatter_reduce.two's meta function and kernel checks, in PyTorch's order, before any
    byte is written; ``write`` is the tensor written into (self for the in-place form, out=),
    ``set_output`` out='s dtype check and resize (between the overlap and reduce checks)."""
    d = wrap_dim(dim, self.dim())
    _scatter_checks("scatter_reduce", self, d, index, src)
    if write is not None:
        check_internal_overlap(write)
        check_no_overlap(write, index)
        check_no_overlap(write, src)
    if set_output is not None:
        set_output()
    _check_reduce(reduce)
    if reduce == "mean" and self.dtype is dtypes.bool_:
        if not index.numel():  # PyTorch skips the reduction, then fails dividing by counts
            raise NotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
        if not include_self:  # include_self=False first fills the hit cells (and checks)
            _check_bounds(index, d, _size(self, d))
        raise NotImplementedError('"scatter_gather_tensor_cpu_reduce_mean" not implemented for '
                                  "'Bool'")
    _check_bounds(index, d, _size(self, d))
    return d


# --------------------------------------------------------------------------- the kernel
def identity(reduce: str, np_dtype: np.dtype):
    """The value a hit cell starts from when include_self=False (PyTorch's init_val)."""
    if reduce == "prod":
        return np_dtype.type(1)
    if reduce in ("sum", "mean"):
        return np_dtype.type(0)
    high = reduce in ("amin", "min")
    if np_dtype == np.bool_:
        return np.bool_(high)
    if np_dtype.kind == "f" or np_dtype.name == "bfloat16":
        return np_dtype.type(np.inf if high else -np.inf)
    info = np.iinfo(np_dtype)
    return np_dtype.type(info.max if high else info.min)


def divide_by_counts(out: Tensor, counts: Tensor) -> None:
    """mean's last step, as PyTorch: a count of 0 (no hit, include_self=False) becomes 1;
    floats divide, integers divide rounding down. The mask is a counted tensor."""
    c = counts._array()
    zero = Tensor._empty(counts._shape, dtypes.bool_, "mean counts")
    np.equal(c, 0, out=zero._array())
    np.copyto(c, 1, where=zero._array())
    del zero
    a = out._array()
    if out.dtype.category == 2:
        np.divide(a, c, out=a)
    else:
        np.floor_divide(a, c, out=a)


def _scatter_reduce_kernel(out: Tensor, d: int, index: Tensor, src: Tensor, reduce: str,
                           include_self: bool) -> None:
    """out (holding self's values) <- the reduction, in place; checks have run."""
    if index.numel() == 0:
        return
    a, s = _nonempty(out._array()), _src_cells(src, index)
    if not include_self:
        _scatter_kernel(out, d, index, identity(reduce, a.dtype))
    ufunc = getattr(np, _REDUCE[reduce])
    if np.shares_memory(a, s):  # a source aliasing out: each source cell is read after the
        for piece, coords in _pieces(index, d):  # earlier writes, as PyTorch's loop reads it
            sub = s[piece]
            cells = np.broadcast_arrays(*[np.asarray(c) for c in coords])
            for k in np.ndindex(sub.shape):
                at = tuple(int(c[k]) for c in cells)
                a[at] = ufunc(a[at], sub[k])
    else:
        reduce_at(out, d, index, ufunc, lambda piece: s[piece])
    if reduce == "mean":
        counts = Tensor._empty(out._shape, out.dtype, "scatter_reduce counts")
        counts._array()[...] = 1 if include_self else 0
        reduce_at(counts, d, index, np.add, lambda piece: np.ones((), counts.dtype.np))
        divide_by_counts(out, counts)


# --------------------------------------------------------------------------- the methods
@binding()
@tensor_method
def scatter_reduce_(self, *args, **kwargs) -> Tensor:
    """self[..., index[i], ...] = reduce(self[...], src[i]) for every cell of the index."""
    dim, index, src, reduce, include_self = parse_args("scatter_reduce_", _PARAMS, args,
                                                       kwargs)
    found = []

    def check():
        found.append(_checks(self, dim, index, src, reduce, include_self, write=self))

    return record_inplace(
        "scatter_reduce", self, {"self": self, "src": src, "index": index},
        lambda: _scatter_reduce_kernel(self, found[0], index, src, reduce, include_self),
        check=check, dim=symint(dim), reduce=reduce, include_self=include_self)


@binding()
@tensor_method
def scatter_reduce(self, *args, **kwargs) -> Tensor:
    """The out-of-place scatter_reduce_: a copy of self, reduced into."""
    dim, index, src, reduce, include_self = parse_args("scatter_reduce", _PARAMS, args, kwargs)
    return _scatter_reduce_out(self, dim, index, src, reduce, include_self, None)


def _scatter_reduce_out(self: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str,
                        include_self: bool, out: Tensor | None) -> Tensor:
    if out is None:
        d = _checks(self, dim, index, src, reduce, include_self, write=None)
        result = fresh_copy(self, "scatter_reduce")
        _scatter_reduce_kernel(result, d, index, src, reduce, include_self)
        return record("scatter_reduce", result, {"self": self, "src": src, "index": index},
                      dim=symint(dim), reduce=reduce, include_self=include_self)
    check_out_arg("scatter_reduce", out, (self, index, src))
    d = _checks(self, dim, index, src, reduce, include_self, write=out,
                set_output=lambda: set_output(out, self))

    def write():
        if out is not self:
            np.copyto(out._array(), self._array())
        _scatter_reduce_kernel(out, d, index, src, reduce, include_self)

    out._vc.write(write, "scatter_reduce")
    return out


def check_out_arg(op: str, out, inputs: tuple) -> None:
    """What PyTorch checks of ``out=`` before the op's own checks: its type, and autograd
    (functions with out= record no graph, so nothing may require grad)."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{op}(): argument 'out' must be Tensor, not {type_name(out)}")
    if STATE.grad and any_requires_grad([*inputs, out]):
        raise RuntimeError(f"{op}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")


def set_output(out: Tensor, like: Tensor) -> None:
    """A structured kernel's set_output for ``out=``: out's dtype must be the result's; a
    wrongly shaped out is resized (with PyTorch's deprecation warning unless it was empty)."""
    if out.dtype is not like.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {like.dtype.c_name}, but got "
                           f"{out.dtype.c_name} instead")
    resize_output(out, tuple(like._shape))


def scatter_reduce_function(input, *args, out=None, **kwargs) -> Tensor:  # noqa: A002
    """torch.scatter_reduce(input, dim, index, src, reduce, *, include_self=True, out=None)."""
    if not isinstance(input, Tensor):
        raise TypeError("scatter_reduce(): argument 'input' (position 1) must be Tensor, not "
                        f"{type_name(input)}")
    dim, index, src, reduce, include_self = parse_args("scatter_reduce", _PARAMS, args, kwargs,
                                                       first=2)
    return _scatter_reduce_out(input, dim, index, src, reduce, include_self, out)


# --------------------------------------------------------------------------- backward
@derivative("scatter_reduce", "ScatterReduceBackward0", inputs=("self", "src"),
            saves={"self": None, "index": None, "src": None, "result": None})
def _scatter_reduce_bw(ctx, g):
    self, index, src = ctx.saved("self"), ctx.saved("index"), ctx.saved("src")
    result, reduce = ctx.saved("result"), ctx.attr("reduce")
    include_self = ctx.attr("include_self")
    dim = saved_dim(ctx, max(g.dim(), 1))
    if reduce == "sum":
        g_self, g_src = g, g.gather(dim, index)
    elif reduce == "prod":
        # the exclusive product, computed again for cells where self or src is 0
        masked_self = self.masked_fill(self == 0, 1)
        masked_self_result = masked_self.scatter_reduce(dim, index, src, reduce,
                                                        include_self=include_self)
        g_self = g * masked_self_result / masked_self
        src_zero = src == 0
        src_num_zeros = zeros_like(self).scatter_add(
            dim, index, src_zero.to(self.dtype)).gather(dim, index)
        src_single_zero = src_zero & (src_num_zeros == 1)
        masked_src_result = self.scatter_reduce(dim, index, src.masked_fill(src_single_zero, 1),
                                                reduce, include_self=include_self)
        g_src = where(src_single_zero, (g * masked_src_result).gather(dim, index),
                      (g * result).gather(dim, index) / src.masked_fill(src_zero, 1))
    elif reduce == "mean":
        n = ones_like(g) if include_self else zeros_like(g)
        n = n.scatter_add(dim, index, ones_like(src))
        n.masked_fill_(n == 0, 1)
        g_self, g_src = g / n, g.gather(dim, index) / n.gather(dim, index)
    elif reduce in ("amax", "amin"):
        # ties share the gradient evenly (self counts as a tie even with include_self=False)
        value = result.gather(dim, index)
        self_is_result, src_is_value = self == result, src == value
        n = self_is_result.to(self.dtype).scatter_add(dim, index, src_is_value.to(self.dtype))
        g_distributed = g / n
        g_self = self_is_result * g_distributed
        g_src = src_is_value * g_distributed.gather(dim, index)
    else:
        raise RuntimeError("Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', "
                           f"'amin' but got {reduce}.")
    if not include_self:
        g_self = g_self.scatter(dim, index, 0)
    return (g_self, g_src)


__all__ = ["check_out_arg", "divide_by_counts", "identity", "parse_args", "scatter_reduce",
           "scatter_reduce_", "scatter_reduce_function", "set_output"]
