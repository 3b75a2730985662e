"""The argument checks of nn.functional, in PyTorch's order and words.

PyTorch checks a layer's arguments in its Python wrapper (F.batch_norm's batch size), in the
binding (a Tensor where a Tensor is due) and at the top of the ATen kernel (conv2d's
strides, pooling's output size). Here they all run before a kernel reads a value, so the
kernels in ops/nn_ops.py and ops/pooling.py only ever see arguments PyTorch would have accepted.
conv2d's checks are in conv_utils.py.
"""
from __future__ import annotations

from .. import dtypes
from ..autograd import grad_mode
from ..layout import wrap_dim
from ..ops import pooling
from ..ops.arg_checks import (
    argument_error,
    check_tensor,
    check_type,
    int_list,
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
    if (type(value) is tuple and len(value) == 2 and type(value[0]) is int  # a module's own
            and type(value[1]) is int and -2**63 <= min(value) <= max(value) < 2**63):
        return value  # (h, w), as the parser below would return it, without its ~10 us
    if is_index(value):
        return (int(value),) * 2
    return int_list(op, name, (value,), position=position, varargs=False)


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
