"""inner: PyTorch's composite over tensordot (LinearAlgebra.cpp, Linear.cpp), so its graph is
tensordot's: both operands permuted (contracted dims last in the first, first in the
second), reshaped to matrices and multiplied (MmBackward0), the product reshaped to the
result (ViewBackward0). When neither side keeps more than one element, both are flattened
to vectors (a 1-D side stays itself, no node) and multiplied by ``dot`` (DotBackward0). A
contracted dim of size 1 on one side is summed away on the other first. A 0-dim operand
makes ``inner`` a plain ``self * other``.

``torch.inner(..., out=)`` is tensordot's out= (a result computed, its dtype checked, out
resized and copied into: CopyBackwards when the result has a graph), or mul's for a 0-dim
operand.
"""
from __future__ import annotations

from ..arg_parser import binding
from ..tensor import Tensor, tensor_method
from .arg_checks import argument_error, check_tensor
from .out_variants import resize_output, with_out


def _tensordot(input1: Tensor, input2: Tensor, dims1: tuple, dims2: tuple) -> Tensor:
    """at::tensordot over the (wrapped) contracted dims ``dims1`` of input1 and ``dims2`` of
    input2, in PyTorch 2.13's order of checks and ops."""
    if len(dims1) != len(dims2):
        raise RuntimeError("both dimension lists should have same length")
    if input1.dtype is not input2.dtype:
        raise RuntimeError("both inputs should have same dtype")
    t1, t2, csize = input1, input2, 1
    for d1, d2 in zip(dims1, dims2):
        s1, s2 = input1._shape[d1], input2._shape[d2]
        if s2 == 1:  # broadcast dims are summed right away
            t1 = t1.sum(d1, True)
        elif s1 == 1:
            t2 = t2.sum(d2, True)
        elif s1 != s2:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} "
                               f"in dim {d1} and second has size {s2} in dim {d2}")
        else:
            csize *= s1
    keep1 = [i for i in range(input1.dim()) if i not in dims1]
    keep2 = [i for i in range(input2.dim()) if i not in dims2]
    size1 = size2 = 1
    for i in keep1:
        size1 *= t1._shape[i]
    for i in keep2:
        size2 *= t2._shape[i]
    rsizes = [t1._shape[i] for i in keep1] + [t2._shape[i] for i in keep2]
    t1 = t1.permute(keep1 + list(dims1))
    t2 = t2.permute(list(dims2) + keep2)
    if size1 == 1 and size2 == 1:  # two vectors: dot (a 1-D side is flattened into itself)
        return t1.flatten().dot(t2.flatten()).reshape(rsizes)
    return t1.reshape(size1, csize).mm(t2.reshape(csize, size2)).reshape(rsizes)


def _inner(self: Tensor, other: Tensor) -> Tensor | None:
    """None when an operand is 0-dim (inner is then self * other)."""
    if self.dim() == 0 or other.dim() == 0:
        return None
    if self._shape[-1] != other._shape[-1]:
        raise RuntimeError("inner() the last dimension must match on both input tensors but got "
                           f"shapes [{', '.join(map(str, self._shape))}] and "
                           f"[{', '.join(map(str, other._shape))}]")
    return _tensordot(self, other, (self.dim() - 1,), (other.dim() - 1,))


@binding()
@tensor_method
def inner(self, other) -> Tensor:
    """Sums of products over the last dim of both: every row of self with every row of other."""
    check_tensor("inner", "other", other)
    result = _inner(self, other)
    return self * other if result is None else result


def inner_function(input: Tensor, other: Tensor, *, out: Tensor | None = None  # noqa: A002
                   ) -> Tensor:
    """torch.inner(input, other, *, out=None)."""
    if out is None:
        return input.inner(other)
    if not isinstance(out, Tensor):
        raise argument_error("inner", "out", None, "Tensor", out)
    result = _inner(input, other)
    if result is None:
        return with_out("mul", (input, other), out)
    if out.dtype is not result.dtype:
        raise RuntimeError(f"tensordot: Expected the output tensor to have dtype "
                           f"{result.dtype.short}, but got an output tensor with dtype "
                           f"{out.dtype.short}")
    resize_output(out, result._shape)
    return out.copy_(result)


__all__ = ["inner", "inner_function"]
