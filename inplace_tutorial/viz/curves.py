"""Memory curves: bytes measured at several sizes (sequence length, batch ...), one line per
variant, so growth rates can be compared by eye.

The numbers come from the caller's measurements (e.g. ``models.block_memory``); this module
only draws them, with each line's last value written at its end.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from matplotlib.figure import Figure

from . import style as st


def memory_curves(xs: Sequence[float], series: Mapping[str, Sequence[float]], *,
                  xlabel: str, title: str | None = None, log2_x: bool = True,
                  styles: Mapping[str, str] | None = None) -> Figure:
    """``series = {"variant": [bytes at xs[0], bytes at xs[1], ...], ...}`` as lines.

    ``styles`` may give a line style per name ("--" for a variant that lies on another).
    ``log2_x`` spaces doubling sizes evenly (ticks are the sizes themselves).
    """
    if not series:
        raise ValueError("memory_curves() needs at least one series")
    for name, ys in series.items():
        if len(ys) != len(xs):
            raise ValueError(f"series {name!r} has {len(ys)} values for {len(xs)} sizes")
    unit, scale = st.byte_unit(max(max(ys) for ys in series.values()))
    with st.style():
        fig = st.new_figure(7.0, 3.6)
        ax = fig.add_subplot()
        for i, (name, ys) in enumerate(series.items()):
            style = (styles or {}).get(name, "-")
            ax.plot(xs, [y / scale for y in ys], style, marker="o", markersize=3.5,
                    color=st.colour(i), label=name, linewidth=1.6)
            ax.annotate(st.fmt_bytes(ys[-1]), (xs[-1], ys[-1] / scale), xytext=(6, 0),
                        textcoords="offset points", va="center", fontsize=st.SMALL,
                        color=st.colour(i))
        if log2_x:
            ax.set_xscale("log", base=2)
        ax.set_xticks(list(xs), [f"{x:g}" for x in xs])
        ax.minorticks_off()
        ax.set_xlim(xs[0] / 1.15 if log2_x else xs[0], xs[-1] * (1.6 if log2_x else 1.15))
        ax.set_ylim(0, None)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(f"bytes ({unit})")
        ax.legend(loc="upper left", frameon=False)
        if title:
            ax.set_title(title, loc="left", fontsize=10, weight="bold")
        fig.tight_layout()
    return fig


__all__ = ["memory_curves"]
