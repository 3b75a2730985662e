"""Reading a learner's answer in the forms people naturally write it.

A checker asks for "a number of bytes" and gets ``400000``, ``np.int64(400000)`` (from
``np.prod``), ``400000.0`` or a 0-d tensor; it asks for "a set of names" and gets a set, a list,
a tuple or a dict of booleans. These helpers turn each natural form into one canonical value,
or ``None`` when the answer is of the wrong kind, so the checker can say what it expected.
``short()`` bounds what feedback quotes back, however large the answer.
"""
from __future__ import annotations

import itertools
import math
import numbers
import reprlib

import numpy as np

import inplace_tutorial as ipt

_repr = reprlib.Repr()
_repr.maxstring, _repr.maxother, _repr.maxlist, _repr.maxtuple = 60, 60, 6, 6
_repr.maxset, _repr.maxfrozenset, _repr.maxdict = 6, 6, 6


def short(value: object, limit: int = 80) -> str:
    """A repr of ``value`` at most ``limit`` characters long, quick even for huge objects."""
    if isinstance(value, ipt.Tensor):  # never format a tensor's values: it may be huge
        return f"a tensor of shape {tuple(value.shape)}"
    try:
        text = _repr.repr(value)
    except Exception:  # a learner's object with a broken __repr__
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def whole_number(answer: object) -> int | None:
    """``answer`` as an int if it is a whole number in any usual form, else None.

    Accepts int, NumPy integers, whole-valued floats (``4e5``) and one-element tensors or arrays
    holding such a value; refuses bools (``True`` is not a byte count) and strings.
    """
    if isinstance(answer, (bool, np.bool_)):
        return None
    if isinstance(answer, ipt.Tensor):
        if answer.numel() != 1 or answer.dtype == ipt.bool:
            return None
        answer = answer.item()
    elif isinstance(answer, np.ndarray):
        if answer.size != 1 or answer.dtype.kind not in "iuf":
            return None
        answer = answer.item()
    if isinstance(answer, numbers.Integral):
        return int(answer)
    if isinstance(answer, numbers.Real):
        value = float(answer)
        if math.isfinite(value) and value.is_integer():
            return int(value)
    return None


def int_tuple(answer: object) -> tuple[int, ...] | None:
    """A shape or stride as a tuple of ints: ``(3,)``, ``[3]``, ``3`` and ``ipt.Size`` all work."""
    one = whole_number(answer)
    if one is not None:
        return (one,)
    if isinstance(answer, (str, bytes, dict, set, frozenset)):
        return None
    if isinstance(answer, ipt.Tensor):  # its values, never its rows one by one (a 10**6-element
        if answer.dim() != 1 or answer.numel() > 64:  # view would take seconds)
            return None
        answer = answer.tolist()
    try:
        if len(answer) > 64:  # type: ignore[arg-type]
            return None
    except TypeError:
        pass  # a generator: read at most 65 items below
    try:
        items = list(itertools.islice(answer, 65))  # type: ignore[call-overload]
    except TypeError:
        return None
    if len(items) > 64:
        return None
    values = [whole_number(v) for v in items]
    return None if any(v is None for v in values) else tuple(values)  # type: ignore[misc]


def names(answer: object) -> set[str] | None:
    """A set of names from a set, list or tuple of strings, or a dict ``{name: True/False}``."""
    if isinstance(answer, dict):
        chosen = [k for k, v in answer.items() if v]
    elif isinstance(answer, (set, frozenset, list, tuple)):
        chosen = list(answer)
    else:
        return None
    if not all(isinstance(n, str) for n in chosen):
        return None
    return {n.strip() for n in chosen}
