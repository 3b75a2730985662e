"""What a figure shows, as plain data: the baseline format of tests/test_viz.py.

A pixel baseline breaks on every matplotlib minor release (anti-aliasing, text rendering) and on
every font-size change, although the picture still means the same. ``describe(fig)`` records what
a reader takes from it instead, read off the figure object:

* every axes: title, axis labels, explicitly set tick labels, legend entries, and whether the
  axis is drawn;
* every text, patch, arrow and line, in the order the drawing code created them (code order, so
  it does not depend on fonts or matplotlib), with its string and colours;
* where things are: on charts (axis drawn) the data coordinates of bars, bands, lines and value
  labels, which come from the data alone; on diagrams (axis off) the layout is computed from font
  sizes, so positions are recorded as relations instead: which box each text sits in, and which
  box each arrow leaves and enters.

Font sizes are deliberately not recorded: tests/test_widgets.py checks text sizes.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import matplotlib.colors as mcolors
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Annotation

SIG = 6  # significant digits kept for coordinates; comparison allows relative 1e-5


def _num(v: float) -> float:
    v = float(v)
    return 0.0 if v == 0 else float(f"{v:.{SIG}g}")


def _colour(c) -> str | None:
    if c is None or (isinstance(c, str) and c == "none"):
        return None
    rgba = mcolors.to_rgba(c)
    return None if rgba[3] == 0 else mcolors.to_hex(rgba, keep_alpha=rgba[3] < 1)


def _data_bbox(ax, artist, renderer) -> list[float]:
    ext = artist.get_window_extent(renderer)
    (x0, y0), (x1, y1) = ax.transData.inverted().transform([[ext.x0, ext.y0], [ext.x1, ext.y1]])
    return [_num(min(x0, x1)), _num(min(y0, y1)), _num(max(x0, x1)), _num(max(y0, y1))]


def _container(point_px, boxes_px, slack: float = 2.0) -> int | None:
    """Index of the smallest box containing a display point (within ``slack`` pixels)."""
    best, best_area = None, math.inf
    x, y = point_px
    for i, b in enumerate(boxes_px):
        if b.x0 - slack <= x <= b.x1 + slack and b.y0 - slack <= y <= b.y1 + slack:
            area = b.width * b.height
            if area < best_area:
                best, best_area = i, area
    return best


def _tick_labels(axis) -> list[str] | None:
    # Only labels the drawing set itself (FixedFormatter); automatic ticks are matplotlib's.
    if type(axis.get_major_formatter()).__name__ != "FixedFormatter":
        return None
    return [t.get_text() for t in axis.get_ticklabels()]


def _describe_axes(ax, renderer) -> dict:
    chart = ax.axison
    patches = [p for p in ax.patches if p.get_visible()]
    boxes_px = [p.get_window_extent(renderer) for p in patches]
    out: dict = {
        "axis_drawn": chart,
        "title": ax.get_title(),
        "xlabel": ax.get_xlabel(),
        "ylabel": ax.get_ylabel(),
    }
    if chart:
        out["xlim"] = [_num(v) for v in ax.get_xlim()]
        out["ylim"] = [_num(v) for v in ax.get_ylim()]
    for name, axis in (("xticklabels", ax.xaxis), ("yticklabels", ax.yaxis)):
        labels = _tick_labels(axis)
        if labels is not None:
            out[name] = labels
    legend = ax.get_legend()
    if legend is not None:
        out["legend"] = {"title": legend.get_title().get_text(),
                         "entries": [t.get_text() for t in legend.get_texts()]}

    out["patches"] = []
    for p in patches:
        item = {"kind": type(p).__name__, "face": _colour(p.get_facecolor()),
                "edge": _colour(p.get_edgecolor()) if p.get_linewidth() > 0 else None,
                "lw": _num(p.get_linewidth())}
        if chart:
            item["bbox"] = _data_bbox(ax, p, renderer)
        out["patches"].append(item)

    out["texts"], out["arrows"] = [], []
    for t in ax.texts:
        if not t.get_visible():
            continue
        if isinstance(t, Annotation) and t.arrow_patch is not None:
            start = ax.transData.transform(t.xyann) if t.anncoords == "data" else None
            end = ax.transData.transform(t.xy) if t.xycoords == "data" else None
            out["arrows"].append({
                "text": t.get_text(),
                "from": None if start is None else _container(start, boxes_px),
                "to": None if end is None else _container(end, boxes_px),
                "colour": _colour(t.arrow_patch.get_edgecolor()),
                "lw": _num(t.arrow_patch.get_linewidth()),
            })
            continue
        item = {"text": t.get_text(), "colour": _colour(t.get_color()),
                "bold": t.get_fontweight() in ("bold", 700, "heavy", "black"),
                "mono": "mono" in " ".join(t.get_fontfamily()).lower()}
        bbox_patch = t.get_bbox_patch()
        if bbox_patch is not None:
            item["box"] = {"face": _colour(bbox_patch.get_facecolor()),
                           "edge": _colour(bbox_patch.get_edgecolor())}
        if chart:
            if t.get_transform() is ax.transData:
                item["at"] = [_num(v) for v in t.get_position()]
        else:
            anchor = t.get_transform().transform(t.get_position())
            item["inside"] = _container(anchor, boxes_px)
        out["texts"].append(item)

    out["lines"] = [{"colour": _colour(ln.get_color()), "marker": str(ln.get_marker()),
                     "style": ln.get_linestyle(), "drawstyle": ln.get_drawstyle(),
                     "x": [_num(v) for v in ln.get_xdata()],
                     "y": [_num(v) for v in ln.get_ydata()]}
                    for ln in ax.lines if ln.get_visible()]
    out["collections"] = [type(c).__name__ for c in ax.collections if c.get_visible()]
    return out


def describe(fig: Figure) -> dict:
    """The figure's meaning as JSON-ready data (see the module docstring)."""
    canvas = FigureCanvasAgg(fig)  # figures built without pyplot have no renderer of their own
    canvas.draw()  # lays out text so window extents exist
    renderer = canvas.get_renderer()
    suptitle = fig._suptitle.get_text() if getattr(fig, "_suptitle", None) else ""
    return {"suptitle": suptitle,
            "axes": [_describe_axes(ax, renderer) for ax in fig.axes]}


def differences(expected, actual, path: str = "") -> list[str]:
    """Human-readable differences; numbers compare with a relative tolerance of 1e-5."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for k in sorted(set(expected) | set(actual)):
            if k not in actual:
                out.append(f"{path}.{k}: missing (expected {expected[k]!r})")
            elif k not in expected:
                out.append(f"{path}.{k}: unexpected {actual[k]!r}")
            else:
                out += differences(expected[k], actual[k], f"{path}.{k}")
        return out
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{path}: {len(actual)} items, expected {len(expected)}: {actual!r}"]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out += differences(e, a, f"{path}[{i}]")
        return out
    numeric = (int, float)
    if (isinstance(expected, numeric) and isinstance(actual, numeric)
            and not isinstance(expected, bool) and not isinstance(actual, bool)):
        if math.isclose(expected, actual, rel_tol=1e-5, abs_tol=1e-9):
            return []
    elif expected == actual:
        return []
    return [f"{path}: {actual!r}, expected {expected!r}"]


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def dump(scene: dict, path: Path) -> None:
    path.write_text(json.dumps(scene, indent=1, ensure_ascii=False) + "\n")
