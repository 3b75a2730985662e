"""torch.device: where a tensor's memory is, as a type ('cpu', 'cuda', 'meta' ...) and an
optional index (``cuda:1``). ``x.device`` answers ``device(type='cpu')``: the core has only
the CPU. A device of another type can still be named (``torch.device('cuda')`` is a value like
any other), but a tensor can't be made there: ``device='cuda'`` is refused as a CPU-only build
of PyTorch refuses it ("Torch not compiled with CUDA enabled").

Everything that takes a device (factories' ``device=``, ``x.to(...)``, ``x.cuda()``) reads it
with ``as_device``, as PyTorch's argument parser reads one: a device, a string (parsed as
c10::Device parses it, in its order and words), or an integer (an accelerator's index).
"""
from __future__ import annotations

import re

import numpy as np

from . import dtypes
from .arg_parser import argument_error, invalid_combination, type_name
from .tensor import Tensor

# c10/core/DeviceType.cpp: the types a device string may start with, in its error's order
DEVICE_TYPES = ("cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, "
                "lazy, vulkan, mps, meta, hpu, mtia, privateuseone").split(", ")
_STRING = re.compile(r"([a-zA-Z_]+)(?::(0|[1-9][0-9]*))?")  # a type, then maybe :index
_FORMS = ["torch.device device", "str type, int index = -1"]  # python_device.cpp's parser
_NO_ACCELERATOR = "Cannot access accelerator device when none is available."


class device:
    """A device type and an optional index, compared and hashed by both: ``device('cpu')``
    is not ``device('cpu', 0)``, and a device is never equal to a string (``x.device ==
    'cpu'`` is False in PyTorch 2.13; compare ``x.device.type == 'cpu'``)."""
    __slots__ = ("_type", "_index")

    def __new__(cls, *args, **kwargs):
        return _construct(args, kwargs)

    @property
    def type(self) -> str:
        return self._type

    @property
    def index(self) -> int | None:
        return self._index

    def __setattr__(self, name: str, value) -> None:  # PyTorch's device is immutable
        if name in ("type", "index"):
            raise AttributeError(f"attribute '{name}' of 'torch.device' objects is not writable")
        raise AttributeError(f"'torch.device' object has no attribute '{name}'")

    def __repr__(self) -> str:
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __str__(self) -> str:
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __eq__(self, other):
        if not isinstance(other, device):
            return NotImplemented
        return self._type == other._type and self._index == other._index

    def __ne__(self, other):
        if not isinstance(other, device):
            return NotImplemented
        return not self == other

    def __lt__(self, other):  # THPDevice_rc: only == and != are defined
        raise TypeError("comparison not implemented")

    __le__ = __gt__ = __ge__ = __lt__

    def __hash__(self) -> int:
        return hash((self._type, self._index))

    def __reduce__(self):
        return device, (self._type,) if self._index is None else (self._type, self._index)


def _new(type_: str, index: int | None) -> device:
    d = object.__new__(device)
    object.__setattr__(d, "_type", type_)
    object.__setattr__(d, "_index", index)
    return d


def cpu() -> device:
    """A new ``device(type='cpu')`` (PyTorch gives a new object each time: ``x.device is
    x.device`` is False)."""
    return _new("cpu", None)


def get_default_device() -> device:
    """torch.get_default_device(): where factories put a tensor unless told (the core has no
    set_default_device: always the CPU)."""
    return cpu()


def parse(text: str) -> device:
    """c10::Device(string): the checks in its order and words."""
    if not text:
        raise RuntimeError("Device string must not be empty")
    match = _STRING.fullmatch(text)
    if match is None:
        raise RuntimeError(f"Invalid device string: '{text}'")
    if match[2] is not None and int(match[2]) > 2**31 - 1:  # std::stoi's range
        raise RuntimeError(f"Could not parse device index '{match[2]}' in device string "
                           f"'{text}'")
    if match[1] not in DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(DEVICE_TYPES)} device type at start of "
                           f"device string: {text}")
    return _new(match[1], None if match[2] is None else int(match[2]))


def _is_long(v) -> bool:
    """THPUtils_checkLong: an int that is not a bool, or a NumPy integer."""
    return (isinstance(v, int) and not isinstance(v, bool)) or isinstance(v, np.integer)


def is_device(v) -> bool:
    """What a ``Device`` parameter of PyTorch's parser takes: a device, a string, an int."""
    return isinstance(v, (device, str)) or _is_long(v)


def as_device(v) -> device:
    """PythonArgs::device: a device as it is, a string parsed, an int an accelerator's index
    (a CPU-only build has no accelerator)."""
    if isinstance(v, device):
        return v
    if isinstance(v, str):
        return parse(v)
    if int(v) < 0:
        raise RuntimeError("Device index must not be negative")
    raise RuntimeError(_NO_ACCELERATOR)


# the devices whose Python module a CPU-only PyTorch build asks first (torch.cuda's and
# torch.xpu's lazy init), and what it says
_NOT_COMPILED = {"cuda": "CUDA", "xpu": "XPU"}


def check_cpu(d: device) -> None:
    """A tensor is to be made (or moved) to ``d``: only the CPU can hold one. CUDA and XPU are
    refused as PyTorch's CPU build refuses them; another type in the core's own words
    (PyTorch makes shape-only tensors on 'meta', the core has none, and the other backends'
    refusals depend on the path taken)."""
    if d._type == "cpu":
        return
    if d._type in _NOT_COMPILED:
        raise AssertionError(f"Torch not compiled with {_NOT_COMPILED[d._type]} enabled")
    raise RuntimeError(f"inplace_tutorial has only the cpu device, not '{d}'")


def placement(op: str, v) -> None:
    """A ``device=`` argument of the factory ``op``: None (the default: the CPU), or a device
    the core can make a tensor on; a value of another type is refused in the parser's words."""
    if v is None:
        return
    if not is_device(v):
        raise argument_error(op, "device", None, "torch.device", v)
    check_cpu(as_device(v))


def _construct(args: tuple, kwargs: dict) -> device:
    """torch.device(...) bound to python_device.cpp's two forms, ``(Device device)`` and
    ``(str type, int? index=-1)``, as PyTorch's parser binds it: with one argument both forms
    are tried (a failure lists both), with two only the second (its own error)."""
    count = len(args) + len(kwargs)
    if count == 1 and (args or "device" in kwargs):  # (Device device)
        value = args[0] if args else kwargs["device"]
        if not is_device(value):
            raise invalid_combination("device", args, _FORMS, kwargs)
        d = as_device(value)
        return _new(d._type, d._index)
    if not 1 <= count <= 2 or len(args) == 2 and kwargs:
        raise invalid_combination("device", args, _FORMS, kwargs)
    values = dict(zip(("type", "index"), args))
    for key, value in kwargs.items():
        if key in values:
            raise TypeError(f"device() got multiple values for argument '{key}'")
        if key not in ("type", "index") and count == 2:
            raise TypeError(f"device() got an unexpected keyword argument '{key}'")
        values[key] = value
    text, index = values.get("type"), values.get("index")
    if count == 1 and not isinstance(text, str):  # form 1 failed too: both are listed
        raise invalid_combination("device", args, _FORMS, kwargs)
    if not isinstance(text, str):
        where = " (position 1)" if args else ""
        raise TypeError(f"device(): argument 'type'{where} must be str, not {_printed(text)}")
    if index is not None and not (_is_long(index) or _int_scalar(index)):
        where = " (position 2)" if len(args) == 2 else ""
        raise TypeError(f"device(): argument 'index'{where} must be int, not {_printed(index)}")
    d = parse(text)
    if "index" not in values:
        return d
    if d._index is not None:
        raise RuntimeError("type (string) must not include an index because index was passed "
                           f"explicitly: {text}")
    if index is None:
        return d
    if int(index) < 0:
        raise RuntimeError("Device index must not be negative")
    return _new(d._type, int(index))


def _int_scalar(v) -> bool:
    """A 0-dim integer tensor that doesn't require grad: the parser's int64_t takes one."""
    return (isinstance(v, Tensor) and v.dim() == 0 and v.dtype.category == dtypes.INTEGER
            and not v.requires_grad)


def _printed(v) -> str:
    return "torch.device" if isinstance(v, device) else type_name(v)
