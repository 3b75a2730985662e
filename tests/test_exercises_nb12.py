"""Exercises of notebook 12: right answers pass, typical mistakes fail."""
from __future__ import annotations

import pytest

import inplace_tutorial as ipt
from inplace_tutorial.exercises import CORRECT, INCORRECT, grade, nb12, tracking


@pytest.fixture(autouse=True)
def _private_progress(tmp_path, monkeypatch):
    monkeypatch.setenv(tracking.ENV, str(tmp_path / "progress.json"))


def _append(cache, k, t):
    cache[:, :, t:t + 1] = k
    return cache[:, :, :t + 1]


def _append_index_copy(cache, k, t):
    cache.index_copy_(2, ipt.tensor([t]), k)
    return cache[:, :, :t + 1]


def _append_returning_a_copy(cache, k, t):
    cache[:, :, t:t + 1] = k
    return cache[:, :, :t + 1].clone()


def _append_with_cat(cache, k, t):
    return ipt.cat([cache[:, :, :t], k], dim=2)


def _append_everything_after(cache, k, t):
    cache[:, :, t:] = k
    return cache[:, :, :t + 1]


def _append_off_by_one(cache, k, t):
    cache[:, :, t:t + 1] = k
    return cache[:, :, :t]


def test_12_1():
    for right in (_append, _append_index_copy):
        assert grade("12.1", right)[0] == CORRECT
    for wrong in (_append_returning_a_copy, _append_with_cat, _append_everything_after,
                  _append_off_by_one, "cache"):
        assert grade("12.1", wrong)[0] == INCORRECT, wrong


def test_12_2():
    position = 4 * 16 * 4
    assert grade("12.2", sum((4 + t) * position for t in range(1, 101)))[0] == CORRECT
    status, feedback = grade("12.2", 100 * position)
    assert status == INCORRECT and "only the new positions" in feedback
    for wrong in (sum((4 + t) * position for t in range(100)), "1395200", True):
        assert grade("12.2", wrong)[0] == INCORRECT


def test_cat_bytes_is_measured():
    assert nb12.cat_bytes(1, 3, 2, 4) == (2 + 3 + 4) * 2 * 4 * 4
