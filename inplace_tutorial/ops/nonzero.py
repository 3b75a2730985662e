"""nonzero: the positions of the non-zero cells, one row each (or one tensor per dim with
``as_tuple=True``, ready to use as an advanced index: ``x[b.nonzero(as_tuple=True)]`` is
``x[b]``). Not differentiable; the positions are found a chunk at a time into a counted result,
as advanced indexing finds a mask's (advanced_indexing.py).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..tensor import Tensor, tensor_method
from .advanced_indexing import nonzero_columns
from .arg_checks import type_name


def _as_tuple_arg(args: tuple, kwargs: dict) -> bool:
    """PyTorch's binding of ``nonzero(*, bool as_tuple=False)``, its texts word for word."""
    if args:
        raise TypeError(f"nonzero() takes from {len(args)} to 0 positional arguments but "
                        f"{len(args)} were given")
    for k in kwargs:
        if k != "as_tuple":
            raise TypeError('nonzero() missing 1 required positional arguments: "as_tuple"')
    as_tuple = kwargs.get("as_tuple", False)
    if not isinstance(as_tuple, (bool, np.bool_)):
        raise TypeError(f"nonzero(): argument 'as_tuple' must be bool, not {type_name(as_tuple)}")
    return bool(as_tuple)


@binding()
@tensor_method
def nonzero(self, *args, **kwargs) -> Tensor | tuple:
    """``x.nonzero()``: an int64 tensor (n, x.dim()) of the non-zero cells' positions, in
    row-major order (NaN counts as non-zero); ``as_tuple=True``: x.dim() tensors of n (a
    0-dim x counts as 1-dim there)."""
    as_tuple = _as_tuple_arg(args, kwargs)
    if self.dim() == 0:
        n = int(bool(self._array() != 0))
        if as_tuple:
            return (Tensor._empty((n,), dtypes.int64, "nonzero").zero_(),)
        return Tensor._empty((n, 0), dtypes.int64, "nonzero")
    rows, cols = nonzero_columns(self)
    if as_tuple:
        return tuple(cols.unbind(0))
    out = Tensor._empty((cols._shape[1], self.dim()), dtypes.int64, "nonzero")
    np.copyto(out._array(), cols._array().T)
    return out


__all__ = ["nonzero"]
