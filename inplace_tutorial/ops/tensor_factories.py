"""``x.new_zeros(2, 3)``, ``new_ones``, ``new_full``, ``new_empty``, ``new_tensor``: fresh
tensors (creation.py) that take their dtype from ``x`` unless ``dtype=`` says otherwise.

Nothing here touches ``x``'s storage or graph: the result is a new leaf, as ``torch.zeros``
makes one. The size arguments bind as PyTorch's do: ``new_zeros`` and ``new_ones`` take
``(2, 3)`` or ``2, 3``; ``new_full`` only a sequence.
"""
from __future__ import annotations

import warnings

from .. import dtypes
from ..arg_parser import argument_error, binding, int_list, is_number
from ..creation import empty, full
from ..device import placement
from ..layout import layout, strided
from ..tensor import Tensor, tensor_method
from ..tensor_new import tensor

_PLACEMENT = ("device", "layout", "pin_memory")  # the factory keywords about where memory is


def _placement(op: str, kwargs: dict) -> dict:
    """device=, layout=, pin_memory= as PyTorch's CPU build takes them: the CPU (``"cpu"``,
    ``x.device``, or None), the default layout (None), unpinned memory. What is left of kwargs
    is returned."""
    device = kwargs.get("device")
    placement(op, device)
    if not isinstance(kwargs.get("layout"), (layout, type(None))):
        raise argument_error(op, "layout", None, "torch.layout", kwargs["layout"])
    if kwargs.get("layout") not in (None, strided):
        raise RuntimeError("inplace_tutorial has only the strided layout (layout=None or "
                           "torch.strided)")
    pin = kwargs.get("pin_memory")
    if pin is not None and not isinstance(pin, bool):
        raise argument_error(op, "pin_memory", None, "bool", pin)
    if pin:
        raise RuntimeError("pin_memory=True requires a CUDA or other accelerator backend; no "
                           "pinned memory allocator is available on this system.")
    return {k: v for k, v in kwargs.items() if k not in _PLACEMENT}


def _size(op: str, size: tuple, varargs: bool = True, kwargs: dict | None = None) -> tuple:
    """The size as positional ints, one sequence, or ``size=`` by keyword."""
    kwargs = _placement(op, kwargs or {})
    if set(kwargs) - {"size"}:
        raise TypeError(f"{op}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if "size" in kwargs and size:
        raise TypeError(f"{op}() got multiple values for argument 'size'")
    if "size" in kwargs:
        size, varargs = (kwargs["size"],), False
    if not size:
        raise TypeError(f'{op}() missing 1 required positional arguments: "size"')
    return int_list(op, "size", size, position=1, varargs=varargs)


def _options(op: str, dtype, requires_grad) -> None:
    if dtype is not None and not isinstance(dtype, dtypes.dtype):
        raise argument_error(op, "dtype", None, "torch.dtype", dtype)
    if not isinstance(requires_grad, bool):
        raise argument_error(op, "requires_grad", None, "bool", requires_grad)


def _filled(op: str, self: Tensor, size: tuple, value, dtype, requires_grad: bool,
            kwargs: dict) -> Tensor:
    shape = _size(op, size, kwargs=kwargs)
    _options(op, dtype, requires_grad)
    return full(shape, value, dtype=dtype or self.dtype, requires_grad=requires_grad)


@tensor_method
def new_zeros(self, *size, dtype=None, requires_grad: bool = False, **kwargs) -> Tensor:
    return _filled("new_zeros", self, size, 0, dtype, requires_grad, kwargs)


@tensor_method
def new_ones(self, *size, dtype=None, requires_grad: bool = False, **kwargs) -> Tensor:
    return _filled("new_ones", self, size, 1, dtype, requires_grad, kwargs)


@tensor_method
def new_empty(self, *size, dtype=None, requires_grad: bool = False, **kwargs) -> Tensor:
    shape = _size("new_empty", size, kwargs=kwargs)
    _options("new_empty", dtype, requires_grad)
    return empty(shape, dtype=dtype or self.dtype, requires_grad=requires_grad)


_MISSING = object()


@binding()
@tensor_method
def new_full(self, size=_MISSING, fill_value=_MISSING, *, dtype=None,
             requires_grad: bool = False, **kwargs) -> Tensor:
    missing = [f'"{n}"' for n, v in (("size", size), ("fill_value", fill_value))
               if v is _MISSING]
    if missing:  # (PyTorch's words, its grammar too)
        raise TypeError(f"new_full() missing {len(missing)} required positional argument"
                        f"{'s' if len(missing) == 1 else ''}: {', '.join(missing)}")
    if isinstance(fill_value, Tensor) and fill_value.dim() == 0:
        fill_value = fill_value.item()  # a Number parameter takes a 0-dim tensor
    shape = _size("new_full", (size,), varargs=False, kwargs=kwargs)
    if not is_number(fill_value):
        raise argument_error("new_full", "fill_value", 2, "Number", fill_value)
    _options("new_full", dtype, requires_grad)
    return full(shape, fill_value, dtype=dtype or self.dtype, requires_grad=requires_grad)


_NO_DATA = object()


@tensor_method
def new_tensor(self, *args, dtype=None, requires_grad: bool = False, **kwargs) -> Tensor:
    """A copy of ``data`` in self's dtype (data's own dtype is not kept, unlike tensor())."""
    if len(args) > 1:  # data is the one positional argument
        raise TypeError(f"new_tensor() takes 1 positional argument but {len(args)} were given")
    data = args[0] if args else kwargs.pop("data", _NO_DATA)
    if data is _NO_DATA:
        raise TypeError('new_tensor() missing 1 required positional arguments: "data"')
    if _placement("new_tensor", kwargs):
        raise TypeError(f"new_tensor() got an unexpected keyword argument "
                        f"'{next(iter(_placement('new_tensor', kwargs)))}'")
    _options("new_tensor", dtype, requires_grad)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=3)
    return tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)


__all__ = ["new_empty", "new_full", "new_ones", "new_tensor", "new_zeros"]
