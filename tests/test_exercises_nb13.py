"""Exercises of notebook 13: right answers pass, typical mistakes fail."""
from __future__ import annotations

import math

import pytest

from inplace_tutorial.exercises import CORRECT, INCORRECT, grade, tracking


@pytest.fixture(autouse=True)
def _private_progress(tmp_path, monkeypatch):
    monkeypatch.setenv(tracking.ENV, str(tmp_path / "progress.json"))


def _step(master, half, grads, lr):
    for m, h, g in zip(master, half, grads):
        m.add_(g, alpha=-lr)
        h.copy_(m)


def _step_with_temporary(master, half, grads, lr):
    for m, h, g in zip(master, half, grads):
        m.sub_(lr * g)
        h.copy_(m)


def _step_on_the_half_weights(master, half, grads, lr):
    for h, g in zip(half, grads):
        h.add_(g, alpha=-lr)


def _step_rebinding_the_half(master, half, grads, lr):
    for i, (m, g) in enumerate(zip(master, grads)):
        m.add_(g, alpha=-lr)
        half[i] = m.half()


def _step_forgetting_the_copy(master, half, grads, lr):
    for m, g in zip(master, grads):
        m.add_(g, alpha=-lr)


def test_13_1():
    assert grade("13.1", _step)[0] == CORRECT
    for wrong in (_step_with_temporary, _step_on_the_half_weights, _step_rebinding_the_half,
                  _step_forgetting_the_copy, "add_"):
        assert grade("13.1", wrong)[0] == INCORRECT, wrong


def _unscale(grads, scale):
    ok = True
    for g in grads:
        g.div_(scale)
        ok = ok and math.isfinite(g.sum().item())
    return ok


def _unscale_out_of_place(grads, scale):
    grads = [g / scale for g in grads]
    return all(math.isfinite(g.sum().item()) for g in grads)


def _unscale_returning_found_inf(grads, scale):
    return not _unscale(grads, scale)


def _unscale_without_check(grads, scale):
    for g in grads:
        g.mul_(1 / scale)
    return True


def test_13_2():
    assert grade("13.2", _unscale)[0] == CORRECT
    for wrong in (_unscale_out_of_place, _unscale_returning_found_inf, _unscale_without_check,
                  "div_"):
        assert grade("13.2", wrong)[0] == INCORRECT, wrong
