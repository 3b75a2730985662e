"""Shape functions PyTorch writes in terms of other ops (CompositeImplicitAutograd), so their
graphs show the nodes of those ops: ``broadcast_to`` is ``expand`` (ExpandBackward0), ``tile``
is ``repeat``, ``tensor_split``/``hsplit``/``vsplit``/``dsplit`` are slices (SliceBackward0,
each piece an ordinary view), ``outer`` is a reshape times a vector (MulBackward0), and
``repeat_interleave`` is unsqueeze, expand, clone and flatten for an int count, or
``index_select`` for a tensor of counts.

Each function takes its arguments as PyTorch's binding does (methods and ``torch.`` forms
differ by the ``input`` in front), then calls the ops it is made of, as TensorShape.cpp,
Repeat.cpp and LinearAlgebra.cpp do.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import (
    argument_error,
    binding,
    binding_error,
    form_params,
    int_list,
    invalid_combination,
    is_index,
    size_arg,
)
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from .indexing import _slice
from .out_variants import with_out

_MISSING = object()


# --------------------------------------------------------------------------- broadcast_to, tile
def _bound(op: str, form: str, args: tuple, kwargs: dict) -> dict:
    """A torch.<op>(...) call bound to its one form by name: Python's refusals in PyTorch's
    words (too many arguments, a missing one, a keyword it doesn't take)."""
    params = form_params(form)
    error = binding_error(op, params, args, kwargs)
    if error is not None:
        raise error
    return {**dict(zip([p.name for p in params], args)), **kwargs}


@tensor_method
def broadcast_to(self, *size, **kwargs) -> Tensor:
    return self.expand(size_arg("broadcast_to", "size", size, kwargs))


def broadcast_to_function(*args, **kwargs) -> Tensor:
    """torch.broadcast_to(input, size): size is one sequence here."""
    given = _bound("broadcast_to", "Tensor input, tuple of ints size", args, kwargs)
    if not isinstance(given["input"], Tensor):
        raise argument_error("broadcast_to", "input", 1, "Tensor", given["input"])
    return given["input"].expand(int_list("broadcast_to", "size", (given["size"],), position=2,
                                          varargs=False))


def _tile(self: Tensor, dims: tuple) -> Tensor:
    """numpy.tile's rule: fewer dims than self get leading 1s; then it is repeat."""
    lead = self.dim() - len(dims)
    return self.repeat((1,) * lead + dims if lead > 0 else dims)


@tensor_method
def tile(self, *dims, **kwargs) -> Tensor:
    return _tile(self, size_arg("tile", "dims", dims, kwargs))


def tile_function(*args, **kwargs) -> Tensor:
    given = _bound("tile", "Tensor input, tuple of ints dims", args, kwargs)
    if not isinstance(given["input"], Tensor):
        raise argument_error("tile", "input", 1, "Tensor", given["input"])
    return _tile(given["input"], int_list("tile", "dims", (given["dims"],), position=2,
                                          varargs=False))


# --------------------------------------------------------------------------- outer
def _outer(self: Tensor, vec2: Tensor, out: Tensor | None = None) -> Tensor:
    """self as a column times vec2; with out=, mul's out= form (its words, its node-less
    write), as PyTorch's outer_out calls mul_out."""
    for t, name in ((self, "self"), (vec2, "vec2")):
        if t.dim() != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.dim()}-D")
    column = self.reshape(self._shape[0], 1)
    if out is not None:
        return with_out("mul", (column, vec2), out)
    return column * vec2


def _vec2(op: str, vec2, position: int) -> Tensor:
    if vec2 is _MISSING:
        raise TypeError(f'{op}() missing 1 required positional arguments: "vec2"')
    if not isinstance(vec2, Tensor):
        raise argument_error(op, "vec2", position, "Tensor", vec2)
    return vec2


@binding()
@tensor_method
def outer(self, vec2) -> Tensor:
    """The outer product: self as a column times vec2 (MulBackward0 over a reshape)."""
    return _outer(self, _vec2("outer", vec2, 1))


@binding()
@tensor_method
def ger(self, vec2) -> Tensor:
    """An older name of outer (its errors still say outer)."""
    return _outer(self, _vec2("ger", vec2, 1))


def _outer_function(op: str):
    def fn(input: Tensor, vec2=_MISSING, *, out=None) -> Tensor:  # noqa: A002
        if not isinstance(input, Tensor):
            raise argument_error(op, "input", 1, "Tensor", input)
        vec2 = _vec2(op, vec2, 2)
        if out is not None and not isinstance(out, Tensor):
            raise TypeError(f"{op}(): argument 'out' must be Tensor, not {type(out).__name__}")
        return _outer(input, vec2, out)
    fn.__name__ = op
    return fn


outer_function = _outer_function("outer")
ger_function = _outer_function("ger")


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


__all__ = ["broadcast_to", "broadcast_to_function", "dsplit", "dsplit_function", "ger",
           "ger_function", "hsplit", "hsplit_function", "outer", "outer_function",
           "repeat_indices", "repeat_interleave", "repeat_interleave_function",
           "tensor_split", "tensor_split_function", "tile", "tile_function", "vsplit",
           "vsplit_function"]
