"""PyTorch's argument-type errors, word for word, raised before an op reads or writes a value.

PyTorch's Python binding matches the arguments against each overload of a method. With one
overload a mismatch reads ``add_(): argument 'other' (position 1) must be Tensor, not
NoneType``; with several (a Tensor and a Number form) it lists them all: ``fmod_() received an
invalid combination of arguments - got (NoneType), but expected one of: ...``. A Number is a
Python bool, int, float or complex, or a NumPy scalar; lists and NumPy arrays are neither a
Number nor a Tensor. The parsing itself (type names, ints, tuples of ints, the overload
message) is in arg_parser.py, below creation.py, which parses sizes too.
"""
from __future__ import annotations

import numpy as np

from ..arg_parser import (  # noqa: F401 - the ops import these from here
    argument_error,
    as_called,
    check_int,
    int_list,
    invalid_combination,
    is_index,
    is_number,
    saved,
    signed,
    size_arg,
    type_name,
)
from ..call_site import call_keywords, python_method  # noqa: F401 - the ops import these from here
from ..tensor import Tensor


def check_tensor(op: str, arg: str, value, position: int | None = 1) -> None:
    """A Tensor-only argument (atan2's other, logical_and_'s other, addcmul_'s tensor1)."""
    if not isinstance(value, Tensor):
        raise argument_error(op, arg, position, "Tensor", value)


def check_number(op: str, arg: str, value, position: int | None = None) -> None:
    """A Scalar argument such as ``alpha`` or ``value``."""
    if not is_number(value):
        raise argument_error(op, arg, position, "Number", value)


def check_type(op: str, arg: str, value, kind: type, position: int | None = None) -> None:
    """An ``int`` or ``float`` argument (round's decimals, logit's eps)."""
    if kind is int:
        ok = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    else:
        ok = isinstance(value, (int, float, np.integer, np.floating))
    if not ok:
        raise argument_error(op, arg, position, kind.__name__, value)


def check_tensor_or_number(op: str, arg: str, value, position: int | None = 1) -> None:
    """An argument of an op with a Tensor and a Number overload, as the one that has
    an alpha (add_, sub_, mul_, div_) reports it: the single-overload wording."""
    if not (isinstance(value, Tensor) or is_number(value)):
        raise argument_error(op, arg, position, "Tensor", value)


def check_overloads(op: str, params: list[str], values: tuple, optional: bool = False,
                    fixed: tuple[str, object] | None = None) -> None:
    """Ops with a Tensor and a Number overload (fmod_, eq_, pow_, clamp_ ...). ``params``
    are the overloaded parameters' names, ``values`` what was passed (``optional``: None
    means "not given", as clamp's bounds); ``fixed`` a leading (name, value) Tensor parameter
    both overloads share (lerp_'s ``end``)."""
    given = [v for v in values if v is not None] if optional else list(values)
    if ((fixed is None or isinstance(fixed[1], Tensor))
            and (all(isinstance(v, Tensor) for v in given) or all(is_number(v) for v in given))):
        return
    head = [fixed[0]] if fixed else []
    defaults = " = None" if optional else ""
    forms = [", ".join([f"Tensor {n}" for n in head] + [f"{kind} {p}{defaults}" for p in params])
             for kind in ("Tensor", "Number")]
    args, kwargs = as_called(head + list(params), (*(fixed[1:] if fixed else ()), *values),
                             optional)
    raise invalid_combination(op, args, forms, kwargs)


_COMPLEX_OF = {"Double": "ComplexDouble", "Half": "ComplexHalf"}


def check_real_scalar(self: Tensor, other) -> None:
    """An in-place op given a Python complex: PyTorch's result type is complex, which can't
    be written back into a real tensor (the core has no complex dtypes at all)."""
    if type(other) is complex:
        raise RuntimeError(f"result type {_COMPLEX_OF.get(self.dtype.short, 'ComplexFloat')} "
                           f"can't be cast to the desired output type {self.dtype.short}")


def dim_tuple(op: str, dim, position: int | None = 1) -> tuple[int, ...]:
    """A ``tuple of ints dim`` given as a list or tuple, each element an int, in the parser's
    words: a later element that is no int "failed to unpack the object at pos k"; a first one
    "found element of type ... at pos 0", or, when dim was passed by keyword, "must be tuple
    of ints, not tuple"."""
    if dim and not is_index(dim[0]) and "dim" in call_keywords():
        raise argument_error(op, "dim", None, "tuple of ints", dim)
    return int_list(op, "dim", (dim,), position=position, varargs=False)
