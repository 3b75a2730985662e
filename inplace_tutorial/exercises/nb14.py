"""Exercises for notebook 14 (gradients are updated in place too)."""
from __future__ import annotations

import inplace_tutorial as ipt

from . import exercise
from .answers import short


def _data(k: int):
    ipt.manual_seed(14)
    w = ipt.randn(4, 3, requires_grad=True)
    x, y = ipt.randn(8, 4), ipt.randn(8, 3)
    return w, x, y


def _loss(w, x, y):
    return ((x @ w - y) ** 2).mean()


@exercise("14.1", hint=(
    "backward() adds into .grad; it never overwrites it.",
    "Each micro-batch loss is a mean over its own rows. What do k such means add up to, "
    "compared with the mean over all rows?",
    "Divide each micro-batch loss by k before calling backward() on it."))
def _(answer):
    if not callable(answer):
        return False, f"answer should be a function accumulate(w, x, y, k), not {short(answer)}"
    w, x, y = _data(14)
    _loss(w, x, y).backward()
    full = w.grad.clone()
    w.grad = None
    answer(w, x, y, 4)
    if w.grad is None:
        return False, "w.grad is None: call backward() on each micro-batch loss"
    diff = (w.grad - full).abs().amax().item()
    if diff > 1e-5:
        ratio = (w.grad.abs().sum() / full.abs().sum()).item()
        return False, (f"w.grad differs from the full-batch gradient (it is {ratio:.2f}x as "
                       "large): each micro-batch loss needs dividing by k")
    return True, "w.grad equals the full-batch gradient: accumulation added k scaled pieces"


@exercise("14.2", hint=(
    "set_to_none=True (the default) frees the gradient buffers; you want to keep them.",
    "Write zeros into each existing .grad instead of replacing it.",
    "A tensor method with a trailing underscore writes zeros into itself; skip params whose "
    ".grad is None."))
def _(answer):
    if not callable(answer):
        return False, f"answer should be a function zero_grads_(params), not {short(answer)}"
    w, x, y = _data(14)
    b = ipt.zeros(3, requires_grad=True)
    _loss(w, x, y).backward()
    grad = w.grad
    storage = grad.untyped_storage()
    answer([w, b])
    if w.grad is None:
        return False, "w.grad is None: that frees the buffer (set_to_none); zero it in place"
    if w.grad is not grad or w.grad.untyped_storage() is not storage:
        return False, "w.grad is a new tensor: write zeros into the one that was there"
    if w.grad.abs().amax().item() != 0:
        return False, "w.grad is not all zeros"
    if b.grad is not None:
        return False, "b had no gradient: leave its .grad as None"
    return True, "the gradient buffer stays allocated and holds zeros"
