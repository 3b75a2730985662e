"""index_put_: write ``values`` at the cells an advanced index picks (``x[idx] = v`` with index
tensors ends here), its out-of-place twin ``index_put``, and IndexPutBackward0.

The checks run in PyTorch's order (_index_put_impl_ then make_info then the iterator) and all
of them before the first write. One thing PyTorch checks only while writing: an index out of
range. Its CPU kernel writes the cells it visits before that index, then raises, and bumps no
version; the core writes exactly those cells too (in the order of a serial run), so a program
sees the same tensor afterwards. IndexPutBackward0 saves the index tensors, version-checked.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd import grad_mode
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..tensor import Tensor, tensor_method
from .advanced_indexing import (
    Plan,
    check_indices,
    check_mask_shape,
    first_out_of_bounds,
    gather,
    is_mask,
    make_plan,
    scatter,
)
from .arg_checks import type_name
from .tensor_iterator import check_partial_overlap

_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor "
            "refer to a single memory location. Please clone() the tensor before performing the "
            "operation.")

# index_put_ with no index tensor at all reaches an assertion inside PyTorch (a one-element value
# first takes the masked_fill path with no mask): its texts, word for word
_NO_INDEX = {
    False: 'ntensor >= 3 INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
           'cpu/IndexKernelUtils.h":8, please report a bug to PyTorch. ',
    True: "sym_strides() called on an undefined Tensor",
}


def _sizes(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


# --------------------------------------------------------------------------- arguments
_PARAMS = ("indices", "values", "accumulate")


def bind(op: str, args: tuple, kwargs: dict, first: int = 1) -> tuple[list, Tensor, bool]:
    """The Python binding of ``index_put_(Tensor?[] indices, Tensor values, bool
    accumulate=False)``, its TypeErrors word for word (``first``: the position of ``indices``;
    2 for torch.index_put, whose ``input`` comes first)."""
    n = len(args) + first - 1
    if len(args) > 3:
        raise TypeError(f"{op}() takes from {first + 1} to {first + 2} positional arguments but "
                        f"{n} were given")
    got = dict(zip(_PARAMS, args))
    for k, v in kwargs.items():
        if k not in _PARAMS:
            raise TypeError(f"{op}() got an unexpected keyword argument '{k}'")
        if k in got:
            raise TypeError(f"{op}() got multiple values for argument '{k}'")
        got[k] = v
    first_missing = next((n for n, k in enumerate(_PARAMS[:2]) if k not in got), None)
    if first_missing is not None:  # PyTorch lists every required one from there, given or not
        missing = _PARAMS[first_missing:2]
        raise TypeError(f"{op}() missing {len(missing)} required positional argument"
                        f"{'s' if len(missing) == 1 else ''}: "
                        + ", ".join(f'"{k}"' for k in missing))
    indices, values = got["indices"], got["values"]
    accumulate = got.get("accumulate", False)
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"{op}(): argument 'indices' (position {first}) must be tuple of "
                        f"Tensors, not {type_name(indices)}")
    for i, t in enumerate(indices):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument {first - 1}, but got "
                            f"{type_name(t)}")
    if not isinstance(values, Tensor):
        raise TypeError(f"{op}(): argument 'values' (position {first + 1}) must be Tensor, not "
                        f"{type_name(values)}")
    if not isinstance(accumulate, (bool, np.bool_)):
        where = f" (position {first + 2})" if len(args) == 3 else ""
        raise TypeError(f"{op}(): argument 'accumulate'{where} must be bool, not "
                        f"{type_name(accumulate)}")
    return list(indices), values, bool(accumulate)


def _check_no_overlap(self: Tensor, other: Tensor) -> None:
    """assert_no_overlap: an input sharing any cell with self is refused, the same cells too."""
    if other._storage is self._storage and self.numel() and other.numel() and (
            other is self or (other._offset, other._shape, other._stride)
            == (self._offset, self._shape, self._stride)):
        raise RuntimeError(_OVERLAP)
    check_partial_overlap(self, other)


def _masked_fill_mask(self: Tensor, indices: list, values: Tensor) -> Tensor | None:
    """canDispatchToMaskedFill: one bool/byte mask (the other entries None) and a one-element
    value make PyTorch fill with ``values.item()`` instead (a value of another dtype is then
    converted, not refused). The mask's shape is checked here, as PyTorch does."""
    if values.numel() != 1:
        return None
    mask, at = None, 0
    for t in indices:
        if t is None:
            at += 1
        elif not is_mask(t) or mask is not None:
            return None
        else:
            mask = t
            check_mask_shape(self, t, at)
            at += t.dim()
    return mask


@dataclass
class _Write:
    """What a checked index_put_ will write: a masked fill (``where``, ``value``) or a scatter
    along ``plan``."""

    where: np.ndarray | None = None
    value: object = None
    plan: Plan | None = None


def _prepare(self: Tensor, indices: list, values: Tensor, accumulate: bool) -> _Write:
    """Every check, in PyTorch's order, before the first write."""
    if len(indices) > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()} "
                         f"(got {len(indices)})")
    if not any(t is not None for t in indices):
        raise RuntimeError(_NO_INDEX[values.numel() == 1 and not accumulate])
    mask = None if accumulate else _masked_fill_mask(self, indices, values)
    if mask is not None:
        if mask.dtype is not dtypes.bool_:
            raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with "
                               f"dtype {mask.dtype.c_name}")
        value = dtypes.checked_scalar(values.item(), self.dtype, "fill")
        # PyTorch unsqueezes the mask once per dim the entries don't cover and lets
        # masked_fill_ broadcast it against self from the right
        covered = sum(1 for t in indices if t is None) + mask.dim()
        where = mask._array().reshape(mask._shape + (1,) * (self.dim() - covered))
        try:
            where = np.broadcast_to(where, self._shape)
        except ValueError:
            raise RuntimeError(f"output with shape {_sizes(self._shape)} doesn't match the "
                               f"broadcast shape {_sizes(where.shape)}") from None
        return _Write(where=where, value=self.dtype.np.type(value))
    _check_no_overlap(self, values)
    for t in indices:
        if t is not None:
            _check_no_overlap(self, t)
    check_indices(self, indices)
    plan = make_plan(self, indices)
    try:
        ok = np.broadcast_shapes(values._shape, plan.shape) == plan.shape
    except ValueError:
        ok = False
    if not ok:
        raise RuntimeError(f"shape mismatch: value tensor of shape {_sizes(values._shape)} "
                           f"cannot be broadcast to indexing result of shape "
                           f"{_sizes(plan.shape)}")
    if values.dtype is not self.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{self.dtype.short} for the destination and {values.dtype.short} "
                           f"for the source.")
    bad = first_out_of_bounds(self, plan)
    if bad is not None:  # PyTorch writes the cells before the bad index first; we write none
        raise _OutOfBounds(bad[1])
    return _Write(plan=plan)


def _write(self: Tensor, w: _Write, values: Tensor, accumulate: bool) -> None:
    a = self._array()
    if w.plan is None:
        np.copyto(a, w.value, where=w.where)
    else:
        serial = values._storage is self._storage  # (a layout the overlap check let through)
        scatter(a, w.plan, values._array(), accumulate, serial=serial)


def put_(self: Tensor, indices: list, values: Tensor, accumulate: bool = False) -> Tensor:
    """index_put_ after argument parsing (``indices`` may hold None: a dim taken whole, as
    ``x[:, idx] = v`` passes it)."""
    prepared: list[_Write] = []
    try:
        return record_inplace("index_put_", self, {"self": self, "values": values},
                              lambda: _write(self, prepared[0], values, accumulate),
                              check=lambda: prepared.append(
                                  _prepare(self, indices, values, accumulate)),
                              indices=list(indices), accumulate=accumulate)
    except _OutOfBounds as e:
        raise IndexError(str(e)) from None


class _OutOfBounds(Exception):
    """An index out of range, found before the first write: nothing is written, the version
    counter does not move and no node is recorded (PyTorch's kernel writes the cells before
    the bad index first; tests/parity/probes_args.py lists it as HALF_WRITTEN_BY_TORCH)."""


@binding()
@tensor_method
def index_put_(self, *args, **kwargs) -> Tensor:
    """``x.index_put_(indices, values, accumulate=False)``: ``x[indices] = values`` with a
    tuple of index tensors; ``accumulate=True`` adds instead (a repeated index adds twice)."""
    indices, values, accumulate = bind("index_put_", args, kwargs)
    return put_(self, indices, values, accumulate)


@binding()
@tensor_method
def index_put(self, *args, **kwargs) -> Tensor:
    """The out-of-place twin: a copy of self (same layout) with ``index_put_`` applied;
    recorded as IndexPutBackward0, as PyTorch's."""
    indices, values, accumulate = bind("index_put", args, kwargs)
    return _index_put(self, indices, values, accumulate)


def _index_put(self: Tensor, indices: list, values: Tensor, accumulate: bool) -> Tensor:
    try:
        w = _prepare(self, indices, values, accumulate)
    except _OutOfBounds as e:
        raise IndexError(str(e)) from None
    with grad_mode.no_grad():
        out = self.clone()
    _write(out, w, values, accumulate)
    return record("index_put", out, {"self": self, "values": values}, indices=list(indices),
                  accumulate=accumulate)


def _index_put_bw(ctx, g):
    """self: the gradient, with the overwritten cells zeroed (accumulate: all of it);
    values: the gradient at the written cells (summed back to values' shape by the node)."""
    indices = list(ctx.saved("indices"))
    g_self = g_values = None
    plan = make_plan(g, indices)
    if ctx.needs(0):
        g_self = g
        if not ctx.attr("accumulate"):
            with grad_mode.no_grad():
                g_self = g.clone()
            scatter(g_self._array(), plan, np.zeros((), g.dtype.np), accumulate=False)
    if ctx.needs(1):
        g_values = Tensor._empty(plan.shape, g.dtype, "index_put backward")
        gather(g._array(), plan, g_values._array())
    return (g_self, g_values)


derivative("index_put_", "IndexPutBackward0", inputs=("self", "values"),
           saves={"indices": None, "accumulate": None})(_index_put_bw)
derivative("index_put", "IndexPutBackward0", inputs=("self", "values"),
           saves={"indices": None, "accumulate": None})(_index_put_bw)

__all__ = ["bind", "index_put", "index_put_", "put_"]
