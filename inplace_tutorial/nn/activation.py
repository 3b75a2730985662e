"""Activations: ReLU (optionally in place), GELU, Sigmoid, Tanh, Softmax, LogSoftmax.

``ReLU(inplace=True)`` calls ``relu_``: it overwrites its input. That is safe in training
whenever no backward node saved that input (Linear's addmm and BatchNorm don't save their
output), and fails at backward, with the version-counter error, after Sigmoid or Tanh,
whose backward reads their output.
"""
from __future__ import annotations

from ..ops.arg_checks import check_tensor
from ..tensor import Tensor
from . import functional as F
from .module import Module


class ReLU(Module):
    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class GELU(Module):
    """x * Phi(x); ``approximate='tanh'`` is the tanh formula GPT-2 used."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class Sigmoid(Module):
    def forward(self, input: Tensor) -> Tensor:
        check_tensor("sigmoid", "input", input)  # torch.sigmoid(input)
        return input.sigmoid()


class Tanh(Module):
    def forward(self, input: Tensor) -> Tensor:
        check_tensor("tanh", "input", input)  # torch.tanh(input)
        return input.tanh()


class Softmax(Module):
    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.softmax(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    def forward(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, self.dim)
