"""modes: the global switches every op reads: grad mode, inference mode, anomaly mode.

They sit below the tensor, as PyTorch keeps GradMode in c10 under at::Tensor, so that
tensor.py and autograd/ can both read them without importing each other. The context
managers that flip them (no_grad, inference_mode, detect_anomaly ...) live in
autograd/grad_mode.py and autograd/anomaly.py. ``user_location`` is what anomaly mode records.
"""
from __future__ import annotations

import linecache
import os
import sys

STATE = {"grad": True, "inference": False, "anomaly": False}
"""The switches themselves. Read ``STATE["grad"]`` on hot paths (a dict lookup, no call)."""

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))


def is_grad_enabled() -> bool:
    return STATE["grad"]


def is_inference_mode_enabled() -> bool:
    return STATE["inference"]


def is_anomaly_enabled() -> bool:
    return STATE["anomaly"]


def cell_name(filename: str) -> str | None:
    """Map an IPython cell's temp file to 'Cell In[n]', which is stable across runs (None for
    any other file). Anomaly mode and torch_inspect name notebook lines with it."""
    ip = sys.modules.get("IPython")
    if ip is None:
        return None
    try:
        shell = ip.get_ipython()
        n = shell.compile._filename_map.get(filename) if shell is not None else None
    except Exception:
        return None
    return f"Cell In[{n}]" if n is not None else None


def user_location() -> str:
    """'file, line n: `source`' of the innermost frame outside this package."""
    f = sys._getframe(1)
    while f is not None and os.path.abspath(f.f_code.co_filename).startswith(_PKG_DIR):
        f = f.f_back
    if f is None:
        return "<unknown>"
    fname = f.f_code.co_filename
    where = cell_name(fname) or os.path.basename(fname)
    src = ""
    try:
        src = linecache.getline(fname, f.f_lineno).strip()
    except Exception:
        pass
    return f"{where}, line {f.f_lineno}" + (f": `{src}`" if src else "")
