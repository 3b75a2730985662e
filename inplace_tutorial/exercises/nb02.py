"""Exercises for notebook 02 (memory layout: storage, strides, views)."""
from __future__ import annotations

import math

import numpy as np

import inplace_tutorial as ipt

from . import exercise
from .answers import int_tuple, short

_FORM = "answer should be (size, stride, offset), e.g. ((3,), (1,), 0) or (3, 1, 0)"


@exercise("02.1", hint=(
    "A 1-d view reads element i from storage cell offset + i × stride.",
    "In arange(12.0) cell k holds the value k. Which cell holds 1.0, and how far apart are "
    "1, 5 and 9?",
    "Size and stride are tuples with one entry per dimension; this view has one dimension."))
def _(answer):
    if isinstance(answer, ipt.Tensor):  # the view itself: read its layout
        answer = (tuple(answer.shape), answer.stride(), answer.storage_offset())
    try:
        size_a, stride_a, offset_a = answer
    except (TypeError, ValueError):
        return False, f"{_FORM}, not {short(answer)}"
    size, stride, offset = int_tuple(size_a), int_tuple(stride_a), int_tuple(offset_a)
    offset = offset[0] if offset is not None and len(offset) == 1 else None
    if size is None or stride is None or offset is None:
        return False, f"{_FORM}: size and stride are whole numbers or tuples of them"
    if len(size) != len(stride):
        return False, f"size {size} and stride {stride} need one entry per dimension each"
    numel = math.prod(size)
    if len(size) != 1 or numel != 3:
        return False, (f"a view of size {short(size)} has {numel:,} elements; "
                       "[1.0, 5.0, 9.0] is 3 elements in one dimension")
    base = ipt.arange(12.0)
    last = offset + sum((n - 1) * s for n, s in zip(size, stride))
    if min(offset, last) < 0 or max(offset, last) > 11:
        return False, f"that view reads cells {offset} to {last}; arange(12.0) has cells 0 to 11"
    view = base.as_strided(size, stride, offset)
    if view.tolist() != [1.0, 5.0, 9.0]:
        return False, f"that view reads {view.tolist()}, not [1.0, 5.0, 9.0]"
    return True, "a strided view: 3 elements, 4 cells apart, starting at cell 1, no copy"


_CALLS = {
    "x.t()": lambda x: x.t(),
    "x.contiguous()": lambda x: x.contiguous(),
    "x.t().contiguous()": lambda x: x.t().contiguous(),
    "x.reshape(12)": lambda x: x.reshape(12),
    "x.t().reshape(12)": lambda x: x.t().reshape(12),
    "x[:, 1]": lambda x: x[:, 1],
}


def _as_bool(v) -> bool | None:
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    return {0: False, 1: True}.get(v) if isinstance(v, (int, np.integer)) else None


@exercise("02.2", hint=(
    "Predict first, then test each call: `fn(x).untyped_storage() is x.untyped_storage()`.",
    "A result can be a view when some strides describe it over the same storage; slicing and "
    "t() always can.",
    "contiguous() and reshape() copy only when they must: when the element order they need "
    "is not the order in storage."))
def _(answer):
    if not isinstance(answer, dict) or set(answer) != set(_CALLS):
        missing = sorted(set(_CALLS) - set(answer)) if isinstance(answer, dict) else []
        extra = " (missing: " + ", ".join(missing) + ")" if missing else ""
        return False, f"answer should be a dict with exactly these keys: {list(_CALLS)}{extra}"
    values = {call: _as_bool(answer[call]) for call in _CALLS}
    if None in values.values():
        return False, "each value should be True (copies) or False (a view)"
    wrong, copying = [], []
    for call, fn in _CALLS.items():
        x = ipt.arange(12.0).view(3, 4)
        copies = fn(x).untyped_storage() is not x.untyped_storage()
        copying += [call] if copies else []
        if values[call] != copies:
            wrong.append(call)
    if wrong:
        return False, f"check these again: {', '.join(wrong)}"
    return True, (f"all six right: {' and '.join(copying)} copy; the other "
                  f"{len(_CALLS) - len(copying)} are views of x's storage")
