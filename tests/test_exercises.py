"""The exercise machinery: every reference solution passes, a blank answer is "not attempted",
check()/hint()/solution() answer any input with a message, hints come in steps and never give
the answer, solutions are outside the package, and progress is kept per user."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from python_work import package_lines

import inplace_tutorial as ipt
from inplace_tutorial import exercises
from inplace_tutorial.exercises import (
    CORRECT,
    INCORRECT,
    NOT_ATTEMPTED,
    all_keys,
    check,
    grade,
    hint,
    progress,
    reference,
    reference_answer,
    solution,
    tracking,
)

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS_FILE = ROOT / "instructor" / "ipt_solutions.py"
SOLUTIONS = reference.load(SOLUTIONS_FILE)
KEYS = all_keys()


@pytest.fixture(autouse=True)
def _private_progress(tmp_path, monkeypatch):
    monkeypatch.setenv(tracking.ENV, str(tmp_path / "progress.json"))
    exercises._hints_shown.clear()


def test_every_exercise_has_a_solution_and_vice_versa():
    assert len(KEYS) >= 25 and set(KEYS) == set(SOLUTIONS)


@pytest.mark.parametrize("key", KEYS)
def test_reference_solution_passes(key):
    status, feedback = grade(key, reference_answer(key, SOLUTIONS))
    assert status == CORRECT, feedback


@pytest.mark.parametrize("key", KEYS)
def test_blank_is_not_attempted_and_check_never_raises(key, capsys):
    assert grade(key, None)[0] == NOT_ATTEMPTED
    check(key, None)
    check(key, object())  # nonsense: reported, never raised
    out = capsys.readouterr().out
    assert "not attempted" in out and "incorrect" in out


@pytest.mark.parametrize("bad", [["x"], {}, {"a": 1}, 1.1, None, b"01.1"])
def test_bad_keys_get_a_message_not_a_traceback(bad, capsys):
    check(bad, 1)
    hint(bad)
    solution(bad)
    out = capsys.readouterr().out
    assert out.count("exercise keys are strings") == 3
    assert grade(bad, 1)[0] == INCORRECT


def test_unknown_key_and_short_key(capsys):
    assert "there is no exercise" in grade("99.9", 1)[1]
    assert grade("1.1", lambda t: t.mul_(2))[0] == CORRECT  # "1.1" means "01.1"


def test_sys_exit_in_an_answer_does_not_end_the_checker():
    status, feedback = grade("01.1", lambda t: sys.exit(3))
    assert status == INCORRECT and "sys.exit" in feedback


def test_huge_wrong_answers_print_a_bounded_line(capsys):
    check("02.1", ((2 * 10**7,), (0,), 0))  # a 2e7-element view: never built or printed
    check("01.1", lambda t: ipt.zeros(10**6))
    check("01.1", lambda t: (_ for _ in ()).throw(ValueError("x" * 5_000_000)))
    check("06.3", ["w"] * 10**6)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4 and all(len(line) <= exercises.FEEDBACK_LIMIT + 40 for line in lines)
    assert all("incorrect" in line for line in lines)


def test_huge_answers_are_refused_quickly():
    # "quickly" in lines of the package's Python run, not seconds (python_work.py): ~1,600
    # here; a loop per element or per character would run 10**6
    # a 10**6-element view where a shape is asked: its values are never read row by row
    status, lines = package_lines(lambda: grade("08.1", ipt.zeros(1).expand(10**6))[0])
    assert status == INCORRECT and lines <= 20_000, lines
    # a 10**6-character einsum string: parsed in linear time (adding to a str in a list
    # copied it each time: over two minutes)
    status, lines = package_lines(lambda: grade("08.2", "x" * 10**6)[0])
    assert status == INCORRECT and lines <= 20_000, lines


@pytest.mark.parametrize("key", ["06.1", "06.2", "06.3", "07.1", "10.2"])
def test_checkers_set_the_grad_mode_they_need(key):
    answer = reference_answer(key, SOLUTIONS)
    ipt.set_grad_enabled(False)  # left off earlier in the notebook, as a plain call
    try:
        assert grade(key, answer)[0] == CORRECT
        assert not ipt.is_grad_enabled()  # and the notebook's mode is put back
    finally:
        ipt.set_grad_enabled(True)
    with ipt.inference_mode():
        assert grade(key, answer)[0] == CORRECT


def test_checking_leaves_the_learners_random_stream_alone():
    ipt.manual_seed(123)
    expected = ipt.rand(5).tolist()
    ipt.manual_seed(123)
    grade("04.1", reference_answer("04.1", SOLUTIONS))  # its checker seeds its own data
    assert ipt.rand(5).tolist() == expected


# ----------------------------------------------------------------------------------- hints
@pytest.mark.parametrize("key", KEYS)
def test_hints_come_in_steps_and_never_contain_the_solution(key):
    steps = exercises.REGISTRY[key].hints
    assert len(steps) >= 3
    code_lines = [ln.split("#")[0].strip() for ln in SOLUTIONS[key].splitlines()]
    code_lines = [ln for ln in code_lines
                  if len(ln) > 12 and not ln.startswith(("from ", "def ", "with "))]
    for step in steps:
        for line in code_lines:
            assert line not in step, f"hint of {key} contains the solution line {line!r}"


def test_hint_walks_through_the_steps(capsys):
    hint("05.1")
    hint("05.1")
    hint("05.1")
    hint("05.1")  # stays on the last step
    hint("05.1", 1)
    hint("05.1", 9)
    out = capsys.readouterr().out
    assert re.findall(r"Hint (\d) of 3", out) == ["1", "2", "3", "3", "1"]
    assert "again for the next step" in out and "solution('05.1')" in out
    assert "has hints 1 to 3" in out


# -------------------------------------------------------------------------------- solutions
def test_solutions_are_not_inside_the_package():
    package = Path(ipt.__file__).resolve().parent
    assert package not in reference.CHECKOUT_FILE.parents
    files = list(package.rglob("*"))
    assert not [f for f in files if "solution" in f.name.lower()]
    for path in (f for f in files if f.suffix == ".py"):
        text = path.read_text(encoding="utf-8")
        assert "SOLUTIONS[" not in text, path
        assert not [k for k, code in SOLUTIONS.items() if code.strip() in text], path


def test_solution_without_the_file_says_where_to_get_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(reference.ENV, str(tmp_path / "missing.py"))
    solution("10.3")
    out = capsys.readouterr().out
    assert "not part of the participant install" in out and reference.FILE_NAME in out
    assert grade("10.3", reference_answer("10.3", SOLUTIONS))[0] == CORRECT  # check() needs none


def test_solution_with_the_handed_out_file(tmp_path, monkeypatch, capsys):
    handed_out = tmp_path / reference.FILE_NAME
    handed_out.write_text(SOLUTIONS_FILE.read_text())
    monkeypatch.setenv(reference.ENV, str(handed_out))
    solution("05.1")
    assert "alpha=-lr" in capsys.readouterr().out
    monkeypatch.delenv(reference.ENV)
    monkeypatch.chdir(tmp_path)  # saved next to the notebooks
    assert reference.find() == handed_out


# --------------------------------------------------------------------------------- progress
def test_progress_records_passes_and_tries(capsys):
    check("01.1", lambda t: t.mul_(2))
    check("01.2", 5)
    check("01.1", lambda t: t)  # a later failure does not undo a pass
    check("02.1", None)         # not attempted: not recorded
    entries = tracking.load()
    assert entries["01.1"]["status"] == "passed" and entries["01.1"]["attempts"] == 2
    assert entries["01.2"]["status"] == "tried" and "02.1" not in entries
    capsys.readouterr()
    progress()
    out = capsys.readouterr().out
    assert f"Exercises passed: 1 of {len(KEYS)}" in out
    assert "01.1 passed" in out and "01.2 tried" in out and "02.1 -" in out
    tracking.reset()
    assert tracking.load() == {}


def test_progress_file_problems_never_stop_check(tmp_path, monkeypatch, capsys):
    bad = tmp_path / "progress.json"
    bad.write_text("{not json")
    monkeypatch.setenv(tracking.ENV, str(bad))
    check("01.1", lambda t: t.mul_(2))
    assert json.loads(bad.read_text())["exercises"]["01.1"]["status"] == "passed"
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    monkeypatch.setenv(tracking.ENV, str(blocker / "progress.json"))  # parent is a file
    check("01.1", lambda t: t.mul_(2))
    assert "correct" in capsys.readouterr().out


def test_progress_path_defaults_to_the_users_config_dir(tmp_path, monkeypatch):
    monkeypatch.delenv(tracking.ENV)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    if sys.platform != "win32":
        assert tracking.progress_path() == tmp_path / "inplace_tutorial" / "progress.json"


# --------------------------------------------------------------------- the notebooks' cells
NOTEBOOK_SOURCES = sorted((ROOT / "notebooks" / "src").glob("*.py"))


def _setup_imports(path: Path) -> str:
    """The import lines of a notebook's first code cell (its setup cell)."""
    first = path.read_text(encoding="utf-8").split("# %%\n")[1]
    return "\n".join(ln for ln in first.splitlines() if ln.startswith(("import ", "from ")))


@pytest.mark.parametrize("path", NOTEBOOK_SOURCES, ids=lambda p: p.stem[:2])
def test_every_exercise_cell_can_run_its_hint_and_solution_lines(path):
    text = path.read_text(encoding="utf-8")
    keys = re.findall(r'^check\("(\d\d\.\d)", answer\)$', text, flags=re.M)
    for key in keys:  # each check cell offers both, commented out, and the key exists
        assert f'# hint("{key}")' in text and f'# solution("{key}")' in text and key in KEYS
    if keys:
        namespace: dict = {}
        exec(_setup_imports(path), namespace)
        assert {"check", "hint", "solution"} <= set(namespace), path.name


def test_notebook_10_setup_lets_a_learner_paste_the_broken_script():
    from inplace_tutorial import lab

    namespace: dict = {}
    exec(_setup_imports(next(p for p in NOTEBOOK_SOURCES if p.stem.startswith("10"))), namespace)
    fixed = lab.BROKEN_STEP.replace("g.mul_(2).sub_(1)", "g = g * 2 - 1")
    exec(fixed, namespace)
    assert lab.check_fix(namespace["train_step"])[0]


def test_every_exercise_has_a_check_cell_in_its_notebook():
    found = {(k, p.stem[:2]) for p in NOTEBOOK_SOURCES
             for k in re.findall(r'^check\("(\d\d\.\d)", answer\)$', p.read_text(), flags=re.M)}
    assert {k for k, _ in found} == set(KEYS)
    assert all(k[:2] == nb for k, nb in found)
