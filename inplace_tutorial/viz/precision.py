"""Pictures for mixed precision and for anything that grows step by step.

``float_formats`` draws the bit fields of floating dtypes (sign, exponent, mantissa), sized
by their bit counts and labelled with the range and precision that follow from them; every
number comes from ``ipt.finfo``. ``line_chart`` plots a few series against a step count (a
running sum per dtype, a loss scale over training, bytes per generated token), with optional
marked points and a byte-formatted axis.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from .. import dtypes
from . import _style as st

_FIELDS = (("sign", "#555555"), ("exponent", st.PALETTE[0]), ("mantissa", st.PALETTE[1]))


def bit_fields(dtype) -> tuple[int, int, int]:
    """(sign, exponent, mantissa) bits of a floating dtype, read off its finfo.

    The mantissa stores ``-log2(eps)`` bits (eps is the gap after 1.0); the exponent gets
    the rest after the sign bit.
    """
    info = dtypes.finfo(dtype)
    mantissa = round(-math.log2(info.eps))
    return 1, info.bits - 1 - mantissa, mantissa


def _number(v: float) -> str:
    return f"{v:,.0f}" if v < 1e6 else f"{v:.3g}"


def float_formats(formats: Sequence = (dtypes.float32, dtypes.float16, dtypes.bfloat16), *,
                  title: str | None = None) -> Figure:
    """One row per dtype: its bit fields to scale, then its largest value and its eps."""
    with st.style():
        fig = st.new_figure(9.0, 0.75 + 0.62 * len(formats))
        ax = fig.add_axes((0.0, 0.0, 1.0, 0.84 if title else 0.97))
        widest = max(dtypes.finfo(d).bits for d in formats)
        unit = 4.6 / widest  # inches per bit: the widest format fills 4.6 in
        for row, d in enumerate(formats):
            y = -row
            info = dtypes.finfo(d)
            ax.text(1.35, y, d.name, ha="right", va="center", family=st.MONO, fontsize=9)
            x = 1.5
            for (field, fill), bits in zip(_FIELDS, bit_fields(d), strict=True):
                w = bits * unit
                ax.add_patch(Rectangle((x, y - 0.25), w, 0.5, fc=fill, ec="white", lw=1.5))
                ax.text(x + w / 2, y, f"{bits}" if bits < 4 else f"{field} {bits}",
                        ha="center", va="center", fontsize=st.SMALL, color=st.ink_on(fill))
                x += w
            ax.text(1.5 + widest * unit + 0.15, y,
                    f"{info.bits // 8} B   max {_number(info.max)}   eps {info.eps:.3g}",
                    ha="left", va="center", family=st.MONO, fontsize=st.SMALL)
        ax.set_xlim(0, 9.0)
        ax.set_ylim(-len(formats) + 0.45, 0.55)
        ax.axis("off")
        if title:
            fig.suptitle(title, fontsize=10, weight="bold", x=0.01, ha="left")
    return fig


_LINE_STYLES = ("-", "--", ":", "-.")


def _byte_unit(nbytes: float) -> tuple[str, float]:
    for unit, scale in (("MiB", 1024.0**2), ("KiB", 1024.0)):
        if nbytes >= 2 * scale:
            return unit, scale
    return "B", 1.0


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
        unit, scale = _byte_unit(max((max(ys) for ys in series.values() if len(ys)), default=0))
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


__all__ = ["bit_fields", "float_formats", "line_chart"]
