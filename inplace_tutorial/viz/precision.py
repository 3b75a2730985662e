"""Floating formats as pictures: what float32, float16 and bfloat16 spend their bits on.

``float_formats`` draws the bit fields of floating dtypes (sign, exponent, mantissa), sized
by their bit counts and labelled with the range and precision that follow from them; every
number comes from ``ipt.finfo``. (Series over steps, such as a running sum per dtype, are
``lines.line_chart``.)
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from .. import dtypes
from . import style as st

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


__all__ = ["bit_fields", "float_formats"]
