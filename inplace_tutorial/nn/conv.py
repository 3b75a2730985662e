"""Conv2d: a learnable 2-D convolution, computed by im2col + one GEMM (see ops/nn_ops.py)."""
from __future__ import annotations

from ..creation import empty
from ..ops.nn_ops import pair
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter


class Conv2d(Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 bias: bool = True) -> None:
        super().__init__()
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.padding = (pair(kernel_size), pair(stride),
                                                       pair(padding))
        self.dilation, self.groups = (1, 1), 1  # the only ones the kernel implements
        self.weight = Parameter(empty(out_channels, in_channels, *self.kernel_size))
        if bias:
            self.bias = Parameter(empty(out_channels))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.default_reset_(self.weight, self.bias)

    def forward(self, input: Tensor) -> Tensor:
        # all seven arguments, as PyTorch's Conv2d passes them (its errors list them)
        return F.conv2d(input, self.weight, self.bias, self.stride, self.padding,
                        self.dilation, self.groups)

    def extra_repr(self) -> str:
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if self.padding != (0, 0):
            s += f", padding={self.padding}"
        if self.bias is None:
            s += ", bias=False"
        return s
