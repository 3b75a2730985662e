"""Work measured without a clock: how many lines of the package's Python a call runs.

A unit test must not assert on time (the machine is shared; a loaded CI runner made timed
asserts fail now and then). What those asserts guarded is Python work that grows with the
input, a loop per character or per element: such a loop runs at least one line per step,
whatever the machine's load, so counting lines catches it deterministically. The count
stops at ``cap`` (and tracing with it), so a regression fails without running the slow loop
under the tracer. Only lines of files in the package count: imports, the ``re`` cache and
the test's own objects do not move the number.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import inplace_tutorial as ipt

PKG = str(Path(ipt.__file__).parent)


class LineCounter:
    """A tracer counting "line" events in the package's frames, up to ``cap``."""

    def __init__(self, cap: int):
        self.cap, self.lines = cap, 0

    def __call__(self, frame, event, arg):
        if self.lines > self.cap:
            return None
        return self._local if frame.f_code.co_filename.startswith(PKG) else None

    def _local(self, frame, event, arg):
        if self.lines > self.cap:
            sys.settrace(None)  # over the cap: the rest runs untraced
            return None
        if event == "line":
            self.lines += 1
        return self._local


def package_lines(call: Callable, cap: int = 10**6):
    """``(result, lines)``: ``call()``'s result and the package lines it ran (``cap + 1``:
    more than ``cap``). Exceptions propagate, as without the counter."""
    counter = LineCounter(cap)
    previous = sys.gettrace()  # (a coverage tracer, for one)
    sys.settrace(counter)
    try:
        result = call()
    finally:
        sys.settrace(previous)
    return result, min(counter.lines, cap + 1)
