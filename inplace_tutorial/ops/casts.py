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
import re

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..copy_kernel import cast_into
from ..creation import empty_like
from ..layout import (
    channels_last,
    channels_last_3d,
    check_rank,
    contiguous_format,
    preserve_format,
)
from ..tensor import Tensor, check_memory_format, tensor_method
from .joining import _like_channels_last

_DEVICE_TYPES = ("cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, "
                 "lazy, vulkan, mps, meta, hpu, mtia, privateuseone").split(", ")
_DEVICE = re.compile(r"([a-zA-Z_]+)(?::(0|[1-9][0-9]*))?")


def _check_device(device: str) -> None:
    """c10::Device's parse of a device string, in its order and words; the core has only
    the cpu."""
    if not device:
        raise RuntimeError("Device string must not be empty")
    match = _DEVICE.fullmatch(device)
    if match is None:
        raise RuntimeError(f"Invalid device string: '{device}'")
    if match[1] not in _DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start of "
                           f"device string: {device}")
    if match[1] == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    if match[1] != "cpu":
        raise RuntimeError(f"inplace_tutorial has only the cpu device, not '{device}'")


def _suggested(t: Tensor):
    """PyTorch's suggest_memory_format: channels-last strides suggest their format."""
    if _like_channels_last(t._shape, t._stride):
        return channels_last if t.dim() == 4 else channels_last_3d
    return contiguous_format


def _parse_to(args, kwargs):
    """to(dtype), to(device, dtype), to(other), to(dtype=..., copy=...): the target dtype."""
    dtype = kwargs.get("dtype")
    for a in args:
        if isinstance(a, dtypes.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            dtype = a.dtype
        elif isinstance(a, str):
            _check_device(a)
        elif a is None or isinstance(a, builtins.bool):
            continue  # non_blocking / copy given positionally
        else:
            raise TypeError(f"to() received an invalid combination of arguments - got "
                            f"({builtins.type(a).__name__})")
    device = kwargs.get("device")
    if device is not None:
        _check_device(str(device))
    return dtype


@binding()
@tensor_method
def to(self, *args, **kwargs) -> Tensor:
    dtype = _parse_to(args, kwargs)
    copy = kwargs.get("copy", False) is True
    fmt = kwargs.get("memory_format") or preserve_format
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
