"""PyTorch's argument-type errors, word for word, raised before an op reads or writes a value.

PyTorch's Python binding matches the arguments against each overload of a method. With one
overload a mismatch reads ``add_(): argument 'other' (position 1) must be Tensor, not
NoneType``; with several (a Tensor and a Number form) it lists them all: ``fmod_() received an
invalid combination of arguments - got (NoneType), but expected one of: ...``. A Number is a
Python bool, int, float or complex, or a NumPy scalar; lists and NumPy arrays are neither a
Number nor a Tensor. A ``tuple of ints`` (view's size, permute's dims) is unpacked as the binding
does: ``view(2, 3)`` and ``view((2, 3))`` are the same call, each element must be an integer.
"""
from __future__ import annotations

import numbers
import operator

import numpy as np

from .. import dtypes
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
    if type(v) is float or type(v) is int:  # the common case, before the slow ABC check
        return True
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


# --------------------------------------------------------------------------- int and tuple of ints
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
        raise _single(op, arg, position, "int", value)
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
            raise _single(op, arg, position, "tuple of ints", seq)
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
    if kind == "Tensor":
        return isinstance(v, Tensor)
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
