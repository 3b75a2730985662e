"""The transposes of a matrix by attribute: ``x.T``, ``x.mT``, ``x.H``, ``x.mH``, ``x.adjoint()``.

All are views (TensorShape.cpp: numpy_T, mT, matrix_H, mH, adjoint). ``T`` reverses every dim
(a permute); the others swap the last two (a transpose), which for the core's real dtypes is
also the conjugate transpose. A 0-dim tensor is deprecated input: ``T`` gives a new view of
it, the others give the tensor itself, and each warns once a process (TORCH_WARN_ONCE, one
flag per warning). A 1-D tensor has no matrix to transpose: ``T`` reverses its one dim (and
warns), the others refuse it.
"""
from __future__ import annotations

from ..tensor import Tensor, tensor_method
from ..warn_once import warn_once

_T_NOT_2D = ("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
             "deprecated and it will throw an error in a future release. Consider `x.mT` to "
             "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` "
             "to reverse the dimensions of a tensor.")
_ZERO_DIM = {
    "T": "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.",
    "mT": "Tensor.mT is deprecated on 0-D tensors. This function is the identity in these "
          "cases.",
    "H": "Tensor.H is deprecated on 0-D tensors. Consider using x.conj().",
    "mH": "Tensor.mH is deprecated on 0-D tensors. Consider using x.conj().",
    "adjoint()": "adjoint() is deprecated on 0-D tensors. Consider using x.conj().",
}


def _matrices(self: Tensor, name: str) -> Tensor:
    """mT, mH, adjoint(): the last two dims swapped; a 0-dim tensor is returned as it is."""
    if self.dim() == 0:
        warn_once(_ZERO_DIM[name])
        return self
    if self.dim() == 1:
        raise RuntimeError(f"tensor.{name} is only supported on matrices or batches of "
                           f"matrices. Got 1-D tensor.")
    return self.transpose(-2, -1)


def T(self) -> Tensor:  # noqa: N802 (PyTorch's name)
    """All dims reversed (a view)."""
    if self.dim() == 0:
        warn_once(_ZERO_DIM["T"])
    elif self.dim() != 2:
        warn_once(_T_NOT_2D)
    return self.permute(tuple(reversed(range(self.dim()))))


def mT(self) -> Tensor:  # noqa: N802 (PyTorch's name)
    """The last two dims swapped (a view): a batch of matrices, transposed."""
    return _matrices(self, "mT")


def mH(self) -> Tensor:  # noqa: N802 (PyTorch's name)
    """The conjugate transpose of a batch of matrices: mT, for real dtypes."""
    return _matrices(self, "mH")


def H(self) -> Tensor:  # noqa: N802 (PyTorch's name)
    """The conjugate transpose of one matrix (2-D only): x.t(), for real dtypes."""
    n = self.dim()
    if n == 0:
        warn_once(_ZERO_DIM["H"])
        return self
    if n != 2:
        more = " For batches of matrices, consider using tensor.mH" if n > 2 else ""
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {n}-D "
                           f"tensor.{more}")
    return self.transpose(-2, -1)


@tensor_method
def adjoint(self) -> Tensor:
    """x.mH as a method (and torch.adjoint(x))."""
    return _matrices(self, "adjoint()")


Tensor.T = property(T)
Tensor.mT = property(mT)
Tensor.mH = property(mH)
Tensor.H = property(H)
