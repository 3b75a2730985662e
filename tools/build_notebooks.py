"""Build the course notebooks from their sources and execute them, storing the outputs.

Sources are plain Python in ``notebooks/src/NN_name.py`` ("percent" format: a line
``# %%`` starts a code cell, ``# %% [markdown]`` a markdown cell whose lines start with
``# ``). Cell tags go on the header, jupytext-style: ``# %% tags=["nbval-ignore-output"]``
marks a cell for nbval in its metadata, so the learner's code holds only the lesson.
Each notebook is executed top to bottom in a fresh kernel with PYTHONHASHSEED=0,
from the notebooks/ folder, exactly as nbval will re-run it; the outputs are committed.

    python tools/build_notebooks.py            # all
    python tools/build_notebooks.py 03 05      # only these numbers
    python tools/build_notebooks.py --slides 01   # only (re)write the slide metadata, no run

Every cell also gets ``slideshow`` metadata, so ``jupyter nbconvert --to slides`` makes a deck:
a # or ## heading starts a slide, a ### heading a sub-slide; other cells join the current
(sub-)slide as fragments until it would overflow a screen, then start a sub-slide; code longer
than a screen goes to the speaker notes.
"""
from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
SRC, OUT = ROOT / "notebooks" / "src", ROOT / "notebooks"


def parse(text: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    chunks = re.split(r"^# %%(.*)$", text, flags=re.M)
    for header, body in zip(chunks[1::2], chunks[2::2]):
        body = body.strip("\n")
        if "[markdown]" in header:
            lines = [ln[2:] if ln.startswith("# ") else ln.lstrip("#") for ln in body.splitlines()]
            nb.cells.append(nbformat.v4.new_markdown_cell("\n".join(lines).strip()))
        elif body.strip():
            cell = nbformat.v4.new_code_cell(body)
            tags = re.search(r"tags=(\[[^\]]*\])", header)
            if tags:
                cell.metadata["tags"] = json.loads(tags.group(1))
            nb.cells.append(cell)
    return nb


SCREEN = 18  # lines of a 1280x720 (sub-)slide: cell source, wrapped at ~80 characters, plus
# outputs; a heading counts as 3 lines
IMAGE = 14  # lines an output picture takes
LONG_CODE = 22  # code cells longer than this go to the speaker notes


def _height(cell: nbformat.NotebookNode) -> int:
    lines = sum((3 if ln.startswith("#") and cell.cell_type == "markdown" else 1) + len(ln) // 80
                for ln in cell.source.splitlines())
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if "image/png" in data:
            lines += IMAGE
        else:
            text = out.get("text") or data.get("text/plain") or ""
            lines += min(len(str(text).splitlines()), SCREEN)
    return lines


def add_slide_metadata(nb: nbformat.NotebookNode) -> None:
    """Set each cell's ``slideshow.slide_type`` (see the module docstring)."""
    used = 0
    for i, cell in enumerate(nb.cells):
        height = _height(cell)
        head = re.match(r"(#+) ", cell.source) if cell.cell_type == "markdown" else None
        if i == 0 or (head and len(head.group(1)) <= 2):  # a deck starts with a slide
            kind, used = "slide", height
        elif head:
            kind, used = "subslide", height
        elif cell.cell_type == "code" and len(cell.source.splitlines()) > LONG_CODE:
            kind = "notes"
        elif used + height > SCREEN:
            kind, used = "subslide", height
        else:
            kind, used = ("fragment" if cell.cell_type == "markdown" else "-"), used + height
        cell.metadata["slideshow"] = {"slide_type": kind}


def slides_only(path: Path) -> None:
    """Write the slide metadata into a built notebook without running it (outputs unchanged)."""
    target = OUT / (path.stem + ".ipynb")
    nb = nbformat.read(target, as_version=4)
    add_slide_metadata(nb)
    nbformat.write(nb, target)


def build(path: Path) -> float:
    nb = parse(path.read_text())
    os.environ["PYTHONHASHSEED"] = "0"
    start = time.perf_counter()
    # No widget state in the file: a reader without a kernel (GitHub, nbconvert) gets each
    # widget's static picture from its output bundle instead of an empty widget view.
    NotebookClient(nb, timeout=300, kernel_name="python3", store_widget_state=False,
                   resources={"metadata": {"path": str(OUT)}}).execute()
    for i, cell in enumerate(nb.cells):  # stable ids keep git diffs small
        cell["id"] = f"{path.stem[:2]}-{i:03d}"
    add_slide_metadata(nb)
    nbformat.write(nb, OUT / (path.stem + ".ipynb"))
    return time.perf_counter() - start


def main(argv: list[str]) -> int:
    sources = sorted(SRC.glob("*.py"))
    numbers = [a for a in argv if not a.startswith("--")]
    if numbers:
        sources = [p for p in sources if p.stem[:2] in numbers]
    for p in sources:
        if "--slides" in argv:
            slides_only(p)
            print(f"{p.stem}: slide metadata written", flush=True)
        else:
            print(f"{p.stem}: {build(p):.1f} s", flush=True)
    if "--slides" not in argv:
        # The instructor guide's agendas are computed from the notebooks' cells and timings.
        import agenda  # tools/agenda.py, next to this script

        print("docs/instructor.md agendas:", "updated" if agenda.write() else "current")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
