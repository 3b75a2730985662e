"""The padding layers: ReflectionPad1d/2d/3d, ReplicationPad1d/2d/3d, CircularPad1d/2d/3d,
ConstantPad1d/2d/3d and ZeroPad1d/2d/3d, each a call of F.pad with its mode (ops/padding.py).

An int padding is repeated over both sides of each padded dim (``ReflectionPad2d(1)`` pads
by (1, 1, 1, 1)); a tuple is kept as given, its length checked by F.pad when it runs. The
circular layers check their input's rank first, in their own words (a ValueError).
"""
from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module


def _sides(padding, n: int) -> tuple:
    """torch.nn.modules.utils._ntuple: a sequence as it is, anything else repeated n times."""
    if isinstance(padding, (tuple, list)):
        return tuple(padding)
    return (padding,) * n


class _PadNd(Module):
    mode = "constant"
    dims = 1

    def __init__(self, padding) -> None:
        super().__init__()
        self.padding = _sides(padding, 2 * self.dims)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _CircularPadNd(_PadNd):
    mode = "circular"

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in (self.dims + 1, self.dims + 2):
            raise ValueError(f"expected {self.dims + 1}D or {self.dims + 2}D input (got "
                             f"{input.dim()}D input)")
        return F.pad(input, self.padding, "circular")


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ReflectionPad1d(_PadNd):
    mode, dims = "reflect", 1


class ReflectionPad2d(_PadNd):
    mode, dims = "reflect", 2


class ReflectionPad3d(_PadNd):
    mode, dims = "reflect", 3


class ReplicationPad1d(_PadNd):
    mode, dims = "replicate", 1


class ReplicationPad2d(_PadNd):
    mode, dims = "replicate", 2


class ReplicationPad3d(_PadNd):
    mode, dims = "replicate", 3


class CircularPad1d(_CircularPadNd):
    dims = 1


class CircularPad2d(_CircularPadNd):
    dims = 2


class CircularPad3d(_CircularPadNd):
    dims = 3


class ConstantPad1d(_ConstantPadNd):
    dims = 1


class ConstantPad2d(_ConstantPadNd):
    dims = 2


class ConstantPad3d(_ConstantPadNd):
    dims = 3


class ZeroPad1d(ConstantPad1d):
    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"
