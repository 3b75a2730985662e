"""The attributes of torch.Tensor that a CPU, strided, real tensor answers without reading its
cells: where it lives (``device``, ``is_cpu``, ``is_cuda`` ..., ``get_device()``), what kind
of numbers it holds (``is_complex()``, ``is_signed()``), and other spellings of its sizes
(``ndimension()``, ``nelement()``, ``itemsize``, ``nbytes``).

PyTorch answers these in C (python_variable.cpp's getters, METH_NOARGS methods); the core has
no other device, sparse, quantized or complex tensor, so most answers are constants. Attached
to Tensor when ``inplace_tutorial`` is imported, like tensor_conversions.py.
"""
from __future__ import annotations

import warnings

from . import device as devices
from .arg_parser import argument_error, binding
from .call_site import call_keywords
from .tensor import Tensor, tensor_method


# ---------------------------------------------------------------------- sizes, other spellings
@tensor_method
def ndimension(self) -> int:
    """The same as dim()."""
    return len(self._shape)


@tensor_method
def nelement(self) -> int:
    """The same as numel(): ``x.nelement() * x.element_size()`` is the bytes x addresses."""
    return self.numel()


def itemsize(self: Tensor) -> int:
    """Bytes per element, as element_size()."""
    return self.dtype.itemsize


def nbytes(self: Tensor) -> int:
    """numel() × itemsize: the bytes this tensor addresses, NOT its storage's size (a column
    of a 2×3 tensor is 8 bytes; an expanded view counts every repeated element)."""
    return self.numel() * self.dtype.itemsize


# ---------------------------------------------------------------------- what it holds
@tensor_method
def is_complex(self) -> bool:
    return False  # no complex dtype in the core


@tensor_method
def is_signed(self) -> bool:
    """False for uint8 and bool, True for every other dtype."""
    return self.dtype.is_signed


# ---------------------------------------------------------------------- where it lives
def device(self: Tensor) -> devices.device:
    """``device(type='cpu')``, a new object each time as in PyTorch (device.py). It compares
    equal to ``torch.device('cpu')``, not to the string ``'cpu'``."""
    return devices.cpu()


@tensor_method
def get_device(self) -> int:
    """-1: a CPU tensor (a CUDA tensor answers its device index)."""
    return -1


_DEPRECATED_DEVICE = ("The argument 'device' of Tensor.{}() is deprecated. Please do not pass "
                      "this argument.")
_NO_ATEN_CUDA = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because you "
    "are trying to use some CUDA functionality, but the CUDA library has not been loaded by the "
    "dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you don't "
    "directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic "
    "library dependencies if you don't depend on any of their symbols.  You can check if this "
    "has occurred by using ldd on your binary to see if there is a dependency on *_cuda.so "
    "library.")


def _deprecated_device(op: str, device) -> devices.device:
    """The ``device`` argument of is_pinned()/pin_memory(): read as any device argument, then
    a DeprecationWarning (every call: TORCH_WARN_DEPRECATION is not once) at the learner's
    line (``stacklevel``: this function, the method, its binding, the caller)."""
    if not devices.is_device(device):
        raise argument_error(op, "device", None if "device" in call_keywords() else 1,
                             "torch.device", device)
    d = devices.as_device(device)
    warnings.warn(_DEPRECATED_DEVICE.format(op), DeprecationWarning, stacklevel=4)
    return d


@binding()
@tensor_method
def is_pinned(self, device=None) -> bool:
    """False: no tensor of the core is in pinned (page-locked) memory, which only an
    accelerator's allocator gives."""
    if device is not None:
        _deprecated_device("is_pinned", device)
    return False


@binding()
@tensor_method
def pin_memory(self, device=None) -> Tensor:
    """Refused, as a CPU-only build refuses it: pinned memory is an accelerator's."""
    if device is None:
        raise RuntimeError("Cannot access accelerator device when none is available.")
    d = _deprecated_device("pin_memory", device)
    _deprecated_device("is_pinned", device)  # (PyTorch asks is_pinned first: a second warning)
    if d.type == "cpu":
        raise RuntimeError("CPU device type not an accelerator.")
    if d.type == "cuda":
        raise RuntimeError(_NO_ATEN_CUDA)
    devices.check_cpu(d)
    return self


def is_cpu(self: Tensor) -> bool:
    return True


def is_cuda(self: Tensor) -> bool:
    return False


def is_meta(self: Tensor) -> bool:
    return False


def is_sparse(self: Tensor) -> bool:
    return False


def is_quantized(self: Tensor) -> bool:
    return False


# The registration step for the properties (the methods attached themselves above).
for _getter in (itemsize, nbytes, device, is_cpu, is_cuda, is_meta, is_sparse, is_quantized):
    setattr(Tensor, _getter.__name__, property(_getter))
