"""Exercises for notebook 02 (memory layout: storage, strides, views)."""
from __future__ import annotations

import inplace_tutorial as ipt

from . import exercise


@exercise("02.1", hint="Element i of the view sits at storage cell offset + i × stride. "
          "[1, 5, 9] starts at cell 1 and steps by 4.")
def _(answer):
    try:
        size, stride, offset = answer
    except (TypeError, ValueError):
        return False, "answer should be a tuple (size, stride, offset), e.g. ((3,), (1,), 0)"
    base = ipt.arange(12.0)
    view = base.as_strided(tuple(size), tuple(stride), offset)
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


@exercise("02.2", hint="A call copies exactly when the result's data_ptr could not be the "
          "same storage: contiguous() and reshape() copy only when the strides force them to.")
def _(answer):
    if not isinstance(answer, dict) or set(answer) != set(_CALLS):
        return False, f"answer should be a dict with exactly these keys: {list(_CALLS)}"
    wrong = []
    for call, fn in _CALLS.items():
        x = ipt.arange(12.0).view(3, 4)
        copies = fn(x).untyped_storage() is not x.untyped_storage()
        if bool(answer[call]) != copies:
            wrong.append(call)
    if wrong:
        return False, f"check these again: {', '.join(wrong)}"
    return True, "only the transposed tensor, made contiguous or flattened, needs a copy"
