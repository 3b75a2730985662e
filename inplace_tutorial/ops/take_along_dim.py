"""take_along_dim: gather with broadcasting, NumPy's take_along_axis.

PyTorch builds it from other ops, so its graph is theirs: with a dim, self and indices are
broadcast to each other (every dim but ``dim``; ExpandBackward0 under self) and gathered
(GatherBackward0, which saves the broadcast self and the indices wrapped into the dim's
size by remainder, as PyTorch 2.13 does: 5 or -1 of 3 pick the last); without one,
both are seen as 1-D with ``view(-1)`` (ViewBackward0; a layout view(-1) can't read is
refused) and gathered along dim 0. ``out=`` is gather's out=
(ops/out_functions.py:gather_out), in gather's words.
"""
from __future__ import annotations

from .. import dtypes
from ..layout import broadcast_shapes, wrap_dim
from ..tensor import Tensor, tensor_method
from .arg_checks import argument_error, check_int, check_tensor
from .out_functions import gather_out

_MISSING = object()


def _operands(self: Tensor, indices: Tensor, dim: int) -> tuple[Tensor, Tensor, int]:
    """_take_along_dim_helper: the checks, then self and indices broadcast to each other
    except along dim (self keeps its size there, indices theirs)."""
    if self.dim() != indices.dim():
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of "
            f"dimensions, but got {self.dim()} dimensions for input, and {indices.dim()} "
            "dimensions for indices")
    if indices.dtype is not dtypes.int64:
        raise RuntimeError("torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{indices.dtype.short}")
    dim = wrap_dim(dim, self.dim())
    if self.dim() == 0:  # (indices.size(dim) wraps no scalar)
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    sizes = list(self._shape)
    sizes[dim] = indices._shape[dim]
    index_shape = broadcast_shapes(tuple(sizes), indices._shape)
    sizes = list(indices._shape)
    sizes[dim] = self._shape[dim]
    self_shape = broadcast_shapes(tuple(sizes), self._shape)
    index = indices.broadcast_to(index_shape)
    # PyTorch 2.13 wraps every index into [0, size) with remainder (Python's sign rule: -1
    # and 5 both pick the last of 3; an index into a dim of size 0 is a ZeroDivisionError),
    # and gathers with (GatherBackward0 saves) that new tensor, laid out as remainder lays
    # out its result: never indices' own cells, so changing them later breaks nothing
    if index.numel() == 0:
        index = index.clone() if index.is_contiguous() else index.contiguous()
    else:
        index = index.remainder(self._shape[dim])
    return self.broadcast_to(self_shape), index, dim


def _take(self: Tensor, indices, dim, position: int, out=None) -> Tensor:
    check_tensor("take_along_dim", "indices", indices, position)
    if dim is not None:
        dim = check_int("take_along_dim", "dim", dim, position + 1)
        src, index, dim = _operands(self, indices, dim)
    else:  # like take(), but with gather's dtypes
        src, index, dim = self.view(-1), indices.view(-1), 0
    if out is not None:
        return gather_out(src, dim, index, out=out)
    return src.gather(dim, index)


@tensor_method
def take_along_dim(self, indices=_MISSING, dim=None) -> Tensor:
    """The values of self at ``indices`` along ``dim`` (every dim broadcast but that one);
    without a dim, along self flattened."""
    if indices is _MISSING:
        raise TypeError('take_along_dim() missing 1 required positional arguments: "indices"')
    return _take(self, indices, dim, 1)


def take_along_dim_function(input: Tensor, indices=_MISSING, dim=None, *,  # noqa: A002
                            out: Tensor | None = None) -> Tensor:
    """torch.take_along_dim(input, indices, dim=None, *, out=None)."""
    if not isinstance(input, Tensor):
        raise argument_error("take_along_dim", "input", 1, "Tensor", input)
    if indices is _MISSING:
        raise TypeError('take_along_dim() missing 1 required positional arguments: "indices"')
    if out is not None and not isinstance(out, Tensor):
        raise TypeError(f"take_along_dim(): argument 'out' must be Tensor, not "
                        f"{type(out).__name__}")
    return _take(input, indices, dim, 2, out)


__all__ = ["take_along_dim", "take_along_dim_function"]
