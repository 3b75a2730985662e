"""Every figure's smallest text, at the size a learner sees it, is at least 9 px.

JupyterLab shows a PNG at its own pixel size, shrunk to the output area when wider (968 px
in a 1280 px window). So text of ``s`` points in a PNG ``w`` pixels wide, drawn at ``dpi``,
shows at ``s * dpi / 72 * min(1, 968 / w)`` px. Each notebook runs in a kernel whose
matplotlib records that number for every figure it renders (inline figures and widget
pictures alike); the widgets' other states are drawn here, in-process.
"""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from matplotlib.backend_bases import FigureCanvasBase  # noqa: E402
from matplotlib.text import Text  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import build_notebooks  # noqa: E402

OUTPUT_AREA_PX = 968
MIN_PX = 9.0

# Runs first in the notebook's kernel: wraps print_figure, which both the inline backend and
# viz.to_png go through, and records (smallest displayed text px, that text, PNG width).
HOOK = r'''
import io as _io, struct as _struct
from matplotlib.backend_bases import FigureCanvasBase as _C
from matplotlib.text import Text as _T
_ipt_sizes = []
_orig_print_figure = _C.print_figure
def _ipt_print_figure(self, filename, *args, **kwargs):
    start = filename.tell() if hasattr(filename, "tell") else None
    out = _orig_print_figure(self, filename, *args, **kwargs)
    if start is not None and hasattr(filename, "getvalue"):
        head = filename.getvalue()[start:start + 24]
        if head[:8] == b"\x89PNG\r\n\x1a\n":
            width = _struct.unpack(">I", head[16:20])[0]
            dpi = kwargs.get("dpi")
            dpi = self.figure.dpi if dpi in (None, "figure") else float(dpi)
            scale = min(1.0, OUTPUT_AREA_PX / width)
            texts = [t for t in self.figure.findobj(_T) if t.get_visible() and t.get_text().strip()]
            if texts:
                t = min(texts, key=lambda t: t.get_fontsize())
                _ipt_sizes.append((t.get_fontsize() * dpi / 72 * scale, t.get_text()[:40], width))
    return out
_C.print_figure = _ipt_print_figure
'''.replace("OUTPUT_AREA_PX", str(OUTPUT_AREA_PX))
REPORT = "import json as _json; print(_json.dumps(_ipt_sizes))"

NOTEBOOKS = sorted((ROOT / "notebooks" / "src").glob("*.py"))
# Notebook 15 runs real PyTorch: a parity test (skipped without torch, required in CI).
NEEDS_TORCH = ("15",)


@pytest.mark.parametrize("src", [
    pytest.param(p, marks=pytest.mark.parity) if p.stem[:2] in NEEDS_TORCH else p
    for p in NOTEBOOKS], ids=[p.stem[:2] for p in NOTEBOOKS])
def test_notebook_figures_text_is_readable(src):
    if src.stem[:2] in NEEDS_TORCH:
        pytest.importorskip("torch")
    import nbformat
    from nbclient import NotebookClient

    nb = build_notebooks.parse(src.read_text())
    nb.cells.insert(0, nbformat.v4.new_code_cell(HOOK))
    nb.cells.append(nbformat.v4.new_code_cell(REPORT))
    NotebookClient(nb, timeout=300, kernel_name="python3", store_widget_state=False,
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    sizes = json.loads(nb.cells[-1].outputs[0]["text"])
    small = [(round(px, 1), text, width) for px, text, width in sizes if px < MIN_PX]
    assert not small, f"text under {MIN_PX} px at displayed size (px, text, PNG width): {small}"
    stored = nbformat.read(ROOT / "notebooks" / f"{src.stem}.ipynb", as_version=4)
    pictures = sum("image/png" in o.get("data", {}) for c in stored.cells
                   for o in c.get("outputs", []))
    # Every stored picture went through the hook (widgets draw more than they store).
    assert len(sizes) >= pictures, "the hook missed figures: is it still on print_figure?"


def _smallest_px(png_fig) -> float:
    buf = io.BytesIO()
    FigureCanvasBase(png_fig)  # a canvas to render with, as the notebook's would be
    png_fig.savefig(buf, format="png")
    width = int.from_bytes(buf.getvalue()[16:20], "big")
    texts = [t for t in png_fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    return min(t.get_fontsize() for t in texts) * png_fig.dpi / 72 * min(1, OUTPUT_AREA_PX / width)


def test_widget_pictures_in_every_state_are_readable(monkeypatch):
    from inplace_tutorial import viz
    from inplace_tutorial.widgets import HazardLab, StrideExplorer, TrainingStepper

    seen: list[float] = []
    real = viz.to_png

    def recording(fig):
        seen.append(_smallest_px(fig))
        return real(fig)

    monkeypatch.setattr(viz, "to_png", recording)
    w = TrainingStepper()
    for inplace in (True, False):
        w.toggle.value = inplace
        for key in ("next", "forward", "backward", "update", "zero_grad", "back", "reset"):
            w.buttons[key].click()
    s = StrideExplorer()
    for shape, stride in (("12", "1"), ("2, 2, 3", "6, 3, 1"), ("4, 4", "1, 1"), ("x", "1")):
        s.shape.value, s.stride.value = shape, stride
    HazardLab().run_button.click()
    assert len(seen) > 20
    assert min(seen) >= MIN_PX, f"smallest widget picture text {min(seen):.1f} px"
