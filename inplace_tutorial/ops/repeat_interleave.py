"""repeat_interleave (PyTorch's Repeat.cpp, CompositeImplicitAutograd): for an int count it is
unsqueeze, expand, clone and flatten, so its graph shows those nodes; for a tensor of counts
it is index_select over ``repeat_indices`` (torch.repeat_interleave(counts)).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import (
    argument_error,
    binding,
    invalid_combination,
    is_index,
)
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method

_MISSING = object()


# --------------------------------------------------------------------------- repeat_interleave
_RI_TAIL = "int dim = None, *, int output_size = None"
_RI_METHOD = [f"Tensor repeats, {_RI_TAIL}", f"int repeats, {_RI_TAIL}"]
_RI_FUNCTION = [f"Tensor input, Tensor repeats, {_RI_TAIL}",
                "Tensor repeats, *, int output_size = None",
                f"Tensor input, int repeats, {_RI_TAIL}"]


def repeat_indices(repeats: Tensor, output_size=None) -> Tensor:
    """torch.repeat_interleave(repeats): k repeated repeats[k] times, in repeats' dtype."""
    if repeats.dtype not in (dtypes.int64, dtypes.int32):
        raise NotImplementedError(
            f"\"repeat_interleave_cpu\" not implemented for '{repeats.dtype.short}'")
    if repeats.dim() != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    counts = repeats._array()
    total = int(counts.sum(dtype=np.int64)) if counts.size else 0
    if output_size is not None and output_size < 0:  # the result is allocated first
        raise RuntimeError(f"Trying to create tensor with negative dimension {output_size}: "
                           f"[{output_size}]")
    if counts.size and output_size is not None and output_size != total:
        raise RuntimeError("allocated size does not match required size")
    if counts.size and (counts < 0).any():
        raise RuntimeError("repeats can not be negative")
    out = Tensor._empty((total,), repeats.dtype, "repeat_interleave")
    flat, at = out._array(), 0
    for k, n in enumerate(counts.tolist()):
        flat[at:at + n] = k
        at += n
    return out


def _by_int(self: Tensor, repeats: int, dim, output_size) -> Tensor:
    """Repeat.cpp's int overload: each element repeated along a new dim, then folded in."""
    src = self if dim is not None else self.flatten()
    d = wrap_dim(0 if dim is None else int(dim), self.dim())
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    src = src.unsqueeze(d + 1)
    shape = list(src._shape)
    shape[d + 1] = repeats
    src = src.expand(shape)
    if output_size is not None and output_size != repeats * shape[d]:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected "
                           f"{repeats * shape[d]} but got {output_size}")
    return src.clone().flatten(d, d + 1)


def _by_tensor(self: Tensor, repeats: Tensor, dim, output_size) -> Tensor:
    src = self if dim is not None else self.flatten()
    d = 0 if dim is None else int(dim)
    if src.dim() == 0:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    size = src._shape[wrap_dim(d, src.dim())]
    if repeats.dim() == 0 or (repeats.dim() == 1 and repeats._shape[0] == 1):
        repeats = repeats.reshape(1).expand(size)
    elif repeats.dim() == 1:
        if repeats._shape[0] != size:
            raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                               f"repeats.size(0) = {repeats._shape[0]} and input.size({d}) = "
                               f"{size}")
    else:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    return src.index_select(d, repeat_indices(repeats, output_size))


def _repeat_interleave(self: Tensor, repeats, dim, output_size, args, kwargs, fn) -> Tensor:
    ok = (isinstance(repeats, Tensor) or is_index(repeats)) and (
        dim is None or is_index(dim)) and (output_size is None or is_index(output_size))
    if not ok or set(kwargs) - {"repeats", "dim", "output_size"} or len(args) > 2:
        raise invalid_combination("repeat_interleave", ((self,) if fn else ()) + args,
                                  _RI_FUNCTION if fn else _RI_METHOD, kwargs)
    if isinstance(repeats, Tensor):
        return _by_tensor(self, repeats, dim, output_size)
    return _by_int(self, int(repeats), dim, output_size)


@binding()
@tensor_method
def repeat_interleave(self, *args, **kwargs) -> Tensor:
    """Each element (along dim, or of the flattened tensor) repeated ``repeats`` times in a
    row: ``[1, 2].repeat_interleave(2)`` is ``[1, 1, 2, 2]`` (``repeat`` gives 1, 2, 1, 2)."""
    names = ("repeats", "dim", "output_size")
    given = {**dict(zip(names, args)), **kwargs}
    return _repeat_interleave(self, given.get("repeats", _MISSING), given.get("dim"),
                              given.get("output_size"), args, kwargs, False)


def repeat_interleave_function(*args, **kwargs) -> Tensor:
    """torch.repeat_interleave(input, repeats, dim=None, *, output_size=None), or
    torch.repeat_interleave(repeats) alone: the indices it repeats."""
    if len(args) == 1 and not (set(kwargs) - {"output_size"}):
        if not isinstance(args[0], Tensor):
            raise argument_error("repeat_interleave", "repeats", 1, "Tensor", args[0])
        return repeat_indices(args[0], kwargs.get("output_size"))
    names = ("input", "repeats", "dim", "output_size")
    given = {**dict(zip(names, args)), **kwargs}
    input = given.get("input")  # noqa: A001
    if not isinstance(input, Tensor):
        raise invalid_combination("repeat_interleave", args, _RI_FUNCTION, kwargs)
    rest = {k: v for k, v in kwargs.items() if k != "input"}
    return _repeat_interleave(input, given.get("repeats", _MISSING), given.get("dim"),
                              given.get("output_size"), args[1:], rest, True)


__all__ = ["repeat_indices", "repeat_interleave", "repeat_interleave_function"]
