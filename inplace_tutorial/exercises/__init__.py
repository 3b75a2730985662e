"""Self-checking exercises: ``check(key, answer)``, ``hint``, ``solution``, ``progress``.

Each notebook's exercises live in their own module (``nb01.py`` ...) and register with
``@exercise``. ``check`` never raises, so a blank student notebook (``answer = None``)
still runs top to bottom under nbval; it reports correct, incorrect or not attempted.

* Hints come in steps: ``hint("05.1")`` prints the first nudge, each further call the next
  one; ``hint("05.1", 2)`` prints step 2 directly. No hint gives the answer away.
* Reference solutions are not in the package (see ``reference.py``): ``solution(key)`` prints
  one when the instructor's file is present and says where to get it otherwise.
* ``progress()`` prints which exercises this user has passed (kept locally, ``tracking.py``).
* Each checker runs with grad mode on and inference mode off, whatever the notebook left
  behind, and leaves the learner's random-number stream where it was.
"""
from __future__ import annotations

import contextlib
import importlib
import re
import textwrap
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import inplace_tutorial as ipt

from .. import generator
from . import reference, tracking
from .answers import short

CORRECT, INCORRECT, NOT_ATTEMPTED = "correct", "incorrect", "not attempted"
_MODULES = ("nb01", "nb02", "nb03", "nb04", "nb05", "nb06", "nb07", "nb08", "nb09", "nb10",
            "nb11", "nb12", "nb13", "nb14")
FEEDBACK_LIMIT = 400  # characters: a wrong answer over a huge tensor still prints one short line


@dataclass
class Exercise:
    key: str
    checker: Callable[[object], tuple[bool, str]]  # answer -> (ok, feedback)
    hints: tuple[str, ...]


REGISTRY: dict[str, Exercise] = {}
_hints_shown: dict[str, int] = {}


def exercise(key: str, hint: str | tuple[str, ...]):
    """Register ``checker(answer) -> (ok, feedback)`` under ``key`` (e.g. "01.2").

    ``hint`` is one string or a tuple of steps, from a nudge to the last hint before the answer.
    """

    def deco(fn: Callable[[object], tuple[bool, str]]):
        REGISTRY[key] = Exercise(key, fn, (hint,) if isinstance(hint, str) else tuple(hint))
        return fn

    return deco


def _load() -> None:
    for name in _MODULES:
        try:
            importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise


def all_keys() -> list[str]:
    _load()
    return sorted(REGISTRY)


def _lookup(key: object) -> tuple[Exercise | None, str]:
    """(exercise, "") or (None, a message saying what is wrong with ``key``)."""
    if not isinstance(key, str):
        return None, f"exercise keys are strings like \"01.1\", not {short(key)}"
    clean = key.strip()
    if re.fullmatch(r"\d\.\d+", clean):  # "1.1" -> "01.1"
        clean = "0" + clean
    if clean not in REGISTRY:
        _load()
    if clean not in REGISTRY:
        return None, (f"there is no exercise {short(key)}: keys run from {all_keys()[0]} "
                      f"to {all_keys()[-1]}, like \"01.1\"")
    return REGISTRY[clean], ""


@contextlib.contextmanager
def _checker_state() -> Iterator[None]:
    # A notebook may have left grad mode off (set_grad_enabled(False)) or be inside
    # inference_mode; checkers build graphs, so they set the modes they need. They also seed
    # their own data: put the learner's random stream back afterwards.
    rng_state = generator.default_generator().bit_generator.state
    try:
        with ipt.inference_mode(False), ipt.enable_grad():
            yield
    finally:
        ipt.manual_seed(0).bit_generator.state = rng_state


def _bounded(text: str) -> str:
    text = str(text)
    return text if len(text) <= FEEDBACK_LIMIT else text[: FEEDBACK_LIMIT - 3] + "..."


def grade(key: str, answer) -> tuple[str, str]:
    """(status, feedback) for an answer; the logic behind check(), handy in tests."""
    ex, problem = _lookup(key)
    if ex is None:
        return INCORRECT, problem
    if answer is None or answer is Ellipsis:
        return NOT_ATTEMPTED, "replace the placeholder with your answer and run the cell again"
    try:
        with _checker_state():
            ok, feedback = ex.checker(answer)
    except SystemExit:
        return INCORRECT, ("running your answer called sys.exit() (or exit()): the checker "
                           "caught it; return a value instead")
    except Exception as e:  # a wrong answer may well crash; that is feedback, not an error
        try:
            last = traceback.format_exception_only(type(e), e)[-1].strip()
        except Exception:
            last = type(e).__name__
        return INCORRECT, _bounded(f"running your answer raised {last}")
    return (CORRECT if ok else INCORRECT), _bounded(feedback)


# Plain-text marks: emoji show as empty boxes where no emoji font is installed.
_ICONS = {CORRECT: "[+]", INCORRECT: "[-]", NOT_ATTEMPTED: "[ ]"}


def check(key: str, answer) -> None:
    """Print the verdict (grade() returns it) and note it for progress(). Never raises."""
    status, feedback = grade(key, answer)
    ex, _ = _lookup(key)
    if ex is not None and status != NOT_ATTEMPTED:
        tracking.record(ex.key, status == CORRECT)
    line = f"{_ICONS[status]} Exercise {ex.key if ex else short(key)}: {status}"
    if feedback:
        line += f" — {feedback}"
    print(line)


def hint(key: str, step: int | None = None) -> None:
    """Print the next hint for ``key`` (the first on the first call), or hint number ``step``."""
    ex, problem = _lookup(key)
    if ex is None:
        print(problem)
        return
    n = len(ex.hints)
    if step is None:
        step = min(_hints_shown.get(ex.key, 0) + 1, n)
    elif isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= n:
        print(f"exercise {ex.key} has hints 1 to {n}; hint({ex.key!r}) shows the next one")
        return
    _hints_shown[ex.key] = max(_hints_shown.get(ex.key, 0), step)
    print(textwrap.fill(f"Hint {step} of {n} for {ex.key}: {ex.hints[step - 1]}", width=100,
                        subsequent_indent="   "))
    if step < n:
        print(f"   (run hint({ex.key!r}) again for the next step)")
    else:
        print(f"   (that was the last hint; solution({ex.key!r}) shows a reference answer)")


def solution(key: str) -> None:
    """Print the reference solution, if the instructor's solutions file is present."""
    ex, problem = _lookup(key)
    if ex is None:
        print(problem)
        return
    path = reference.find()
    if path is None:
        print(textwrap.fill(reference.WHERE_TO_GET, width=100))
        return
    try:
        solutions = reference.load(path) or {}
    except Exception as e:
        print(f"could not read the solutions file {path}: {type(e).__name__}: {short(str(e))}")
        return
    code = solutions.get(ex.key)
    print(code.strip() if isinstance(code, str) else f"{path} has no solution for {ex.key}")


def reference_answer(key: str, solutions: dict[str, str] | None = None):
    """Run the reference solution for ``key`` and return its ``answer`` (for tests, teachers).

    ``solutions`` defaults to the file ``solution()`` would use.
    """
    solutions = reference.load() if solutions is None else solutions
    if solutions is None:
        raise LookupError(reference.WHERE_TO_GET)
    namespace = {"ipt": ipt}
    exec(solutions[key], namespace)
    return namespace["answer"]


def progress() -> None:
    """Print which exercises this user has passed on this machine (one cell for a whole class)."""
    for line in tracking.render(all_keys(), tracking.load()):
        print(line)
    print(f"(kept in {tracking.progress_path()}; delete it, or call "
          f"ipt.exercises.tracking.reset(), to start over)")


__all__ = ["CORRECT", "INCORRECT", "NOT_ATTEMPTED", "all_keys", "check", "exercise", "grade",
           "hint", "progress", "reference_answer", "solution"]
