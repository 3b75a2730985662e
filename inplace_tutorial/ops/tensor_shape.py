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

from ..arg_parser import (
    argument_error,
    binding,
    binding_error,
    form_params,
    int_list,
    size_arg,
)
from ..tensor import Tensor, tensor_method
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


__all__ = ["broadcast_to", "broadcast_to_function", "ger", "ger_function", "outer",
           "outer_function", "tile", "tile_function"]
