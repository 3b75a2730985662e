"""Comparison bars: memory and time of alternative ways to compute the same thing.

The numbers come from the caller's measurements (``ipt.memory`` peaks, ``time.perf_counter``);
this module only draws them, the best of each column in green.
"""
from __future__ import annotations

from collections.abc import Mapping

from matplotlib.figure import Figure

from . import style as st


def compare_bars(results: Mapping[str, tuple[float, float]], *, title: str | None = None,
                 memory_label: str = "peak extra memory",
                 time_label: str = "time per call") -> Figure:
    """``{"addbmm_": (bytes, seconds), "bmm+sum+add": (...), ...}`` as two bar charts."""
    if not results:
        raise ValueError("compare_bars() needs at least one result")
    names = list(results)
    mem = [float(results[n][0]) for n in names]
    sec = [float(results[n][1]) for n in names]
    with st.style():
        fig = st.new_figure(8.0, 0.9 + 0.42 * len(names))
        axes = fig.subplots(1, 2, sharey=True)
        for ax, values, label, fmt in ((axes[0], mem, memory_label, st.fmt_bytes),
                                       (axes[1], sec, time_label, st.fmt_seconds)):
            best = min(values)
            colours = [st.GOOD if v == best else st.PALETTE[0] for v in values]
            ys = list(range(len(names)))
            ax.barh(ys, values, color=colours, height=0.6)
            hi = max(values) or 1.0
            ax.set_xlim(0, hi * 1.45)  # room for the value labels right of the bars
            for y, v in zip(ys, values, strict=True):
                ax.text(v + hi * 0.02, y, fmt(v), va="center", fontsize=8,
                        color=st.GOOD if v == best else "black",
                        weight="bold" if v == best else "normal")
            ax.set_title(label, fontsize=9)
            ax.set_xticks([])
            ax.spines["bottom"].set_visible(False)
        axes[0].set_yticks(range(len(names)), names, family=st.MONO)
        axes[0].invert_yaxis()
        if title:
            fig.suptitle(title, fontsize=10, weight="bold", x=0.01, ha="left")
        fig.tight_layout()
    return fig
