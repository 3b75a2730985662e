"""unbind, split, split_with_sizes and chunk: several views of one tensor made by one node
(UnbindBackward0, SplitBackward0 ...). PyTorch marks such outputs as multi-output views
(CreationMeta::MULTI_OUTPUT_NODE) and refuses to modify one in place under grad mode, since
the shared node could not be rebased for just one of them; the mark set here is checked by
check_inplace in autograd/record.py.
"""
from __future__ import annotations

import operator

from ..arg_parser import binding, saved, signed
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..creation import zeros
from ..layout import wrap_dim
from ..modes import STATE
from ..tensor import Tensor, tensor_method
from .arg_checks import (
    check_int,
    int_list,
    invalid_combination,
    is_index,
    python_method,
)
from .views import _make_view


def _multi(self, parts, op: str, node: str, **attrs):
    views = []
    for shape, offset in parts:
        v = _make_view(self, shape, list(self._stride), offset)
        if STATE["grad"]:
            v._creation = "multi"
        views.append(v)
    views = tuple(views)
    record(op, views, {"self": self}, **attrs)
    return views


@binding()
@tensor_method
def unbind(self, dim: int = 0) -> tuple:
    given = check_int("unbind", "dim", dim, 1)
    dim = wrap_dim(given, self.dim())
    if self.dim() == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    shape = self._shape[:dim] + self._shape[dim + 1:]
    stride = self._stride[:dim] + self._stride[dim + 1:]
    outs = []
    for i in range(self._shape[dim]):
        v = _make_view(self, shape, stride, self._offset + i * self._stride[dim])
        if STATE["grad"]:
            v._creation = "multi"
        outs.append(v)
    outs = tuple(outs)
    record("unbind", outs, {"self": self}, dim=saved(given), _self_sizes=self._shape)
    return outs


@derivative("unbind", "UnbindBackward0", multi_output=True)
def _unbind_bw(ctx, grads):
    out = zeros(ctx.attr("_self_sizes"), dtype=next(g for g in grads if g is not None).dtype)
    for i, g in enumerate(grads):
        if g is not None:
            out.select(signed(ctx.attr("dim")), i).copy_(g)
    return (out,)


def _split_parts(self, sizes, dim):
    parts, start = [], 0
    for s in sizes:
        shape = list(self._shape)
        shape[dim] = s
        parts.append((shape, self._offset + start * self._stride[dim]))
        start += s
    return parts


_SPLIT_FORMS = ["Tensor input, int split_size, int dim = 0",
                "Tensor input, tuple of ints split_size, int dim = 0"]


@tensor_method
@python_method
def split(self, split_size, dim: int = 0) -> tuple:
    """As PyTorch's Tensor.split: a Python int is one size (at::split), anything else a list
    of sizes (at::split_with_sizes, whose argument errors count self as position 1); a
    one-element tensor is read as an int first."""
    if isinstance(split_size, Tensor) and split_size.numel() == 1:
        split_size = int(split_size)
    if not isinstance(split_size, int) or isinstance(split_size, bool):
        return split_with_sizes(self, int_list("split_with_sizes", "split_sizes", (split_size,),
                                               position=2, varargs=False),
                                check_int("split_with_sizes", "dim", dim, 3))
    if not is_index(dim):  # torch._VF.split has an int and a list form: both are listed
        raise invalid_combination("split", (self, split_size, dim), _SPLIT_FORMS)
    dim = given = operator.index(dim)
    if self.dim() == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    if split_size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got "
                           f"split_size={split_size}")
    dim = wrap_dim(dim, self.dim())
    total = self._shape[dim]
    if split_size == 0 and total != 0:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension "
                           f"size of {total}")
    sizes = [min(split_size, total - s) for s in range(0, total, split_size or 1)] or [0]
    return _multi(self, _split_parts(self, sizes, dim), "split", "SplitBackward0",
                  dim=saved(given), self_sym_sizes=self._shape, split_size=split_size,
                  _sizes=tuple(sizes))


@binding()
@tensor_method
def split_with_sizes(self, split_sizes, dim: int = 0) -> tuple:
    sizes = int_list("split_with_sizes", "split_sizes", (split_sizes,), varargs=False)
    given_dim = check_int("split_with_sizes", "dim", dim, 2)
    if self.dim() == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    dim = wrap_dim(given_dim, self.dim())
    if any(s < 0 for s in sizes):
        raise RuntimeError("split_with_sizes expects split_sizes have only non-negative "
                           f"entries, but got split_sizes={list(sizes)}")
    total = self._shape[dim]
    if sum(sizes) != total:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {total} (input tensor's "
            f"size at dimension {given_dim}), but got split_sizes={list(sizes)}")
    return _multi(self, _split_parts(self, sizes, dim), "split_with_sizes",
                  "SplitWithSizesBackward0", dim=saved(given_dim), self_sym_sizes=self._shape,
                  split_sizes=tuple(sizes), _sizes=tuple(sizes))


@binding()
@tensor_method
def chunk(self, chunks: int, dim: int = 0) -> tuple:
    chunks, dim = check_int("chunk", "chunks", chunks, 1), check_int("chunk", "dim", dim, 2)
    if self.dim() == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    size = self._shape[wrap_dim(dim, self.dim())]
    if size == 0:  # PyTorch: `chunks` empty parts, not one
        return self.split_with_sizes([0] * chunks, dim)
    return self.split(-(-size // chunks), dim)


def _split_bw(ctx, grads):
    dim = signed(ctx.attr("dim"))
    ref = next(g for g in grads if g is not None)
    out = zeros(ctx.attr("self_sym_sizes"), dtype=ref.dtype)
    start = 0
    for g, n in zip(grads, ctx.attr("_sizes")):
        if g is not None:
            out.narrow(dim, start, n).copy_(g)
        start += n
    return (out,)


derivative("split", "SplitBackward0", multi_output=True)(_split_bw)
derivative("split_with_sizes", "SplitWithSizesBackward0", multi_output=True)(_split_bw)
