"""Build the course notebooks from their sources and execute them, storing the outputs.

Sources are plain Python in ``notebooks/src/NN_name.py`` ("percent" format: a line
``# %%`` starts a code cell, ``# %% [markdown]`` a markdown cell whose lines start with
``# ``). Cell tags go on the header, jupytext-style: ``# %% tags=["nbval-ignore-output"]``
marks a cell for nbval in its metadata, so the learner's code holds only the lesson.
Each notebook is executed top to bottom in a fresh kernel with PYTHONHASHSEED=0,
from the notebooks/ folder, exactly as nbval will re-run it; the outputs are committed.

    python tools/build_notebooks.py            # all
    python tools/build_notebooks.py 03 05      # only these numbers
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
    nbformat.write(nb, OUT / (path.stem + ".ipynb"))
    return time.perf_counter() - start


def main(argv: list[str]) -> int:
    sources = sorted(SRC.glob("*.py"))
    if argv:
        sources = [p for p in sources if p.stem[:2] in argv]
    for p in sources:
        print(f"{p.stem}: {build(p):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
