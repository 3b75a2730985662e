"""Exercises for notebook 04 (preprocessing in place)."""
from __future__ import annotations

import inplace_tutorial as ipt

from . import exercise
from .answers import short


@exercise("04.1", hint=(
    "Compute the two statistics first: t.mean() and t.std() are scalars (0-d tensors).",
    "In-place methods return the tensor itself, so they can be chained.",
    "Subtract, then divide, both with `_` methods, and return what the chain returns (it is t)."))
def _(answer):
    if not callable(answer):
        return False, "answer should be a function normalize_(t) returning t"
    ipt.manual_seed(1)
    t = ipt.rand(4, 3, 16, 16) * 255
    centred = t - t.mean()
    # Both stds are right: the sample std (t.std(), PyTorch's default) and the population std
    # (unbiased=False / correction=0, NumPy's default). They differ by 0.02% here.
    expected = {"sample": centred / t.std(), "population": centred / t.std(unbiased=False)}
    ptr = t.data_ptr()
    with ipt.memory.record() as trace:
        out = answer(t)
    if out is not t or t.data_ptr() != ptr:
        return False, "normalise t itself and return it (the same object)"
    kind = next((k for k, e in expected.items() if (out - e).abs().amax().item() <= 1e-5), None)
    if kind is None:
        return False, "the values are not (t - mean) / std"
    biggest = max((e.nbytes for e in trace.events if e.kind == "alloc"), default=0)
    if biggest >= t.untyped_storage().nbytes():
        return False, f"your function allocated a full-size buffer ({biggest:,} B)"
    return True, (f"normalised in place with the {kind} std; the largest allocation was "
                  f"{biggest} B")


@exercise("04.2", hint=(
    "An in-place op keeps the tensor's dtype: an int64 tensor can't hold 0.2.",
    "So one new float32 buffer is unavoidable; the question is whether you make a second one.",
    "Make the float32 copy first, then divide that copy in place (not img)."))
def _(answer):
    if not callable(answer):
        return False, "answer should be a function to_unit(img) returning a float tensor"
    img = ipt.tensor([[0, 51, 255], [102, 204, 153]])
    before = img.tolist()
    with ipt.memory.record() as trace:
        out = answer(img)
    if not isinstance(out, ipt.Tensor) or out.dtype != ipt.float32:
        return False, f"the result should be a float32 tensor, not {short(out)}"
    if img.tolist() != before:
        return False, "your function changed the original integer image"
    if tuple(out.shape) != tuple(img.shape) or (out - img.float() / 255).abs().amax().item() > 1e-6:
        return False, "values should be img / 255, in [0, 1]"
    allocs = [e.nbytes for e in trace.events if e.kind == "alloc"]
    size = out.untyped_storage().nbytes()
    if sum(allocs) <= size:
        return True, f"one new float32 buffer ({size} B), divided in place: no temporary"
    return True, (f"right values; your function allocated {sum(allocs)} B in {len(allocs)} "
                  f"buffers for a {size} B result (a float copy divided in place needs only "
                  "the one)")
