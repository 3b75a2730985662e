"""conv2d's argument checks (PyTorch's ConvUtils.h: check_shape_forward's order,
expand_param_if_needed, use_mkldnn), padding='same' with its once-per-process warning, and the
defaults that tell an omitted argument from a given one in torch's overload message.

F.conv2d is a C++ binding in torch, so call_site.py counts this file as the binding's.
"""
from __future__ import annotations

from .. import dtypes
from ..ops.arg_checks import (
    as_called,
    invalid_combination,
    is_index,
)
from ..tensor import Tensor
from ..warn_once import warn_once
from .checks import _pair

# (PyTorch's overload message marks every argument that has a default as not matching)
_CONV_FORMS = [
    "Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, tuple of ints "
    "padding = 0, tuple of ints dilation = 1, int groups = 1",
    "Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, str padding = "
    '"valid", tuple of ints dilation = 1, int groups = 1',
]


class Default(int):
    """An int default in a signature (``stride=ONE`` reads as ``stride=1``) that also tells
    that the caller did not pass it: PyTorch's overload message lists only what was given."""

    __slots__ = ()

    def __repr__(self) -> str:
        return int.__repr__(self)


class _NoTensor:
    """``bias=NO_BIAS`` reads as ``bias=None`` and tells that no bias was passed (a None the
    caller typed is listed in the overload message: ``got (str, Tensor, NoneType)``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "None"


ONE, ZERO, NO_BIAS = Default(1), Default(0), _NoTensor()


def conv2d(input, weight, bias, stride, padding, dilation=ONE,
           groups=ONE) -> tuple[tuple, tuple]:
    """The checks of PyTorch's conv2d and _convolution (check_shape_forward's order). Returns
    (stride, padding, dilation) as pairs, and as the node saves them (as the binding parsed
    them: ``dilation=[2]`` stays ``(2,)``; padding='valid' is ``(0,)``), with output_padding.
    ``bias`` is NO_BIAS when the caller passed none."""
    if not (isinstance(input, Tensor) and isinstance(weight, Tensor)
            and (bias is None or bias is NO_BIAS or isinstance(bias, Tensor))
            and _int_list_like(stride)
            and (isinstance(padding, str) or _int_list_like(padding))
            and _int_list_like(dilation) and is_index(groups)):
        # two overloads (padding as ints or as a string): a mismatch lists both, with the
        # arguments as the caller gave them (a trailing None or default reads as not given)
        args, kwargs = as_called(["input", "weight", "bias", "stride", "padding", "dilation",
                                  "groups"], (input, weight, bias, stride, padding, dilation,
                                              groups), defaults=(NO_BIAS, ONE, ZERO, ONE, ONE))
        raise invalid_combination("conv2d", args, _CONV_FORMS, kwargs)
    if bias is NO_BIAS:
        bias = None
    if input.dim() not in (3, 4):
        raise RuntimeError("Expected 3D (unbatched) or 4D (batched) input to conv2d, but got "
                           f"input of size: {list(input._shape)}")
    if bias is not None and bias.dtype is not input.dtype:  # _convolution's first check
        raise RuntimeError(f"Input type ({input.dtype.c_name}) and bias type "
                           f"({bias.dtype.c_name}) should be the same")
    if weight.dim() < 3:
        raise RuntimeError("weight should have at least three dimensions")
    kernel = weight._shape[2:]
    dims = weight.dim() - 2  # the convolution's spatial dims, as the weight says
    given_stride = _pair("conv2d", "stride", stride, 4)
    stride = _expand("stride", given_stride, dims)
    given_dilation = _pair("conv2d", "dilation", dilation, 6)
    valid = padding == "valid"  # (PyTorch then calls convolution with padding [0])
    extra = (0, 0)  # cells padded on the right/bottom only (padding='same', odd total)
    if isinstance(padding, str):  # the string's path needs the dilation first
        dilation = _expand("dilation", given_dilation, dims)
        padding, extra = _padding_string(padding, stride, kernel, dilation)
    given_padding = (0,) if valid else _pair("conv2d", "padding", padding, 5)
    padding = _expand("padding", given_padding, dims)
    dilation = _expand("dilation", given_dilation, dims)
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if dims != 2:
        raise NotImplementedError("inplace_tutorial: conv2d with a weight that is not 4-D is "
                                  "not implemented")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d < 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    shape = list(weight._shape)
    if shape[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at "
                           f"dimension 0, but got weight of size {shape} instead")
    if shape[0] % groups:  # (PyTorch's message puts the sizes in brackets twice)
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} "
                           f"at dimension 0, but got weight of size [{shape}] instead")
    channels = input._shape[-3]
    # (with extra cells, PyTorch's convolution sees the padded input, and names its size)
    sizes = (*input._shape[:-2], *(n + e for n, e in zip(input._shape[-2:], extra)))
    if shape[1] * groups != channels:
        batched = list(sizes) if input.dim() == 4 else [1, *sizes]
        raise RuntimeError(f"Given groups={groups}, weight of size {shape}, expected "
                           f"input{batched} to have {shape[1] * groups} channels, but got "
                           f"{channels} channels instead")
    if bias is not None and (bias.dim() != 1 or bias._shape[0] != shape[0]):
        raise RuntimeError(f"Given weight of size {shape}, expected bias to be "
                           f"1-dimensional with {shape[0]} elements, but got bias of "
                           f"size {list(bias._shape)} instead")
    padded = [n + 2 * p for n, p in zip(sizes[-2:], padding)]
    extent = [d * (k - 1) + 1 for d, k in zip(dilation, kernel)]  # the dilated kernel
    if any(n < k for n, k in zip(padded, extent)):
        raise RuntimeError("Calculated padded input size per channel: "
                           f"({' x '.join(map(str, padded))}). Kernel size: "
                           f"({' x '.join(map(str, extent))}). Kernel size can't be greater "
                           "than actual input size")
    if any(d == 0 for d in dilation):
        raise RuntimeError("non-positive dilation is not supported")
    if input.dtype is not weight.dtype:
        batched = sizes if input.dim() == 4 else (1, *sizes)
        if not _uses_mkldnn(input.dtype, batched, shape, stride, dilation, groups):
            raise RuntimeError(f"expected scalar type {input.dtype.short} but found "
                               f"{weight.dtype.short}")
        raise RuntimeError(f"Input type (torch.{input.dtype.tensor_type}) and weight type "
                           f"(torch.{weight.dtype.tensor_type}) should be the same or input "
                           "should be a MKLDNN tensor and weight is a dense tensor")
    return (stride, padding, dilation), (given_stride, given_padding, given_dilation,
                                         (0,) if valid else (0, 0)), extra


def _uses_mkldnn(dtype, sizes: tuple, weight: list, stride, dilation, groups: int) -> bool:
    """ConvParams::use_mkldnn for a float32 CPU input (one thread, as the parity suites run
    torch): oneDNN takes it unless it is a small single-image job PyTorch's own kernel does
    faster. The two paths word a dtype mismatch differently."""
    if dtype is not dtypes.float32:
        return False
    n, c, h, w = sizes
    kh, kw = weight[-2:]
    if not (any(s != 1 for s in stride) or any(d != 1 for d in dilation) or n >= 16
            or kw != 1 or kh != 1):
        return False
    return groups > 1 or (kw > 3 and kh > 3) or n > 1 or n * c * h * w > 20480


def _int_list_like(value) -> bool:
    """What the binding takes for a ``tuple of ints``: an int, or a sequence whose first
    element is one (the others are unpacked later, with their own error)."""
    return is_index(value) or (isinstance(value, (tuple, list))
                               and (not value or is_index(value[0])))


def _expand(name: str, values: tuple, dims: int = 2) -> tuple:
    """expand_param_if_needed: one value for every spatial dim, or exactly ``dims`` values."""
    if len(values) == 1:
        return values * dims
    if len(values) != dims:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dims} "
                           "values to match the convolution dimensions, but got "
                           f"{name}={list(values)}")
    return values


_SAME_WARNING = ("Using padding='same' with even kernel lengths and odd dilation may require "
                 "a zero-padded copy of the input be created")


def _padding_string(padding: str, stride: tuple, kernel: tuple, dilation: tuple):
    """(padding, extra): 'valid' is no padding; 'same' pads dilation * (kernel - 1) cells in
    all, half on each side, and an odd total puts its last cell on the right (bottom). The
    convolution pads both sides by the left amount; ``extra`` is the right's surplus, which
    nn/functional.py:conv2d adds first with constant_pad_nd, as PyTorch's convolution_same."""
    if padding == "valid":
        return 0, (0, 0)
    if padding != "same":
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    total = [d * (k - 1) for d, k in zip(dilation, kernel)]
    left = [t // 2 for t in total]
    extra = tuple(t - 2 * lf for t, lf in zip(total, left))
    if any(extra):
        warn_once(_SAME_WARNING)  # once a process (TORCH_WARN_ONCE)
    return left, extra
