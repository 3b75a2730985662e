"""dtype casts: ``to(dtype)``, ``type()`` and the shorthands half(), bfloat16(), float(),
double(), char(), byte(), short(), int(), long(), bool(), type_as().

A cast makes a new tensor (ToCopyBackward0) unless the dtype already matches, in which case
it returns self, as PyTorch does (``to(..., copy=True)`` always copies). Values convert as
PyTorch's CPU kernels convert them: floats truncate toward zero into integers, integers wrap
into narrower integers, and anything reaches float16/bfloat16 through float32 (PyTorch's
Half and BFloat16 are built from a float), chunk by chunk (copy_kernel.cast_into). The result
keeps a dense layout (preserve_format), as PyTorch's ``to`` does, unless ``memory_format=``
names another (then self is returned only if its strides already suggest that format).
(This module defines methods named float, int, bool and type: it reaches those builtins
through ``builtins``.)
"""
from __future__ import annotations

import builtins

from .. import device as devices
from .. import dtypes
from ..arg_parser import argument_error, binding
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..call_site import call_keywords
from ..copy_kernel import cast_into
from ..creation import empty_like
from ..device import as_device, check_cpu, is_device
from ..function_parser import PythonArgParser, scalar_type
from ..layout import (
    channels_last,
    channels_last_3d,
    check_rank,
    contiguous_format,
    preserve_format,
)
from ..method_flags import keyword_only
from ..tensor import Tensor, check_memory_format, tensor_method
from .joining import _like_channels_last

# Tensor.to's forms, as python_variable_methods.cpp gives them to its parser (a number is taken
# for the tensor: ``x.to(2.0)`` is ``x.to(torch.tensor(2.0))``, a float64 target)
_TO = PythonArgParser("to", [
    "(Device? device=None, ScalarType? dtype=None, bool non_blocking=False, bool copy=False, *, "
    "MemoryFormat? memory_format=None)",
    "(ScalarType dtype, bool non_blocking=False, bool copy=False, *, "
    "MemoryFormat? memory_format=None)",
    "(Tensor tensor, bool non_blocking=False, bool copy=False, *, "
    "MemoryFormat? memory_format=None)"], True)
_NUMBER_DTYPE = {builtins.bool: dtypes.bool_, builtins.int: dtypes.int64,
                 builtins.float: dtypes.float64}  # a wrapped number's tensor


def _suggested(t: Tensor):
    """PyTorch's suggest_memory_format: channels-last strides suggest their format."""
    if _like_channels_last(t._shape, t._stride):
        return channels_last if t.dim() == 4 else channels_last_3d
    return contiguous_format


def _parse_to(args, kwargs) -> tuple:
    """(dtype or None, copy, memory_format) of a to(...) call, bound to one of torch's three
    forms. A device must be the CPU; one with an index (``'cpu:0'``) is not the tensor's own
    device (``cpu``, no index), so PyTorch copies, and so does the core."""
    _, v = _TO.parse(args, kwargs)
    copy = v.get("copy") is True
    if "tensor" in v:
        other = v["tensor"]
        return (other.dtype if isinstance(other, Tensor) else
                _NUMBER_DTYPE.get(builtins.type(other), dtypes.float64)), copy, v["memory_format"]
    if v.get("device") is not None:
        d = as_device(v["device"])
        check_cpu(d)
        copy = copy or d.index is not None
    return scalar_type(v["dtype"]), copy, v["memory_format"]


@binding()
@tensor_method
def to(self, *args, **kwargs) -> Tensor:
    if len(args) == 1 and not kwargs and isinstance(args[0], dtypes.dtype):  # x.to(dtype),
        dtype, copy, fmt = args[0], False, None  # the package's own casts: nothing to parse
    else:
        dtype, copy, fmt = _parse_to(args, kwargs)
    fmt = fmt or preserve_format
    if fmt is not preserve_format:
        check_memory_format("to", fmt)
        check_rank(fmt, self._shape)
    if dtype is None:
        dtype = self.dtype
    if dtype is self.dtype and not copy and (fmt is preserve_format or fmt is _suggested(self)):
        return self  # to_will_alias
    out = empty_like(self, dtype=dtype, memory_format=fmt)  # preserve: a dense layout is kept
    out._storage.op = "to"
    cast_into(out._array(), self._array(), dtype)
    return record("to", out, {"self": self})


@tensor_method
@keyword_only
def cpu(self, *, memory_format=None) -> Tensor:
    """The tensor on the CPU: itself, where every tensor of the core is (a memory_format= that
    its strides don't already suggest makes a copy, as ``to(memory_format=...)``)."""
    check_memory_format("cpu", memory_format, optional=True)
    return self if memory_format is None else self.to(memory_format=memory_format)


@binding()
@tensor_method
def cuda(self, device=None, non_blocking: bool = False, *, memory_format=None) -> Tensor:
    """Refused, as a CPU-only build of PyTorch refuses it, after the same checks: the device
    (None means CUDA) must be a CUDA one, then CUDA itself is missing."""
    _to_accelerator("cuda", device, non_blocking, memory_format)
    return self  # (never reached: the core has only the CPU)


@binding()
@tensor_method
def xpu(self, device=None, non_blocking: bool = False, *, memory_format=None) -> Tensor:
    _to_accelerator("xpu", device, non_blocking, memory_format)
    return self  # (never reached: the core has only the CPU)


@binding()
@tensor_method
def ipu(self, device=None, non_blocking: bool = False, *, memory_format=None) -> Tensor:
    _to_accelerator("ipu", device, non_blocking, memory_format)
    return self  # (never reached: the core has only the CPU)


@binding()
@tensor_method
def mtia(self, device=None, non_blocking: bool = False, *, memory_format=None) -> Tensor:
    _to_accelerator("mtia", device, non_blocking, memory_format)
    return self  # (never reached: the core has only the CPU)


# what a CPU-only build says when the accelerator itself is asked for (cuda and xpu: their
# Python modules' lazy init, device.check_cpu; ipu: the backend is not linked; mtia: its
# lazy init's assertion)
_MTIA = ("Torch not compiled with MTIA enabled. Ensure you have `import mtia.host_runtime."
         "torch_mtia.dynamic_library` in your python src file and include `//mtia/host_runtime/"
         "torch_mtia:torch_mtia` as your target dependency!")


def _to_accelerator(op: str, device, non_blocking, memory_format) -> None:
    """x.cuda(), x.xpu() ...: the argument checks in torch's order, then the device must be
    of that type (an int: an accelerator's index, which a CPU-only build lacks), then the
    refusal: the core has only the CPU."""
    if device is not None and not is_device(device):
        raise argument_error(op, "device", None if "device" in call_keywords() else 1,
                             "torch.device", device)
    if not isinstance(non_blocking, builtins.bool):
        raise argument_error(op, "non_blocking", None, "bool", non_blocking)
    check_memory_format(op, memory_format, optional=True)
    if device is not None and as_device(device).type != op:
        raise RuntimeError(f"Invalid device, must be {'MTIA' if op == 'mtia' else op} device")
    if op == "ipu":
        raise RuntimeError("PyTorch is not linked with support for ipu devices")
    if op == "mtia":
        raise AssertionError(_MTIA)
    check_cpu(devices.device(op))  # "Torch not compiled with CUDA enabled" (or XPU)


@derivative("to", "ToCopyBackward0")
def _to_bw(ctx, g):
    return (g,)  # the engine casts the gradient back to the input's dtype


def _shorthand(op: str, self: Tensor, dtype, memory_format) -> Tensor:
    """x.float(memory_format=...) and the others: ``to(dtype, memory_format=...)``, with the
    type of memory_format checked in the shorthand's own name."""
    check_memory_format(op, memory_format, optional=True)
    if memory_format is None:
        return self.to(dtype)
    return self.to(dtype, memory_format=memory_format)


@tensor_method
def half(self, *, memory_format=None) -> Tensor:
    return _shorthand("half", self, dtypes.float16, memory_format)


@tensor_method
def bfloat16(self, *, memory_format=None) -> Tensor:
    return _shorthand("bfloat16", self, dtypes.bfloat16, memory_format)


@tensor_method
def float(self, *, memory_format=None) -> Tensor:  # noqa: A001
    return _shorthand("float", self, dtypes.float32, memory_format)


@tensor_method
def double(self, *, memory_format=None) -> Tensor:
    return _shorthand("double", self, dtypes.float64, memory_format)


@tensor_method
def char(self, *, memory_format=None) -> Tensor:
    return _shorthand("char", self, dtypes.int8, memory_format)


@tensor_method
def byte(self, *, memory_format=None) -> Tensor:
    return _shorthand("byte", self, dtypes.uint8, memory_format)


@tensor_method
def short(self, *, memory_format=None) -> Tensor:
    return _shorthand("short", self, dtypes.int16, memory_format)


@tensor_method
def int(self, *, memory_format=None) -> Tensor:  # noqa: A001
    return _shorthand("int", self, dtypes.int32, memory_format)


@tensor_method
def long(self, *, memory_format=None) -> Tensor:
    return _shorthand("long", self, dtypes.int64, memory_format)


@tensor_method
def bool(self, *, memory_format=None) -> Tensor:  # noqa: A001
    return _shorthand("bool", self, dtypes.bool_, memory_format)


@binding()
@tensor_method
def type_as(self, other: Tensor) -> Tensor:
    return self.to(other.dtype)


_BY_TENSOR_TYPE = {f"torch.{d.tensor_type}": d for d in dtypes.all_dtypes()}


@binding()
@tensor_method
def type(self, dtype=None, non_blocking=False, **kwargs):  # noqa: A001
    """type() names the tensor type ('torch.FloatTensor'); type(dtype or name) casts."""
    dtype = kwargs.get("dtype", dtype)
    if dtype is None:
        return f"torch.{self.dtype.tensor_type}"
    if isinstance(dtype, str):
        d = _BY_TENSOR_TYPE.get(dtype)
        if d is None:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = d
    return self.to(dtype)
