"""Line charts of quantities that change step by step: a running sum per dtype, a loss scale
over training, bytes allocated per generated token.

``line_chart`` plots a few named series against a shared x, with optional marked points
(skipped steps), a log2 axis, step drawing for settings that change at discrete steps, and
bytes shown in the unit that fits (B, KiB, MiB).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from matplotlib.figure import Figure

from . import style as st

_LINE_STYLES = ("-", "--", ":", "-.")


def line_chart(series: Mapping[str, Sequence[float]], *, x: Sequence[float] | None = None,
               xlabel: str = "step", ylabel: str = "", title: str | None = None,
               bytes_axis: bool = False, logy: bool = False, steps: bool = False,
               marks: Mapping[str, Sequence[tuple[float, float]]] | None = None) -> Figure:
    """``{"float32": [...], "float16": [...]}`` as lines over ``x`` (default 0, 1, 2 ...).

    ``marks`` adds labelled points (e.g. ``{"step skipped": [(12, 65536.0)]}``), drawn as
    crosses in the error colour; ``bytes_axis`` plots bytes in B, KiB or MiB (whichever fits
    the largest value) and names the unit in the y label; ``steps``
    draws each value as held until the next x (a setting that changes at discrete steps).
    """
    if not series:
        raise ValueError("line_chart() needs at least one series")
    unit, scale = "", 1.0
    if bytes_axis:  # ticks at round numbers of the unit that fits the largest value
        unit, scale = st.byte_unit(max((max(ys) for ys in series.values() if len(ys)), default=0))
    with st.style():
        fig = st.new_figure(7.0, 3.3)
        ax = fig.add_subplot()
        for i, (name, ys) in enumerate(series.items()):
            xs = list(range(len(ys))) if x is None else list(x)
            # a line style per series too: series that coincide stay visible, also in greyscale
            ax.plot(xs, [v / scale for v in ys], color=st.colour(i), lw=1.8, label=name,
                    ls=_LINE_STYLES[i % len(_LINE_STYLES)],
                    drawstyle="steps-post" if steps else "default")
        for name, points in (marks or {}).items():
            ax.plot([p[0] for p in points], [p[1] / scale for p in points], "x", color=st.BAD,
                    ms=8, mew=2, label=name, zorder=4)
        if logy:
            ax.set_yscale("log", base=2)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(f"{ylabel} ({unit})" if unit else ylabel)
        if len(series) > 1 or marks:
            ax.legend(frameon=False)
        if title:
            ax.set_title(title, loc="left", weight="bold")
        fig.tight_layout()
    return fig


__all__ = ["line_chart"]
