"""End to end: JupyterLab in headless Chromium runs a notebook with a TrainingStepper, a click
on Forward reaches the kernel, and the widget's own DOM shows the new state.

Needs Debian's /usr/bin/chromium and the playwright wheel (never ``playwright install``).
CI sets IPT_REQUIRE_BROWSER=1, so a skip here fails the run there.
"""
from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

HERE = Path(__file__).parent
REPO = HERE.parent.parent
ARTIFACTS = REPO / "artifacts" / "browser"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on 127.0.0.1 with a token, over a temp copy of this folder."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium chromium-driver")
    pytest.importorskip("playwright.sync_api", reason="playwright is missing (BROWSER=1 make test)")
    tmp = tmp_path_factory.mktemp("lab")
    root = tmp / "notebooks"
    shutil.copytree(HERE, root, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ,
               # The kernel imports the package from this checkout, whatever is installed.
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
               JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"))
    env.pop("MPLBACKEND", None)  # Agg would make figures vanish in the kernel
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
           "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
           f"--ServerApp.root_dir={root}", f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
           "--LabApp.news_url=None", "--LabApp.check_for_updates_class="
           "jupyterlab.NeverCheckForUpdate"]
    if os.getuid() == 0:
        cmd.append("--allow-root")
    log = open(tmp / "lab.log", "wb")
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("JupyterLab did not start:\n"
                                       + (tmp / "lab.log").read_text()[-3000:]) from None
                time.sleep(0.5)
        yield base, token
    finally:
        # Our server's process group only (the server and the kernels it started).
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        log.close()


def test_training_stepper_renders_and_forward_updates_it(lab):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    base, token = lab
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(60_000)
        try:
            page.goto(f"{base}/lab/tree/stepper_demo.ipynb?token={token}")
            page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
            # A fresh server may ask which kernel to start: take the preselected venv kernel.
            select = page.locator(".jp-Dialog button:has-text('Select')")
            try:
                select.wait_for(timeout=15_000)
                select.click()
            except PlaywrightTimeout:
                pass
            page.wait_for_selector("#jp-main-statusbar :text('Idle')", timeout=90_000)
            page.click("li.lm-MenuBar-item:has-text('Run')")
            page.click("li.lm-Menu-item:has-text('Run All Cells')")
            forward = page.locator("button.jupyter-widgets:has-text('Forward')")
            forward.wait_for(timeout=60_000)
            status = page.locator(".widget-html-content:has-text('phase')").first
            status.wait_for()
            assert "phase ready" in status.inner_text()
            assert "op 0/" in status.inner_text()
            page.wait_for_timeout(2000)  # let the kernel settle the comm before clicking
            graph = page.locator(".widget-image").first
            graph_before = graph.get_attribute("src")
            forward.click()
            page.locator(".widget-html-content:has-text('phase backward')").wait_for(
                timeout=60_000)
            after = status.inner_text()
            assert "op 6/" in after and "loss = picked.sum()" in after
            # The graph picture was redrawn for the new ops: a new PNG the browser decoded.
            page.wait_for_function(
                "([el, old]) => el.getAttribute('src') !== old && el.complete "
                "&& el.naturalWidth > 100", arg=[graph.element_handle(), graph_before],
                timeout=60_000)
            assert graph.get_attribute("src") != graph_before
            page.screenshot(path=str(ARTIFACTS / "stepper_after_forward.png"), full_page=True)
        except Exception:
            # What the page looked like when it failed: the first thing to look at.
            page.screenshot(path=str(ARTIFACTS / "failure.png"), full_page=True)
            raise
        finally:
            browser.close()
