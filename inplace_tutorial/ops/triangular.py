"""Matrix diagonals and triangles: diagonal (a view), tril/triu and their in-place forms,
fill_diagonal_.

tril/triu act on the last two dims (a batch of matrices) and keep the cells on or below
(tril) or on or above (triu) the diagonal ``diagonal``; their backward masks the gradient
the same way. ``diagonal`` is a view with stride ``stride(dim1) + stride(dim2)``, so writing
into it writes into self (CopySlices). ``fill_diagonal_`` is PyTorch's composite: it fills
``as_strided`` views of self, so its node is the CopySlices of those writes.
"""
from __future__ import annotations

from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..creation import zeros
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from .arg_checks import argument_error, check_int, check_number, saved, signed
from .views import _make_view


# --------------------------------------------------------------------------- diagonal
@binding()
@tensor_method
def diagonal(self, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    offset = check_int("diagonal", "offset", offset, 1)
    d1, d2 = wrap_dim(dim1, self.dim()), wrap_dim(dim2, self.dim())
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    n1, n2 = self._shape[d1], self._shape[d2]
    size = max(min(n1, n2 - offset) if offset >= 0 else min(n1 + offset, n2), 0)
    start = self._offset
    if size > 0:  # PyTorch moves the offset only when the diagonal has cells
        start += offset * self._stride[d2] if offset >= 0 else -offset * self._stride[d1]
    keep = [i for i in range(self.dim()) if i not in (d1, d2)]
    shape = [self._shape[i] for i in keep] + [size]
    stride = [self._stride[i] for i in keep] + [self._stride[d1] + self._stride[d2]]
    v = _make_view(self, shape, stride, start)
    return record("diagonal", v, {"self": self}, dim1=saved(dim1), dim2=saved(dim2),
                  offset=saved(offset), self_sym_sizes=self._shape)


@derivative("diagonal", "DiagonalBackward0")
def _diagonal_bw(ctx, g):
    out = zeros(ctx.attr("self_sym_sizes"), dtype=g.dtype)
    out.diagonal(signed(ctx.attr("offset")), signed(ctx.attr("dim1")),
                 signed(ctx.attr("dim2"))).copy_(g)
    return (out,)


# --------------------------------------------------------------------------- tril / triu
def _zero_triangle(a, k: int, lower: bool) -> None:
    """Zero, row by row of the last two dims, the cells tril (lower) or triu drops."""
    rows, cols = a.shape[-2], a.shape[-1]
    for i in range(rows):
        if lower:  # tril keeps j <= i + k
            a[..., i, max(0, i + k + 1):] = 0
        elif i + k > 0:  # triu keeps j >= i + k
            a[..., i, :min(cols, i + k)] = 0


def _check_matrix(op: str, self: Tensor) -> None:
    if self.dim() < 2:
        raise RuntimeError(f"{op}: input tensor must have at least 2 dimensions")


def _triangle(op: str, self: Tensor, diagonal, lower: bool) -> Tensor:
    diagonal = check_int(op, "diagonal", diagonal, 1)
    _check_matrix(op, self)
    out = Tensor._empty(self._shape, self.dtype, op)
    o = out._array()
    o[...] = self._array()
    _zero_triangle(o, diagonal, lower)
    return record(op, out, {"self": self}, diagonal=saved(diagonal))


def _triangle_(op: str, self: Tensor, diagonal, lower: bool) -> Tensor:
    diagonal = check_int(op + "_", "diagonal", diagonal, 1)
    a = self._array()
    return record_inplace(op, self, {"self": self},
                          compute=lambda: _zero_triangle(a, diagonal, lower),
                          check=lambda: _check_matrix(op, self), diagonal=saved(diagonal))


@binding()
@tensor_method
def tril(self, diagonal: int = 0) -> Tensor:
    return _triangle("tril", self, diagonal, lower=True)


@binding()
@tensor_method
def triu(self, diagonal: int = 0) -> Tensor:
    return _triangle("triu", self, diagonal, lower=False)


@binding()
@tensor_method
def tril_(self, diagonal: int = 0) -> Tensor:
    return _triangle_("tril", self, diagonal, lower=True)


@binding()
@tensor_method
def triu_(self, diagonal: int = 0) -> Tensor:
    return _triangle_("triu", self, diagonal, lower=False)


@derivative("tril", "TrilBackward0")
def _tril_bw(ctx, g):
    return (g.tril(signed(ctx.attr("diagonal"))),)


@derivative("triu", "TriuBackward0")
def _triu_bw(ctx, g):
    return (g.triu(signed(ctx.attr("diagonal"))),)


# --------------------------------------------------------------------------- fill_diagonal_
@binding()
@tensor_method
def fill_diagonal_(self, fill_value, wrap: bool = False) -> Tensor:
    if isinstance(fill_value, Tensor) and fill_value.dim() == 0:
        fill_value = fill_value.item()
    check_number("fill_diagonal_", "fill_value", fill_value, 1)
    if not isinstance(wrap, bool):
        raise argument_error("fill_diagonal_", "wrap", 2, "bool", wrap)
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    height, width = self._shape[0], self._shape[1]
    if self.dim() > 2 and any(s != height for s in self._shape[1:]):
        raise RuntimeError("all dimensions of input must be of equal length")
    step = sum(self._stride)
    size = min(height, width)
    self.as_strided((size,), (step,), self._offset).fill_(fill_value)
    if wrap and self.dim() == 2 and height > width + 1:
        wrap_size = (self.numel() + width) // (width + 1) - size
        self.as_strided((wrap_size,), (step,),
                        self._offset + self._stride[0] * (width + 1)).fill_(fill_value)
    return self
