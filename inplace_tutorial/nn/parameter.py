"""Parameter: a leaf tensor that requires grad and that a Module registers automatically.

As in PyTorch it *is* a Tensor (``isinstance(p, ipt.Tensor)``) sharing the storage of the
data it wraps; only its repr and the way Modules pick it up differ.
"""
from __future__ import annotations

from ..method_flags import bool_argument
from ..tensor import Tensor


class Parameter(Tensor):
    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        if data is None:
            from ..creation import empty

            data = empty(0)
        bool_argument("_make_subclass", "require_grad", requires_grad, 3)  # (its C parser's)
        if requires_grad and not data.dtype.is_floating_point:  # (_make_subclass's words)
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients")
        p = cls._make(data._storage, data._shape, data._stride, data._offset, data.dtype,
                      vc=data._vc)
        p.requires_grad_(requires_grad)
        return p

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True):
        pass  # everything happens in __new__ (Tensor.__init__ refuses direct construction)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __reduce__(self):
        raise TypeError("pickling a Parameter is not supported by this core")
