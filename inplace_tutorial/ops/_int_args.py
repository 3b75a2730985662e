"""Int arguments of the shape ops: PyTorch's binding checks, and how its nodes show them.

A node keeps its int64 arguments as typed (``x.flip(-1)`` saves dims (-1,), not (1,)), and
``grad_fn._saved_dims`` reads them back as unsigned 64-bit numbers: (18446744073709551615,).
``saved`` stores an argument in that form; ``signed`` turns it back for the backward formula.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from ._args import type_name

_WRAP = 1 << 64


def saved(v):
    """An int (or a tuple of ints) as PyTorch's node shows it."""
    if isinstance(v, tuple):
        return tuple(saved(x) for x in v)
    return v + _WRAP if v < 0 else v


def signed(v):
    """The int (or tuple) a node saved, as the signed number that was typed."""
    if isinstance(v, tuple):
        return tuple(signed(x) for x in v)
    return v - _WRAP if v >= 1 << 63 else v


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def int_arg(op: str, name: str, value, position: int | None) -> int:
    """An ``int`` parameter: PyTorch's TypeError for anything else (a float, None ...)."""
    if not _is_int(value) and not (isinstance(value, Tensor) and value.dim() == 0
                                    and value.dtype.category == 1):
        where = f" (position {position})" if position is not None else ""
        raise TypeError(f"{op}(): argument '{name}'{where} must be int, not "
                        f"{type_name(value)}")
    return int(value)


def int_list(op: str, name: str, value, position: int | None) -> tuple:
    """An ``int[]`` parameter: one int or a sequence of ints, else PyTorch's TypeError."""
    if _is_int(value):
        return (int(value),)
    if isinstance(value, (list, tuple)) and all(_is_int(v) for v in value):
        return tuple(int(v) for v in value)
    where = f" (position {position})" if position is not None else ""
    raise TypeError(f"{op}(): argument '{name}'{where} must be tuple of ints, not "
                    f"{type_name(value)}")
