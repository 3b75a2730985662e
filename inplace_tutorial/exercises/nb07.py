"""Exercises and measuring helpers for notebook 07 (when in-place saves nothing).

``op_cost`` measures, with ``ipt.memory``, how many bytes one op adds (peak extra during the op,
and extra still alive after it) in place and out of place, in training or inference.
"""
from __future__ import annotations

import inplace_tutorial as ipt
from inplace_tutorial import nn

from . import exercise
from .answers import names, short, whole_number

# name -> (in-place call, out-of-place call); `w` is a tensor that requires grad in training.
CASES: dict[str, tuple] = {
    "relu_()": (lambda y, w: y.relu_(), lambda y, w: y.relu()),
    "sigmoid_()": (lambda y, w: y.sigmoid_(), lambda y, w: y.sigmoid()),
    "exp_()": (lambda y, w: y.exp_(), lambda y, w: y.exp()),
    "add_(1)": (lambda y, w: y.add_(1), lambda y, w: y.add(1)),
    "mul_(2)": (lambda y, w: y.mul_(2), lambda y, w: y.mul(2)),
    "log_()": (lambda y, w: y.log_(), lambda y, w: y.log()),
    "abs_()": (lambda y, w: y.abs_(), lambda y, w: y.abs()),
    "pow_(2)": (lambda y, w: y.pow_(2), lambda y, w: y.pow(2)),
    "clamp_(min=0)": (lambda y, w: y.clamp_(min=0), lambda y, w: y.clamp(min=0)),
    "mul_(w)": (lambda y, w: y.mul_(w), lambda y, w: y.mul(w)),
    "div_(w)": (lambda y, w: y.div_(w), lambda y, w: y.div(w)),
}


def op_cost(name: str, training: bool, shape=(256, 256), inplace: bool = True) -> tuple[int, int]:
    """(peak extra bytes during the op, extra bytes still alive after it) for one CASES entry.

    The input y is a non-leaf (``leaf * 1`` in training) that the caller keeps alive; the op's
    result is kept too, as a training forward pass would keep it.
    """
    ipt.manual_seed(0)
    leaf = ipt.rand(*shape).add_(0.5).requires_grad_(training)
    w = ipt.rand(*shape).add_(0.5).requires_grad_(training)
    with ipt.set_grad_enabled(training):
        y = leaf * 1
        fn = CASES[name][0 if inplace else 1]
        with ipt.memory.record() as tr:
            out = fn(y, w)
            after = ipt.memory.memory_allocated()
    del out
    return tr.peak - tr.start_allocated, after - tr.start_allocated


def mlp_forward_memory(inplace: bool, act: str = "relu", training: bool = True) -> tuple[int, int]:
    """(peak during forward, bytes alive after forward) of linear -> act -> linear, batch 256.

    Counts only what the forward allocates (weights and input exist before).
    """
    ipt.manual_seed(0)
    l1, l2 = nn.Linear(64, 256), nn.Linear(256, 64)
    x = ipt.randn(256, 64)
    if not training:
        for p in (*l1.parameters(), *l2.parameters()):
            p.requires_grad_(False)
    with ipt.set_grad_enabled(training), ipt.memory.record() as tr:
        h = l1(x)
        h = getattr(h, act + "_")() if inplace else getattr(h, act)()
        out = l2(h)
        del h
        alive = ipt.memory.memory_allocated() - tr.start_allocated
    del out
    return tr.peak - tr.start_allocated, alive


@exercise("07.1", hint=(
    "Measure, don't compute: build y = leaf * 1 with a (256, 256) leaf that requires grad.",
    "Wrap the op: `with ipt.memory.record() as tr: y.log_()`, then compare "
    "ipt.memory.memory_allocated() with tr.start_allocated.",
    "What does LogBackward0 need that log_ overwrites? Whatever keeps that alive is the answer."))
def _(answer):
    got = whole_number(answer)
    if got is None:
        return False, f"answer must be a number of bytes, not {short(answer)}"
    truth = op_cost("log_()", training=True)[1]
    if got != truth:
        return False, f"{got:,} B is not what the allocator measures; measure it"
    return True, f"{truth:,} B: the clone of the original y that LogBackward0 needs"


@exercise("07.2", hint=(
    "The table above measured every op in training: compare the bytes alive after the op, "
    "in place against out of place.",
    "An in-place op keeps its saving when backward does not need the ORIGINAL input.",
    "Ops whose backward uses their output, or nothing, keep it; ops that need their input "
    "save a clone of it."))
def _(answer):
    got = names(answer)
    if got is None:
        return False, f"answer must be a set of names from {sorted(CASES)}"
    if got - set(CASES):
        return False, f"unknown names: {sorted(got - set(CASES))}"
    truth = {n for n in CASES if op_cost(n, True)[1] < op_cost(n, True, inplace=False)[1]}
    if got != truth:
        return False, (f"{len(got ^ truth)} wrong: measure the in-place and out-of-place versions "
                       "of each with training=True")
    return True, f"these {len(truth)} keep their saving in training: {sorted(truth)}"


@exercise("07.3", hint=(
    "Measure both: nb07.mlp_forward_memory(inplace) returns (peak, alive after forward).",
    "Before measuring, predict: after the forward pass, which tensors are saved, and by whom?",
    "linear2 saved its input (the activation) and ReLU saved its output; with relu those are "
    "one buffer too, and the pre-activation h is saved by nobody."))
def _(answer):
    got = whole_number(answer)
    if got is None:
        return False, f"answer must be a number of bytes, not {short(answer)}"
    (peak_out, alive_out), (peak_in, alive_in) = mlp_forward_memory(False), mlp_forward_memory(True)
    truth = alive_out - alive_in
    if got != truth and got == peak_out - peak_in:
        return False, (f"{got:,} B is the difference in the PEAK; the question is what stays "
                       "alive after the forward pass")
    if got != truth:
        return False, f"{got:,} B is not the measured difference"
    return True, f"{truth:,} B: relu_ lowers the transient peak, not what stays alive for backward"
