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
                 dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None) -> None:
        super().__init__()
        _check_conv_arguments(in_channels, out_channels, groups, padding, pair(stride),
                              padding_mode)
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = pair(kernel_size), pair(stride)
        # a padding string stays a string, as PyTorch keeps it ('same', 'valid')
        self.padding = padding if isinstance(padding, str) else pair(padding)
        self.dilation, self.groups, self.padding_mode = pair(dilation), groups, padding_mode
        self.weight = Parameter(empty((out_channels, in_channels // groups, *self.kernel_size),
                                      device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_channels, device=device, dtype=dtype))
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
        if self.dilation != (1, 1):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


def _check_conv_arguments(in_channels: int, out_channels: int, groups: int, padding,
                          stride: tuple, padding_mode: str) -> None:
    """torch.nn's _ConvNd.__init__ checks, in its order and words."""
    if groups <= 0:
        raise ValueError("groups must be a positive integer")
    if in_channels % groups != 0:
        raise ValueError("in_channels must be divisible by groups")
    if out_channels % groups != 0:
        raise ValueError("out_channels must be divisible by groups")
    valid_padding_strings = {"same", "valid"}
    if isinstance(padding, str):
        if padding not in valid_padding_strings:
            raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                             f"{valid_padding_strings}")
        if padding == "same" and any(s != 1 for s in stride):
            raise ValueError("padding='same' is not supported for strided convolutions")
    valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
    if padding_mode not in valid_padding_modes:
        raise ValueError(f"padding_mode must be one of {valid_padding_modes}, but got "
                         f"padding_mode='{padding_mode}'")
    if padding_mode != "zeros":
        raise NotImplementedError(f"inplace_tutorial: padding_mode='{padding_mode}' is not "
                                  "implemented (only 'zeros')")

