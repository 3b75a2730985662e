"""Anomaly mode: remember *where* graph nodes and in-place ops came from, and check for NaN.

PyTorch's detect_anomaly names the forward op whose backward failed, and (``check_nan``, on by
default) raises as soon as a backward function returns NaN. Ours also names the user's line
that created each node and every in-place op that bumped a version since, so a version-counter
error points at the culprit line, notebook cells included. The switch and ``user_location``
live in ``modes`` (below the tensor, which records bumps); like PyTorch's, the switch is one
for the whole process, not per thread.
"""
from __future__ import annotations

import functools

from ..modes import (
    STATE,
    cell_name,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    user_location,
)


def set_detect_anomaly(mode: bool, check_nan: bool = True) -> None:
    STATE.anomaly = bool(mode)
    STATE.check_nan = bool(check_nan)


class detect_anomaly:
    """Context manager (and decorator) that turns anomaly mode on, and puts back on exit what
    was there on entry (both the switch and ``check_nan``)."""

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan
        self.prev = STATE.anomaly
        self.prev_check_nan = STATE.check_nan

    def __enter__(self) -> None:
        set_detect_anomaly(True, self.check_nan)

    def __exit__(self, *exc) -> bool:
        set_detect_anomaly(self.prev, self.prev_check_nan)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with detect_anomaly(self.check_nan):
                return fn(*args, **kwargs)

        return wrapper


def nan_message(node_name: str, i: int) -> str:
    """PyTorch's text when a backward function returns NaN in anomaly mode (check_nan)."""
    return f"Function '{node_name}' returned nan values in its {i}th output."


__all__ = ["cell_name", "detect_anomaly", "is_anomaly_check_nan_enabled", "is_anomaly_enabled",
           "nan_message", "set_detect_anomaly", "user_location"]
