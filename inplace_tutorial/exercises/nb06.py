"""Exercises for notebook 06 (autograd hazards): predict, fix, and ask before mutating.

Every truth is computed by running the programs on the core, never hard-coded.
"""
from __future__ import annotations

import inspect

import inplace_tutorial as ipt

from . import exercise
from .answers import names, short

# 06.1: five tiny programs. x is a non-leaf (a clone of a leaf), so in-place on it is allowed.
PROGRAMS: dict[str, tuple[str, object]] = {
    "A": ("y = x * 2; y.relu_()", lambda x: (lambda y: y.relu_())(x * 2)),
    "B": ("y = x.sigmoid(); y.mul_(2)", lambda x: (lambda y: y.mul_(2))(x.sigmoid())),
    "C": ("y = x.exp(); y.add_(1)", lambda x: (lambda y: y.add_(1))(x.exp())),
    "D": ("y = x + 1; y.mul_(3)", lambda x: (lambda y: y.mul_(3))(x + 1)),
    "E": ("y = x.log(); x.add_(1)", lambda x: (lambda y: (x.add_(1), y)[1])(x.log())),
}


def program_fails(name: str) -> bool:
    """Run program ``name`` on x = leaf.clone() and report whether y.sum().backward() fails."""
    leaf = ipt.tensor([0.5, 1.0, 2.0], requires_grad=True)
    try:
        y = PROGRAMS[name][1](leaf.clone())
        y.sum().backward()
    except RuntimeError:
        return True
    return False


def show_programs() -> None:
    for name, (code, _) in PROGRAMS.items():
        print(f"{name}: x = leaf.clone(); {code}; y.sum().backward()")


@exercise("06.1", hint=(
    "backward fails when an in-place op overwrote a tensor that a backward node saved (its "
    "version no longer matches).",
    "So for each program ask: what did the op before the in-place op save, its input, its "
    "output, or nothing? The table in section 2 says.",
    "relu, sigmoid and exp save their OUTPUT; log saves its INPUT; add and multiplying by a "
    "number save no tensor that the in-place op could change."))
def _(answer):
    if isinstance(answer, dict) and set(answer) == set(PROGRAMS):
        if not all(isinstance(v, bool) or v in (0, 1) for v in answer.values()):
            return False, "each value should be True (fails) or False (runs)"
        predicted = {k for k, v in answer.items() if v}
    else:  # the set of failing programs is a natural answer too
        predicted = names(answer) if not isinstance(answer, dict) else None
        if predicted is None or predicted - set(PROGRAMS):
            return False, (f"answer must be a dict with keys {sorted(PROGRAMS)} and True/False "
                           "values (True = fails), or the set of programs that fail")
    fails = {k for k in PROGRAMS if program_fails(k)}
    wrong = sorted(predicted ^ fails)
    if wrong:
        return False, f"{len(wrong)} of {len(PROGRAMS)} predictions are wrong: {', '.join(wrong)}"
    return True, (f"all five predictions right: {', '.join(sorted(fails))} fail, "
                  f"{', '.join(sorted(set(PROGRAMS) - fails))} run")


def show_broken_forward() -> None:
    """Print the code of broken_forward, the function 06.2 asks you to fix."""
    print(inspect.getsource(broken_forward).rstrip())


def broken_forward(x):
    """The bug to fix in 06.2: mul_ overwrites the output that SigmoidBackward0 saved."""
    s = x.sigmoid()
    s.mul_(2)
    return s.sum()


@exercise("06.2", hint=(
    "Run nb06.broken_forward(x).backward() under ipt.autograd.detect_anomaly(): which op "
    "changed a saved tensor?",
    "SigmoidBackward0 saved s, its own output; mul_ then overwrote s.",
    "Keep the same arithmetic, but let the doubling make a new tensor instead of writing "
    "into s."))
def _(answer):
    if not callable(answer):
        return False, "answer must be a function f(x) returning a scalar loss"
    x = ipt.tensor([-1.0, 0.0, 0.5, 2.0], requires_grad=True)
    loss = answer(x)
    if not isinstance(loss, ipt.Tensor) or loss.numel() != 1:
        return False, f"f(x) should return the loss as a one-element tensor, not {short(loss)}"
    loss.backward()
    ref_x = ipt.tensor([-1.0, 0.0, 0.5, 2.0], requires_grad=True)
    ref = (ref_x.sigmoid() * 2).sum()
    ref.backward()
    if abs(loss.item() - ref.item()) > 1e-5:
        return False, (f"the loss should be sum(2*sigmoid(x)) = {ref.item():.4f}, "
                       f"got {loss.item():.4f}")
    if x.grad is None:
        return False, "x.grad is None: is the loss connected to x?"
    diff = (x.grad - ref_x.grad).abs().max().item()
    if diff > 1e-5:
        return False, f"x.grad differs from the true gradient by {diff:.2e}"
    return True, (f"your f gives loss {loss.item():.4f}, backward runs, and x.grad matches "
                  "2·s·(1−s)")


def show_scenario() -> None:
    """Print the code of safety_scenario(), the program 06.3 asks about (without the comments,
    which give the answer away)."""
    for line in inspect.getsource(safety_scenario).rstrip().splitlines():
        print(line.split("#")[0].rstrip())


def safety_scenario() -> dict:
    """The tensors of 06.3 (fresh each call): which of them may be changed in place?"""
    w = ipt.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
    x = ipt.tensor([[0.2, 0.4], [-0.6, 0.8]])
    h = x @ w          # MmBackward0 saves x (w requires grad), not w (x does not)
    a = h.tanh()       # TanhBackward0 saves its result a
    b = a + 1          # AddBackward0 saves nothing
    c = b * 3          # MulBackward0 saves only the scalar 3 (as a 0-d tensor), not b
    return {"w": w, "x": x, "h": h, "a": a, "b": b, "c": c}


@exercise("06.3", hint=(
    "Two ways to be unsafe: a leaf that requires grad refuses in-place ops at once; a tensor "
    "that a backward node saved breaks backward later.",
    "Who saved what? mm saves the operand needed for the other operand's gradient, tanh saves "
    "its output, add and multiplying by a number save nothing an in-place op could change.",
    "Check your reasoning with ipt.autograd.explain(t) or inplace_safe(t) on each tensor of "
    "nb06.safety_scenario()."))
def _(answer):
    got = names(answer)
    if got is None:
        return False, f"answer must be a set of names, e.g. {{'b', 'c'}}, not {short(answer)}"
    env = safety_scenario()
    truth = {k for k, t in env.items() if ipt.autograd.inplace_safe(t)}
    if got - set(env):
        return False, f"unknown names: {sorted(got - set(env))}"
    if got != truth:
        extra, missing = sorted(got - truth), sorted(truth - got)
        parts = (([f"not safe: {extra}"] if extra else [])
                 + ([f"also safe: {missing}"] if missing else []))
        return False, "; ".join(parts)
    return True, f"exactly {sorted(truth)} can be changed in place"
