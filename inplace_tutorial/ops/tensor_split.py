"""tensor_split, hsplit, vsplit and dsplit (PyTorch's TensorShape.cpp, CompositeImplicitAutograd):
the pieces are slices (SliceBackward0, each an ordinary view, not a multi-output one), cut
at given indices or into a number of sections; hsplit/vsplit/dsplit add their own dimension
and divisibility checks first.
"""
from __future__ import annotations

from .. import dtypes
from ..arg_parser import (
    int_list,
    invalid_combination,
    is_index,
)
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from .indexing import _slice

_MISSING = object()


# --------------------------------------------------------------------------- tensor_split
_SPLIT_FORMS = ["tuple of ints indices, int dim = 0",
                "Tensor tensor_indices_or_sections, int dim = 0",
                "int sections, int dim = 0"]
_KEYS = {"indices", "tensor_indices_or_sections", "sections", "dim"}


def _split_sections(self: Tensor, sections: int, dim: int) -> tuple:
    if sections <= 0:
        raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
    size = self._shape[dim]
    small, extra = divmod(size, sections)
    pieces, start = [], 0
    for k in range(sections):
        n = small + 1 if k < extra else small
        pieces.append(_slice(self, dim, start, start + n, 1))
        start += n
    return tuple(pieces)


def _split_indices(self: Tensor, indices: tuple, dim: int) -> tuple:
    pieces, start = [], 0
    for end in indices:
        pieces.append(_slice(self, dim, start, end, 1))
        start = end
    pieces.append(_slice(self, dim, start, self._shape[dim], 1))
    return tuple(pieces)


def _tensor_split(self: Tensor, how, dim, args: tuple, kwargs: dict, fn: bool) -> tuple:
    is_list = isinstance(how, (list, tuple)) and (not how or is_index(how[0]))
    if how is _MISSING or not (is_index(how) or isinstance(how, Tensor) or is_list) or not (
            is_index(dim)) or set(kwargs) - _KEYS or len(args) > 2:
        forms = [f"Tensor input, {f}" for f in _SPLIT_FORMS] if fn else _SPLIT_FORMS
        raise invalid_combination("tensor_split", ((self,) if fn else ()) + args, forms,
                                  kwargs)
    if self.dim() == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a "
                           "tensor with 0 dims")
    dim = wrap_dim(int(dim), self.dim())
    if isinstance(how, Tensor):
        if how.dtype is not dtypes.int64:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype "
                               f"of long, but got {how.dtype.short}")
        if how.dim() > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a "
                               "zero-dimensional or one-dimensional tensor, but got a tensor "
                               f"with {how.dim()} dims")
        if how.dim() == 0:
            return _split_sections(self, int(how.item()), dim)
        return _split_indices(self, tuple(int(v) for v in how._array()), dim)
    if is_list:
        return _split_indices(self, int_list("tensor_split", "indices", (how,), position=1,
                                             varargs=False), dim)
    return _split_sections(self, int(how), dim)


def _split_args(args: tuple, kwargs: dict) -> tuple:
    """The one split argument (by position or by any of its three keyword names) and dim."""
    how = args[0] if args else next((kwargs[k] for k in ("indices", "sections",
                                                          "tensor_indices_or_sections")
                                     if k in kwargs), _MISSING)
    dim = args[1] if len(args) > 1 else kwargs.get("dim", 0)
    return how, dim


@tensor_method
def tensor_split(self, *args, **kwargs) -> tuple:
    """Pieces along dim: ``sections`` as equal as can be (the first ones one longer), or cut
    at ``indices``; each piece a slice of self (a view)."""
    how, dim = _split_args(args, kwargs)
    return _tensor_split(self, how, dim, args, kwargs, False)


def tensor_split_function(input: Tensor, *args, **kwargs) -> tuple:  # noqa: A002
    if not isinstance(input, Tensor):  # (three forms: PyTorch lists them all)
        raise invalid_combination("tensor_split", (input, *args),
                                  [f"Tensor input, {f}" for f in _SPLIT_FORMS], kwargs)
    how, dim = _split_args(args, kwargs)
    return _tensor_split(input, how, dim, args, kwargs, True)


# hsplit, vsplit, dsplit: tensor_split along a fixed dim, after their own checks
_AXIS = {"hsplit": (1, 1), "vsplit": (2, 0), "dsplit": (3, 2)}  # op -> (min dims, dim)


def _xsplit(op: str, self: Tensor, how, args: tuple, fn: bool, kwargs: dict | None = None
            ) -> tuple:
    if isinstance(how, Tensor) and how.dim() and is_index(how):
        how = (how,)  # a one-element 1-D tensor binds as the tuple of ints (0-D: an int)
    is_list = isinstance(how, (list, tuple)) and (not how or is_index(how[0]))
    if how is _MISSING or not (is_index(how) or is_list):
        forms = ["int sections", "tuple of ints indices"]
        if fn:
            forms = [f"Tensor input, {f}" for f in forms]
        raise invalid_combination(op, ((self,) if fn else ()) + args, forms, kwargs)
    need, dim = _AXIS[op]
    if self.dim() < need:
        raise RuntimeError(f"torch.{op} requires a tensor with at least {need} dimension, but "
                           f"got a tensor with {self.dim()} dimensions!")
    if op == "hsplit" and self.dim() == 1:
        dim = 0
    if is_list:
        return _split_indices(self, int_list(op, "indices", (how,), position=1, varargs=False),
                              dim)
    n, size = int(how), self._shape[dim]
    if n == 0 or size % n:  # (C++'s % and Python's agree on "divisible")
        raise RuntimeError(f"torch.{op} attempted to split along dimension {dim}, but the size "
                           f"of the dimension {size} is not divisible by the split_size {n}!")
    return _split_sections(self, n, dim)


def _one(args: tuple):
    """The method's one argument; integers given one by one are the tuple of indices
    (``x.hsplit(1, 2)``), as PyTorch's binding packs them."""
    if len(args) > 1 and is_index(args[0]):
        return args
    return args[0] if len(args) == 1 else _MISSING


def _by_keyword(op: str, self: Tensor, args: tuple, kwargs: dict, fn: bool) -> tuple:
    """hsplit/vsplit/dsplit given sections= (an int) or indices= (a sequence of ints)."""
    (name, value), = kwargs.items() if len(kwargs) == 1 else ((None, None),)
    fits = is_index(value) if name == "sections" else name == "indices" and isinstance(
        value, (list, tuple)) and (not value or is_index(value[0]))
    if args or not fits:
        forms = ["int sections", "tuple of ints indices"]
        if fn:
            forms = [f"Tensor input, {f}" for f in forms]
        raise invalid_combination(op, ((self,) if fn else ()) + args, forms, kwargs)
    return _xsplit(op, self, value, args, fn, kwargs)


def _method_split(op: str, self: Tensor, args: tuple, kwargs: dict) -> tuple:
    """hsplit/vsplit/dsplit as methods: one argument, by position or as sections=/indices=."""
    if not kwargs:
        return _xsplit(op, self, _one(args), args, False)
    return _by_keyword(op, self, args, kwargs, False)


@tensor_method
def hsplit(self, *args, **kwargs) -> tuple:
    return _method_split("hsplit", self, args, kwargs)


@tensor_method
def vsplit(self, *args, **kwargs) -> tuple:
    return _method_split("vsplit", self, args, kwargs)


@tensor_method
def dsplit(self, *args, **kwargs) -> tuple:
    return _method_split("dsplit", self, args, kwargs)


def _xsplit_function(op: str):
    def fn(input: Tensor, *args, **kwargs) -> tuple:  # noqa: A002
        if not isinstance(input, Tensor):  # (two forms: PyTorch lists them)
            raise invalid_combination(op, (input, *args), [
                "Tensor input, int sections", "Tensor input, tuple of ints indices"], kwargs)
        if kwargs:
            return _by_keyword(op, input, args, kwargs, True)
        return _xsplit(op, input, args[0] if len(args) == 1 else _MISSING, args, True)
    fn.__name__ = op
    return fn


hsplit_function = _xsplit_function("hsplit")
vsplit_function = _xsplit_function("vsplit")
dsplit_function = _xsplit_function("dsplit")


__all__ = ["dsplit", "dsplit_function", "hsplit", "hsplit_function", "tensor_split",
           "tensor_split_function", "vsplit", "vsplit_function"]
