"""Exercises for notebook 10 (workshop lab); the checkers live in ``inplace_tutorial.lab``."""
from __future__ import annotations

from .. import lab
from . import exercise


@exercise("10.1", hint="Run lab.broken_train_step inside `with ipt.autograd.detect_anomaly():` "
          "and read the line after 'It was modified in place since by:'.")
def _(answer):
    if isinstance(answer, bool) or not isinstance(answer, int):
        return False, "answer must be a line number of broken_step.py (an int)"
    truth = lab.culprit_line()
    if answer != truth:
        return False, f"line {answer} is not the one that modified a saved tensor"
    return True, f"line {truth}: it overwrites sigmoid's output, which SigmoidBackward0 saved"


@exercise("10.2", hint="Keep relu_ (nothing saved h before it). Replace the in-place rescale of "
          "the sigmoid output with an out-of-place one: g = g * 2 - 1.")
def _(answer):
    return lab.check_fix(answer)


@exercise("10.3", hint="Three tools: run under ipt.no_grad() (or inference_mode) so nothing is "
          "saved, apply relu_/tanh_ in place, and reuse one name so old buffers are freed.")
def _(answer):
    return lab.check_memory(answer)


@exercise("10.4", hint="p.sub_(lr * p.grad) builds lr * p.grad first. The fused form is "
          "p.add_(p.grad, alpha=-lr), under no_grad().")
def _(answer):
    return lab.check_sgd(answer)
