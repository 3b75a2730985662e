"""The attributes of torch.Tensor that a CPU, strided, real tensor answers without reading its
cells: where it lives (``device``, ``is_cpu``, ``is_cuda`` ..., ``get_device()``), what kind
of numbers it holds (``is_complex()``, ``is_signed()``), and other spellings of its sizes
(``ndimension()``, ``nelement()``, ``itemsize``, ``nbytes``).

PyTorch answers these in C (python_variable.cpp's getters, METH_NOARGS methods); the core has
no other device, sparse, quantized or complex tensor, so most answers are constants. Attached
to Tensor when ``inplace_tutorial`` is imported, like tensor_conversions.py.
"""
from __future__ import annotations

from . import device as devices
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
