"""TORCH_WARN_ONCE: a warning PyTorch gives at most once a process, at the first call that
meets it; later calls stay silent, whatever the warnings filters say. PyTorch keeps one static
flag per warning (per place in its C++ that warns); here a warning's text stands for its
place (or, for a warning whose text varies, a name given to its one flag), and one set
remembers the flags this process has raised. Nothing resets it, as nothing
resets PyTorch's flags, so tests of these warnings run in fresh processes.

A warning from PyTorch's C++ names the Python line that called into it. Here the calls of the
package (a method's binding, the function parser, record_inplace's checks) lie in between, and
how many depends on the path taken, so the warning names the first frame outside the package:
the learner's line.
"""
from __future__ import annotations

import os
import sys
import warnings

_GIVEN: set[str] = set()  # the flags (texts, or names) this process has warned with
_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn_once(text: str, flag: str | None = None) -> None:
    """A UserWarning with ``text``, the first time its flag (``flag``, else the text itself)
    comes in the process; nothing after."""
    flag = text if flag is None else flag
    if flag in _GIVEN:
        return
    _GIVEN.add(flag)
    frame, level = sys._getframe(1), 2  # our caller is stacklevel 2 of warnings.warn here
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    warnings.warn(text, UserWarning, stacklevel=level)
