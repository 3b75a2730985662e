"""Exercises of notebook 11: right answers pass, typical mistakes fail."""
from __future__ import annotations

import pytest

from inplace_tutorial.exercises import CORRECT, INCORRECT, grade, nb11, tracking


@pytest.fixture(autouse=True)
def _private_progress(tmp_path, monkeypatch):
    monkeypatch.setenv(tracking.ENV, str(tmp_path / "progress.json"))


def test_11_1_truth_is_run_not_written_down():
    assert {c for c in nb11.LETTERS if nb11.breaks(c)} == {"b", "c", "f"}


@pytest.mark.parametrize("answer", [{"b", "c", "f"}, ["B", "c", "f"], "b, c, f",
                                    {"a": False, "b": True, "c": True, "f": True}])
def test_11_1_right(answer):
    assert grade("11.1", answer)[0] == CORRECT


@pytest.mark.parametrize("answer", [{"b"}, {"b", "c", "d", "f"}, {"b", "c", "f", "z"}, 3])
def test_11_1_wrong(answer):
    assert grade("11.1", answer)[0] == INCORRECT


def _inplace(q, k, v, future):
    scores = q.matmul(k.transpose(-2, -1))
    scores.mul_(q.shape[-1] ** -0.5).masked_fill_(future, float("-inf"))
    return scores.softmax(-1).matmul(v)


def _scale_q_first(q, k, v, future):
    scores = (q * q.shape[-1] ** -0.5).matmul(k.transpose(-2, -1))
    return scores.masked_fill_(future, float("-inf")).softmax(-1).matmul(v)


def _out_of_place(q, k, v, future):
    scores = q.matmul(k.transpose(-2, -1)) * q.shape[-1] ** -0.5
    return scores.masked_fill(future, float("-inf")).softmax(-1).matmul(v)


def _after_softmax(q, k, v, future):
    probs = (q.matmul(k.transpose(-2, -1)) * q.shape[-1] ** -0.5).softmax(-1)
    return probs.masked_fill_(future, 0.0).matmul(v)


def _no_mask(q, k, v, future):
    return (q.matmul(k.transpose(-2, -1)) * q.shape[-1] ** -0.5).softmax(-1).matmul(v)


def test_11_2():
    for right in (_inplace, _scale_q_first):
        assert grade("11.2", right)[0] == CORRECT, right.__name__
    status, feedback = grade("11.2", _out_of_place)
    assert status == INCORRECT and "4 buffers" in feedback  # product, scaled, masked, probs
    status, feedback = grade("11.2", _after_softmax)
    assert status == INCORRECT  # wrong values (rows no longer sum to 1)
    assert grade("11.2", _no_mask)[0] == INCORRECT
    assert grade("11.2", "attention")[0] == INCORRECT
