"""ipt.lab: the workshop scenarios fail/measure the way notebook 10 says they do."""
from __future__ import annotations

import pytest

import inplace_tutorial as ipt
from inplace_tutorial import lab


def test_broken_step_raises_version_error():
    model, (x, target) = lab.make_model(), lab.make_batch()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        lab.broken_train_step(model, x, target)


def test_anomaly_names_the_line_in_broken_step_py():
    model, (x, target) = lab.make_model(), lab.make_batch()
    with ipt.autograd.detect_anomaly(), pytest.raises(RuntimeError) as err:
        lab.broken_train_step(model, x, target)
    assert "broken_step.py, line 4" in str(err.value)          # where sigmoid saved g
    assert lab.culprit_line() == 5
    assert "g.mul_(2)" in lab.BROKEN_STEP.splitlines()[lab.culprit_line() - 1]


def test_check_fix_accepts_reference_and_rejects_broken():
    assert lab.check_fix(lab._reference_step)[0]
    with pytest.raises(RuntimeError):
        lab.check_fix(lab.broken_train_step)


def test_memory_baseline_and_cut():
    base, out = lab.measure_peak(lab.baseline_predict)
    assert base > 4 * 256 * 256 * 4 * 0.99          # four (256, 256) float32 activations alive

    def slim(model, x):
        with ipt.no_grad():
            h = model.fc1(x)
            h.relu_()
            h = model.fc2(h)
            h.tanh_()
            return model.out(h)

    ok, msg = lab.check_memory(slim)
    assert ok, msg
    assert not lab.check_memory(lab.baseline_predict)[0]


def test_sgd_checker():
    def fused(params, lr):
        with ipt.no_grad():
            for p in params:
                p.add_(p.grad, alpha=-lr)

    assert lab.check_sgd(fused)[0]
    assert not lab.check_sgd(ipt.models.custom_sgd_update)[0]
