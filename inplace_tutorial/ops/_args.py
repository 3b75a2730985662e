"""PyTorch's argument-type errors, word for word, raised before an op reads or writes a value.

PyTorch's Python binding matches the arguments against each overload of a method. With one
overload a mismatch reads ``add_(): argument 'other' (position 1) must be Tensor, not
NoneType``; with several (a Tensor and a Number form) it lists them all: ``fmod_() received an
invalid combination of arguments - got (NoneType), but expected one of: ...``. A Number is a
Python bool, int, float or complex, or a NumPy scalar; lists and NumPy arrays are neither a
Number nor a Tensor.
"""
from __future__ import annotations

import numbers

import numpy as np

from ..tensor import Tensor


def type_name(v, detailed: bool = False) -> str:
    """The name PyTorch prints for a Python value: ``NoneType``, ``numpy.ndarray`` ...;
    ``detailed`` spells out sequences as the overload message does (``list of [int, float]``)."""
    if isinstance(v, Tensor):
        return "Tensor"
    t = type(v)
    name = t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"
    if detailed and isinstance(v, (list, tuple)):
        inner = ", ".join(type_name(x) for x in v)
        if isinstance(v, list):
            return f"{name} of [{inner}]"
        return f"{name} of ({inner},)" if len(v) == 1 else f"{name} of ({inner})"  # as repr
    return name


def is_number(v) -> bool:
    if isinstance(v, (Tensor, np.ndarray)):
        return False
    return isinstance(v, (numbers.Number, np.bool_))


def check_tensor(op: str, arg: str, value, position: int | None = 1) -> None:
    """A Tensor-only argument (atan2's other, logical_and_'s other, addcmul_'s tensor1)."""
    if not isinstance(value, Tensor):
        raise _single(op, arg, position, "Tensor", value)


def check_number(op: str, arg: str, value, position: int | None = None) -> None:
    """A Scalar argument such as ``alpha`` or ``value``."""
    if not is_number(value):
        raise _single(op, arg, position, "Number", value)


def check_type(op: str, arg: str, value, kind: type, position: int | None = None) -> None:
    """An ``int`` or ``float`` argument (round's decimals, logit's eps)."""
    if kind is int:
        ok = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    else:
        ok = isinstance(value, (int, float, np.integer, np.floating))
    if not ok:
        raise _single(op, arg, position, kind.__name__, value)


def check_tensor_or_number(op: str, arg: str, value, position: int | None = 1) -> None:
    """An argument of an op with a Tensor and a Number overload, as the one that has
    an alpha (add_, sub_, mul_, div_) reports it: the single-overload wording."""
    if not (isinstance(value, Tensor) or is_number(value)):
        raise _single(op, arg, position, "Tensor", value)


def check_overloads(op: str, params: list[str], values: tuple, optional: bool = False,
                    fixed: str | None = None) -> None:
    """Ops with a Tensor and a Number overload (fmod_, eq_, pow_, clamp_ ...). ``params``
    are the overloaded parameters' names, ``values`` what was passed (``optional``: None
    means "not given", as clamp's bounds); ``fixed`` a leading Tensor parameter both
    overloads share (lerp_'s ``end``)."""
    given = [v for v in values if v is not None] if optional else list(values)
    if all(isinstance(v, Tensor) for v in given) or all(is_number(v) for v in given):
        return
    if optional:  # a trailing None is an argument the caller left out
        while values and values[-1] is None:
            values = values[:-1]
    defaults = " = None" if optional else ""
    head = [f"Tensor {fixed}"] if fixed else []
    forms = [", ".join(head + [f"{kind} {p}{defaults}" for p in params])
             for kind in ("Tensor", "Number")]
    got = ", ".join(["Tensor"] * bool(fixed) + [type_name(v) for v in values])
    marks = ", ".join(["Tensor"] * bool(fixed) + [f"!{type_name(v, detailed=True)}!"
                                                   for v in values])
    lines = [f"{op}() received an invalid combination of arguments - got ({got}), but "
             "expected one of:"]
    for form in forms:
        lines.append(f" * ({form})")
        if len(values) == len(params):  # PyTorch explains the mismatch only for a full call
            lines.append("      didn't match because some of the arguments have invalid "
                         f"types: ({marks})")
    raise TypeError("\n".join(lines) + "\n")


def _single(op: str, arg: str, position: int | None, expected: str, value) -> TypeError:
    where = f" (position {position})" if position is not None else ""
    return TypeError(f"{op}(): argument '{arg}'{where} must be {expected}, not "
                     f"{type_name(value)}")
