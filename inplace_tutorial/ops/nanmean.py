"""nanmean and count_nonzero: reductions PyTorch writes with other ops (ReduceOps.cpp), so
their graphs are those ops'.

``nanmean`` is ``nansum(self).div(count)``, the count being how many cells are not NaN
(``isnan(self).logical_not_().sum(dim)``): NansumBackward0 under a DivBackward0 that saves the
count (an int64 tensor) and not self (the count needs no gradient). Floating dtypes only.
``out=``: nansum's out= form (computed in out's dtype), then ``div_`` into out (version 2).
``count_nonzero`` is ``(self != 0).sum(dim)``: an int64 count, no graph.
"""
from __future__ import annotations

from ..arg_parser import binding
from ..tensor import Tensor, tensor_method
from .arg_checks import argument_error, dim_tuple, invalid_combination, is_index
from .out_variants import with_out


def _count(self: Tensor, dim, keepdim: bool) -> Tensor:
    """How many cells along dim are not NaN (int64)."""
    return self.isnan().logical_not_().sum(dim, keepdim)


def _check(self: Tensor, keepdim, dtype, position: int) -> None:
    """nanmean's own checks: a bool keepdim (the parser's), a floating input and dtype."""
    if not isinstance(keepdim, bool):
        raise argument_error("nanmean", "keepdim", position, "bool", keepdim)
    if not self.dtype.is_floating_point:
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype "
                           f"but got {self.dtype.short}")
    if dtype is not None and not dtype.is_floating_point:
        raise RuntimeError("nanmean(): could not infer output dtype. Optional dtype must be "
                           f"either a floating point or complex dtype. Got: {dtype.short}")


@binding()
@tensor_method
def nanmean(self, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    """The mean of the cells that are not NaN (NaN where every cell is)."""
    _check(self, keepdim, dtype, 2)
    factor = _count(self, dim, keepdim)
    return self.nansum(dim, keepdim, dtype=dtype).div(factor)


def nanmean_function(input: Tensor, dim=None, keepdim=False, *, dtype=None,  # noqa: A002
                     out: Tensor | None = None) -> Tensor:
    """torch.nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None)."""
    if out is None:
        return input.nanmean(dim, keepdim, dtype=dtype)
    if not isinstance(out, Tensor):
        raise argument_error("nanmean", "out", None, "Tensor", out)
    _check(input, keepdim, dtype, 3)
    if not out.dtype.is_floating_point:  # nansum_out runs in out's dtype
        raise NotImplementedError(f'"nansum_cpu" not implemented for \'{out.dtype.short}\'')
    factor = _count(input, dim, keepdim)
    return with_out("nansum", (input, dim, keepdim), out,
                    dtype=out.dtype if dtype is None else dtype).div_(factor)


_COUNT_FORMS = ["int dim = None", "tuple of ints dim"]


@binding()
@tensor_method
def count_nonzero(self, *args, **kwargs) -> Tensor:
    """How many cells are not zero, over dim (an int or several), or over everything."""
    dim = args[0] if args else kwargs.get("dim")
    if len(args) + len(kwargs) > 1 or set(kwargs) - {"dim"} or not (
            dim is None or is_index(dim) or (isinstance(dim, (list, tuple)) and all(
                map(is_index, dim)))):
        raise invalid_combination("count_nonzero", args, _COUNT_FORMS, kwargs)
    if dim is None:
        return self.ne(0).sum()
    if isinstance(dim, (list, tuple)):
        return self.ne(0).sum(dim_tuple("count_nonzero", dim))
    return self.ne(0).sum(int(dim))


__all__ = ["count_nonzero", "nanmean", "nanmean_function"]
