"""Exercises for notebook 01 (what in-place means)."""
from __future__ import annotations

import inplace_tutorial as ipt

from . import exercise
from .answers import short, whole_number


@exercise("01.1", hint=(
    "An in-place op writes into the tensor's own memory and returns that same tensor.",
    "In-place methods end in `_` (`add_`, `relu_`, ...). Which one multiplies?",
    "Try it on a small tensor: compare `t.data_ptr()` and `t._version` before and after, and "
    "check `result is t`."))
def _(answer):
    if not callable(answer):
        return False, f"answer should be a function, e.g. `lambda t: ...`, not {short(answer)}"
    t = ipt.tensor([1.0, -2.0, 3.5])
    ptr, version = t.data_ptr(), t._version
    with ipt.memory.record() as trace:
        out = answer(t)
    if out is not t:
        return False, "your function must return the very same tensor object it was given"
    if t.data_ptr() != ptr:
        return False, "t now points at different memory: that is not in place"
    if t.tolist() != [2.0, -4.0, 7.0]:
        return False, f"t should become [2.0, -4.0, 7.0], got {short(t.tolist())}"
    if t._version == version:
        return False, "the values changed but _version did not go up: write through an in-place op"
    allocated = sum(e.nbytes for e in trace.events if e.kind == "alloc")
    if allocated:
        return False, f"your function allocated {allocated} B; an in-place multiply needs none"
    return True, (f"same object, same memory, _version {version} → {t._version}, "
                  "nothing allocated")


@exercise("01.2", hint=(
    "An out-of-place op allocates one new buffer for its result, as big as the input.",
    "Compute: number of elements × bytes per float32 element. Or measure: "
    "`with ipt.memory.record() as tr: y = x * 3`.",
    "After measuring, `tr.peak - tr.start_allocated` is what the op added."))
def _(answer):
    x = ipt.zeros(250, 400)
    with ipt.memory.record() as trace:
        y = x * 3  # noqa: F841
    truth = trace.peak - trace.start_allocated
    got = whole_number(answer)
    if got is None:
        return False, f"answer should be a whole number of bytes, not {short(answer)}"
    if got == x.numel():
        return False, "that is the number of elements; each float32 element takes 4 bytes"
    if got != truth:
        return False, f"{got:,} B is not what `x * 3` allocates"
    return True, f"{got:,} B = 250 × 400 elements × 4 B"
