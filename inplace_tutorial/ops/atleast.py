"""ravel and atleast_1d/2d/3d: reshapes PyTorch writes in terms of other ops (TensorShape.cpp),
so their graphs show those ops' nodes.

``ravel`` is ``contiguous().view(-1)``: a view of self when self is contiguous (ViewBackward0),
else a view of a copy (ViewBackward0 over CloneBackward0). ``atleast_Nd`` returns self itself
when it has N dims or more, else a view: a 0-dim tensor is reshaped (ViewBackward0), a 1-dim
one unsqueezed in front (and, for 3 dims, behind), a 2-dim one unsqueezed behind. The
``torch.atleast_*`` functions take one tensor, several, or one list or tuple of them (a tuple
comes back for anything but one lone tensor), as torch/functional.py hands them to the parser.
"""
from __future__ import annotations

from ..arg_parser import binding
from ..function_parser import PythonArgParser
from ..tensor import Tensor, tensor_method


# --------------------------------------------------------------------------- ravel
@binding()
@tensor_method
def ravel(self) -> Tensor:
    """A 1-D tensor of self's elements in order: a view whenever self is contiguous."""
    return self.contiguous().view(-1)


# --------------------------------------------------------------------------- atleast_Nd
def _atleast_1d(t: Tensor) -> Tensor:
    return t.reshape(1) if t.dim() == 0 else t


def _atleast_2d(t: Tensor) -> Tensor:
    if t.dim() == 0:
        return t.reshape(1, 1)
    return t.unsqueeze(0) if t.dim() == 1 else t


def _atleast_3d(t: Tensor) -> Tensor:
    if t.dim() == 0:
        return t.reshape(1, 1, 1)
    if t.dim() == 1:
        return t.unsqueeze(0).unsqueeze(-1)
    return t.unsqueeze(-1) if t.dim() == 2 else t


# torch._VF.atleast_Nd's two forms, as the parser reads them
_FORMS = ["(Tensor input)", "(TensorList tensors)"]
_PARSERS = {n: PythonArgParser(n, _FORMS, False) for n in ("atleast_1d", "atleast_2d",
                                                            "atleast_3d")}


def _atleast(name: str, one, tensors: tuple):
    """torch/functional.py: one argument is passed on as it is (a tensor, or a list or tuple
    of them), several as a tuple; the parser then picks the form."""
    given = tensors[0] if len(tensors) == 1 else tensors
    form, values = _PARSERS[name].parse((given,), {})
    if "input" in values:
        return one(values["input"])
    return tuple(one(t) for t in values["tensors"])


def atleast_1d(*tensors) -> Tensor | tuple:
    """torch.atleast_1d(*tensors): each tensor with at least 1 dim."""
    return _atleast("atleast_1d", _atleast_1d, tensors)


def atleast_2d(*tensors) -> Tensor | tuple:
    """torch.atleast_2d(*tensors): each tensor with at least 2 dims."""
    return _atleast("atleast_2d", _atleast_2d, tensors)


def atleast_3d(*tensors) -> Tensor | tuple:
    """torch.atleast_3d(*tensors): each tensor with at least 3 dims."""
    return _atleast("atleast_3d", _atleast_3d, tensors)


__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "ravel"]
