"""One look for every picture: fonts, sizes, colours, and PNG output that is byte-stable.

Drawings build a ``matplotlib.figure.Figure`` directly (not through pyplot), inside
``style()``, so they never depend on the learner's rcParams and never pile up in pyplot's
figure list. ``to_png`` renders with fixed DPI and no version metadata.
"""
from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator

import matplotlib
import matplotlib.colors
from matplotlib.figure import Figure

DPI = 100
# The smallest text any picture uses (points): 11 px at DPI 100, still 9 px when JupyterLab
# shrinks a figure up to 1190 px wide into a 968 px output area.
SMALL = 8.0

RC = {
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "legend.fontsize": 8,
    "figure.dpi": DPI,
    "savefig.dpi": DPI,
    "figure.facecolor": "white",
    "axes.facecolor": "white",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": False,
    "svg.hashsalt": "inplace-tutorial",
    "path.simplify": False,
}

MONO = "DejaVu Sans Mono"
# A monospace glyph is 0.6 em wide (0.63 once rendered at 100 dpi): lets layouts size
# boxes before anything is drawn. Slightly generous so text never touches a border.
MONO_EM = 0.64

# Okabe-Ito: readable for colour-blind learners and in greyscale print.
# (Its yellow is swapped for a brown: white or black text must stay readable on every fill.)
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#8C564B",
           "#555555"]
BAD = "#C0392B"  # stale saved tensor, error
GOOD = "#1E8449"
MUTED = "#7F8C8D"
CELL_EDGE = "#34495E"
CHANGED = "#FDEBD0"  # background of a cell whose value changed
NEW = "#D6EAF8"  # background of a storage that appeared since "before"

PHASE_COLOURS = {
    "forward": "#D6EAF8",
    "backward": "#FADBD8",
    "update": "#D5F5E3",
    "zero_grad": "#FCF3CF",
}


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def ink_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (relative luminance)."""
    r, g, b = matplotlib.colors.to_rgb(fill)
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else "white"


@contextlib.contextmanager
def style() -> Iterator[None]:
    """Our rcParams, for the duration of building one figure."""
    with matplotlib.rc_context(RC):
        yield


def new_figure(width: float, height: float) -> Figure:
    """A pyplot-free figure; call inside ``style()``."""
    return Figure(figsize=(width, height), dpi=DPI)


def to_png(fig: Figure) -> bytes:
    """Render a figure to PNG bytes, identical from run to run (no Software/version tag)."""
    buf = io.BytesIO()
    with style():
        fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def fmt_bytes(n: float) -> str:
    """1536 -> '1.5 KiB' (binary units, like torch.cuda.memory_summary)."""
    for unit in ("B", "KiB", "MiB"):
        if abs(n) < 1024 or unit == "MiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"  # pragma: no cover


def byte_unit(nbytes: float) -> tuple[str, float]:
    """Axis unit for the largest value, so ticks read 0, 50, 100 KiB rather than 48.8 KiB."""
    for unit, scale in (("MiB", 1024.0**2), ("KiB", 1024.0)):
        if nbytes >= 2 * scale:
            return unit, scale
    return "B", 1.0


def fmt_seconds(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.0f} µs"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


def text_width(chars: int, fontsize: float) -> float:
    """Width in inches of ``chars`` monospace characters."""
    return chars * fontsize * MONO_EM / 72
