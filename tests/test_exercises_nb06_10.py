"""Exercises of notebooks 06-10: each reference solution passes, typical wrong answers fail,
and the blank placeholder reports "not attempted"."""
from __future__ import annotations

import pytest

import inplace_tutorial as ipt
from inplace_tutorial.exercises import INCORRECT, grade


def _sig_inplace(x):
    s = x.sigmoid()
    s.mul_(2)
    return s.sum()


def _sgd_article(params, lr):
    with ipt.no_grad():
        for p in params:
            p.sub_(lr * p.grad)


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
    ("10.4", _sgd_article),
]


@pytest.mark.parametrize("key,answer", WRONG)
def test_wrong_answer_fails(key, answer):
    assert grade(key, answer)[0] == INCORRECT
