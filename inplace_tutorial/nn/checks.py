"""The argument checks of nn.functional, in PyTorch's order and words.

PyTorch checks a layer's arguments in its Python wrapper (F.batch_norm's batch size), in the
binding (a Tensor where a Tensor is due) and at the top of the ATen kernel (conv2d's
strides, pooling's output size). Here they all run before a kernel reads a value, so the
kernels in ops/nn_ops.py and ops/pooling.py only ever see arguments PyTorch would have accepted.
"""
from __future__ import annotations

import warnings

from .. import dtypes
from ..autograd import grad_mode
from ..layout import wrap_dim
from ..ops import pooling
from ..ops.arg_checks import (
    argument_error,
    as_called,
    check_tensor,
    check_type,
    int_list,
    invalid_combination,
    is_index,
)
from ..tensor import Tensor

_REDUCTIONS = ("none", "mean", "sum")


def reduction(value: str) -> None:
    """F.*_loss read the reduction string before anything else (PyTorch's get_enum)."""
    if value not in _REDUCTIONS:
        raise ValueError(f"{value} is not a valid value for reduction")


def of_type(op: str, arg: str, value, kind: type, position: int | None) -> None:
    """A bool or str argument of the binding (dropout's train, gelu's approximate)."""
    if not isinstance(value, kind):
        raise argument_error(op, arg, position, kind.__name__, value)


def loss_arguments(op: str, input, target, weight, ignore_index) -> None:
    """The binding of nll_loss_nd / cross_entropy_loss: (Tensor input, Tensor target,
    Tensor? weight, int reduction, SymInt ignore_index, ...)."""
    check_tensor(op, "input", input, 1)
    check_tensor(op, "target", target, 2)
    if weight is not None:
        check_tensor(op, "weight", weight, 3)
    check_type(op, "ignore_index", ignore_index, int, 5)


def linear(input, weight, bias) -> None:
    """F.linear: the binding's types, then addmm's (with bias) or mm's (without) dtype rule;
    the bias must broadcast to the output (expand's error)."""
    check_tensor("linear", "input", input, 1)
    check_tensor("linear", "weight", weight, 2)
    if bias is not None:
        check_tensor("linear", "bias", bias, 3)
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError("both arguments to linear need to be at least 1D, but they are "
                           f"{input.dim()}D and {weight.dim()}D")
    if bias is None:
        if input.dtype is not weight.dtype:
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                               f"{input.dtype.c_name} != {weight.dtype.c_name}")
        return
    if bias.dtype is not weight.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                           f"{bias.dtype.short} and {weight.dtype.short}")
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{input.dtype.short} and {weight.dtype.short}")
    if weight.dim() == 2 and input._shape[-1] == weight._shape[1]:
        out = (input._shape[:-1] + weight._shape[:1])[-2:]
        if bias._shape != out[-1:]:
            with grad_mode.no_grad():
                bias.expand(out)  # addmm expands the bias first: expand's error text


def _pair(op: str, name: str, value, position: int) -> tuple:
    """An int[2] argument as the binding reads it: one int (read as two), or a list of ints
    (kept as given: a 1-element list stays one element)."""
    if is_index(value):
        return (int(value),) * 2
    return int_list(op, name, (value,), position=position, varargs=False)


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


def layer_norm(input, weight, bias) -> None:
    """The CPU kernel's mixed-dtype rule: parameters of input's dtype, or float32 ones for a
    float32/float16/bfloat16 input."""
    params = [p for p in (weight, bias) if p is not None]
    if not params or params[0].dtype is input.dtype:
        return
    if input.dtype not in (dtypes.float32, dtypes.float16, dtypes.bfloat16):
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
    if any(p.dtype is not dtypes.float32 for p in params):
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")


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
_warned = []  # PyTorch warns once per process (TORCH_WARN_ONCE)


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
    if any(extra) and not _warned:
        _warned.append(True)
        warnings.warn(_SAME_WARNING, UserWarning, stacklevel=4)
    return left, extra


def batch_norm_types(input, running_mean, running_var, weight, bias) -> None:
    """torch.batch_norm's binding: a Tensor (or None) for each."""
    check_tensor("batch_norm", "input", input, 1)
    for position, (name, t) in enumerate((("weight", weight), ("bias", bias),
                                          ("running_mean", running_mean),
                                          ("running_var", running_var)), start=2):
        if t is not None:
            check_tensor("batch_norm", name, t, position)


def batch_norm(input, running_mean, running_var, weight, bias, training: bool) -> None:
    """_batch_norm_impl_index's checks (after batch_norm_types, for a non-empty input): each
    statistic and parameter has C elements, and the dtypes mix as the CPU kernel allows."""
    channels = input._shape[1] if input.dim() > 1 else input.size(1)
    for name, t in (("running_mean", running_mean), ("running_var", running_var)):
        if t is not None:
            _per_channel(name, t, channels)
        elif not training:
            raise RuntimeError(f"{name} must be defined in evaluation mode")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None:
            _per_channel(name, t, channels)
    _mixed_dtypes(input, [t for t in (weight, bias, running_mean, running_var)
                          if t is not None])


def _mixed_dtypes(input, params: list) -> None:
    """The CPU batch norm's rule: parameters of input's dtype, or float32 ones for a
    float16/bfloat16 input."""
    if all(p.dtype is input.dtype for p in params) or not input.dtype.is_floating_point:
        return  # (an integer input: the kernel's "not implemented" comes first)
    if input.dtype is dtypes.float64:
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
    if input.dtype in (dtypes.float16, dtypes.bfloat16) and all(
            p.dtype in (input.dtype, dtypes.float32) for p in params):
        if all(p.dtype is dtypes.float32 for p in params):
            return  # float32 statistics for a half input: PyTorch's mixed path
        raise RuntimeError(f"expected scalar type {input.dtype.short} but found Float")
    raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")


def _per_channel(name: str, t: Tensor, channels: int) -> None:
    if t.numel() != channels:
        raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")


def pool2d(op: str, input, kernel_size, stride, padding, dilation=1, ceil_mode: bool = False,
           count_include_pad: bool = True, divisor_override=None, binding: str | None = None
           ) -> tuple:
    """max_pool2d / avg_pool2d: the binding's types, argument lengths, then
    pooling_output_shape for H and W, then pool2d_shape_check, then the kernel's dtypes.
    Returns (kernel, stride, padding, dilation) as the binding parsed them (the node saves
    them so: one int read as two, a 1-element list kept, an omitted stride as ()).
    max_pool2d has a dilation (position 5) and ceil_mode (6); avg_pool2d ceil_mode (5),
    count_include_pad (6) and divisor_override (7). ``binding``: the name torch's parser
    words a type refusal with, when it is not ``op`` (max_pool2d_with_indices)."""
    name = binding or op
    check_tensor(name, "input", input, 1)
    kernel = _pair(name, "kernel_size", kernel_size, 2)
    stride = () if stride is None else _pair(name, "stride", stride, 3)
    padding = _pair(name, "padding", padding, 4)
    is_max = op == "max_pool2d"
    dilation = _pair(name, "dilation", dilation, 5) if is_max else (1,)
    of_type(name, "ceil_mode", ceil_mode, bool, 6 if is_max else 5)
    if not is_max:
        of_type(op, "count_include_pad", count_include_pad, bool, 6)
        if divisor_override is not None:
            check_type(op, "divisor_override", divisor_override, int, 7)
    if len(kernel) not in (1, 2):
        raise RuntimeError(f"{op}: kernel_size must either be a single int, or a tuple of two "
                           "ints")
    if len(stride) not in (0, 1, 2):
        raise RuntimeError(f"{op}: stride must either be omitted, a single int, or a tuple of "
                           "two ints")
    if len(padding) not in (1, 2):
        raise RuntimeError(f"{op}: padding must either be a single int, or a tuple of two ints")
    if len(dilation) not in (1, 2):
        raise RuntimeError(f"{op}: dilation must be either a single int, or a tuple of two "
                           "ints")
    if divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    given = (kernel, stride, padding, dilation)
    kernel = kernel * 2 if len(kernel) == 1 else kernel
    stride = kernel if not stride else (stride * 2 if len(stride) == 1 else stride)
    padding = padding * 2 if len(padding) == 1 else padding
    dilation = dilation * 2 if len(dilation) == 1 else dilation
    if is_max and input.dim() not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    h_dim = wrap_dim(-2, input.dim())
    planes = input._shape[wrap_dim(-3, input.dim())]
    out = []
    for size, k, s, p, d in zip(input._shape[h_dim:], kernel, stride, padding, dilation):
        if s == 0:
            raise RuntimeError("stride should not be zero")
        if p < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
        if p > int(((k - 1) * d + 1) / 2):  # the effective kernel's half, truncated as in C
            raise RuntimeError("pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={d}")
        out.append(pooling.output_size(size, k, p, s, d, ceil_mode))
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation
    if kh <= 0 or kw <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kh} kW: {kw}")
    if sh <= 0 or sw <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {sh} dW: {sw}")
    if dh <= 0 or dw <= 0:
        raise RuntimeError("dilation should be greater than zero, but got dilationH: "
                           f"{dh} dilationW: {dw}")
    if any(n == 0 for n in input._shape[-3:]):  # only a 4-D batch may be empty
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                           f"size for input, but got:{list(input._shape)}")
    if pw > kw // 2 or ph > kh // 2:  # the kernel's own half, whatever the dilation
        raise RuntimeError("pad should be smaller than or equal to half of kernel size, but got "
                           f"padW = {pw}, padH = {ph}, kW = {kw}, kH = {kh}")
    h, w = input._shape[h_dim:]
    if out[0] < 1 or out[1] < 1:
        raise RuntimeError(f"Given input size: ({planes}x{h}x{w}). Calculated output size: "
                           f"({planes}x{out[0]}x{out[1]}). Output size is too small")
    if input.dtype not in _POOL_DTYPES[op]:
        raise NotImplementedError(f'"{op}" not implemented for \'{input.dtype.short}\'')
    return given


# The dtypes PyTorch's CPU pooling kernels are compiled for
_POOL_DTYPES = {
    "max_pool2d": tuple(d for d in dtypes.all_dtypes() if d is not dtypes.bool_),
    "avg_pool2d": (dtypes.int64, dtypes.float16, dtypes.bfloat16, dtypes.float32,
                   dtypes.float64),
}
