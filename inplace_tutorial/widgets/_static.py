"""What a widget looks like without a kernel: a static PNG and a one-line text.

A widget's output bundle holds the live view (``application/vnd.jupyter.widget-view+json``).
JupyterLab shows it while the kernel runs; GitHub, nbconvert's HTML and an unrun or untrusted
notebook cannot, and fall back to the next type they can show. ``mimebundle`` puts a picture of
the widget's current state (its controls, text lines and picture) and a readable ``text/plain``
beside the view, so every reader sees the widget, not ``HBox(children=(Button(...``.

``css`` holds the inline styles the widgets' HTML uses: JupyterLab's theme variables (with
light-theme fallbacks), so text keeps its contrast in the dark theme. Status colour is a bar
beside the text, never the text's own colour.
"""
from __future__ import annotations

import base64
import io

import matplotlib.image as mpimg
from matplotlib.patches import FancyBboxPatch

from ..viz import style as st

VIEW = "application/vnd.jupyter.widget-view+json"
FS = 9.0  # points; 12.5 px at the figure's 100 dpi

# Inline CSS with JupyterLab theme variables (fallbacks: the light theme).
TEXT = "color: var(--jp-ui-font-color1, rgba(0,0,0,.87))"
MUTED = "color: var(--jp-ui-font-color2, rgba(0,0,0,.54))"
BORDER = "var(--jp-border-color2, #e0e0e0)"
GOOD_BAR = "var(--jp-success-color1, #388e3c)"
BAD_BAR = "var(--jp-error-color1, #d32f2f)"
INFO_BAR = "var(--jp-brand-color1, #1976d2)"


def status_line(text_html: str, kind: str = "info") -> str:
    """Text in the theme's main colour with a coloured bar on its left (ok, error, info)."""
    bar = {"ok": GOOD_BAR, "error": BAD_BAR}.get(kind, INFO_BAR)
    return (f"<div style='{TEXT}; border-left: 4px solid {bar}; padding: 1px 0 1px 8px; "
            f"white-space: normal; overflow-wrap: break-word; line-height: 1.45'>"
            f"{text_html}</div>")


def table(headers: list[str], rows: list[list[str]], marks: list[str] | None = None) -> str:
    """An HTML table with aligned, padded cells; ``marks[i]`` = "bad" gives row i a red bar."""
    cell = f"padding: 2px 10px 2px 6px; border-bottom: 1px solid {BORDER}; line-height: 1.4; {TEXT}"
    head = "".join(f"<th style='{cell}; text-align: left; white-space: nowrap'>{h}</th>"
                   for h in headers)
    body = []
    for i, row in enumerate(rows):
        bar = BAD_BAR if marks and marks[i] == "bad" else "transparent"
        tds = "".join(f"<td style='{cell}; text-align: left'>{c}</td>" for c in row)
        body.append(f"<tr style='border-left: 4px solid {bar}'>{tds}</tr>")
    return (f"<table style='border-collapse: collapse; margin: 4px 0'><thead><tr>{head}</tr>"
            f"</thead><tbody>{''.join(body)}</tbody></table>")


def card(controls: list[str], lines: list[str], picture: bytes | None = None,
         min_width_px: int = 0) -> bytes:
    """PNG: a row of control boxes (button/field labels), text lines, then ``picture``.

    The picture is pasted at its own pixel size (``figimage``), so it stays sharp.
    """
    img = mpimg.imread(io.BytesIO(picture), format="png") if picture else None
    pic_h, pic_w = (img.shape[0], img.shape[1]) if img is not None else (0, 0)
    char_w = st.text_width(1, FS) * st.DPI  # px per monospace character
    box_w = [len(c) * char_w + 16 for c in controls]
    rows_px = [0.0]  # wrap the controls like the live widget does, at 960 px
    for w in box_w:
        if rows_px[-1] and rows_px[-1] + w + 6 > 960:
            rows_px.append(0.0)
        rows_px[-1] += w + 6
    line_px = FS * st.DPI / 72 * 1.5
    head_px = 8 + len(rows_px) * 28 * bool(controls) + len(lines) * line_px + 6
    width = max(pic_w + 16, max(rows_px) + 16, min_width_px,
                max((len(s) for s in lines), default=0) * char_w + 24)
    height = head_px + pic_h + 8
    with st.style():
        fig = st.new_figure(width / st.DPI, height / st.DPI)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, width)
        ax.set_ylim(height, 0)
        ax.axis("off")
        x, y = 8.0, 8.0
        for label, w in zip(controls, box_w, strict=True):
            if x > 8 and x + w > width - 8:
                x, y = 8.0, y + 28
            ax.add_patch(FancyBboxPatch((x, y), w, 22, boxstyle="round,pad=0,rounding_size=3",
                                        fc="#EEEEEE", ec="#BDBDBD", lw=1))
            ax.text(x + w / 2, y + 11, label, ha="center", va="center", fontsize=FS,
                    family=st.MONO, color="black")
            x += w + 6
        y = y + 28 if controls else y
        for line in lines:
            ax.text(8, y + line_px / 2, line, va="center", fontsize=FS, family=st.MONO,
                    color="black")
            y += line_px
        if img is not None:
            # figimage counts pixels from the bottom-left corner.
            fig.figimage(img, xo=8, yo=8, origin="upper", zorder=3)
        return st.to_png(fig)


def mimebundle(view: dict, plain: str, png: bytes) -> dict:
    """The widget's own bundle plus a static picture and a readable text/plain."""
    data = dict(view)
    data["text/plain"] = plain
    data["image/png"] = base64.b64encode(png).decode("ascii")
    return data
