"""PyTorch's Python argument parser, the part every layer needs: how it names a Python value
in its errors, what counts as a Number or an int, how it unpacks a ``tuple of ints``, and its
"invalid combination of arguments" message.

It sits below creation.py and ops/ (both parse sizes: ``zeros(2, 3)``, ``view(2, 3)``);
ops/_args.py adds the per-op checks on top. ``view(2, 3)`` and ``view((2, 3))`` are the same
call, each element must be an integer, and a failure reads as PyTorch's binding words it.
"""
from __future__ import annotations

import numbers
import operator

import numpy as np

from . import dtypes
from .tensor import Tensor


def type_name(v, detailed: bool = False) -> str:
    """The name PyTorch prints for a Python value: ``NoneType``, ``numpy.ndarray`` ...;
    ``detailed`` spells out sequences as the overload message does (``list of [int, float]``)."""
    if isinstance(v, Tensor):  # a Parameter is named so ("got (NoneType, Parameter)")
        return type(v).__name__
    t = type(v)
    name = t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"
    if detailed and isinstance(v, (list, tuple)):
        inner = ", ".join(type_name(x) for x in v)
        if isinstance(v, list):
            return f"{name} of [{inner}]"
        return f"{name} of ({inner},)" if len(v) == 1 else f"{name} of ({inner})"  # as repr
    return name


def is_number(v) -> bool:
    if type(v) is float or type(v) is int:  # the common case, before the slow ABC check
        return True
    if isinstance(v, (Tensor, np.ndarray)):
        return False
    return isinstance(v, (numbers.Number, np.bool_))


def argument_error(op: str, arg: str, position: int | None, expected: str, value) -> TypeError:
    """The one-overload message: ``add_(): argument 'other' (position 1) must be Tensor, not
    NoneType``."""
    where = f" (position {position})" if position is not None else ""
    return TypeError(f"{op}(): argument '{arg}'{where} must be {expected}, not "
                     f"{type_name(value)}")


def is_index(v) -> bool:
    """PyTorch's THPUtils_checkIndex: a Python or NumPy integer, a one-element integer tensor,
    anything with ``__index__``; never a bool (``view(True, 6)`` is not a size)."""
    if isinstance(v, (bool, np.bool_)):
        return False
    if isinstance(v, (int, np.integer)):
        return True
    if isinstance(v, Tensor):
        return v.numel() == 1 and v.dtype.category == dtypes.INTEGER
    return hasattr(type(v), "__index__")


def check_int(op: str, arg: str, value, position: int | None = None) -> int:
    """An ``int`` argument (a dim, chunks, an index); returns it as a Python int."""
    if not is_index(value):
        raise argument_error(op, arg, position, "int", value)
    return operator.index(value)


def int_list(op: str, arg: str, args: tuple, position: int = 1, varargs: bool = True,
             forms: list[tuple[str, tuple]] | None = None) -> tuple[int, ...]:
    """A ``tuple of ints`` parameter. ``args`` are the positional arguments as received: with
    ``varargs`` an integer first argument packs them all (``view(2, 3)``), otherwise the one
    argument must be a list or tuple whose first element is an integer. ``forms`` are the
    overloads to list when nothing matches (view also takes a dtype)."""
    if varargs and args and is_index(args[0]):
        seq = args
    else:
        if len(args) != 1:
            if forms:
                raise invalid_combination(op, args, forms, explain=False)
            if not args:
                raise TypeError(f'{op}() missing 1 required positional arguments: "{arg}"')
            raise TypeError(f"{op}() takes 1 positional argument but {len(args)} were given")
        seq = args[0]
        if not (isinstance(seq, (tuple, list)) and (not seq or is_index(seq[0]))):
            if forms:
                raise invalid_combination(op, args, forms)
            if isinstance(seq, (tuple, list)):
                raise TypeError(f"{op}(): argument '{arg}' (position {position}) must be tuple "
                                f"of ints, but found element of type {type_name(seq[0])} at pos 0")
            raise argument_error(op, arg, position, "tuple of ints", seq)
    return tuple(_unpack_int(op, arg, v, k + 1) for k, v in enumerate(seq))


def _unpack_int(op: str, arg: str, v, pos: int) -> int:
    def fail(why: str) -> TypeError:
        return TypeError(f"{op}(): argument '{arg}' failed to unpack the object at pos {pos} "
                         f'with error "{why}"')
    if isinstance(v, (bool, np.bool_)) or is_index(v):
        value = operator.index(v)
    else:
        raise fail(f"type must be tuple of ints,but got {type_name(v)}")
    if not -2**63 <= value < 2**63:  # PyTorch appends its C++ stack to this one
        raise fail("Overflow when unpacking long long")
    return value


def _matches(kind: str, v) -> bool:
    if kind == "Tensor":  # the overload message compares type names: a Parameter is no match
        return type_name(v) == "Tensor"
    if kind == "Number":
        return is_number(v)
    if kind == "int":
        return is_index(v)
    if kind == "tuple of ints":
        return isinstance(v, (tuple, list)) and (not v or is_index(v[0]))
    if kind == "torch.dtype":
        return isinstance(v, dtypes.dtype)
    return False


def invalid_combination(op: str, args: tuple, forms: list[tuple[str, tuple]],
                        explain: bool = True) -> TypeError:
    """The overload error: each form is (its signature as PyTorch prints it, the kinds of its
    positional parameters); ``explain`` adds the "didn't match" line (PyTorch leaves it out
    when the number of arguments fits no form)."""
    got = ", ".join(type_name(v) for v in args)
    lines = [f"{op}() received an invalid combination of arguments - got ({got}), but "
             "expected one of:"]
    for signature, kinds in forms:
        lines.append(f" * ({signature})")
        if explain:
            marks = [type_name(v, detailed=True) if k < len(kinds) and _matches(kinds[k], v)
                     else f"!{type_name(v, detailed=True)}!" for k, v in enumerate(args)]
            lines.append("      didn't match because some of the arguments have invalid "
                         f"types: ({', '.join(marks)})")
    return TypeError("\n".join(lines) + "\n")
