"""Set up the course and run it or its tests, on Linux, macOS and Windows: what `make` does.

    python tools/setup.py lab       # .venv with what the course needs, then JupyterLab
    python tools/setup.py test      # .venv with the test tools too, then every test suite
    python tools/setup.py install [--test]   # only set up .venv
    python tools/setup.py lock      # write locks/py3.X.txt from the newest versions (maintainers)
    python tools/setup.py wheelhouse [--host]   # the offline kit (tools/wheelhouse.py)

On Windows: `py tools\\setup.py lab`. The Makefile calls this script, so both routes are one.

Versions: pip installs exactly the versions in locks/py3.X.txt (the ones CI tested on this
Python) unless IPT_LATEST=1, which installs the newest releases into .venv-latest instead.
Offline: if a folder wheelhouse/wheels/ exists (wheels fetched beforehand with `pip download`),
everything is installed from it with no network (`--no-index --find-links`).
Environment switches, as for make: PARITY=1 (torch 2.13.0, CPU build, for
the parity tests), BROWSER=1 (playwright for the JupyterLab browser test), PYTEST_ARGS, XDIST,
NBVAL_XDIST, TORCH_INDEX (where the CPU build of torch comes from; empty: only the usual index).
"""
# Kept to syntax every Python 3 parses, so an old interpreter gets the one-line message below
# instead of a SyntaxError.
import sys

MIN_PYTHON = (3, 10)  # keep equal to requires-python in pyproject.toml (a test checks)

if sys.version_info[:2] < MIN_PYTHON:
    sys.stderr.write(
        "inplace-tutorial needs Python >= %d.%d, but %s is Python %d.%d. Install a newer Python "
        "(3.10-3.13 are tested) and run it instead, e.g. `make PYTHON=python3.12 lab` or "
        "`py -3.12 tools\\setup.py lab`.\n"
        % (MIN_PYTHON + (sys.executable,) + tuple(sys.version_info[:2])))
    sys.exit(2)

import hashlib  # noqa: E402
import os  # noqa: E402
import shlex  # noqa: E402
import subprocess  # noqa: E402
import venv  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LOCKS = ROOT / "locks"
WHEELHOUSE = ROOT / "wheelhouse"
TORCH_INDEX = "https://download.pytorch.org/whl/cpu"
NBVAL_FLAGS = ["--nbval", "--nbval-current-env", "--nbval-sanitize-with",
               "tests/nbval_sanitize.cfg", "-p", "no:randomly"]


def say(msg: str) -> None:
    print("setup: " + msg, flush=True)


def latest() -> bool:
    return os.environ.get("IPT_LATEST", "") == "1"


def venv_dir() -> Path:
    default = ".venv-latest" if latest() else ".venv"
    return ROOT / os.environ.get("VENV", default)


def venv_python(venv_path: Path) -> Path:
    if os.name == "nt":
        return venv_path / "Scripts" / "python.exe"
    return venv_path / "bin" / "python"


def lock_file() -> Path:
    return LOCKS / ("py%d.%d.txt" % sys.version_info[:2])


def extras(test: bool) -> list:
    if not test:
        return []
    out = ["test"]
    if os.environ.get("PARITY") == "1":
        out.append("parity")
    if os.environ.get("BROWSER") == "1":
        out.append("browser")
    return out


def run(cmd: list, **kw) -> int:
    say("$ " + " ".join(shlex.quote(str(c)) for c in cmd))
    return subprocess.call([str(c) for c in cmd], cwd=ROOT, **kw)


def pip_source_args(wanted: list) -> list:
    """Where pip looks: the wheelhouse alone if there is one, else the index (+ torch CPU)."""
    if (WHEELHOUSE / "wheels").is_dir() and not latest():
        say("installing from %s with no network (remove that folder to download instead)"
            % WHEELHOUSE.relative_to(ROOT))
        return ["--no-index", "--find-links", str(WHEELHOUSE / "wheels")]
    index = os.environ.get("TORCH_INDEX", TORCH_INDEX)
    if "parity" in wanted and index and not reachable(index):
        # pip would retry it for every package (about 8 s each here, minutes in all).
        say("%s is not reachable: torch comes from the usual index instead (set TORCH_INDEX= "
            "to skip this check)" % index)
        return []
    if "parity" in wanted and index:
        # torch 2.13.0 from PyPI is a multi-GB CUDA build on Linux; this index has the CPU build
        # (2.13.0+cpu sorts after 2.13.0, so pip prefers it where both exist).
        return ["--extra-index-url", index]
    return []


def reachable(url: str, timeout: float = 5.0) -> bool:
    """Whether an index answers at all (a local file: index always does)."""
    if not url.startswith(("http://", "https://")):
        return True
    import urllib.request
    try:
        urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=timeout)
    except urllib.error.HTTPError:
        return True  # it answered, if only with an error status
    except (OSError, ValueError):
        return False
    return True


def install(test: bool) -> Path:
    """Create the venv if needed and install the course (+ test tools) at the locked versions."""
    target = venv_dir()
    py = venv_python(target)
    if py.exists():
        made_with = subprocess.run([str(py), "-c", "import sys; print(sys.version_info[:2])"],
                                   capture_output=True, text=True).stdout.strip()
        if made_with != str(tuple(sys.version_info[:2])):
            sys.exit("setup: %s was made with Python %s, not %d.%d: remove it (make distclean) "
                     "or choose another folder with VENV=.venv-3.X"
                     % ((target.name, made_with) + tuple(sys.version_info[:2])))
    else:
        say("creating %s with Python %d.%d" % ((target.name,) + tuple(sys.version_info[:2])))
        venv.EnvBuilder(with_pip=True).create(str(target))
    wanted = extras(test)
    spec = "." + ("[%s]" % ",".join(wanted) if wanted else "")
    constraints = []
    if latest():
        say("IPT_LATEST=1: the newest releases, not the tested lock")
    elif lock_file().exists():
        constraints = ["-c", str(lock_file())]
    else:
        say("WARNING: no tested lock for Python %d.%d (locks/ has %s); installing the newest "
            "releases, which CI has not tested" % (sys.version_info[:2] + (
                ", ".join(p.stem for p in sorted(LOCKS.glob("py*.txt"))),)))
    digest = hashlib.sha256()
    for f in [ROOT / "pyproject.toml"] + ([lock_file()] if constraints else []):
        digest.update(f.read_bytes())
    stamp = target / (".installed-" + ("-".join(wanted) or "course"))
    if stamp.exists() and stamp.read_text() == digest.hexdigest():
        return py
    cmd = [py, "-m", "pip", "install", "--disable-pip-version-check"]
    if latest():
        cmd += ["--upgrade", "--upgrade-strategy", "eager"]
    cmd += pip_source_args(wanted) + constraints + ["-e", spec]
    if run(cmd) != 0:
        sys.exit("setup: pip install failed (see above); docs/instructor.md lists common fixes")
    # Kernel spec inside the venv only (--sys-prefix): nothing is registered globally.
    if run([py, "-m", "ipykernel", "install", "--sys-prefix"], stdout=subprocess.DEVNULL) != 0:
        sys.exit("setup: registering the venv's Jupyter kernel failed")
    for old in target.glob(".installed-*"):
        old.unlink()
    stamp.write_text(digest.hexdigest())
    return py


def lab() -> int:
    py = install(test=False)
    cmd = [py, "-m", "jupyter", "lab"]
    if hasattr(os, "getuid") and os.getuid() == 0:
        cmd.append("--allow-root")  # only where it is needed: never forced on learners
    return run(cmd + ["notebooks/"])


def pytest_suite(py: Path, name: str, args: list) -> bool:
    print("== " + name, flush=True)
    rc = run([py, "-m", "pytest", "-q"] + args)
    if rc == 5:
        print("ERROR: %s collected no tests (exit 5)" % name)
    elif rc != 0:
        print("ERROR: %s failed (exit %d)" % (name, rc))
    return rc == 0


# jupyter_client's and nbval's texts for a kernel that never came up (conftest.py retries it
# first; these are what is left when all its attempts failed)
KERNEL_START_FAILURES = ("Kernel died before replying to kernel_info", "Failure starting kernel",
                         "Kernel didn't respond in", "Wasn't able to establish IOPub",
                         "Kernel info reqest timed out")


def only_kernel_start_failures(junit: Path) -> bool:
    """True if every failed notebook cell in the JUnit report failed because its Jupyter kernel
    did not start: kernels started side by side by xdist workers can race for a port."""
    import xml.etree.ElementTree as ET
    try:
        cases = ET.parse(junit).getroot().iter("testcase")
    except (OSError, ET.ParseError):
        return False
    bad = [el for case in cases for el in case if el.tag in ("failure", "error")]
    return bool(bad) and all(
        any(m in (el.get("message", "") + (el.text or "")) for m in KERNEL_START_FAILURES)
        for el in bad)


def notebooks_suite(py: Path, args: list) -> bool:
    """nbval over notebooks/; notebooks whose kernel failed to start run once more (only those,
    and only when nothing else failed), so a port race doesn't fail the suite."""
    name = "notebooks: pytest --nbval (strict) notebooks/"
    junit = ROOT / ".pytest_cache" / "nbval-junit.xml"
    if pytest_suite(py, name, args + ["--junitxml", str(junit)]):
        return True
    if not only_kernel_start_failures(junit):
        return False
    print("notebooks: only kernel start-ups failed (a race between kernels starting side by "
          "side); running the notebooks that failed once more", flush=True)
    return pytest_suite(py, name + " (last failed)", args + ["--lf"])


def test(only: str = "") -> int:
    py = install(test=True)
    extra = shlex.split(os.environ.get("PYTEST_ARGS", ""))
    ok = True
    if only in ("", "unit"):
        xdist = shlex.split(os.environ.get("XDIST", "-n auto"))
        ok &= pytest_suite(py, "unit, parity and browser tests: pytest tests",
                           xdist + extra + ["tests"])
    if only in ("", "notebooks"):
        xdist = shlex.split(os.environ.get("NBVAL_XDIST", "-n auto --dist loadscope"))
        ok &= notebooks_suite(py, xdist + NBVAL_FLAGS + extra + ["notebooks/"])
    print("tests: all suites passed" if ok else "tests: FAILED")
    return 0 if ok else 1


# Held back in the locks: the newest release has no wheel for a platform the offline kit serves
# (argon2-cffi-bindings 26.2.0: none for macOS x86_64; 25.1.0 has abi3 wheels for all four).
KIT_HOLDBACK = {"argon2-cffi-bindings": "25.1.0"}


def lock() -> int:
    """Freeze the newest versions that pass the tests into locks/py3.X.txt (KIT_HOLDBACK kept)."""
    os.environ["IPT_LATEST"] = "1"
    py = install(test=True)
    frozen = subprocess.run([str(py), "-m", "pip", "freeze", "--exclude-editable"],
                            check=True, capture_output=True, text=True).stdout.splitlines()
    pins = []
    for line in frozen:
        name = line.split("==")[0].lower()
        if name in ("inplace-tutorial", "inplace_tutorial") or "==" not in line:
            continue
        if name in KIT_HOLDBACK:
            line = "%s==%s" % (name, KIT_HOLDBACK[name])
        pins.append(line.split("+")[0])  # torch==2.13.0+cpu -> torch==2.13.0 (matches both)
    LOCKS.mkdir(exist_ok=True)
    header = ["# Exactly the versions CI tested on Python %d.%d (pip freeze of the test venv;"
              % sys.version_info[:2],
              "# the project itself excluded). Used as pip constraints by tools/setup.py / make.",
              "# Regenerate: make lock PYTHON=python3.X, then make test PYTHON=python3.X."]
    lock_file().write_text("\n".join(header + sorted(pins, key=str.lower)) + "\n")
    say("wrote %s (%d pins)" % (lock_file().relative_to(ROOT), len(pins)))
    return 0


def wheelhouse(argv: list) -> int:
    import wheelhouse as kit  # tools/wheelhouse.py, next to this script

    return kit.main(argv)


def main(argv: list) -> int:
    cmds = {"lab": lab, "test": test, "lock": lock,
            "wheelhouse": lambda: wheelhouse(argv[1:]),
            "install": lambda: install("--test" in argv[1:]) and 0,
            "test-unit": lambda: test("unit"), "test-notebooks": lambda: test("notebooks")}
    if not argv or argv[0] not in cmds:
        print(__doc__)
        return 2
    return cmds[argv[0]]()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
