"""check()/grade() against hostile answers (issue 11, probes3): objects whose repr, ==, bool or
attribute access raise or call sys.exit, self-referencing lists, huge strings and tensors. For
every exercise the checker answers with a short verdict, never raises, and stays quick; the
two that were slow on a 10**7-character string (08.2's einsum parse, 11.1's letter set) are
measured on their own. "Quick" is measured in lines of the package's Python run
(python_work.py), not in seconds: a loop per character runs a line per character on any
machine, however loaded."""
from __future__ import annotations

import sys

import pytest
from python_work import package_lines

import inplace_tutorial as ipt
from inplace_tutorial import exercises
from inplace_tutorial.exercises import INCORRECT, NOT_ATTEMPTED, all_keys, check, grade, tracking


@pytest.fixture(autouse=True)
def _private_progress(tmp_path, monkeypatch):
    monkeypatch.setenv(tracking.ENV, str(tmp_path / "progress.json"))
    exercises._hints_shown.clear()


class _RaisingRepr:
    def __repr__(self):
        raise RuntimeError("repr")

    __str__ = __repr__


class _RaisingEq:
    __hash__ = None

    def __eq__(self, other):
        raise RuntimeError("eq")

    def __bool__(self):
        raise RuntimeError("bool")


class _Exits:
    def __getattr__(self, name):
        sys.exit(3)

    def __eq__(self, other):
        sys.exit(4)

    def __bool__(self):
        sys.exit(5)

    def __iter__(self):
        sys.exit(6)


class _HugeRepr:
    def __repr__(self):
        return "x" * 10**6


def _self_referencing() -> list:
    a: list = []
    a.append(a)
    return a


HOSTILE = {
    "repr raises": _RaisingRepr, "== and bool raise": _RaisingEq, "sys.exit everywhere": _Exits,
    "a megabyte repr": _HugeRepr, "a list holding itself": _self_referencing,
    "a 10**6-character string": lambda: "a" * 10**6,
    "an expanded 10**7-element tensor": lambda: ipt.zeros(1).expand(10**7),
    "a generator": lambda: (i for i in range(3)), "an int with 400 digits": lambda: 10**400,
}


@pytest.mark.parametrize("key", all_keys())
def test_every_checker_answers_hostile_input_briefly(key, capsys):
    for what, make in HOSTILE.items():
        (status, feedback), lines = package_lines(lambda m=make: grade(key, m()), cap=LINES)
        _, more = package_lines(lambda m=make: check(key, m()), cap=LINES)
        printed = capsys.readouterr().out
        assert status in (INCORRECT, NOT_ATTEMPTED), (key, what, status)
        assert len(feedback) <= exercises.FEEDBACK_LIMIT and len(printed) < 600, (key, what)
        assert "Traceback" not in printed, (key, what)
        assert max(lines, more) <= LINES, (key, what, lines, more)


# Lines of the package one grade() or check() may run on a hostile answer: the most any
# exercise runs is 11.1's (~90,000, the same for 10 or 10**7 characters); a loop over a
# 10**6-character string or 10**7 elements would run at least 10**6.
LINES = 300_000


@pytest.mark.parametrize("key", ["08.2", "11.1"])
def test_a_ten_million_character_answer_is_refused_quickly(key):
    # before the fix a loop per character: 10 s (08.2) and 2 s (11.1), at least 10**7 lines
    (status, _), lines = package_lines(lambda: grade(key, "a" * 10**7), cap=LINES)
    assert status == INCORRECT
    assert lines <= LINES, lines


def test_einsum_refuses_a_million_letter_equation_at_c_speed():
    b, c = ipt.ones(2, 3, 4), ipt.ones(2, 4, 5)
    for equation, refusal in [("a" * 10**6, "more operands were provided"),
                              ("ab," * 10**6, "fewer operands were provided")]:
        with pytest.raises(RuntimeError, match=refusal):
            ipt.einsum(equation, b, c)
        refused, lines = package_lines(lambda equation=equation: _refused(equation, b, c),
                                       cap=1000)
        assert refused and lines <= 1000, (equation[:6], lines)  # ~20; a loop per letter: 10**6


def _refused(equation, *operands) -> bool:
    try:
        ipt.einsum(equation, *operands)
    except RuntimeError:
        return True
    return False
