"""kron, the Kronecker product, as PyTorch's KronImpl builds it (LinearAlgebra.cpp).

Both operands are padded to the same number of dims and seen through ``_unsafe_view`` with a
1 interleaved (self as (a0, 1, a1, 1, ...), other as (1, b0, 1, b1, ...)), multiplied with
broadcasting (MulBackward0), and the product seen as (a0*b0, a1*b1, ...) by another
``_unsafe_view``: UnsafeViewBackward0 at both ends. An ``_unsafe_view`` is a view by its
strides (an operand no view can reshape is refused in view's words) but not in autograd's
eyes: no ``_base``, its own version counter. ``out=`` is resized to the result, seen as the
interleaved shape, and filled by mul's out= form, so out's own version stays where it was.
"""
from __future__ import annotations

from ..arg_parser import binding
from ..autograd.record import record
from ..tensor import Tensor, tensor_method
from .arg_checks import argument_error, check_tensor
from .out_variants import resize_output, with_out
from .views import _compute_stride


def _unsafe_view(t: Tensor, shape: tuple) -> Tensor:
    """at::_unsafe_view: view's strides, a tensor of its own to autograd (UnsafeViewBackward0)."""
    stride = _compute_stride(t._shape, t._stride, shape)
    if stride is None:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
    out = Tensor._make(t._storage, tuple(shape), tuple(stride), t._offset, t.dtype)
    return record("_unsafe_view", out, {"self": t}, self_sym_sizes=t._shape)


def _shapes(self: Tensor, other: Tensor) -> tuple[tuple, tuple, tuple]:
    """KronImpl's reshapes: self's, other's (both interleaved with 1s) and the result's."""
    n = max(self.dim(), other.dim())
    pad_self, pad_other = n - self.dim(), n - other.dim()
    a, b, result = [], [], []
    for i in range(n):
        ai = self._shape[i - pad_self] if i >= pad_self else 1
        bi = other._shape[i - pad_other] if i >= pad_other else 1
        a += [ai, 1]
        b += [1, bi]
        result.append(ai * bi)
    return tuple(a), tuple(b), tuple(result)


@binding()
@tensor_method
def kron(self, other) -> Tensor:
    """The Kronecker product: every element of self times a whole block of other."""
    check_tensor("kron", "other", other)
    a, b, result = _shapes(self, other)
    return _unsafe_view(_unsafe_view(self, a) * _unsafe_view(other, b), result)


def kron_function(input: Tensor, other: Tensor, *, out: Tensor | None = None  # noqa: A002
                  ) -> Tensor:
    """torch.kron(input, other, *, out=None)."""
    if out is None:
        return input.kron(other)
    if not isinstance(out, Tensor):
        raise argument_error("kron", "out", None, "Tensor", out)
    a, b, result = _shapes(input, other)
    self_view, other_view = _unsafe_view(input, a), _unsafe_view(other, b)
    resize_output(out, result)
    mul_shape = tuple(x for pair in zip(a[::2], b[1::2]) for x in pair)
    with_out("mul", (self_view, other_view), _unsafe_view(out.detach(), mul_shape))
    return out


__all__ = ["kron", "kron_function"]
