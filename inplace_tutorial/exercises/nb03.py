"""Exercises for notebook 03 (inference: relu_, peaks, inference_mode)."""
from __future__ import annotations

import inplace_tutorial as ipt

from . import exercise


@exercise("03.1", hint="A 3×3 convolution without padding shrinks each side by 2: the output "
          "has n × channels × (h-2) × (w-2) float32 elements, 4 bytes each.")
def _(answer):
    if not callable(answer):
        return False, "answer should be a function activation_bytes(n, channels, h, w)"
    for n, c, h, w in [(1, 64, 9, 9), (2, 8, 12, 7), (3, 5, 5, 6)]:
        conv = ipt.nn.Conv2d(3, c, 3)
        with ipt.no_grad():
            truth = conv(ipt.zeros(n, 3, h, w)).untyped_storage().nbytes()
        got = answer(n, c, h, w)
        if got != truth:
            return False, (f"for n={n}, channels={c}, {h}×{w}: you said {got}, the conv output "
                           f"takes {truth} B")
    return True, (f"for the article's batch (32 images of 224×224) that gives "
                  f"{answer(32, 64, 224, 224):,} B")


@exercise("03.2", hint="Outside inference_mode, make a normal tensor with the same values "
          "(a copy): then in-place ops are allowed again.")
def _(answer):
    if not callable(answer):
        return False, "answer should be a function fix(t) returning a tensor"
    with ipt.inference_mode():
        feat = ipt.tensor([1.0, -2.0, 3.0]).relu_()
    out = answer(feat)
    if not isinstance(out, ipt.Tensor):
        return False, "your function should return a tensor"
    if out.is_inference():
        return False, "the result is still an inference tensor: in-place updates will fail"
    if out.tolist() != feat.tolist():
        return False, "the values changed: return a copy with the same values"
    out.add_(1)
    return True, "a clone made outside inference_mode is a normal tensor"
