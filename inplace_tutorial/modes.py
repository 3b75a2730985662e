"""modes: the switches every op reads: grad mode, inference mode, anomaly mode.

They sit below the tensor, as PyTorch keeps GradMode in c10 under at::Tensor, so that
tensor.py and autograd/ can both read them without importing each other. The context
managers that flip them (no_grad, inference_mode, detect_anomaly ...) live in
autograd/grad_mode.py and autograd/anomaly.py. ``user_location`` is what anomaly mode records.

Grad mode and inference mode are per thread, as in PyTorch (c10's thread-local AutogradState):
a ``no_grad`` block in one thread leaves every other thread alone, and every new thread starts
with grad enabled and inference mode off, whatever the thread that started it had. Anomaly
mode is one switch for the whole process, as PyTorch's AnomalyMode is (a static flag).
"""
from __future__ import annotations

import linecache
import os
import sys
import threading

_ANOMALY = {"enabled": False, "check_nan": True}  # process-wide, like PyTorch's AnomalyMode


class _State(threading.local):
    """The switches. ``STATE.grad`` reads this thread's value (an attribute of a thread-local:
    the fastest read, used on hot paths); ``STATE["grad"]`` works too, a little slower.
    ``STATE.anomaly`` / ``STATE.check_nan`` read the process-wide ones."""

    def __init__(self):  # runs once in each thread that touches STATE: PyTorch's defaults
        self.grad_mode = True  # what is_grad_enabled() answers
        self.inference = False
        self.grad = True  # whether ops record a graph: grad mode on and inference mode off

    anomaly = property(lambda self: _ANOMALY["enabled"],
                       lambda self, v: _ANOMALY.__setitem__("enabled", v))
    check_nan = property(lambda self: _ANOMALY["check_nan"],
                         lambda self, v: _ANOMALY.__setitem__("check_nan", v))

    __getitem__ = threading.local.__getattribute__


STATE = _State()
"""The switches themselves. Read ``STATE.grad`` on hot paths; set them with ``set_modes``."""


def set_modes(grad_mode: bool, inference: bool) -> None:
    """Set this thread's grad mode and inference mode. Inside inference mode no op records a
    graph even with grad mode on (``enable_grad`` inside ``inference_mode``), as in PyTorch,
    where inference mode removes autograd from dispatch; ``STATE.grad`` folds the two."""
    STATE.grad_mode = grad_mode
    STATE.inference = inference
    STATE.grad = grad_mode and not inference

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))


def is_grad_enabled() -> bool:
    return STATE.grad_mode


def is_inference_mode_enabled() -> bool:
    return STATE.inference


def is_anomaly_enabled() -> bool:
    return _ANOMALY["enabled"]


def is_anomaly_check_nan_enabled() -> bool:
    return _ANOMALY["check_nan"]


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
