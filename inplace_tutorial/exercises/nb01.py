"""Exercises for notebook 01 (what in-place means)."""
from __future__ import annotations

import inplace_tutorial as ipt

from . import exercise


@exercise("01.1", hint="Methods ending in `_` write into the tensor and return it. "
          "Which one multiplies? `lambda t: t.???_(2)`")
def _(answer):
    if not callable(answer):
        return False, "answer should be a function, e.g. `lambda t: ...`"
    t = ipt.tensor([1.0, -2.0, 3.5])
    ptr, version = t.data_ptr(), t._version
    with ipt.memory.record() as trace:
        out = answer(t)
    if out is not t:
        return False, "your function must return the very same tensor object it was given"
    if t.data_ptr() != ptr:
        return False, "t now points at different memory: that is not in place"
    if t.tolist() != [2.0, -4.0, 7.0]:
        return False, f"t should become [2.0, -4.0, 7.0], got {t.tolist()}"
    if t._version == version:
        return False, "the values changed but _version did not go up: write through an in-place op"
    allocated = sum(e.nbytes for e in trace.events if e.kind == "alloc")
    if allocated:
        return False, f"your function allocated {allocated} B; an in-place multiply needs none"
    return True, "same object, same memory, version went up, nothing allocated"


@exercise("01.2", hint="Measure it: `with ipt.memory.record() as tr: y = x * 3`, then "
          "`tr.peak - tr.start_allocated`. Or compute numel × bytes per float32 element.")
def _(answer):
    x = ipt.zeros(250, 400)
    with ipt.memory.record() as trace:
        y = x * 3  # noqa: F841
    truth = trace.peak - trace.start_allocated
    if not isinstance(answer, int):
        return False, "answer should be a whole number of bytes (an int)"
    if answer == x.numel():
        return False, "that is the number of elements; each float32 element takes 4 bytes"
    if answer != truth:
        return False, f"{answer:,} B is not what `x * 3` allocates"
    return True, f"{truth:,} B = 250 × 400 elements × 4 B"
