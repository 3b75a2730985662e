"""Exercises of notebooks 06-10: typical wrong answers fail, natural forms of a right answer
pass."""
from __future__ import annotations

import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial import lab
from inplace_tutorial.exercises import CORRECT, INCORRECT, grade, tracking


@pytest.fixture(autouse=True)
def _private_progress(tmp_path, monkeypatch):
    monkeypatch.setenv(tracking.ENV, str(tmp_path / "progress.json"))


def _sig_inplace(x):
    s = x.sigmoid()
    s.mul_(2)
    return s.sum()


def _predict_no_grad_only(model, x):
    with ipt.no_grad():
        from inplace_tutorial import lab
        return lab.baseline_predict(model, x)


def _predict_changes_output(model, x):
    with ipt.no_grad():
        h = model.fc1(x)
        h.relu_()
        h = model.fc2(h)
        h.sigmoid_()                   # tanh -> sigmoid: a different model
        return model.out(h)


def _slim_with_graph(model, x):      # in place and one name, but autograd still on
    h = model.fc1(x)
    h.relu_()
    h = model.fc2(h)
    h.tanh_()
    return model.out(h)


def _slim(model, x):
    with ipt.no_grad():
        return _slim_with_graph(model, x)


_CACHE = {}


def _cached(model, x):              # computes once, then returns the stored output
    if "out" not in _CACHE:
        _CACHE["out"] = _slim(model, x)
    return _CACHE["out"]


def _clip_out_of_place(params, max_norm):
    grads = [p.grad for p in params if p.grad is not None]
    total = sum(ipt.dot(g.view(-1), g.view(-1)) for g in grads) ** 0.5
    if total > max_norm:
        for p in params:
            if p.grad is not None:
                p.grad = p.grad * (max_norm / (total + 1e-6))
    return total


def _clip_square_temporary(params, max_norm):
    grads = [p.grad for p in params if p.grad is not None]
    total = sum((g * g).sum() for g in grads) ** 0.5   # g * g: a full-size temporary
    if total > max_norm:
        for g in grads:
            g.mul_(max_norm / (total + 1e-6))
    return total


def _clip_always(params, max_norm):    # scales small gradients up as well
    grads = [p.grad for p in params if p.grad is not None]
    total = sum(ipt.dot(g.view(-1), g.view(-1)) for g in grads) ** 0.5
    for g in grads:
        g.mul_(max_norm / (total + 1e-6))
    return total


def _clip_right(params, max_norm):
    grads = [p.grad for p in params if p.grad is not None]
    total = sum(ipt.einsum("ij,ij->", g.view(1, -1), g.view(1, -1)) for g in grads) ** 0.5
    coef = min(max_norm / (float(total) + 1e-6), 1.0)
    for g in grads:
        g.mul_(coef)
    return float(total)


def _clip_and_step(params, max_norm):  # also changes the weights
    total = _clip_right(params, max_norm)
    with ipt.no_grad():
        for p in params:
            if p.grad is not None:
                p.add_(p.grad, alpha=-0.1)
    return total


def _chunked(model, x, chunk=32):
    with ipt.no_grad():
        out = ipt.zeros(x.shape[0], 10)
        for i in range(0, x.shape[0], chunk):
            out.narrow(0, i, chunk).copy_(_slim_with_graph(model, x[i:i + chunk]))
        return out


def _addbmm_loop_out_of_place(out, b1, b2, beta, alpha):
    return beta * out + alpha * ipt.bmm(b1, b2).sum(0)


def _min_copy(a, b):
    return ipt.minimum(a, b)           # a new tensor, a unchanged


WRONG = [
    ("06.1", {"A": True, "B": True, "C": True, "D": False, "E": True}),   # the article's claim 7
    ("06.1", {"A": False}),
    ("06.2", _sig_inplace),
    ("06.2", lambda x: x.sigmoid().sum()),                                # wrong loss
    ("06.3", {"b", "c"}),
    ("06.3", {"a", "b", "c", "h"}),
    ("07.1", 0),
    ("07.2", {"relu_()", "sigmoid_()", "exp_()", "add_(1)", "mul_(2)", "log_()"}),
    ("07.3", 262144),
    ("08.1", (10, 20, 40)),
    ("08.2", "ijk,jkl->ikl"),
    ("08.2", "bij,bjk->bik"),
    ("08.3", _addbmm_loop_out_of_place),
    ("09.1", {"t_", "clamp_", "matmul_"}),
    ("09.2", _min_copy),
    ("10.1", 3),
    ("10.2", lambda model, x, target: None),
    ("10.3", _predict_no_grad_only),
    ("10.3", _predict_changes_output),
    ("10.3", _slim_with_graph),                                            # no no_grad
    ("10.3", _cached),
    ("10.3", lambda model, x: lab.baseline_predict(model, x).detach()),
    ("10.4", lab.clip_grads_naive_),
    ("10.4", _clip_out_of_place),
    ("10.4", _clip_square_temporary),
    ("10.4", _clip_always),
    ("10.4", _clip_and_step),
    ("10.5", _slim),                                                        # 50%, not 90%
    ("06.1", {"A", "B"}),
    ("06.3", ["b", "c", "x"]),
    ("07.1", 262144.5),
    ("07.3", 196608),                                                       # the peak's difference
    ("08.1", "(20, 40)"),
]


@pytest.mark.parametrize("key,answer", WRONG)
def test_wrong_answer_fails(key, answer):
    _CACHE.clear()
    _cached(lab.make_encoder(), lab.make_inputs())  # the learner ran it once in the notebook
    assert grade(key, answer)[0] == INCORRECT


RIGHT = [
    ("06.1", {"A": 0, "B": 1, "C": 1, "D": 0, "E": 1}),
    ("06.1", {"B", "C", "E"}),                              # the set of programs that fail
    ("06.3", ["b", "c", "h"]),
    ("06.3", ("h", "c", "b")),
    ("06.3", {"w": False, "x": False, "h": True, "a": False, "b": True, "c": True}),
    ("07.1", 262144.0),
    ("07.1", np.int64(262144)),
    ("07.2", ["relu_()", "sigmoid_()", "exp_()", "add_(1)", "mul_(2)"]),
    ("07.3", 0.0),
    ("08.1", [20, 40]),
    ("08.1", ipt.Size([20, 40])),
    ("08.2", "bij,bjk->ik"),
    ("08.2", "bnm,bmp->np"),
    ("09.1", ["t_", "clamp_", "exp_", "sqrt_", "addbmm_", "lerp_"]),
    ("09.2", lambda a, b: a.copy_(ipt.minimum(a, b))),
    ("10.1", 5.0),
    ("10.1", np.int64(5)),
    ("10.3", _chunked),
    ("10.4", _clip_right),
    ("10.5", _chunked),
]


@pytest.mark.parametrize("key,answer", RIGHT)
def test_natural_forms_of_right_answers_pass(key, answer):
    status, feedback = grade(key, answer)
    assert status == CORRECT, feedback


def test_no_grad_is_required_in_10_3_and_the_message_says_why():
    status, feedback = grade("10.3", _slim_with_graph)
    assert status == INCORRECT and "autograd graph" in feedback and "alive" in feedback


def test_a_cached_output_cannot_pass_10_3():
    _CACHE.clear()
    _CACHE["out"] = _slim(lab.make_encoder(seed=11), lab.make_inputs(seed=12))  # the very batch
    status, feedback = grade("10.3", _cached)
    assert status == INCORRECT and "less than its own" in feedback


def test_09_2_success_message_reports_a_temporary():
    assert "allocated 16 B" in grade("09.2", lambda a, b: a.copy_(ipt.minimum(a, b)))[1]
