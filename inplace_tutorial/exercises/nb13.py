"""Exercises for notebook 13 (mixed precision)."""
from __future__ import annotations

import math

import inplace_tutorial as ipt

from . import exercise
from .answers import short


def _weights():
    ipt.manual_seed(13)
    master = [ipt.randn(64, 32), ipt.randn(32)]
    half = [m.to(ipt.float16) for m in master]
    grads = [ipt.randn(64, 32), ipt.randn(32)]
    return master, half, grads


@exercise("13.1", hint=(
    "The update belongs in the float32 master weight: a float16 weight would round small "
    "updates away.",
    "One in-place method adds a scaled tensor without building lr * grad first (notebook 05).",
    "After the master update, write the master's values into the existing float16 tensor "
    "with the in-place method that copies, converting the dtype as it goes."))
def _(answer):
    if not callable(answer):
        return False, (f"answer should be a function master_step_(master, half, grads, lr), "
                       f"not {short(answer)}")
    master, half, grads = _weights()
    lr = 0.01
    expected = [m - lr * g for m, g in zip(master, grads)]
    storages = [t.untyped_storage() for t in master + half]
    with ipt.memory.record() as trace:
        answer(master, half, grads, lr)
    if [t.untyped_storage() for t in master + half] != storages:
        return False, ("a weight in the lists is a new tensor: update master and half in "
                       "place, so the model and the optimizer keep their tensors")
    if any(h.dtype != ipt.float16 for h in half):
        return False, "the half-precision weights must stay float16"
    if max((m - e).abs().amax().item() for m, e in zip(master, expected)) > 1e-6:
        return False, "the master weights are not master - lr * grad"
    if any((h.float() - e.to(ipt.float16).float()).abs().amax().item() > 0
           for h, e in zip(half, expected)):
        return False, ("the float16 weights do not hold the updated master weights rounded to "
                       "float16: copy the master into them after the update")
    biggest = max((e.nbytes for e in trace.events if e.kind == "alloc"), default=0)
    if biggest > 8:
        return False, (f"right values, but the step allocated a temporary of {biggest:,} B: "
                       "lr * grad makes a full-size tensor; add the gradient with alpha=-lr")
    return True, "master updated in float32 and rounded into the float16 model, nothing allocated"


def _grads():
    ipt.manual_seed(13)
    return [ipt.randn(16, 8) * 1024, ipt.randn(8) * 1024]


@exercise("13.2", hint=(
    "Unscaling is one in-place multiplication (or division) per gradient.",
    "A sum is inf or nan as soon as one element is; math.isfinite reads a Python number.",
    "Return True only if every gradient passed the check."))
def _(answer):
    if not callable(answer):
        return False, f"answer should be a function unscale_(grads, scale), not {short(answer)}"
    scale = 1024.0
    grads = _grads()
    expected = [g / scale for g in grads]
    storages = [g.untyped_storage() for g in grads]
    versions = [g._version for g in grads]
    ok = answer(grads, scale)
    if [g.untyped_storage() for g in grads] != storages:
        return False, "a gradient in the list is a new tensor: divide each one in place"
    if any(g._version == v for g, v in zip(grads, versions)):
        return False, "a gradient was not written in place (its version did not change)"
    if max((g - e).abs().amax().item() for g, e in zip(grads, expected)) > 1e-6:
        return False, "the gradients are not divided by scale"
    if ok is not True:
        return False, ("all gradients are finite, so the step may run: expected True, got "
                       f"{short(ok)}")
    for bad in (math.inf, -math.inf, math.nan):
        grads = _grads()
        grads[1][3] = bad
        if answer(grads, scale) is not False:
            return False, f"a gradient holds {bad}: expected False (skip the step)"
    return True, "unscaled in place; one inf or nan anywhere skips the step"
