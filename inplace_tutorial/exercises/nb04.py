"""Exercises for notebook 04 (preprocessing in place)."""
from __future__ import annotations

import inplace_tutorial as ipt

from . import exercise


@exercise("04.1", hint="Compute mean and std first (scalars), then chain `t.sub_(...).div_(...)` "
          "and return what the chain returns.")
def _(answer):
    if not callable(answer):
        return False, "answer should be a function normalize_(t) returning t"
    ipt.manual_seed(1)
    t = ipt.rand(4, 3, 16, 16) * 255
    expected = (t - t.mean()) / t.std()
    ptr = t.data_ptr()
    with ipt.memory.record() as trace:
        out = answer(t)
    if out is not t or t.data_ptr() != ptr:
        return False, "normalise t itself and return it (the same object)"
    if (out - expected).abs().amax().item() > 1e-4:
        return False, "the values are not (t - mean) / std"
    biggest = max((e.nbytes for e in trace.events if e.kind == "alloc"), default=0)
    if biggest >= t.untyped_storage().nbytes():
        return False, f"your function allocated a full-size buffer ({biggest:,} B)"
    return True, f"normalised in place; the largest allocation was {biggest} B (a scalar)"


@exercise("04.2", hint="An int64 tensor can't hold the result of an in-place float division. "
          "Convert first with `.float()` (a new float32 tensor), then divide that in place.")
def _(answer):
    if not callable(answer):
        return False, "answer should be a function to_unit(img) returning a float tensor"
    img = ipt.tensor([[0, 51, 255], [102, 204, 153]])
    before = img.tolist()
    out = answer(img)
    if not isinstance(out, ipt.Tensor) or out.dtype != ipt.float32:
        return False, "the result should be a float32 tensor"
    if img.tolist() != before:
        return False, "your function changed the original integer image"
    if tuple(out.shape) != tuple(img.shape) or (out - img.float() / 255).abs().amax().item() > 1e-6:
        return False, "values should be img / 255, in [0, 1]"
    return True, "one new float32 buffer from .float(), then the division happens in it"
