"""The workshop kit: setup script, lock files, conda file and version checks agree."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

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
