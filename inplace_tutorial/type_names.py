"""How PyTorch 2.13 names a dtype in its error texts: a table, and the texts built from it.

Two names per dtype: the legacy type name its version-counter and hook errors print
(``torch.FloatTensor``; Bool and BFloat16 never had a ``torch.*Tensor`` class, so they print as
the dispatch type ``CPUBoolType``), and the C type its ``.grad`` assignment error prints
(``long int``). Keyed by dtype name, so a dtype missing here still gets a readable name.
``tests/test_autograd.py`` checks every row against torch.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .dtypes import dtype

TYPE_NAMES = {
    "float32": ("torch.FloatTensor", "float"), "float64": ("torch.DoubleTensor", "double"),
    "float16": ("torch.HalfTensor", "c10::Half"), "bfloat16": ("CPUBFloat16Type", "c10::BFloat16"),
    "int64": ("torch.LongTensor", "long int"), "int32": ("torch.IntTensor", "int"),
    "int16": ("torch.ShortTensor", "short int"), "int8": ("torch.CharTensor", "signed char"),
    "uint8": ("torch.ByteTensor", "unsigned char"), "bool": ("CPUBoolType", "bool"),
}


def type_string(dt: dtype) -> str:
    """``torch.FloatTensor``, ``CPUBoolType`` ...: a tensor's type in PyTorch's autograd texts."""
    names = TYPE_NAMES.get(dt.name)
    return names[0] if names else f"torch.{dt.tensor_type}"


def c_type_name(dt: dtype) -> str:
    names = TYPE_NAMES.get(dt.name)
    return names[1] if names else dt.name


def grad_dtype_message(got: dtype, want: dtype) -> str:
    return (f"attempting to assign a gradient with dtype '{c_type_name(got)}' to a tensor with "
            f"grad_dtype '{want.short}'. The gradient must match the tensor's grad_dtype "
            "(defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute with "
            "a specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging "
            "the dtypes of a tensor and its gradient may break downstream systems that assume "
            "they match.")


def grad_size_message(got: tuple, want: tuple) -> str:
    return (f"attempting to assign a gradient of size '[{', '.join(map(str, got))}]' to a tensor "
            f"of size '[{', '.join(map(str, want))}]'. Please ensure that the gradient and the "
            "tensor are the same size")


__all__ = ["TYPE_NAMES", "c_type_name", "grad_dtype_message", "grad_size_message",
           "type_string"]
