"""Exercises for notebook 03 (inference: relu_, peaks, inference_mode)."""
from __future__ import annotations

import inplace_tutorial as ipt

from . import exercise
from .answers import short, whole_number


@exercise("03.1", hint=(
    "The activation is the conv's output tensor: its number of elements × 4 bytes (float32).",
    "A 3×3 kernel without padding can't be centred on the border pixels: each spatial side "
    "loses one pixel at each end.",
    "The output has shape (n, channels, h - 2, w - 2)."))
def _(answer):
    if not callable(answer):
        return False, "answer should be a function activation_bytes(n, channels, h, w)"
    for n, c, h, w in [(1, 64, 9, 9), (2, 8, 12, 7), (3, 5, 5, 6)]:
        conv = ipt.nn.Conv2d(3, c, 3)
        with ipt.no_grad():
            truth = conv(ipt.zeros(n, 3, h, w)).untyped_storage().nbytes()
        got = whole_number(answer(n, c, h, w))
        if got != truth:
            return False, (f"for n={n}, channels={c}, {h}×{w}: you said "
                           f"{short(answer(n, c, h, w))}, the conv output takes {truth} B")
    big = whole_number(answer(32, 64, 224, 224))
    return True, (f"your formula matches real conv outputs; for the article's batch (32 images "
                  f"of 224×224) it gives {big:,} B")


@exercise("03.2", hint=(
    "An inference tensor stays one for good: you need a different tensor with the same values.",
    "Views and detach() share the inference tensor's memory, so they inherit the problem: in "
    "PyTorch `t.detach()` is still an inference tensor. You need memory of your own.",
    "Which method copies a tensor? Called outside inference_mode, its result is a normal "
    "tensor."))
def _(answer):
    if not callable(answer):
        return False, "answer should be a function fix(t) returning a tensor"
    with ipt.inference_mode():
        feat = ipt.tensor([1.0, -2.0, 3.0]).relu_()
    values = feat.tolist()
    out = answer(feat)
    if not isinstance(out, ipt.Tensor):
        return False, f"your function should return a tensor, not {short(out)}"
    if out.is_inference():
        return False, "the result is still an inference tensor: in-place updates will fail"
    if out.untyped_storage() is feat.untyped_storage():
        return False, ("the result shares the inference tensor's memory (detach() and views "
                       "do): in PyTorch it is still an inference tensor, and add_ on it fails "
                       "outside inference_mode")
    if out.tolist() != values or feat.tolist() != values:
        return False, "the values changed: return a copy with the same values"
    out.add_(1)
    return True, ("your result is a normal tensor with its own memory and the same values; "
                  "add_ on it works")
