"""The offline workshop kit: wheels for every laptop, and the participant zip (no solutions).

    python tools/setup.py wheelhouse          # Linux x86_64, macOS arm64 + x86_64, Windows x86_64,
                                              # each for Python 3.10-3.13, then the zip
    python tools/setup.py wheelhouse --host   # only this machine's platform and Python (CI)

Wheels go to wheelhouse/wheels/ (what tools/setup.py installs from, with no network, when that
folder exists) and the kit to dist/inplace-tutorial-kit.zip: the course files git tracks, minus
instructor/ (the reference solutions), plus wheelhouse/wheels/. Versions are the locks'
(locks/py3.X.txt as constraints); torch (PARITY=1) and playwright (BROWSER=1) are not in it.

`pip download --platform` evaluates environment markers for the machine it runs on, not for the
target (so Windows' colorama or macOS' appnope would be missing): after pip's pass, every
target's dependency closure is walked here with the target's markers and tags, and whatever is
missing is downloaded too. A target is complete only when that walk finds every requirement.
"""
from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

try:
    from packaging import tags, utils, version
    from packaging.requirements import Requirement
except ImportError:  # outside a venv: the copy that ships inside pip
    from pip._vendor.packaging import tags, utils, version  # type: ignore[no-redef]
    from pip._vendor.packaging.requirements import Requirement  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
WHEELS = ROOT / "wheelhouse" / "wheels"
KIT_ZIP = ROOT / "dist" / "inplace-tutorial-kit.zip"
KIT_PREFIX = "inplace-tutorial"
PYTHONS = ("3.10", "3.11", "3.12", "3.13")
# The patch releases the locks were tested on: pip needs one for packages that require e.g.
# Python >= 3.11.5 (soupsieve 4.1.3); an older patch release of the same minor may not install.
PATCH = {"3.10": "3.10.13", "3.11": "3.11.7", "3.12": "3.12.1", "3.13": "3.13.0"}
# Never in the participant kit: the reference solutions, and CI/maintainer-only files.
EXCLUDED = ("instructor/", ".ci/", "wheelhouse/", "dist/")

_MANYLINUX = [f"manylinux_2_{m}_x86_64" for m in (28, 27, 26, 25, 24, 17)] + [
    "manylinux2014_x86_64", "manylinux2010_x86_64", "manylinux1_x86_64"]
# name: (pip --platform values, most preferred first; marker environment)
PLATFORMS = {
    "linux-x86_64": (_MANYLINUX, {"sys_platform": "linux", "platform_system": "Linux",
                                  "os_name": "posix", "platform_machine": "x86_64"}),
    # macOS 11 is the oldest Apple Silicon release; 14 only where a package has nothing older.
    "macos-arm64": (["macosx_11_0_arm64", "macosx_14_0_arm64"],
                    {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix",
                     "platform_machine": "arm64"}),
    "macos-x86_64": (["macosx_11_0_x86_64", "macosx_14_0_x86_64"],
                     {"sys_platform": "darwin", "platform_system": "Darwin",
                      "os_name": "posix", "platform_machine": "x86_64"}),
    "windows-x86_64": (["win_amd64"], {"sys_platform": "win32", "platform_system": "Windows",
                                       "os_name": "nt", "platform_machine": "AMD64"}),
}


def say(msg: str) -> None:
    print("wheelhouse: " + msg, flush=True)


def _pyproject_requirements() -> list[str]:
    """The course's and the test tools' requirements, and the build backend."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        from pip._vendor import tomli as tomllib  # type: ignore[no-redef]
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project = data["project"]
    return (list(project["dependencies"]) + list(project["optional-dependencies"]["test"])
            + list(data["build-system"]["requires"]))


def _pins(lock: Path) -> dict[str, str]:
    pins = {}
    for line in lock.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, ver = line.split("==")
            pins[utils.canonicalize_name(name)] = ver
    return pins


def _target_tags(python: str, platforms: list[str]) -> list[tags.Tag]:
    major, minor = (int(x) for x in python.split("."))
    expanded: list[str] = []
    for p in platforms:
        if p.startswith("macosx_"):
            _, mj, mn, arch = p.split("_", 3)
            expanded += tags.mac_platforms((int(mj), int(mn)), arch)
        else:
            expanded.append(p)
    abi = f"cp{major}{minor}"
    return (list(tags.cpython_tags((major, minor), abis=[abi], platforms=expanded))
            + list(tags.compatible_tags((major, minor), interpreter=abi, platforms=expanded)))


def _wheels() -> dict[str, list[tuple[version.Version, frozenset, Path]]]:
    found: dict[str, list] = {}
    for path in WHEELS.glob("*.whl"):
        name, ver, _build, wtags = utils.parse_wheel_filename(path.name)
        found.setdefault(name, []).append((ver, wtags, path))
    return found


def _metadata(wheel: Path):
    with zipfile.ZipFile(wheel) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        return Parser().parsestr(z.read(meta).decode("utf-8"))


def missing_requirements(python: str, platform: str) -> list[Requirement]:
    """Walk the closure of the course's requirements for one target through the wheels present,
    with the target's markers and tags; return the requirements no wheel satisfies."""
    platforms, env = PLATFORMS[platform]
    env = dict(env, python_version=python, python_full_version=PATCH[python],
               implementation_name="cpython", platform_python_implementation="CPython")
    supported = set(_target_tags(python, platforms))
    pins = _pins(ROOT / "locks" / f"py{python}.txt")
    wheels = _wheels()
    todo = [(Requirement(r), "") for r in _pyproject_requirements()]
    done: set[tuple[str, str]] = set()
    missing: list[Requirement] = []
    while todo:
        req, extra = todo.pop()
        if req.marker and not req.marker.evaluate(dict(env, extra=extra)):
            continue
        name = utils.canonicalize_name(req.name)
        fits = [(v, p) for v, wtags, p in wheels.get(name, [])
                if wtags & supported and req.specifier.contains(v, prereleases=True)
                and (name not in pins or v == version.Version(pins[name]))]
        if not fits:
            missing.append(req)
            continue
        _, wheel = max(fits)
        for want in [""] + sorted(req.extras):
            if (name, want) in done:
                continue
            done.add((name, want))
            for dep in _metadata(wheel).get_all("Requires-Dist") or []:
                todo.append((Requirement(dep), want))
    return missing


def _download(python: str, platform: str | None, reqs: list[str]) -> int:
    cmd = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "-q",
           "--only-binary=:all:", "--dest", str(WHEELS), "-c", str(ROOT / "locks" /
                                                                    f"py{python}.txt")]
    if platform is not None:
        cmd += ["--python-version", PATCH[python], "--implementation", "cp"]
        for p in PLATFORMS[platform][0]:
            cmd += ["--platform", p]
    return subprocess.call(cmd + reqs, cwd=ROOT)


def host_platform() -> str:
    machine = __import__("platform").machine().lower()
    name = {"linux": "linux", "darwin": "macos", "win32": "windows"}.get(sys.platform, "")
    arch = {"amd64": "x86_64", "x86_64": "x86_64", "arm64": "arm64", "aarch64": "arm64"}
    key = f"{name}-{arch.get(machine, machine)}"
    if key not in PLATFORMS:
        sys.exit(f"wheelhouse: no kit platform for this machine ({key})")
    return key


def build(host_only: bool = False) -> int:
    WHEELS.mkdir(parents=True, exist_ok=True)
    python = f"{sys.version_info[0]}.{sys.version_info[1]}"
    targets = ([(python, host_platform())] if host_only
               else [(py, plat) for plat in PLATFORMS for py in PYTHONS])
    incomplete = []
    for py, plat in targets:
        say(f"Python {py}, {plat}")
        _download(py, plat, _pyproject_requirements())
        for _round in range(10):  # each round adds one level of target-only dependencies
            missing = missing_requirements(py, plat)
            if not missing:
                break
            say(f"  {plat} needs what pip skipped on this machine: "
                + ", ".join(str(r) for r in missing))
            # Without their markers: pip would evaluate them for this machine again.
            wanted = sorted({r.name + (f"[{','.join(sorted(r.extras))}]" if r.extras else "")
                             + str(r.specifier) for r in missing})
            if _download(py, plat, wanted) != 0:
                break
        missing = missing_requirements(py, plat)
        if missing:
            incomplete.append(f"Python {py} {plat}: " + ", ".join(str(r) for r in missing))
    n = len(list(WHEELS.glob("*.whl")))
    size = sum(p.stat().st_size for p in WHEELS.glob("*.whl")) / 1e6
    say(f"{n} wheels, {size:.0f} MB in {WHEELS.relative_to(ROOT)}")
    zip_kit(KIT_ZIP)
    if incomplete:
        say("INCOMPLETE (no wheel in the registry):\n  " + "\n  ".join(incomplete))
        return 1
    return 0


def course_files() -> list[str]:
    """The course as git tracks it (relative paths), without what participants must not get."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    return sorted(f for f in listed if f and (ROOT / f).is_file()
                  and not f.startswith(EXCLUDED) and not re.search(r"(^|/)\.venv", f))


def zip_kit(out: Path, with_wheels: bool = True) -> Path:
    """The participant kit: course files under inplace-tutorial/, the wheels in its wheelhouse/."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for f in course_files():
            z.write(ROOT / f, f"{KIT_PREFIX}/{f}")
        if with_wheels:
            for w in sorted(WHEELS.glob("*.whl")):
                # Wheels are compressed already: store them as they are.
                z.write(w, f"{KIT_PREFIX}/wheelhouse/wheels/{w.name}", zipfile.ZIP_STORED)
    say(f"participant kit {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out} "
        f"({out.stat().st_size / 1e6:.0f} MB, no instructor/)")
    return out


def main(argv: list[str]) -> int:
    if "--zip-only" in argv:
        zip_kit(KIT_ZIP)
        return 0
    return build(host_only="--host" in argv)
