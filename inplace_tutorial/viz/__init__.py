"""ipt.viz: matplotlib pictures of storages, autograd graphs and memory over time.

Every function returns a ``Figure`` and never calls ``plt.show()``; pictures are
deterministic (fixed fonts, sizes, per-drawing storage names S0, S1 ...). The core never
imports this package; widgets build on it.
"""
from __future__ import annotations

import matplotlib

from .compare import compare_bars
from .curves import memory_curves
from .graph import graph_diagram
from .lines import line_chart
from .precision import bit_fields, float_formats
from .storage import Snapshot, compare_storages, snapshot, storage_diagram
from .style import RC, fmt_bytes, fmt_seconds, to_png
from .timeline import memory_timeline, peak_report

__all__ = ["RC", "Snapshot", "bit_fields", "compare_bars", "compare_storages", "float_formats",
           "fmt_bytes", "fmt_seconds", "graph_diagram", "line_chart", "memory_curves",
           "memory_timeline", "peak_report", "setup_notebook", "snapshot", "storage_diagram",
           "to_png"]

# Figures inline in a notebook: tight crop, and no matplotlib version in the PNG so
# committed outputs don't churn on every upgrade.
_INLINE_KWARGS = {"bbox_inches": "tight", "metadata": {"Software": None}}


def setup_notebook() -> None:
    """Call from a notebook's first cell: our matplotlib style plus stable inline PNGs.

    Returns None so the setup cell prints nothing (nbval compares cell output).
    """
    ip = None
    try:
        from IPython import get_ipython

        ip = get_ipython()
    except ImportError:
        pass
    if ip is not None:
        ip.run_line_magic("config", f"InlineBackend.print_figure_kwargs = {_INLINE_KWARGS!r}")
        if getattr(ip, "kernel", None) is not None:
            ip.run_line_magic("matplotlib", "inline")
    # After %matplotlib inline, which may apply its own rc settings.
    matplotlib.rcParams.update(RC)
