"""Root pytest configuration, shared by the unit/parity/browser tests and the nbval notebook run.

* ``PYTHONHASHSEED=0`` is exported here so that kernels started by nbval (which inherit this
  process's environment) print sets and dicts of strings in a stable order.
* ``IPT_REQUIRE_PARITY=1`` / ``IPT_REQUIRE_BROWSER=1`` (set by ``.ci/run``) turn a *skipped*
  parity or browser test into a session failure, so CI can never go green with torch or
  Chromium silently missing.
* Notebooks listed in ``_TORCH_NOTEBOOKS`` (real PyTorch) are collected by nbval only when
  ``PARITY=1`` or ``IPT_REQUIRE_PARITY=1``; otherwise they are left out of the run.
* Under ``--nbval`` a notebook's Jupyter kernel that fails to start is started again (up to
  ``_KERNEL_STARTS`` times), and the kernel's own stderr (nbval sends it to /dev/null) is kept
  so that a failure says why the kernel died.
"""

from __future__ import annotations

import os
import tempfile
import warnings

import pytest

os.environ["PYTHONHASHSEED"] = "0"

# env var -> (path fragment, marker name, what is probably missing)
_REQUIRED_GROUPS = {
    "IPT_REQUIRE_PARITY": ("tests/parity", "parity", "torch==2.13.0 (PARITY=1 make test)"),
    "IPT_REQUIRE_BROWSER": (
        "tests/browser",
        "browser",
        "Debian chromium + playwright (BROWSER=1 make test)",
    ),
}

_skipped: dict[str, list[str]] = {var: [] for var in _REQUIRED_GROUPS}


def _enabled(var: str) -> bool:
    return os.environ.get(var, "").strip() == "1"


def _reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:  # (path, lineno, "Skipped: why")
        return str(longrepr[2])
    return str(longrepr)


def _record(report) -> None:
    # xfail/xpass reports also have outcome "skipped"; an expected failure is not a skip.
    if not report.skipped or hasattr(report, "wasxfail"):
        return
    nodeid = report.nodeid.replace("\\", "/")
    keywords = getattr(report, "keywords", {}) or {}
    for var, (fragment, marker, _) in _REQUIRED_GROUPS.items():
        if _enabled(var) and (fragment in nodeid or marker in keywords):
            _skipped[var].append(f"{report.nodeid or '<collection>'}: {_reason(report)}")


def pytest_runtest_logreport(report) -> None:
    # Skips at setup time (pytest.skip, skipif markers, missing fixtures' importorskip).
    _record(report)


def pytest_collectreport(report) -> None:
    # Module-level ``pytest.importorskip("torch")`` skips the whole file at collection time,
    # which produces a CollectReport, not a test report.
    _record(report)


# Notebooks that run real PyTorch: under nbval only with PARITY=1 (make test) or in CI.
_TORCH_NOTEBOOKS = ("15_your_own_pytorch_model.ipynb",)


def pytest_ignore_collect(collection_path, config):
    if collection_path.name in _TORCH_NOTEBOOKS and not (
        _enabled("PARITY") or _enabled("IPT_REQUIRE_PARITY")
    ):
        return True
    return None


def _is_xdist_worker(config) -> bool:
    return hasattr(config, "workerinput")


def _failures() -> list[str]:
    lines = []
    for var, items in _skipped.items():
        if items:
            _, marker, need = _REQUIRED_GROUPS[var]
            lines.append(
                f"{var}=1 but {len(items)} {marker} test(s) were SKIPPED; "
                f"they must run here. Probably missing: {need}."
            )
            lines.extend(f"    {item}" for item in items)
    return lines


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus) -> None:
    # On xdist the controller sees every worker's reports; workers stay out of it.
    if _is_xdist_worker(session.config):
        return
    if _failures() and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    if _is_xdist_worker(config):
        return
    lines = _failures()
    if lines:
        terminalreporter.write_sep("=", "required tests were skipped", red=True, bold=True)
        for line in lines:
            terminalreporter.write_line(line, red=True)


# Kernels started side by side by xdist workers occasionally die before their first reply
# (about one notebook in a hundred here). That is the test machinery, not the course, so a
# notebook gets a fresh kernel; a cell that fails once its kernel is up still fails.
_KERNEL_STARTS = 3


def _keep_kernel_stderr(start_new_kernel):
    """nbval's ``start_new_kernel`` with the kernel's stderr in a temporary file, whose end is
    added to the error when the kernel does not come up."""

    def start(*args, **kwargs):
        devnull = kwargs.pop("stderr", None)
        if devnull is not None:
            devnull.close()
        with tempfile.TemporaryFile() as err:
            kwargs["stderr"] = err
            try:
                return start_new_kernel(*args, **kwargs)
            except RuntimeError as e:
                err.seek(0)
                said = err.read().decode(errors="replace").strip()[-2000:]
                raise RuntimeError(f"{e}\n--- the kernel's stderr ---\n{said}") from e

    return start


def _retry_kernel_start(init):
    """``RunningKernel.__init__`` tried up to ``_KERNEL_STARTS`` times."""

    def __init__(self, *args, **kwargs):
        for attempt in range(1, _KERNEL_STARTS + 1):
            try:
                return init(self, *args, **kwargs)
            except RuntimeError as e:
                if getattr(self, "km", None) is not None:
                    self.km.shutdown_kernel(now=True)  # up, but IOPub never answered
                if attempt == _KERNEL_STARTS:
                    raise
                warnings.warn(f"a Jupyter kernel failed to start (attempt {attempt}), "
                              f"starting another: {e}", stacklevel=1)

    return __init__


def pytest_configure(config) -> None:
    if config.getoption("nbval", default=False) or config.getoption("nbval_lax", default=False):
        from nbval import kernel

        kernel.start_new_kernel = _keep_kernel_stderr(kernel.start_new_kernel)
        kernel.RunningKernel.__init__ = _retry_kernel_start(kernel.RunningKernel.__init__)
