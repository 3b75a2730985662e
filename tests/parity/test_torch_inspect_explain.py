"""torch_inspect.explain / inplace_safe on real PyTorch: over the HazardLab grid, the verdict
taken just before the in-place op must match what then happens (the op raises, backward
raises, or gradients come out), and must match the core's answer for the same program."""
from __future__ import annotations

import itertools

import pytest

from inplace_tutorial.widgets import hazard_lab as lab

GRID = list(itertools.product(lab.FORWARD, lab.INPLACE, lab.TARGETS))


def run_on_torch(torch, forward: str, inplace: str, target: str):
    """HazardLab's program on real PyTorch: (explanation before the op, did anything raise)."""
    from inplace_tutorial.torch_inspect import explain

    _, f = lab.FORWARD[forward]
    a = torch.tensor([[0.5, 1.0], [1.5, 2.0]], requires_grad=True)
    w = torch.tensor([[2.0, -1.0], [0.5, 3.0]], requires_grad=True)
    x = a.clone()
    y = f(x, w)
    t = x if target == "input x" else y
    before = explain(t, y)
    try:
        lab.INPLACE[inplace](t)
        y.sum().backward()
    except RuntimeError as err:
        return before, True, str(err)
    return before, False, None


def _setup(mod, forward: str, target: str):
    _, f = lab.FORWARD[forward]
    a = mod.tensor([[0.5, 1.0], [1.5, 2.0]], requires_grad=True)
    w = mod.tensor([[2.0, -1.0], [0.5, 3.0]], requires_grad=True)
    x = a.clone()
    y = f(x, w)
    return (x if target == "input x" else y), y, (a, w, x)


@pytest.mark.parametrize(("forward", "inplace", "target"), GRID)
def test_explain_predicts_backward(torch_mod, forward, inplace, target):
    from inplace_tutorial.torch_inspect import inplace_safe

    explanation, failed, error = run_on_torch(torch_mod, forward, inplace, target)
    assert explanation.safe == (not failed), f"{explanation}\n--- actual: {error}"
    assert bool([h for h in explanation.holders if h.shares_counter]) == failed
    t, y, _ = _setup(torch_mod, forward, target)
    assert inplace_safe(t, y) == explanation.safe


@pytest.mark.parametrize(("forward", "target"), list(itertools.product(lab.FORWARD, lab.TARGETS)))
def test_same_answer_as_the_core(torch_mod, forward, target):
    from inplace_tutorial.torch_inspect import explain

    t, y, _ = _setup(torch_mod, forward, target)
    ours = explain(t, y)
    ct, cy, keep = _setup(lab.ipt, forward, target)
    core = lab.ipt.autograd.explain(ct)
    assert ours.safe == core.safe
    assert str(ours).splitlines()[1:] == str(core).splitlines()[1:]
    assert ours.version == core.version


def test_explain_format_matches_the_core(torch_mod):
    from inplace_tutorial.torch_inspect import explain

    a = torch_mod.tensor([1.0, 2.0], requires_grad=True)
    x = a.clone()
    y = x.sigmoid()
    text = str(explain(y))
    assert text.splitlines() == [
        "tensor [2] at version 0: an in-place op now is NOT SAFE",
        "  - SigmoidBackward0 saved it as 'result' at version 0 (now 0): would go stale",
        "  * SigmoidBackward0 needs 'result' unchanged: an in-place op bumps the version to 1 "
        "and backward will raise",
    ]
    y.mul_(2)
    assert "saved it as 'result' at version 0 (now 1): already stale: backward will fail" \
        in str(explain(y))
    z = a * 2
    assert str(explain(z)).splitlines()[1:] == [
        "  - no graph node holds a saved reference to this storage",
        "  * nothing saved t for backward, so mutating it cannot break the graph"]


def test_explain_rules_for_leaves_and_views(torch_mod):
    from inplace_tutorial.torch_inspect import explain, inplace_safe

    torch = torch_mod
    a = torch.ones(3, requires_grad=True)
    assert not inplace_safe(a)
    assert "leaf that requires grad" in str(explain(a))
    assert "view of a leaf" in str(explain(a[:2]))
    parts = a.clone().unbind(0)
    assert "multi-output view" in str(explain(parts[0]))
    with torch.no_grad():
        v = a.clone()[:2]
    assert inplace_safe(v)  # made under no_grad from a clone: nothing to protect
    for t, op in ((a, lambda t: t.mul_(2)), (parts[0], lambda t: t.mul_(2))):
        with pytest.raises(RuntimeError):
            op(t)


def test_explain_inside_detect_inplace_finds_consumers(torch_mod):
    from inplace_tutorial.torch_inspect import detect_inplace, explain

    a = torch_mod.ones(3, requires_grad=True)
    with detect_inplace():
        x = a.clone()
        y = x.pow(2)  # saves x; y's graph is recorded by the manager
        assert not explain(x).safe
        assert [(h.node, h.field) for h in explain(x).holders] == [("PowBackward0", "self")]
        y.sum().backward()
    assert explain(x).holders == []  # outside: only x's own graph, which saved nothing
