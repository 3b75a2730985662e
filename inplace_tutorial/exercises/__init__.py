"""Self-checking exercises: ``check(key, answer)``, ``hint(key)``, ``solution(key)``.

Each notebook's exercises live in their own module (``nb01.py`` ...) and register with
``@exercise``. ``check`` never raises, so a blank student notebook (``answer = None``)
still runs top to bottom under nbval; it reports correct, incorrect or not attempted.
Reference solutions live apart from the prompts, in ``solutions.py``.
"""
from __future__ import annotations

import importlib
import traceback
from collections.abc import Callable
from dataclasses import dataclass

CORRECT, INCORRECT, NOT_ATTEMPTED = "correct", "incorrect", "not attempted"
_MODULES = ("nb01", "nb02", "nb03", "nb04", "nb05", "nb06", "nb07", "nb08", "nb09", "nb10")


@dataclass
class Exercise:
    key: str
    checker: Callable[[object], tuple[bool, str]]  # answer -> (ok, feedback)
    hint: str


REGISTRY: dict[str, Exercise] = {}


def exercise(key: str, hint: str):
    """Register ``checker(answer) -> (ok, feedback)`` under ``key`` (e.g. "01.2")."""

    def deco(fn: Callable[[object], tuple[bool, str]]):
        REGISTRY[key] = Exercise(key, fn, hint)
        return fn

    return deco


def _load() -> None:
    for name in _MODULES:
        try:
            importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise


def _get(key: str) -> Exercise | None:
    if key not in REGISTRY:
        _load()
    return REGISTRY.get(key)


def grade(key: str, answer) -> tuple[str, str]:
    """(status, feedback) for an answer; the logic behind check(), handy in tests."""
    ex = _get(key)
    if ex is None:
        return INCORRECT, f"there is no exercise {key!r}"
    if answer is None or answer is Ellipsis:
        return NOT_ATTEMPTED, "replace the placeholder with your answer and run the cell again"
    try:
        ok, feedback = ex.checker(answer)
    except Exception as e:  # a wrong answer may well crash; that is feedback, not an error
        last = traceback.format_exception_only(type(e), e)[-1].strip()
        return INCORRECT, f"running your answer raised {last}"
    return (CORRECT if ok else INCORRECT), feedback


# Plain-text marks: emoji show as empty boxes where no emoji font is installed.
_ICONS = {CORRECT: "[+]", INCORRECT: "[-]", NOT_ATTEMPTED: "[ ]"}


def check(key: str, answer) -> None:
    """Print the verdict (use grade() to get it as a value). Never raises."""
    status, feedback = grade(key, answer)
    line = f"{_ICONS[status]} Exercise {key}: {status}"
    if feedback:
        line += f" — {feedback}"
    print(line)


def reference_answer(key: str):
    """Run the reference solution for ``key`` and return its ``answer`` (for tests, teachers)."""
    import inplace_tutorial as ipt

    from .solutions import SOLUTIONS

    namespace = {"ipt": ipt}
    exec(SOLUTIONS[key], namespace)
    return namespace["answer"]


def all_keys() -> list[str]:
    _load()
    return sorted(REGISTRY)


def hint(key: str) -> None:
    ex = _get(key)
    print(f"Hint: {ex.hint}" if ex else f"there is no exercise {key!r}")


def solution(key: str) -> None:
    """Print the reference solution (kept in solutions.py, apart from the prompts)."""
    from .solutions import SOLUTIONS

    print(SOLUTIONS.get(key, f"there is no solution for {key!r}").strip())


__all__ = ["CORRECT", "INCORRECT", "NOT_ATTEMPTED", "all_keys", "check", "exercise", "grade",
           "hint", "reference_answer", "solution"]
