"""Anomaly mode: remember *where* graph nodes and in-place ops came from.

PyTorch's detect_anomaly names the forward op whose backward failed. Ours also names
the user's line that created each node and every in-place op that bumped a version
since, so a version-counter error points at the culprit line, notebook cells included.
"""
from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

_state = {"enabled": False}
_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def is_anomaly_enabled() -> bool:
    return _state["enabled"]


def set_detect_anomaly(mode: bool, check_nan: bool = True) -> None:
    _state["enabled"] = bool(mode)


@contextlib.contextmanager
def detect_anomaly(check_nan: bool = True) -> Iterator[None]:
    old = _state["enabled"]
    _state["enabled"] = True
    try:
        yield
    finally:
        _state["enabled"] = old


def _cell_name(filename: str) -> str | None:
    """Map an IPython cell's temp file to 'Cell In[n]', which is stable across runs."""
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
    """'file:line: source' of the innermost frame outside this package."""
    f = sys._getframe(1)
    while f is not None and os.path.abspath(f.f_code.co_filename).startswith(_PKG_DIR):
        f = f.f_back
    if f is None:
        return "<unknown>"
    fname = f.f_code.co_filename
    where = _cell_name(fname) or os.path.basename(fname)
    src = ""
    try:
        import linecache

        src = linecache.getline(fname, f.f_lineno).strip()
    except Exception:
        pass
    return f"{where}, line {f.f_lineno}" + (f": `{src}`" if src else "")
