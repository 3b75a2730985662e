"""The workshop kit: setup script, lock files, conda file and version checks agree."""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest depends on tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
SETUP = ROOT / "tools" / "setup.py"
PYTHONS = ("3.10", "3.11", "3.12", "3.13")


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _pins(path: Path) -> dict[str, str]:
    pins = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    return pins


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.split(r"[<>=!~ ;\[]", requirement)[0]).lower()


def test_setup_script_checks_the_same_python_as_pyproject():
    requires = _pyproject()["project"]["requires-python"]
    text = SETUP.read_text()
    major, minor = re.search(r"MIN_PYTHON = \((\d+), (\d+)\)", text).groups()
    assert requires == f">={major}.{minor}"


def test_too_old_python_gets_one_line_before_any_download(tmp_path):
    # The same script with a minimum this interpreter can't meet: it must stop at once.
    source = SETUP.read_text().replace("MIN_PYTHON = (3, 10)", "MIN_PYTHON = (99, 0)")
    script = tmp_path / "setup.py"
    script.write_text(source)
    r = subprocess.run([sys.executable, str(script), "lab"], capture_output=True, text=True,
                       timeout=30)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("inplace-tutorial needs Python >= 99.0")
    assert not (tmp_path / ".venv").exists()


def test_every_tested_python_has_a_lock_with_every_dependency():
    project = _pyproject()["project"]
    needed = {_name(r) for r in project["dependencies"]}
    needed |= {_name(r) for r in project["optional-dependencies"]["test"]}
    for ver in PYTHONS:
        pins = _pins(ROOT / "locks" / f"py{ver}.txt")
        assert needed <= set(pins), (ver, needed - set(pins))
        assert "inplace-tutorial" not in pins
        assert all(re.fullmatch(r"[0-9][0-9A-Za-z.]*", v) for v in pins.values()), ver


def test_the_torch_pin_is_the_oracle_everywhere():
    parity = _pyproject()["project"]["optional-dependencies"]["parity"]
    assert parity == ["torch==2.13.0"]
    assert _pins(ROOT / "locks" / "py3.11.txt")["torch"] == "2.13.0"
    for ver in PYTHONS:
        assert _pins(ROOT / "locks" / f"py{ver}.txt").get("torch", "2.13.0") == "2.13.0"


def test_conda_environment_uses_the_same_lock():
    text = (ROOT / "environment.yml").read_text()
    python = re.search(r"- python=(3\.\d+)", text).group(1)
    assert f"-c locks/py{python}.txt" in text and python in PYTHONS


def test_makefile_routes_through_the_setup_script():
    make = (ROOT / "Makefile").read_text()
    for target in ("lab", "test"):
        recipe = re.search(rf"^{target}:\n\t(.*)$", make, flags=re.M).group(1)
        assert "$(SETUP)" in recipe and target in recipe


def _tool(name: str):
    """A script of tools/ loaded as a module (tools/ is not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("ipt_" + name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_participant_kit_has_the_course_but_no_solutions(tmp_path):
    kit = _tool("wheelhouse")
    files = kit.course_files()
    assert "instructor/ipt_solutions.py" not in files
    assert not [f for f in files if f.startswith("instructor/") or "ipt_solutions" in f]
    for needed in ("pyproject.toml", "Makefile", "tools/setup.py", "locks/py3.11.txt",
                   "inplace_tutorial/__init__.py", "notebooks/01_what_inplace_means.ipynb"):
        assert needed in files, needed
    zipped = kit.zip_kit(tmp_path / "kit.zip", with_wheels=False)
    with zipfile.ZipFile(zipped) as z:
        names = z.namelist()
        z.extractall(tmp_path)
    assert names and all(n.startswith("inplace-tutorial/") for n in names)
    assert not [n for n in names if "/instructor/" in n or "ipt_solutions" in n]
    # In the unpacked kit, solution() explains where the solutions come from instead of failing.
    course = tmp_path / "inplace-tutorial"
    env = {k: v for k, v in os.environ.items() if k != "IPT_SOLUTIONS"}
    env["PYTHONPATH"] = str(course)
    r = subprocess.run([sys.executable, "-c", "import inplace_tutorial as ipt; "
                        "print(ipt.__file__); ipt.exercises.solution('10.3')"],
                       cwd=course / "notebooks", env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(str(course / "inplace_tutorial"))
    assert "not part of the participant install" in r.stdout


def test_wheelhouse_walks_dependencies_with_the_targets_markers(tmp_path, monkeypatch):
    # pip download --platform evaluates markers for this machine: a Windows-only dependency
    # would be left out. The walk must find it missing for Windows and not for Linux.
    kit = _tool("wheelhouse")
    monkeypatch.setattr(kit, "WHEELS", tmp_path)
    monkeypatch.setattr(kit, "_pyproject_requirements", lambda: ["ipt-fake-app"])

    def wheel(name, tag, requires=()):
        meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n" + "".join(
            f"Requires-Dist: {r}\n" for r in requires)
        with zipfile.ZipFile(tmp_path / f"{name.replace('-', '_')}-1.0-{tag}.whl", "w") as z:
            z.writestr(f"{name.replace('-', '_')}-1.0.dist-info/METADATA", meta)

    wheel("ipt-fake-app", "py3-none-any", ['ipt-fake-console; sys_platform == "win32"',
                                           "ipt-fake-core"])
    wheel("ipt-fake-core", "cp312-cp312-manylinux_2_17_x86_64")
    assert kit.missing_requirements("3.12", "linux-x86_64") == []
    assert sorted(r.name for r in kit.missing_requirements("3.12", "windows-x86_64")) == \
        ["ipt-fake-console", "ipt-fake-core"]
    # A wheel for another Python does not count.
    assert [r.name for r in kit.missing_requirements("3.13", "linux-x86_64")] == ["ipt-fake-core"]
    wheel("ipt-fake-core", "cp312-cp312-win_amd64")
    wheel("ipt-fake-console", "py3-none-any")
    assert kit.missing_requirements("3.12", "windows-x86_64") == []


def test_cheatsheet_md_and_html_are_current():
    # Generated from the derivative table and the core's error texts: an op that changes what
    # it saves, or a reworded error, must be regenerated (.venv/bin/python tools/cheatsheet.py).
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "cheatsheet.py"), "--check"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    page = (ROOT / "docs" / "cheatsheet.html").read_text()
    assert page.count("<table>") == 2 and "is at version 1; expected version 0 instead" in page


def test_notebooks_rerun_only_when_every_failure_is_a_kernel_that_did_not_start(tmp_path):
    setup = _tool("setup")
    junit = tmp_path / "r.xml"

    def report(*bodies):
        cases = "".join(f'<testcase name="c{i}">{b}</testcase>' for i, b in enumerate(bodies))
        junit.write_text(f'<testsuites><testsuite>{cases}</testsuite></testsuites>')
        return setup.only_kernel_start_failures(junit)

    died = ('<error message="failed on setup with &quot;RuntimeError: Kernel died before '
            'replying to kernel_info&quot;">trace</error>')
    differ = '<failure message="Notebook cell execution failed">Cell outputs differ</failure>'
    assert report(died, died, "")
    assert not report(died, differ)
    assert not report("", "")
    assert not setup.only_kernel_start_failures(tmp_path / "missing.xml")


def test_a_kernel_that_does_not_start_is_started_again_and_says_why():
    # the root conftest.py, its nbval patches tried on stand-ins (loaded by path: in a full
    # run "conftest" in sys.modules is another directory's)
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)

    calls = []

    def start_new_kernel(**kwargs):  # nbval's, writing as a dying kernel would
        kwargs["stderr"].write(b"zmq.error.ZMQError: Address already in use")
        kwargs["stderr"].flush()
        raise RuntimeError("Kernel died before replying to kernel_info")

    with pytest.raises(RuntimeError, match="(?s)kernel_info.*stderr.*Address already in use"):
        conftest._keep_kernel_stderr(start_new_kernel)(stderr=open(os.devnull, "w"))

    def init(self, name, fail_times):
        calls.append(name)
        if len(calls) <= fail_times:
            raise RuntimeError("Kernel died before replying to kernel_info")

    retrying = conftest._retry_kernel_start(init)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        retrying(object(), "python3", fail_times=2)
        assert len(calls) == 3 and ["attempt 1" in str(w.message) for w in said] == [True, False]
        calls.clear()
        with pytest.raises(RuntimeError, match="kernel_info"):
            retrying(object(), "python3", fail_times=3)
    assert len(calls) == conftest._KERNEL_STARTS == 3


# --- The instructor guide's agendas (tools/agenda.py) ---------------------------------------

def test_instructor_agendas_are_current():
    # Rebuilding a notebook rewrites them (tools/build_notebooks.py); a hand edit of a
    # notebook's cells without a rebuild, or of the generated block, shows up here.
    agenda = _tool("agenda")
    text = (ROOT / "docs" / "instructor.md").read_text(encoding="utf-8")
    start, stop = text.index(agenda.BEGIN), text.index(agenda.END) + len(agenda.END)
    assert text[start:stop] == agenda.block(), "run: python tools/agenda.py --write"


def test_each_agenda_fits_its_slot_and_covers_only_existing_sections():
    agenda = _tool("agenda")
    for name in agenda.AGENDAS:
        limit, rows = agenda.agenda(name)  # raises if a section prefix no longer matches
        assert sum(agenda._round5(m) for _, _, m in rows) <= limit, name


def test_agenda_model_counts_words_runs_and_exercises(tmp_path):
    agenda = _tool("agenda")
    words = " ".join(["word"] * agenda.READ_WPM)  # one minute of reading
    cells = [
        {"cell_type": "markdown", "source": "# Title", "metadata": {}},
        {"cell_type": "markdown", "source": "## 1. First\n" + words, "metadata": {}},
        {"cell_type": "code", "source": 'check("01.1", x)', "outputs": [], "metadata": {
            "execution": {"iopub.execute_input": "2026-01-01T00:00:00.000Z",
                          "shell.execute_reply": "2026-01-01T00:01:00.000Z"}}},
    ]
    path = tmp_path / "99_x.ipynb"
    path.write_text(__import__("json").dumps({"cells": cells}))
    intro, first = agenda.sections(path)
    assert intro["title"] == "intro" and first["title"] == "1. First"
    assert (first["code"], first["exercises"], first["run_s"]) == (1, 1, 60.0)
    # 1 minute of text + the heading's 2 words and the code's 4, 1 minute run, 1 exercise
    expected = (agenda.READ_WPM + 2 + 4) / agenda.READ_WPM + 1 + agenda.EXERCISE_MIN
    assert abs(first["minutes"] - expected) < 1e-9
