"""`jupyter nbconvert --to slides` makes a usable deck of the lessons an instructor presents:
every cell carries the slide metadata tools/build_notebooks.py writes, and the deck has slides."""
from __future__ import annotations

import importlib.util
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
DECKS = ["01_what_inplace_means", "06_autograd_hazards", "10_workshop_lab"]


def _builder():
    spec = importlib.util.spec_from_file_location("ipt_build_notebooks",
                                                  ROOT / "tools" / "build_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Sections(HTMLParser):
    """Counts reveal.js slides (top-level <section>) and sub-slides (nested ones)."""

    def __init__(self):
        super().__init__()
        self.depth, self.slides, self.subslides = 0, 0, 0

    def handle_starttag(self, tag, attrs):
        if tag == "section":
            self.depth += 1
            if self.depth == 1:
                self.slides += 1
            elif self.depth == 2:
                self.subslides += 1

    def handle_endtag(self, tag):
        if tag == "section":
            self.depth -= 1


@pytest.mark.parametrize("name", DECKS, ids=[n[:2] for n in DECKS])
def test_slides_deck_has_slides_and_current_metadata(name):
    from nbconvert import SlidesExporter

    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    stored = [c.metadata.get("slideshow", {}).get("slide_type") for c in nb.cells]
    _builder().add_slide_metadata(nb)
    assert stored == [c.metadata["slideshow"]["slide_type"] for c in nb.cells], \
        f"{name}: slide metadata out of date (tools/build_notebooks.py --slides {name[:2]})"
    assert stored[0] == "slide"
    body, _ = SlidesExporter().from_notebook_node(nb)
    sections = _Sections()
    sections.feed(body[body.index('<div class="slides">'):])
    headings = sum(1 for c in nb.cells if c.cell_type == "markdown"
                   and c.source.startswith(("# ", "## ")))
    assert sections.slides == headings > 5, (name, sections.slides, headings)
    assert sections.subslides > sections.slides  # long sections are split, not one tall page
