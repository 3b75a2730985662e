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


def test_show_functions_print_the_code(capsys):
    lab.show_broken()
    lab.show_baseline()
    out = capsys.readouterr().out
    assert "import functional as F" in out and " 5 |     g.mul_(2).sub_(1)" in out
    assert "def baseline_predict(model, x):" in out and "a2 = h2.tanh()" in out


def test_clip_checker():
    def in_place(params, max_norm):
        grads = [p.grad for p in params if p.grad is not None]
        total = sum(ipt.dot(g.view(-1), g.view(-1)) for g in grads) ** 0.5
        if total > max_norm:
            for g in grads:
                g.mul_(max_norm / (total + 1e-6))
        return total

    assert lab.check_clip(in_place)[0]
    ok, msg = lab.check_clip(lab.clip_grads_naive_)
    assert not ok and "in place" in msg


@pytest.mark.parametrize("grad_scale", [1.0, 1e-4])
@pytest.mark.parity
def test_clip_rule_is_pytorchs_clip_grad_norm(grad_scale):
    torch = pytest.importorskip("torch")
    params = lab.make_params_with_grads(grad_scale=grad_scale)
    total, expected = lab.expected_clip(params, lab.MAX_NORM)
    tparams = [torch.tensor(p.detach().tolist(), requires_grad=True) for p in params]
    for tp, p in zip(tparams, params):
        tp.grad = torch.tensor(p.grad.tolist())
    t_total = torch.nn.utils.clip_grad_norm_(tparams, lab.MAX_NORM)
    assert abs(t_total.item() - total) <= 1e-4 * total
    for tp, e in zip(tparams, expected):
        assert max(abs(a - b) for a, b in zip(tp.grad.flatten().tolist(),
                                              e.flatten().tolist())) <= 1e-6
