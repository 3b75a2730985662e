"""The participant install: the package holds no reference solutions, and installed on its own
it still grades with check() while solution() says where to get them (issue 13, item 6)."""
from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP = shutil.ignore_patterns(".venv", ".git", "notebooks", "tests", "benchmarks", "build",
                              "dist", "artifacts", "__pycache__", "*.egg-info", ".*cache")


def test_packaging_takes_only_the_package():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    find = re.search(r"\[tool\.setuptools\.packages\.find\](.*?)\n\[", text, flags=re.S).group(1)
    include = re.findall(r'"([^"]+)"', re.search(r"include\s*=\s*\[(.*?)\]", find).group(1))
    assert include and all(p.startswith("inplace_tutorial") for p in include)
    data = re.search(r"\[tool\.setuptools\.package-data\](.*?)(\n\[|$)", text, flags=re.S)
    assert data is None or "instructor" not in data.group(1)
    assert not (ROOT / "instructor" / "__init__.py").exists()


def _install(tmp_path: Path) -> Path:
    """A participant's site-packages: the built wheel when a build backend is here, else the
    package folder exactly as the wheel holds it."""
    site = tmp_path / "site"
    # pyproject.toml needs setuptools >= 77 (SPDX license); Python 3.10's venv ships 65.
    if importlib.util.find_spec("setuptools") is None or int(
            importlib.metadata.version("setuptools").split(".")[0]) < 77:
        shutil.copytree(ROOT / "inplace_tutorial", site / "inplace_tutorial",
                        ignore=shutil.ignore_patterns("__pycache__"))
        return site
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=SKIP)  # build from a copy: nothing is written to the repo
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--no-build-isolation", str(src), "-w", str(tmp_path / "dist")],
                   check=True, capture_output=True)
    wheel = next((tmp_path / "dist").glob("*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "inplace_tutorial/exercises/nb10.py" in names
    assert not [n for n in names if "solution" in n.lower() or n.startswith("instructor")]
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(site), str(wheel)], check=True, capture_output=True)
    return site


def test_the_participant_install_checks_without_solutions(tmp_path):
    site = _install(tmp_path)
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
    assert out.startswith(str(site))  # the installed copy, not the source checkout
    assert "not part of the participant install" in out
    assert "Exercise 01.1: correct" in out

    # The instructor hands out the file; saved next to the notebooks, solution() finds it.
    shutil.copy(ROOT / "instructor" / "ipt_solutions.py", run_dir)
    out = subprocess.run([sys.executable, "-c", code], cwd=run_dir, env=env, check=True,
                         capture_output=True, text=True).stdout
    assert "t.mul_(2)" in out and "not part of" not in out
