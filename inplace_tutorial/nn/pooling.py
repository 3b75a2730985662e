"""MaxPool2d and AvgPool2d (torch.nn.modules.pooling)."""
from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module


class MaxPool2d(Module):
    """Max over windows; backward routes each grad to the argmax (saved indices)."""

    def __init__(self, kernel_size, stride=None, padding=0, return_indices: bool = False) -> None:
        super().__init__()
        self.kernel_size, self.padding = kernel_size, padding
        self.stride = stride if stride is not None else kernel_size
        self.return_indices = return_indices

    def forward(self, input: Tensor):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding,
                            self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                "dilation=1, ceil_mode=False")


class AvgPool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0) -> None:
        super().__init__()
        self.kernel_size, self.padding = kernel_size, padding
        self.stride = stride if stride is not None else kernel_size

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"
