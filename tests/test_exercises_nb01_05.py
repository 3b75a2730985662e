"""Exercises of notebooks 01-05: every reference solution passes, typical mistakes fail."""
from __future__ import annotations

import pytest

import inplace_tutorial as ipt
from inplace_tutorial.exercises import INCORRECT, grade


def _sgd_article(params, lr):
    ipt.models.custom_sgd_update(params, lr)


def _normalize_out_of_place(t):
    return (t - t.mean()) / t.std()


WRONG = [
    ("01.1", lambda t: t * 2),
    ("01.1", lambda t: t.mul(2)),
    ("01.1", "t.mul_(2)"),
    ("01.2", 100_000),
    ("01.2", 4_000_000),
    ("02.1", ((3,), (1,), 1)),
    ("02.1", ((3,), (4,), 0)),
    ("02.2", dict.fromkeys(["x.t()", "x.contiguous()", "x.t().contiguous()", "x.reshape(12)",
                            "x.t().reshape(12)", "x[:, 1]"], True)),
    ("03.1", lambda n, c, h, w: n * c * h * w * 4),
    ("03.1", lambda n, c, h, w: n * c * (h - 2) * (w - 2)),
    ("03.2", lambda t: t),
    ("03.2", lambda t: t.add_(0)),
    ("04.1", _normalize_out_of_place),
    ("04.1", lambda t: t.clone().sub_(t.mean()).div_(t.std())),
    ("04.2", lambda img: img.div_(255)),
    ("04.2", lambda img: img.float()),
    ("05.1", _sgd_article),
    ("05.1", lambda params, lr: [p.add_(p.grad, alpha=-lr) for p in params]),
    ("05.2", 9610 * 4),
    ("05.2", 9610 * 2),
]


@pytest.mark.parametrize(("key", "answer"), WRONG)
def test_typical_mistakes_fail(key, answer):
    assert grade(key, answer)[0] == INCORRECT
