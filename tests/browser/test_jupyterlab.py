"""End to end, as a learner sees it: JupyterLab in headless Chromium opens every course notebook,
runs all cells, and the widgets are clicked through full cycles.

Per notebook: no error output, no raw widget repr, a screenshot in artifacts/browser/. The
TrainingStepper's numbers after Run All must equal the notebook's own trace; StrideExplorer gets
valid and invalid inputs; HazardLab runs over its scenarios. One narrow-window and one
dark-theme check look at layout and contrast.

Needs Debian's /usr/bin/chromium and the playwright wheel (never ``playwright install``).
CI sets IPT_REQUIRE_BROWSER=1, so a skip here fails the run there.
"""
from __future__ import annotations

import json
import os
import re
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
NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
ARTIFACTS = REPO / "artifacts" / "browser"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
RAW_REPRS = ("children=(", "Layout(", "IntProgress(value=")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on 127.0.0.1 with a token, over a temp copy of the notebooks."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium chromium-driver")
    pytest.importorskip("playwright.sync_api", reason="playwright is missing (BROWSER=1 make test)")
    tmp = tmp_path_factory.mktemp("lab")
    root = tmp / "notebooks"
    root.mkdir()
    for nb in NOTEBOOKS:
        shutil.copy(nb, root / nb.name)
    # Every cell in the DOM (no windowing), so the test sees every output.
    settings = tmp / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    (settings / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    # No "get notified about Jupyter news?" toast over the widgets in the screenshots.
    toasts = tmp / "settings" / "@jupyterlab" / "apputils-extension"
    toasts.mkdir(parents=True)
    (toasts / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}))
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ,
               # The kernel imports the package from this checkout, whatever is installed.
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
               JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"))
    env.pop("MPLBACKEND", None)  # Agg would make figures vanish in the kernel
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
           "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
           f"--ServerApp.root_dir={root}", f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
           f"--LabApp.user_settings_dir={tmp / 'settings'}",
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
        yield base, token, root
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


@pytest.fixture(scope="module")
def browser(lab):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser, request):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(60_000)
    yield page
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        # What the page looked like when it failed: the first thing to look at.
        page.screenshot(path=str(ARTIFACTS / f"failure_{request.node.name}.png"))
    page.close()


# --------------------------------------------------------------------------- helpers
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"


def shutdown_kernels(lab) -> None:
    """Stop every kernel the server runs, so notebooks don't pile up across tests."""
    base, token, _root = lab
    with urllib.request.urlopen(f"{base}/api/kernels?token={token}", timeout=10) as r:
        kernels = json.load(r)
    for k in kernels:
        req = urllib.request.Request(f"{base}/api/kernels/{k['id']}?token={token}",
                                     method="DELETE")
        urllib.request.urlopen(req, timeout=30).close()


def open_and_run_all(page, lab, name: str) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    base, token, _root = lab
    shutdown_kernels(lab)
    # A workspace of its own, reset: only this notebook is open.
    page.goto(f"{base}/lab/workspaces/w{name[:2]}{secrets.token_hex(3)}/tree/{name}"
              f"?token={token}&reset")
    page.wait_for_selector(f"{PANEL} .jp-Cell", timeout=90_000)
    # A fresh server may ask which kernel to start: take the preselected venv kernel.
    select = page.locator(".jp-Dialog button:has-text('Select')")
    try:
        select.wait_for(timeout=5_000)
        select.click()
    except PlaywrightTimeout:
        pass
    page.wait_for_selector("#jp-main-statusbar :text('Idle')", timeout=90_000)
    page.click("li.lm-MenuBar-item:has-text('Run')")
    page.click("li.lm-Menu-item:has-text('Run All Cells')")
    # Done when every code cell of this notebook shows an execution count and the kernel idles.
    page.wait_for_function(
        """() => {
            const prompts = [...document.querySelectorAll(
                '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')];
            const failed = document.querySelector(
                '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output'
                + '[data-mime-type="application/vnd.jupyter.error"]');
            return failed || (prompts.length > 0
                              && prompts.every(p => /\\[\\d+\\]/.test(p.textContent)));
        }""", timeout=240_000)
    page.wait_for_selector("#jp-main-statusbar :text('Idle')", timeout=60_000)


def outputs_text(page) -> str:
    return "\n".join(page.locator(f"{PANEL} .jp-OutputArea-output").all_inner_texts())


def assert_clean_outputs(page, name: str) -> None:
    errors = page.locator(
        f"{PANEL} .jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'],"
        f" {PANEL} .jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']")
    texts = [t for t in errors.all_inner_texts() if t.strip()]
    assert not texts, f"{name}: error/stderr output after Run All: {texts[:2]}"
    text = outputs_text(page)
    assert "Traceback" not in text, f"{name}: a traceback in the outputs"
    for raw in RAW_REPRS:
        assert raw not in text, f"{name}: raw widget repr {raw!r} shown"


def widget(page, cls_text: str):
    """The widget output area that contains a button/label with ``cls_text``."""
    return page.locator(f"{PANEL} .jp-OutputArea-output", has=page.locator(cls_text)).first


def wait_html(page, needle: str, timeout: int = 30_000) -> str:
    loc = page.locator(f".widget-html-content:has-text(\"{needle}\")").first
    loc.wait_for(timeout=timeout)
    return loc.inner_text()


# --------------------------------------------------------------------------- tests
PLAIN = [nb.name for nb in NOTEBOOKS if nb.name[:2] not in ("02", "05", "06")]


@pytest.mark.parametrize("name", PLAIN, ids=[n[:2] for n in PLAIN])
def test_notebook_runs_clean(page, lab, name):
    if name.startswith("15"):  # runs real PyTorch (PARITY=1 installs it; CI has it)
        pytest.importorskip("torch")
    open_and_run_all(page, lab, name)
    assert_clean_outputs(page, name)
    page.screenshot(path=str(ARTIFACTS / f"{name[:2]}_after_run_all.png"))
    # Every figure as JupyterLab shows it, to look at in the CI artifacts.
    for i, img in enumerate(page.locator(f"{PANEL} .jp-OutputArea-output img").all()):
        img.scroll_into_view_if_needed()
        img.screenshot(path=str(ARTIFACTS / f"{name[:2]}_figure_{i}.png"))


def test_stepper_after_run_all_matches_the_notebooks_trace(page, lab):
    name = next(n.name for n in NOTEBOOKS if n.name.startswith("05"))
    open_and_run_all(page, lab, name)
    assert_clean_outputs(page, name)
    area = widget(page, "button.jupyter-widgets:has-text('Forward')")
    area.scroll_into_view_if_needed()
    status = page.locator(".widget-html-content:has-text('held by the step')").first
    assert "phase ready" in status.inner_text() and "op 0/" in status.inner_text()
    area.screenshot(path=str(ARTIFACTS / "05_stepper_ready.png"))
    # The notebook's own trace: one line per op, "... | peak so far N B".
    printed = [int(n.replace(",", "")) for n in
               re.findall(r"peak so far ([\d,]+) B", outputs_text(page))]
    assert len(printed) == 12, printed
    button = {k: area.locator(f"button.jupyter-widgets:has-text('{k}')").first
              for k in ("Forward", "Backward", "Update", "Zero grad", "Back one op", "Next op",
                        "Reset")}
    page.wait_for_timeout(1000)  # let the comm settle before the first click
    for i, expected in enumerate(printed, start=1):
        button["Next op"].click()
        page.locator(f".widget-html-content:has-text('op {i}/12')").first.wait_for()
        assert f"step peak {expected:,} B" in status.inner_text(), (i, status.inner_text())
    button["Next op"].click()
    wait_html(page, "The step is complete: press Reset")
    button["Back one op"].click()
    wait_html(page, "op 11/12")
    button["Reset"].click()
    wait_html(page, "op 0/12")

    def full_cycle(mode: str) -> None:
        button["Forward"].click()
        wait_html(page, "phase backward")
        area.locator(".widget-image").first.wait_for(state="visible")
        page.wait_for_function("el => el.complete && el.naturalWidth > 100",
                               arg=area.locator(".widget-image").first.element_handle())
        area.screenshot(path=str(ARTIFACTS / f"05_stepper_{mode}_forward.png"))
        # Buttons, messages and the (scrolling) graph fit a 1000 px high window together.
        assert area.bounding_box()["height"] < 800, area.bounding_box()
        button["Backward"].click()
        wait_html(page, "Backward: ran 1 op")
        button["Update"].click()
        said = wait_html(page, "Update: ran 4 ops")
        if mode == "in-place":
            assert "allocated nothing: 0 B" in said
        page.locator(".lm-TabBar-tab:has-text('memory timeline')").first.click()
        area.screenshot(path=str(ARTIFACTS / f"05_stepper_{mode}_update_timeline.png"))
        page.locator(".lm-TabBar-tab:has-text('graph so far')").first.click()
        button["Zero grad"].click()
        wait_html(page, "The step is complete.")
        button["Forward"].click()
        wait_html(page, "Forward already ran")
        area.screenshot(path=str(ARTIFACTS / f"05_stepper_{mode}_done.png"))
        button["Reset"].click()
        wait_html(page, "op 0/12")

    full_cycle("in-place")
    area.locator("button.jupyter-widgets:has-text('in-place ops')").click()
    wait_html(page, "Switched to out-of-place ops")
    full_cycle("out-of-place")
    compare = wait_html(page, "in-place saves")
    # relu() allocates one more 16x8 float32 activation than relu_(): 512 B, nothing else.
    assert "in-place saves 512 B" in compare, compare
    assert_clean_outputs(page, name)


def test_stride_explorer_valid_and_invalid_inputs(page, lab):
    name = next(n.name for n in NOTEBOOKS if n.name.startswith("02"))
    open_and_run_all(page, lab, name)
    assert_clean_outputs(page, name)
    area = widget(page, ".widget-text:has-text('stride')")
    area.scroll_into_view_if_needed()
    page.wait_for_timeout(1000)
    shape = area.locator(".widget-text:has-text('shape') input")
    stride = area.locator(".widget-text:has-text('stride') input")
    image = area.locator("img").first
    x0 = image.bounding_box()["x"]

    def sharp() -> None:
        # Shown at its own pixel size (never stretched, so never blurry).
        w, natural = image.evaluate("el => [el.clientWidth, el.naturalWidth]")
        assert w == natural, (w, natural)

    sharp()
    for shape_text, stride_text, needle in [
            ("4, 4", "4, 1", "RuntimeError"), ("x", "4, 1", "shape must be whole numbers"),
            ("2, 3", "0, 1", "read by more than one index"),
            ("3, 4", "1, 3", "is_contiguous()=False"),
            ("1", "1", "1 element over 1 of 12 cells")]:
        shape.fill(shape_text)
        stride.fill(stride_text)
        wait_html(area, needle)
        page.wait_for_timeout(300)
        assert abs(image.bounding_box()["x"] - x0) < 1, "the picture moved sideways"
        sharp()
        if needle == "RuntimeError":
            area.screenshot(path=str(ARTIFACTS / "02_stride_explorer_error.png"))
    area.screenshot(path=str(ARTIFACTS / "02_stride_explorer.png"))
    # At most one new picture per keystroke, and one for a burst of fast typing.
    image.evaluate("""el => { window.__srcChanges = 0; new MutationObserver(
        () => window.__srcChanges++).observe(el, {attributes: true,
                                                  attributeFilter: ['src']}); }""")
    stride.fill("")
    stride.press_sequentially("3, 1", delay=400)
    page.wait_for_timeout(1000)
    slow = page.evaluate("window.__srcChanges")
    assert 1 <= slow <= 4, slow
    page.evaluate("window.__srcChanges = 0")
    shape.fill("")
    shape.press_sequentially("2, 6", delay=20)
    wait_html(area, "v = x.as_strided((2, 6)")
    page.wait_for_timeout(1000)
    fast = page.evaluate("window.__srcChanges")
    assert 1 <= fast <= 2, fast
    assert_clean_outputs(page, name)


def test_hazard_lab_over_its_scenarios(page, lab):
    from playwright.sync_api import expect

    name = next(n.name for n in NOTEBOOKS if n.name.startswith("06"))
    open_and_run_all(page, lab, name)
    assert_clean_outputs(page, name)
    area = widget(page, "button.jupyter-widgets:has-text('Run')")
    area.scroll_into_view_if_needed()
    page.wait_for_timeout(1000)
    selects = area.locator("select")
    forwards = selects.nth(0).locator("option").all_inner_texts()
    inplaces = selects.nth(1).locator("option").all_inner_texts()
    assert len(forwards) == 9 and len(inplaces) == 4
    out = area.locator(".widget-html").last
    runs = 0
    for i, fwd in enumerate(forwards):
        for target in ("output y", "input x"):
            before = out.inner_text()
            selects.nth(0).select_option(fwd)
            selects.nth(1).select_option(inplaces[(i + runs) % len(inplaces)])
            area.locator(f"button:has-text('{target}')").click()
            radio = area.locator("label:has-text('it fails') input")
            radio.check()
            # ipywidgets holds state changes back while the kernel is busy and sends them when
            # it idles, but sends a button click at once: a click faster than a person's could
            # overtake the prediction. Wait, as a person would, until the kernel is idle.
            page.wait_for_selector("#jp-main-statusbar :text('Idle')", timeout=60_000)
            area.locator("button.jupyter-widgets:has-text('Run')").click()
            runs += 1
            page.wait_for_function("([el, old]) => el.innerText !== old && "
                                   "el.innerText.includes('your prediction was')",
                                   arg=[out.element_handle(), before])
            text = out.inner_text()
            assert ("RuntimeError during the" in text) or ("backward succeeded" in text)
            assert not re.search(r"\d\.\d{6,}", text), "unrounded gradient"
            # The prediction was used once: the radio buttons are clear again.
            expect(radio).not_to_be_checked(timeout=120_000)
    assert runs == 18
    area.screenshot(path=str(ARTIFACTS / "06_hazard_lab.png"))
    assert_clean_outputs(page, name)


def test_narrow_window_and_dark_theme(browser, lab):
    """1024 px with the file browser open: nothing clipped; dark theme: light widget text."""
    page = browser.new_page(viewport={"width": 1024, "height": 900})
    page.set_default_timeout(60_000)
    try:
        name = next(n.name for n in NOTEBOOKS if n.name.startswith("05"))
        open_and_run_all(page, lab, name)
        if not page.locator(".jp-FileBrowser").first.is_visible():
            page.click("li.lm-MenuBar-item:has-text('View')")
            page.click("li.lm-Menu-item:has-text('File Browser')")
        area = widget(page, "button.jupyter-widgets:has-text('Forward')")
        area.scroll_into_view_if_needed()
        clipped = area.locator("button.jupyter-widgets").evaluate_all(
            "els => els.filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.innerText)")
        assert not clipped, f"button labels cut off: {clipped}"
        box = area.bounding_box()
        for b in area.locator("button.jupyter-widgets").all():
            bb = b.bounding_box()
            assert bb["x"] + bb["width"] <= box["x"] + box["width"] + 1, b.inner_text()
        area.screenshot(path=str(ARTIFACTS / "05_stepper_narrow.png"))
        # StrideExplorer's three fields wrap inside the same narrow output area.
        name02 = next(n.name for n in NOTEBOOKS if n.name.startswith("02"))
        open_and_run_all(page, lab, name02)
        if not page.locator(".jp-FileBrowser").first.is_visible():
            page.click("li.lm-MenuBar-item:has-text('View')")
            page.click("li.lm-Menu-item:has-text('File Browser')")
        explorer = widget(page, ".widget-text:has-text('stride')")
        explorer.scroll_into_view_if_needed()
        right = explorer.bounding_box()["x"] + explorer.bounding_box()["width"]
        for field in explorer.locator(".widget-text input").all():
            bb = field.bounding_box()
            assert bb["width"] > 40 and bb["x"] + bb["width"] <= right + 1
        explorer.screenshot(path=str(ARTIFACTS / "02_stride_explorer_narrow.png"))
        open_and_run_all(page, lab, name)
        area = widget(page, "button.jupyter-widgets:has-text('Forward')")
        area.scroll_into_view_if_needed()
        page.click("li.lm-MenuBar-item:has-text('Settings')")
        page.hover("li.lm-Menu-item:has-text('Theme')")
        page.click("li.lm-Menu-item:has-text('JupyterLab Dark')")
        page.wait_for_function(
            "() => document.body.dataset.jpThemeLight === 'false'", timeout=30_000)
        page.wait_for_timeout(1000)
        status = page.locator(".widget-html-content:has-text('held by the step') div").first
        rgb = status.evaluate("el => getComputedStyle(el).color")
        levels = [int(v) for v in re.findall(r"\d+", rgb)[:3]]
        assert min(levels) > 200, f"widget text {rgb} is too dark for the dark theme"
        area.screenshot(path=str(ARTIFACTS / "05_stepper_dark.png"))
    finally:
        page.close()


def test_the_error_check_sees_a_failing_cell(page, lab):
    """The no-error assertion above can fail: a notebook whose cell raises trips it."""
    import nbformat

    root = lab[2]
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("print('before')"),
                nbformat.v4.new_code_cell("1 / 0")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, root / "zz_raises.ipynb")
    open_and_run_all(page, lab, "zz_raises.ipynb")
    with pytest.raises(AssertionError, match="error/stderr output|traceback"):
        assert_clean_outputs(page, "zz_raises.ipynb")


def test_unrun_notebooks_show_static_widget_pictures(page, lab):
    """A stored notebook opened without running it: each widget output is its picture."""
    base, token, _root = lab
    shutdown_kernels(lab)
    for prefix in ("02", "05", "06"):
        name = next(n.name for n in NOTEBOOKS if n.name.startswith(prefix))
        page.goto(f"{base}/lab/workspaces/u{prefix}{secrets.token_hex(3)}/tree/{name}"
                  f"?token={token}&reset")
        page.wait_for_selector(f"{PANEL} .jp-Cell", timeout=90_000)
        page.wait_for_timeout(1500)
        text = outputs_text(page)
        for raw in (*RAW_REPRS, "Error displaying widget", "model not found"):
            assert raw not in text, f"{name}: {raw!r} shown before the notebook runs"
        made_here = (".jp-InputArea :text-matches("
                     "'widgets\\\\.(StrideExplorer|TrainingStepper|HazardLab)')")
        widget_cells = page.locator(f"{PANEL} .jp-CodeCell", has=page.locator(made_here))
        assert widget_cells.count() >= 1, name
        for i in range(widget_cells.count()):
            img = widget_cells.nth(i).locator(".jp-OutputArea-output img").first
            img.wait_for()
            assert img.evaluate("el => el.complete && el.naturalWidth > 100"), name
            img.scroll_into_view_if_needed()
            img.screenshot(path=str(ARTIFACTS / f"{prefix}_unrun_widget_{i}.png"))
