"""The stored notebooks rendered with nbconvert to HTML (what GitHub-like viewers do): every
widget output shows its static picture, and no raw widget repr leaks into the page."""
from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
VIEW = "application/vnd.jupyter.widget-view+json"


def _widget_outputs(nb) -> list[dict]:
    return [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
            if VIEW in o.get("data", {})]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name[:2] for p in NOTEBOOKS])
def test_html_shows_each_widgets_static_picture(path):
    from nbconvert import HTMLExporter

    nb = nbformat.read(path, as_version=4)
    body, _ = HTMLExporter().from_notebook_node(nb)
    for out in _widget_outputs(nb):
        png = out["data"].get("image/png")
        assert png, f"{path.name}: a widget output without a static picture"
        assert f"data:image/png;base64,{png.strip()}" in body.replace("\n", ""), \
            f"{path.name}: the HTML does not show the widget's picture"
    for raw in ("children=(", "Layout(", "IntProgress(value="):
        assert raw not in body, f"{path.name}: raw widget repr {raw!r} in the HTML"


def test_the_course_has_widget_outputs_to_check():
    counts = {p.name[:2]: len(_widget_outputs(nbformat.read(p, as_version=4)))
              for p in NOTEBOOKS}
    # StrideExplorer (02), TrainingStepper (05), HazardLab (06).
    assert counts["02"] >= 1 and counts["05"] >= 1 and counts["06"] >= 1, counts


def test_finished_progress_bar_is_stored_as_a_picture():
    import re

    nb = nbformat.read(next(p for p in NOTEBOOKS if p.name.startswith("05")), as_version=4)
    finished = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                if re.match(r"digits MLP: epoch 5 · step (\d+)/\1 ",
                            "".join(o.get("data", {}).get("text/plain", "")))]
    assert len(finished) == 1 and "image/png" in finished[0]["data"]
    assert VIEW not in finished[0]["data"]  # the live bar is gone, its picture stays
