"""torch._C._nn._parse_to: how nn.Module.to reads its arguments (nn/module.py).

Tensor.to's three forms (a device and/or a dtype; a dtype; a tensor, whose device and dtype
are taken), but copy= is refused, and the result is a (device, dtype, non_blocking,
memory_format) tuple for Module.to to apply to every parameter and buffer.
"""
from __future__ import annotations

from ..device import as_device, cpu
from ..function_parser import PythonArgParser, scalar_type
from ..tensor import Tensor

# torch._C._nn._parse_to: Tensor.to's three forms, read by nn.Module.to (a number is taken for
# the tensor, as Tensor.to takes it: ``m.to(2.0)`` is ``m.to(torch.tensor(2.0))``, float64)
_PARSE_TO = PythonArgParser("to", [
    "(Device? device=None, ScalarType? dtype=None, bool non_blocking=False, bool copy=False, *, "
    "MemoryFormat? memory_format=None)",
    "(ScalarType dtype, bool non_blocking=False, bool copy=False, *, "
    "MemoryFormat? memory_format=None)",
    "(Tensor tensor, bool non_blocking=False, bool copy=False, *, "
    "MemoryFormat? memory_format=None)"], True)


def parse_to(args: tuple, kwargs: dict) -> tuple:
    """torch._C._nn._parse_to: (device, dtype, non_blocking, memory_format) of a Module.to
    call. Unlike Tensor.to it refuses copy= (given at all, checked before the device is read);
    a tensor (or a number) gives its device and dtype."""
    sig, v = _PARSE_TO.parse(args, kwargs)
    if v["copy"] is not None:
        raise RuntimeError(".to() does not accept copy argument")
    non_blocking, memory_format = v["non_blocking"] is True, v["memory_format"]
    if "tensor" in v:
        other = v["tensor"]
        if isinstance(other, Tensor):
            return other.device, other.dtype, non_blocking, memory_format
        return cpu(), scalar_type(type(other)), non_blocking, memory_format
    device = v.get("device")
    return (None if device is None else as_device(device), scalar_type(v["dtype"]),
            non_blocking, memory_format)
