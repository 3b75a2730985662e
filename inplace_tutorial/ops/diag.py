"""diag_embed, diag and diagflat: vectors put on a diagonal, and diagonals copied out.

``diag_embed`` writes self's last dim onto the diagonal ``offset`` of two new dims (dim1,
dim2) of a zero tensor; its node, DiagEmbedBackward0, saves only offset, dim1 and dim2 (as
typed) and reads the gradient's diagonal back. ``diag`` is PyTorch's composite: a vector goes
to ``diag_embed`` (so its node says dim1 = -2, dim2 = -1), a matrix to ``diagonal_copy``, a
copy of the ``diagonal`` view whose node is DiagonalBackward0_copy. ``diagflat`` is
``contiguous().view(-1)`` then ``diag``. ``torch.diag(..., out=)`` resizes out (with
PyTorch's warning when it had elements), then checks its dtype, and copies the result in.
"""
from __future__ import annotations

from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.grad_mode import no_grad
from ..autograd.record import record
from ..creation import zeros
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from .arg_checks import argument_error, check_int, saved, signed
from .out_variants import resize_output


# --------------------------------------------------------------------------- diag_embed
def _embedded_shape(self: Tensor, offset: int, dim1, dim2) -> tuple[tuple, int, int]:
    """The result's shape and dim1/dim2 wrapped over it (self's dims plus one)."""
    n = self.dim() + 1
    d1, d2 = wrap_dim(dim1, n), wrap_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    size = (self._shape[-1] if self.dim() else 1) + abs(offset)
    batch = list(self._shape[:-1])
    lo, hi = sorted((d1, d2))
    batch.insert(lo, size)
    batch.insert(hi, size)
    return tuple(batch), d1, d2


@binding()
@tensor_method
def diag_embed(self, offset=0, dim1=-2, dim2=-1) -> Tensor:
    """A zero tensor with self's last dim on the diagonal ``offset`` of dims (dim1, dim2)."""
    offset = check_int("diag_embed", "offset", offset, 1)
    dim1 = check_int("diag_embed", "dim1", dim1, 2)
    dim2 = check_int("diag_embed", "dim2", dim2, 3)
    shape, d1, d2 = _embedded_shape(self, offset, dim1, dim2)
    out = zeros(shape, dtype=self.dtype)
    out._storage.op = "diag_embed"
    out.diagonal(offset, d1, d2)._array()[...] = self._array()
    return record("diag_embed", out, {"self": self}, offset=saved(offset), dim1=saved(dim1),
                  dim2=saved(dim2))


@derivative("diag_embed", "DiagEmbedBackward0")
def _diag_embed_bw(ctx, g):
    return (g.diagonal(signed(ctx.attr("offset")), signed(ctx.attr("dim1")),
                       signed(ctx.attr("dim2"))),)


# --------------------------------------------------------------------------- diagonal_copy
def _diagonal_copy(self: Tensor, offset: int) -> Tensor:
    """A matrix's diagonal ``offset`` as a new contiguous vector (PyTorch's diagonal_copy)."""
    view = self.detach().diagonal(offset)
    out = Tensor._empty(view._shape, self.dtype, "diagonal_copy")
    out._array()[...] = view._array()
    return record("diagonal_copy", out, {"self": self}, dim1=0, dim2=1, offset=saved(offset),
                  self_sym_sizes=self._shape)


@derivative("diagonal_copy", "DiagonalBackward0_copy")
def _diagonal_copy_bw(ctx, g):
    out = zeros(ctx.attr("self_sym_sizes"), dtype=g.dtype)
    out.diagonal(signed(ctx.attr("offset")), 0, 1).copy_(g)
    return (out,)


# --------------------------------------------------------------------------- diag, diagflat
def _diag(self: Tensor, diagonal: int, prefix: str = "diag(): ") -> Tensor:
    if self.dim() == 1:
        return self.diag_embed(diagonal)
    if self.dim() == 2:
        return _diagonal_copy(self, diagonal)
    raise RuntimeError(f"{prefix}Supports 1D or 2D tensors. Got {self.dim()}D")


@binding()
@tensor_method
def diag(self, diagonal=0) -> Tensor:
    """A vector on a diagonal of a square matrix, or a matrix's diagonal as a new vector."""
    return _diag(self, check_int("diag", "diagonal", diagonal, 1))


def diag_function(input: Tensor, diagonal=0, *, out: Tensor | None = None  # noqa: A002
                  ) -> Tensor:
    """torch.diag(input, diagonal=0, *, out=None)."""
    if out is None:
        return input.diag(diagonal)
    diagonal = check_int("diag", "diagonal", diagonal, 2)
    if not isinstance(out, Tensor):
        raise argument_error("diag", "out", None, "Tensor", out)
    if input.dim() not in (1, 2):
        raise RuntimeError(f"Supports 1D or 2D tensors. Got {input.dim()}D")
    with no_grad():
        result = _diag(input, diagonal)
    resize_output(out, result._shape)  # (PyTorch resizes out before it checks the dtype)
    if out.dtype is not result.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {result.dtype.c_name}, but got "
                           f"{out.dtype.c_name} instead")
    with no_grad():
        out.copy_(result)
    return out


@binding()
@tensor_method
def diagflat(self, offset=0) -> Tensor:
    """self flattened, on the diagonal ``offset`` of a square matrix."""
    offset = check_int("diagflat", "offset", offset, 1)
    return self.contiguous().view(-1).diag(offset)


__all__ = ["diag", "diag_embed", "diag_function", "diagflat"]
