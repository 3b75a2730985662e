"""Every exercise: its reference solution passes, a blank answer is "not attempted", and
check() never raises (so a blank student notebook runs top to bottom)."""
from __future__ import annotations

import pytest

from inplace_tutorial.exercises import (
    CORRECT,
    NOT_ATTEMPTED,
    all_keys,
    check,
    grade,
    reference_answer,
)
from inplace_tutorial.exercises.solutions import SOLUTIONS

KEYS = all_keys()


def test_every_exercise_has_a_solution_and_vice_versa():
    assert len(KEYS) >= 20 and set(KEYS) == set(SOLUTIONS)


@pytest.mark.parametrize("key", KEYS)
def test_reference_solution_passes(key):
    status, feedback = grade(key, reference_answer(key))
    assert status == CORRECT, feedback


@pytest.mark.parametrize("key", KEYS)
def test_blank_is_not_attempted_and_check_never_raises(key, capsys):
    assert grade(key, None)[0] == NOT_ATTEMPTED
    check(key, None)
    check(key, object())  # nonsense: reported, never raised
    out = capsys.readouterr().out
    assert "not attempted" in out and "incorrect" in out
