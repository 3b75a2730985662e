"""The participant install: a wheel built from the course has no reference solutions, and in it
check() still grades while solution() says where to get them (issue 13, item 6)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP = shutil.ignore_patterns(".venv", ".git", "notebooks", "tests", "benchmarks", "build",
                              "dist", "artifacts", "__pycache__", "*.egg-info", ".*cache")


def test_a_wheel_of_the_course_holds_no_solutions_and_still_checks(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=SKIP)  # build from a copy: nothing is written to the repo
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--no-build-isolation", str(src), "-w", str(tmp_path / "dist")],
                   check=True, capture_output=True)
    wheel = next((tmp_path / "dist").glob("*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "inplace_tutorial/exercises/nb10.py" in names
    assert not [n for n in names if "solution" in n.lower() or n.startswith("instructor")]

    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(site), str(wheel)], check=True, capture_output=True)
    run_dir = tmp_path / "notebooks"
    run_dir.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site), "IPT_PROGRESS_FILE": str(tmp_path / "p.json")}
    env.pop("IPT_SOLUTIONS", None)
    code = ("import inplace_tutorial as ipt; print(ipt.__file__)\n"
            "from inplace_tutorial.exercises import check, solution\n"
            "solution('01.1')\n"
            "check('01.1', lambda t: t.mul_(2))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=run_dir, env=env, check=True,
                         capture_output=True, text=True).stdout
    assert out.startswith(str(site))  # the installed wheel, not the source checkout
    assert "not part of the participant install" in out
    assert "Exercise 01.1: correct" in out

    # The instructor hands out the file; saved next to the notebooks, solution() finds it.
    shutil.copy(ROOT / "instructor" / "ipt_solutions.py", run_dir)
    out = subprocess.run([sys.executable, "-c", code], cwd=run_dir, env=env, check=True,
                         capture_output=True, text=True).stdout
    assert "t.mul_(2)" in out and "not part of" not in out
