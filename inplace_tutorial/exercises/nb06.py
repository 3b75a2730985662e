"""Exercises for notebook 06 (autograd hazards): predict, fix, and ask before mutating.

Every truth is computed by running the programs on the core, never hard-coded.
"""
from __future__ import annotations

import inplace_tutorial as ipt

from . import exercise

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


@exercise("06.1", hint="Ask of each program: did the in-place op overwrite a tensor that a "
          "backward node saved? relu and exp/sigmoid save their OUTPUT, log saves its INPUT, "
          "add and scalar mul save nothing.")
def _(answer):
    if not isinstance(answer, dict) or set(answer) != set(PROGRAMS):
        return False, f"answer must be a dict with keys {sorted(PROGRAMS)} and True/False values"
    wrong = [k for k in PROGRAMS if bool(answer[k]) != program_fails(k)]
    if wrong:
        return False, f"{len(wrong)} of {len(PROGRAMS)} predictions are wrong: {', '.join(wrong)}"
    return True, "all five predictions match what the core does"


def broken_forward(x):
    """The bug to fix in 06.2: mul_ overwrites the output that SigmoidBackward0 saved."""
    s = x.sigmoid()
    s.mul_(2)
    return s.sum()


@exercise("06.2", hint="SigmoidBackward0 saved s. Write the doubling out of place "
          "(s * 2), or double before the sigmoid's output is saved... which is impossible, "
          "so out of place it is.")
def _(answer):
    if not callable(answer):
        return False, "answer must be a function f(x) returning a scalar loss"
    x = ipt.tensor([-1.0, 0.0, 0.5, 2.0], requires_grad=True)
    loss = answer(x)
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
    return True, "backward works and x.grad = 2*s*(1-s)"


def safety_scenario() -> dict:
    """The tensors of 06.3 (fresh each call): which of them may be changed in place?"""
    w = ipt.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
    x = ipt.tensor([[0.2, 0.4], [-0.6, 0.8]])
    h = x @ w          # MmBackward0 saves x (w requires grad), not w (x does not)
    a = h.tanh()       # TanhBackward0 saves its result a
    b = a + 1          # AddBackward0 saves nothing
    c = b * 3          # scalar mul saves nothing
    return {"w": w, "x": x, "h": h, "a": a, "b": b, "c": c}


@exercise("06.3", hint="Use ipt.autograd.inplace_safe(t) on each tensor of "
          "safety_scenario(), or reason: leaves that require grad are never safe; a tensor "
          "is unsafe when some node saved it.")
def _(answer):
    if not isinstance(answer, (set, frozenset, list, tuple)):
        return False, "answer must be a set of names, e.g. {'b', 'c'}"
    env = safety_scenario()
    truth = {k for k, t in env.items() if ipt.autograd.inplace_safe(t)}
    got = set(answer)
    if got - set(env):
        return False, f"unknown names: {sorted(got - set(env))}"
    if got != truth:
        extra, missing = sorted(got - truth), sorted(truth - got)
        parts = (([f"not safe: {extra}"] if extra else [])
                 + ([f"also safe: {missing}"] if missing else []))
        return False, "; ".join(parts)
    return True, f"exactly {sorted(truth)} can be changed in place"
