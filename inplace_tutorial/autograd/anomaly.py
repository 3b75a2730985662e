"""Anomaly mode: remember *where* graph nodes and in-place ops came from.

PyTorch's detect_anomaly names the forward op whose backward failed. Ours also names
the user's line that created each node and every in-place op that bumped a version
since, so a version-counter error points at the culprit line, notebook cells included.
The switch and ``user_location`` live in ``modes`` (below the tensor, which records bumps).
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ..modes import STATE, cell_name, is_anomaly_enabled, user_location


def set_detect_anomaly(mode: bool, check_nan: bool = True) -> None:
    STATE["anomaly"] = bool(mode)


@contextlib.contextmanager
def detect_anomaly(check_nan: bool = True) -> Iterator[None]:
    old = STATE["anomaly"]
    STATE["anomaly"] = True
    try:
        yield
    finally:
        STATE["anomaly"] = old


__all__ = ["cell_name", "detect_anomaly", "is_anomaly_enabled", "set_detect_anomaly",
           "user_location"]
