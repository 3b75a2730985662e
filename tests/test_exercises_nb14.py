"""Exercises of notebook 14, and the core's clip_grad_norm_: right answers pass, typical
mistakes fail."""
from __future__ import annotations

import pytest

import inplace_tutorial as ipt
from inplace_tutorial.exercises import CORRECT, INCORRECT, grade, tracking
from inplace_tutorial.nn import utils


@pytest.fixture(autouse=True)
def _private_progress(tmp_path, monkeypatch):
    monkeypatch.setenv(tracking.ENV, str(tmp_path / "progress.json"))


def _mse(w, x, y):
    return ((x @ w - y) ** 2).mean()


def _accumulate(w, x, y, k):
    for xb, yb in zip(x.chunk(k), y.chunk(k)):
        (_mse(w, xb, yb) / k).backward()


def _accumulate_without_k(w, x, y, k):
    for xb, yb in zip(x.chunk(k), y.chunk(k)):
        _mse(w, xb, yb).backward()


def _zero(params):
    for p in params:
        if p.grad is not None:
            p.grad.zero_()


def _zero_to_none(params):
    for p in params:
        p.grad = None


def _zero_new_tensor(params):
    for p in params:
        if p.grad is not None:
            p.grad = ipt.zeros_like(p.grad)


def test_14_1():
    assert grade("14.1", _accumulate)[0] == CORRECT
    assert grade("14.1", _accumulate_without_k)[0] == INCORRECT
    assert grade("14.1", 3)[0] == INCORRECT


def test_14_2():
    assert grade("14.2", _zero)[0] == CORRECT
    for wrong in (_zero_to_none, _zero_new_tensor, "zero"):
        assert grade("14.2", wrong)[0] == INCORRECT


def test_clip_grad_norm_allocates_only_scalars():
    ipt.manual_seed(0)
    ps = [ipt.randn(50, 40, requires_grad=True), ipt.randn(40, requires_grad=True)]
    for p in ps:
        p.grad = ipt.randn(*p.shape)
    expected = sum((p.grad * p.grad).sum().item() for p in ps) ** 0.5
    before = [p.grad.clone() for p in ps]
    with ipt.memory.record() as trace:
        total = utils.clip_grad_norm_(ps, 1.0)
    assert abs(total.item() - expected) < 1e-3
    assert max(e.nbytes for e in trace.events if e.kind == "alloc") == 4
    coef = 1.0 / (total.item() + 1e-6)
    for p, b in zip(ps, before):
        assert (p.grad - b * coef).abs().amax().item() < 1e-6
    assert utils.clip_grad_norm_([ipt.zeros(2)], 1.0).item() == 0.0  # no grads: norm 0
    with pytest.raises(NotImplementedError):
        utils.clip_grad_norm_(ps, 1.0, norm_type=1)
