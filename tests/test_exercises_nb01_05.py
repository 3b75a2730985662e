"""Exercises of notebooks 01-05: typical mistakes fail, natural forms of a right answer pass."""
from __future__ import annotations

import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial.exercises import CORRECT, INCORRECT, grade, tracking


@pytest.fixture(autouse=True)
def _private_progress(tmp_path, monkeypatch):
    monkeypatch.setenv(tracking.ENV, str(tmp_path / "progress.json"))


def _sgd_article(params, lr):
    ipt.models.custom_sgd_update(params, lr)


def _sgd_corrupting_grad(params, lr):
    with ipt.no_grad():
        for p in params:
            if p.grad is not None:
                p.add_(p.grad.mul_(-lr))  # right weights, but p.grad is now -lr * grad


def _normalize_out_of_place(t):
    return (t - t.mean()) / t.std()


def _normalize_population(t):
    return t.sub_(t.mean()).div_(t.std(unbiased=False))


def _to_unit_two_buffers(img):
    return img.float() / 255


WRONG = [
    ("01.1", lambda t: t * 2),
    ("01.1", lambda t: t.mul(2)),
    ("01.1", "t.mul_(2)"),
    ("01.2", 100_000),
    ("01.2", 4_000_000),
    ("01.2", True),
    ("01.2", 400_000.5),
    ("01.2", "400000"),
    ("02.1", ((3,), (1,), 1)),
    ("02.1", ((3,), (4,), 0)),
    ("02.1", (3, 4, 9)),
    ("02.1", ((3, 1), (4, 1), 1)),
    ("02.1", ((10**9,), (0,), 0)),
    ("02.2", dict.fromkeys(["x.t()", "x.contiguous()", "x.t().contiguous()", "x.reshape(12)",
                            "x.t().reshape(12)", "x[:, 1]"], True)),
    ("02.2", dict.fromkeys(["x.t()", "x.contiguous()", "x.t().contiguous()", "x.reshape(12)",
                            "x.t().reshape(12)", "x[:, 1]"], "False")),
    ("03.1", lambda n, c, h, w: n * c * h * w * 4),
    ("03.1", lambda n, c, h, w: n * c * (h - 2) * (w - 2)),
    ("03.2", lambda t: t),
    ("03.2", lambda t: t.add_(0)),
    ("03.2", lambda t: t.detach()),             # still an inference tensor in PyTorch
    ("03.2", lambda t: t[:]),
    ("04.1", _normalize_out_of_place),
    ("04.1", lambda t: t.clone().sub_(t.mean()).div_(t.std())),
    ("04.1", lambda t: t.sub_(t.mean())),
    ("04.2", lambda img: img.div_(255)),
    ("04.2", lambda img: img.float()),
    ("05.1", _sgd_article),
    ("05.1", lambda params, lr: [p.add_(p.grad, alpha=-lr) for p in params]),
    ("05.1", _sgd_corrupting_grad),
    ("05.2", 9610 * 4),
    ("05.2", 9610 * 2),
    ("05.2", 9610 * 8 + 4),
]


@pytest.mark.parametrize(("key", "answer"), WRONG)
def test_typical_mistakes_fail(key, answer):
    assert grade(key, answer)[0] == INCORRECT


RIGHT = [
    ("01.1", lambda t: t.mul_(2)),
    ("01.1", lambda t: t.add_(t)),
    ("01.2", np.prod((250, 400)) * 4),          # an np.int64
    ("01.2", 4e5),
    ("01.2", 400_000.0),
    ("01.2", ipt.tensor(400_000)),
    ("02.1", (3, 4, 1)),
    ("02.1", [[3], [4], 1]),
    ("02.1", ((3,), (4,), (1,))),
    ("02.1", (ipt.Size([3]), (4,), np.int64(1))),
    ("02.1", ipt.arange(12.0)[1::4]),           # the view itself
    ("02.2", {"x.t()": 0, "x.contiguous()": 0, "x.t().contiguous()": 1, "x.reshape(12)": 0,
              "x.t().reshape(12)": np.True_, "x[:, 1]": False}),
    ("03.1", lambda n, c, h, w: np.prod([n, c, h - 2, w - 2]) * 4.0),
    ("03.2", lambda t: ipt.tensor(t.tolist())),
    ("04.1", _normalize_population),
    ("04.1", lambda t: t.sub_(t.mean()).div_(t.std(correction=0))),
    ("04.2", _to_unit_two_buffers),
    ("04.2", lambda img: img / 255),
    ("05.2", 9610 * 8),
    ("05.2", 9610 * 8 + 16),                    # with Adam's four `step` tensors
    ("05.2", np.int64(9610 * 8)),
]


@pytest.mark.parametrize(("key", "answer"), RIGHT)
def test_natural_forms_of_right_answers_pass(key, answer):
    status, feedback = grade(key, answer)
    assert status == CORRECT, feedback


def test_success_messages_describe_the_learners_answer():
    assert "population std" in grade("04.1", _normalize_population)[1]
    assert "sample std" in grade("04.1", lambda t: t.sub_(t.mean()).div_(t.std()))[1]
    assert "2 buffers" in grade("04.2", _to_unit_two_buffers)[1]
    assert "no temporary" in grade("04.2", lambda img: img.float().div_(255))[1]
    assert "step" in grade("05.2", 9610 * 8 + 16)[1]
    assert "step" not in grade("05.2", 9610 * 8)[1]
